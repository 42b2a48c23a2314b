import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import { HostError, READ_ONLY_AREAS, type AreaName, type HostBridge } from './bridge';
import { gitStatusCli } from './gitStatus';
import { LockFiles, removeOrphanTemps } from './lockFile';

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
    let stat: fs.Stats;
    try {
      stat = fs.statSync(target);
    } catch (err) {
      if (isMissing(err)) {
        return null;
      }
      throw err;
    }
    if (!stat.isFile()) {
      throw new Error(`${area}/${rel} is not a file`);
    }
    if (stat.size > this.maxReadBytes) {
      throw new Error(`${area}/${rel} is larger than ${this.maxReadBytes} bytes`);
    }
    return fs.readFileSync(target);
  }

  writeAtomic(area: AreaName, rel: string, bytes: Uint8Array): void {
    refuseReadOnly(area, rel);
    const target = this.resolve(area, rel, true) as string;
    const dir = path.dirname(target);
    fs.mkdirSync(dir, { recursive: true });
    const temp = path.join(dir, `.${path.basename(target)}.${process.pid}.${crypto.randomBytes(6).toString('hex')}.tmp`);
    try {
      const fd = fs.openSync(temp, 'wx');
      try {
        let offset = 0;
        while (offset < bytes.length) {
          offset += fs.writeSync(fd, bytes, offset, bytes.length - offset);
        }
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
      this.options.beforeRename?.(temp, target);
      fs.renameSync(temp, target);
    } catch (err) {
      try {
        fs.unlinkSync(temp);
      } catch {
        // Already renamed or never created.
      }
      throw err;
    }
    syncDir(dir);
    removeOrphanTemps(dir);
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
      throw new HostError('SECRETARY_NO_AREA', `No folder for ${describe(area)} in this host`);
    }
    const segments = checkRelative(rel, allowRoot);
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
        throw new HostError('SECRETARY_PATH_REFUSED', `Path ${JSON.stringify(rel)} refused: it leads outside ${describe(area)} through a symlink`);
      }
      current = real;
    }
    return current;
  }
}

/** The segments of a relative path; throws `SECRETARY_PATH_REFUSED` for anything else. */
export function checkRelative(rel: string, allowRoot = false): string[] {
  const refuse = (why: string): never => {
    throw new HostError('SECRETARY_PATH_REFUSED', `Path ${JSON.stringify(rel)} refused: ${why}`);
  };
  if (typeof rel !== 'string') {
    return refuse('not a string');
  }
  if (rel === '' || rel === '.') {
    return allowRoot ? [] : refuse('it is empty');
  }
  // C0 controls: Unicode's Cc less DEL and the C1 range.
  if (/[^\P{Cc}\x7f-\x9f]/u.test(rel)) {
    refuse('it contains a control character');
  }
  if (rel.includes('\\')) {
    refuse('use / to separate folders');
  }
  if (rel.startsWith('/') || rel.startsWith('~') || /^[A-Za-z]:/.test(rel) || path.isAbsolute(rel)) {
    refuse('it must be relative');
  }
  const segments = rel.split('/');
  for (const segment of segments) {
    if (segment === '' || segment === '.' || segment === '..') {
      refuse('empty, `.` and `..` folder names are not allowed');
    }
  }
  return segments;
}

/** The cargo registry sources and the bundled docs are only read. */
function refuseReadOnly(area: AreaName, rel: string): void {
  if (READ_ONLY_AREAS.has(area)) {
    throw new HostError('SECRETARY_PATH_REFUSED', `Path ${JSON.stringify(rel)} refused: ${describe(area)} are read-only`);
  }
}

function isInside(root: string, candidate: string): boolean {
  if (candidate === root) {
    return true;
  }
  const withSep = root.endsWith(path.sep) ? root : root + path.sep;
  return candidate.startsWith(withSep);
}

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function syncDir(dir: string): void {
  // Makes the rename itself durable; not possible on every platform (Windows), hence best effort.
  try {
    const fd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // Best effort.
  }
}

