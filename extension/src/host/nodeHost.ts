// The Node.js implementation of the core's I/O bridge (`secretary_core::host::Host`).
import * as fs from 'fs';
import * as path from 'path';

import { writeFileAtomic } from './atomicWrite';
import { readBounded } from './boundedRead';
import { HostError, type AreaName, type HostBridge } from './bridge';
import { gitStatusCli } from './gitStatus';
import { LockFiles } from './lockFile';
import { checkRelative, describeArea, isInside, isMissing, refuseReadOnly } from './paths';

/** A root: a folder, or a function giving the current one (the open workspace folder may change). */
export type Root = string | undefined | (() => string | undefined);

export interface NodeHostOptions {
  roots: Partial<Record<AreaName, Root>>;
  /** Setting lookup (VS Code: `workspace.getConfiguration().get`). */
  settings?: (key: string) => unknown;
  /** `list` stops after this many files (default 5,000). */
  maxListEntries?: number;
  /** `read` refuses files larger than this (default 8 MiB). */
  maxReadBytes?: number;
  /**
   * The git status of a folder of the workspace (absolute path) from an editor's Git API, as
   * porcelain v1 `-z` bytes; `undefined` falls back to the git CLI (`gitStatusCli`).
   */
  gitStatus?: (dir: string) => Uint8Array | undefined;
  /** Whether git may run here (VS Code: `workspace.isTrusted`); `false` refuses `gitStatus`. Default: yes. */
  gitAllowed?: () => boolean;
  /** How long `lock` waits for another process (default `LOCK_WAIT_MS`, 10 s). */
  lockWaitMs?: number;
  /** Tests only: called between writing the temporary file and renaming it. */
  beforeRename?: (tempPath: string, target: string) => void;
}

/**
 * The names of the state areas (flags, memory notes: files the Secretary itself creates) in one
 * Unicode spelling, NFC: `한` written composed or as its three jamo is one note, not two that look
 * alike (and collide on macOS; issue 27). A file written before, in another spelling, is still read
 * by its own name until it is written again.
 */
function oneSpelling(area: AreaName, root: string, segments: string[], forWrite: boolean): string[] {
  if (area !== 'globalState' && area !== 'workspaceState') {
    return segments;
  }
  const nfc = segments.map((segment) => segment.normalize('NFC'));
  if (forWrite || nfc.every((segment, i) => segment === segments[i])) {
    return nfc;
  }
  return fs.existsSync(path.join(root, ...nfc)) || !fs.existsSync(path.join(root, ...segments)) ? nfc : segments;
}

/** Folders a recursive `list` never enters. */
const SKIPPED_DIRS = new Set(['.git', 'node_modules']);
const MAX_DEPTH = 24;

/**
 * The Node.js bridge (synchronous `fs`), shared by the extension, the CLI and the MCP server.
 *
 * Paths are resolved strictly inside the area's root, as a second line of defence after the core's
 * own checks: relative `/`-separated paths only (no `..`, `.`, empty segments, absolute paths, drive
 * letters, backslashes or NUL), and the real path of the deepest existing part must stay inside the
 * real root, so a symlink cannot lead out. Writes are atomic: a temporary file in the same folder is
 * written, flushed (`fsync`) and renamed over the target, so a crash leaves the old file or the new one.
 */
export class NodeHost implements HostBridge {
  private readonly maxListEntries: number;
  private readonly maxReadBytes: number;
  private readonly locks: LockFiles;

  constructor(private readonly options: NodeHostOptions) {
    this.maxListEntries = options.maxListEntries ?? 5000;
    this.maxReadBytes = options.maxReadBytes ?? 8 * 1024 * 1024;
    this.locks = new LockFiles(options.lockWaitMs);
  }

  /** The folder of an area now, `undefined` when this host has none. */
  rootOf(area: AreaName): string | undefined {
    const root = this.options.roots[area];
    const value = typeof root === 'function' ? root() : root;
    return value ? path.resolve(value) : undefined;
  }

  read(area: AreaName, rel: string): Uint8Array | null {
    const target = this.resolve(area, rel, false);
    if (target === undefined) {
      return null;
    }
    try {
      // The path is real up to its last part (`resolve`): a link swapped in since is refused.
      return readBounded(target, { maxBytes: this.maxReadBytes, noFollow: true, name: `${area}/${rel}` });
    } catch (err) {
      if (isMissing(err)) {
        return null;
      }
      throw err;
    }
  }

  writeAtomic(area: AreaName, rel: string, bytes: Uint8Array): void {
    refuseReadOnly(area, rel);
    const target = this.resolve(area, rel, true) as string;
    writeFileAtomic(target, bytes, this.options.beforeRename);
  }

  /** The lock file `<path>.lock` beside the file or folder (see `lockFile.ts`). */
  lock(area: AreaName, rel: string): void {
    refuseReadOnly(area, rel);
    const target = this.resolve(area, rel, true) as string;
    this.locks.acquire(`${target}.lock`, `${area}/${rel}`);
  }

  unlock(area: AreaName, rel: string): void {
    const target = this.resolve(area, rel, false);
    if (target !== undefined) {
      this.locks.release(`${target}.lock`);
    }
  }

  remove(area: AreaName, rel: string): boolean {
    refuseReadOnly(area, rel);
    const target = this.resolve(area, rel, false);
    if (target === undefined) {
      return false;
    }
    try {
      if (fs.lstatSync(target).isDirectory()) {
        throw new Error(`${area}/${rel} is a folder`);
      }
      fs.unlinkSync(target);
      return true;
    } catch (err) {
      if (isMissing(err)) {
        return false;
      }
      throw err;
    }
  }