function describe(area: AreaName): string {
  switch (area) {
    case 'workspace':
      return 'the workspace folder';
    case 'workspaceState':
      return "this workspace's state folder";
    case 'globalState':
      return 'the global state folder';
    case 'cargoRegistry':
      return 'the cargo registry sources';
    case 'bundled':
      return 'the bundled library docs';
  }
}

/** Where cargo unpacks registry crates: `$CARGO_HOME/registry/src` (default `~/.cargo`). */
export function cargoRegistrySources(env: NodeJS.ProcessEnv = process.env): string {
  const home = env.CARGO_HOME ? path.resolve(env.CARGO_HOME) : path.join(os.homedir(), '.cargo');
  return path.join(home, 'registry', 'src');
}

/** The library docs shipped in the VSIX, under the extension's (or the CLI package's) root. */
export function bundledDocsDir(extensionRoot: string): string {
  return path.join(extensionRoot, 'resources', 'library-docs');
}

/** The library-docs settings, and the environment variables that set them for the CLI and MCP server. */
export const LIBRARY_DOCS_ENV: readonly { setting: string; env: string; kind: 'boolean' | 'string' | 'number' }[] = [
  { setting: 'copilotChatSecretary.libraryDocs.context7.enabled', env: 'SECRETARY_CONTEXT7_ENABLED', kind: 'boolean' },
  { setting: 'copilotChatSecretary.libraryDocs.context7.baseUrl', env: 'SECRETARY_CONTEXT7_BASE_URL', kind: 'string' },
  { setting: 'copilotChatSecretary.libraryDocs.context7.timeoutMs', env: 'SECRETARY_CONTEXT7_TIMEOUT_MS', kind: 'number' },
  { setting: 'copilotChatSecretary.libraryDocs.context7.apiKey', env: 'CONTEXT7_API_KEY', kind: 'string' },
];

/**
 * Settings a workspace must never choose: the host library docs are sent to and the key sent with
 * them (a cloned repository's `.vscode/settings.json` could otherwise send the user's
 * `CONTEXT7_API_KEY` to a host of its choosing). `package.json` gives them `"scope": "application"`,
 * so VS Code reads them from the user's settings only; the CLI and MCP server ignore them in
 * `.vscode/settings.json` and take them from the environment alone.
 */
export const USER_ONLY_SETTINGS: readonly string[] = [
  'copilotChatSecretary.libraryDocs.context7.baseUrl',
  'copilotChatSecretary.libraryDocs.context7.apiKey',
];

/** The environment variables that pass the library-docs settings `get` returns on to a CLI or MCP server
 * process (VS Code's MCP server definition); unset and empty values pass nothing. */
export function libraryDocsEnv(get: (setting: string) => unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { setting, env } of LIBRARY_DOCS_ENV) {
    const value = get(setting);
    if ((typeof value === 'string' && value.trim()) || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))) {
      out[env] = String(value).trim();
    }
  }
  return out;
}

/** The settings the environment sets (`SECRETARY_CONTEXT7_ENABLED=false` ...); unset or empty variables set nothing. */
export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { setting, env: name, kind } of LIBRARY_DOCS_ENV) {
    const raw = env[name]?.trim();
    if (!raw) {
      continue;
    }
    if (kind === 'boolean') {
      out[setting] = !/^(0|false|no|off)$/i.test(raw);
    } else if (kind === 'number') {
      const value = Number(raw);
      if (Number.isFinite(value)) {
        out[setting] = value;
      }
    } else {
      out[setting] = raw;
    }
  }
  return out;
}

/**
 * Where the CLI and the MCP server keep state (VS Code uses the extension's own storage folders):
 * `SECRETARY_STATE_DIR` when set, else the platform's state folder: `$XDG_STATE_HOME` or
 * `~/.local/state` on Linux, `~/Library/Application Support` on macOS, `%LOCALAPPDATA%` on Windows,
 * each with `copilot-chat-secretary` appended.
 */
export function defaultStateDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.SECRETARY_STATE_DIR) {
    return path.resolve(env.SECRETARY_STATE_DIR);
  }
  const home = os.homedir();
  const base =
    platform === 'win32'
      ? (env.LOCALAPPDATA ?? path.join(home, 'AppData', 'Local'))
      : platform === 'darwin'
        ? path.join(home, 'Library', 'Application Support')
        : (env.XDG_STATE_HOME ?? path.join(home, '.local', 'state'));
  return path.join(base, 'copilot-chat-secretary');
}

/**
 * The state roots under a state folder: `global/` for global flags (and memory), and
 * `workspaces/<folder name>-<12 hex of sha256(folder path)>/` for one workspace's project flags.
 */
export function stateRoots(stateDir: string, workspaceFolder: string | undefined): { globalState: string; workspaceState?: string } {
  const globalState = path.join(stateDir, 'global');
  if (!workspaceFolder) {
    return { globalState };
  }
  const folder = path.resolve(workspaceFolder);
  const hash = crypto.createHash('sha256').update(folder).digest('hex').slice(0, 12);
  const name = (path.basename(folder) || 'root').replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 40);
  return { globalState, workspaceState: path.join(stateDir, 'workspaces', `${name}-${hash}`) };
}

/**
 * The bridge of a host outside VS Code (CLI, MCP server): the workspace folder, state under
 * `stateDir` (default `defaultStateDir()`), the cargo registry sources (`CARGO_HOME`), the bundled
 * library docs (`bundledDocs`), and settings from the workspace's `.vscode/settings.json` (comments and
 * trailing commas allowed), so `copilotChatSecretary.content.categories` applies there too, except the
 * `USER_ONLY_SETTINGS`; the environment variables of `LIBRARY_DOCS_ENV` override the library-docs settings.
 */
export function standaloneHost(options: {
  workspaceFolder?: string;
  stateDir?: string;
  env?: NodeJS.ProcessEnv;
  bundledDocs?: string;
}): NodeHost {
  const env = options.env ?? process.env;
  const stateDir = options.stateDir ? path.resolve(options.stateDir) : defaultStateDir(env);
  const roots = stateRoots(stateDir, options.workspaceFolder);
  const fromWorkspace = options.workspaceFolder ? readSettings(path.join(options.workspaceFolder, '.vscode', 'settings.json')) : {};
  for (const key of USER_ONLY_SETTINGS) {
    delete fromWorkspace[key];
  }
  const settings: Record<string, unknown> = { ...fromWorkspace, ...settingsFromEnv(env) };
  return new NodeHost({
    roots: {
      workspace: options.workspaceFolder,
      workspaceState: roots.workspaceState,
      globalState: roots.globalState,
      cargoRegistry: cargoRegistrySources(env),
      bundled: options.bundledDocs,
    },
    settings: (key) => (Object.hasOwn(settings, key) ? settings[key] : undefined),
  });
}

/** A VS Code settings file as an object (`{}` when missing or unreadable). */
export function readSettings(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return {};
  }
  try {
    const value = JSON.parse(stripJsonComments(text)) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** JSONC to JSON: drops `//` and `/* *\/` comments, then trailing commas, never inside strings. */
export function stripJsonComments(text: string): string {
  return scan(scan(text, true), false);
}

/** One string-aware pass: removes comments (`comments`) or trailing commas. */
function scan(text: string, comments: boolean): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') {
        j += text[j] === '\\' ? 2 : 1;
      }
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (comments && c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') {
        i++;
      }
    } else if (comments && c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
    } else if (!comments && c === ',' && /^\s*[}\]]/.test(text.slice(i + 1, i + 200))) {
      i++;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}