  list(area: AreaName, dir: string, recursive: boolean): string[] {
    const base = this.resolve(area, dir, false, true);
    if (base === undefined) {
      return [];
    }
    const realRoot = this.realRoot(area);
    const out: string[] = [];
    const walk = (abs: string, prefix: string, depth: number): void => {
      let entries: fs.Dirent[];
      try {
        entries = fs.readdirSync(abs, { withFileTypes: true });
      } catch {
        return;
      }
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const entry of entries) {
        if (out.length >= this.maxListEntries) {
          return;
        }
        const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
        const full = path.join(abs, entry.name);
        if (entry.isSymbolicLink()) {
          // Symlinked files count when they stay inside the area; symlinked folders are not followed.
          try {
            const real = fs.realpathSync(full);
            if (realRoot && isInside(realRoot, real) && fs.statSync(real).isFile()) {
              out.push(rel);
            }
          } catch {
            // A dangling link.
          }
        } else if (entry.isFile()) {
          out.push(rel);
        } else if (entry.isDirectory() && recursive && depth < MAX_DEPTH && !SKIPPED_DIRS.has(entry.name)) {
          walk(full, rel, depth + 1);
        }
      }
    };
    walk(base, '', 0);
    return out;
  }

  /**
   * The names of the folders directly under `dir`, sorted; linked folders count when their real path
   * stays inside the area (pnpm's `node_modules/<name>` links into `node_modules/.pnpm`).
   */
  listDirs(area: AreaName, dir: string): string[] {
    const base = this.resolve(area, dir, false, true);
    if (base === undefined) {
      return [];
    }
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(base, { withFileTypes: true });
    } catch {
      return [];
    }
    const realRoot = this.realRoot(area);
    const out: string[] = [];
    for (const entry of entries) {
      if (out.length >= this.maxListEntries) {
        break;
      }
      if (entry.isDirectory()) {
        out.push(entry.name);
      } else if (entry.isSymbolicLink()) {
        try {
          const real = fs.realpathSync(path.join(base, entry.name));
          if (realRoot && isInside(realRoot, real) && fs.statSync(real).isDirectory()) {
            out.push(entry.name);
          }
        } catch {
          // A dangling link.
        }
      }
    }
    return out.sort();
  }

  setting(key: string): unknown {
    return this.options.settings?.(key);
  }

  /**
   * `git status --porcelain=v1 -z --untracked-files=all` of the folder `rel` of the workspace ('' for
   * the workspace folder), resolved strictly inside it like any other path. The core parses it.
   */
  gitStatus(rel: string): Uint8Array {
    if (this.options.gitAllowed && !this.options.gitAllowed()) {
      throw new Error(
        'Git status is not read in an untrusted workspace (Restricted Mode): git could run commands the repository configures. Trust the workspace to use get_changed_files.',
      );
    }
    const dir = this.resolve('workspace', rel, false, true);
    let isDir: boolean;
    try {
      isDir = dir !== undefined && fs.statSync(dir).isDirectory();
    } catch {
      isDir = false;
    }
    if (!dir || !isDir) {
      throw new Error(`${JSON.stringify(rel || '.')} is not a folder of the workspace`);
    }
    return this.options.gitStatus?.(dir) ?? gitStatusCli(dir);
  }

  stat(area: AreaName, rel: string): { size: number; mtimeMs: number } | null {
    const target = this.resolve(area, rel, false);
    if (target === undefined) {
      return null;
    }
    try {
      const stat = fs.statSync(target);
      return stat.isFile() ? { size: stat.size, mtimeMs: Math.round(stat.mtimeMs) } : null;
    } catch (err) {
      if (isMissing(err)) {
        return null;
      }
      throw err;
    }
  }

  /** The real path of an area's root (`undefined` when it does not exist yet). */
  private realRoot(area: AreaName): string | undefined {
    const root = this.rootOf(area);
    if (!root) {
      return undefined;
    }
    try {
      return fs.realpathSync(root);
    } catch {
      return undefined;
    }
  }

  /**
   * The absolute path of `rel` inside `area`, or `undefined` when the root does not exist yet
   * (nothing to read or list). For writes the root is created. Throws `SECRETARY_PATH_REFUSED` for
   * anything that could leave the root.
   */
  private resolve(area: AreaName, rel: string, forWrite: boolean, allowRoot = false): string | undefined {
    const root = this.rootOf(area);
    if (!root) {
      throw new HostError('SECRETARY_NO_AREA', `No folder for ${describeArea(area)} in this host`);
    }
    const segments = oneSpelling(area, root, checkRelative(rel, allowRoot), forWrite);
    if (forWrite) {
      fs.mkdirSync(root, { recursive: true });
    }
    const realRoot = this.realRoot(area);
    if (!realRoot) {
      return undefined;
    }
    // Walk down the existing part: each real path must stay inside the real root.
    let current = realRoot;
    for (let i = 0; i < segments.length; i++) {
      const next = path.join(current, segments[i]);
      let real: string;
      try {
        real = fs.realpathSync(next);
      } catch (err) {
        if (isMissing(err)) {
          return path.join(current, ...segments.slice(i));
        }
        throw err;
      }
      if (!isInside(realRoot, real)) {
        throw new HostError('SECRETARY_PATH_REFUSED', `Path ${JSON.stringify(rel)} refused: it leads outside ${describeArea(area)} through a symlink`);
      }
      current = real;
    }
    return current;
  }
}
