/**
 * How hosts gather `git status` for the core's `get_changed_files` (crates/secretary-core/src/git.rs
 * parses and formats it): the git CLI run without a shell, or VS Code's Git extension state rendered
 * in the same `git status --porcelain=v1 -z` format, so the core reads one format from every host.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

/** The arguments of the one git command hosts run. Submodules' work trees are not inspected
 * (`dirty`): git would run `status` inside each, under that repository's own configuration. */
export const GIT_STATUS_ARGS = ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--ignore-submodules=dirty'];

/**
 * Configuration that keeps `git status` from running commands a repository chose: a repository's
 * `.git/config` is as untrusted as its files (a downloaded archive, a shared folder), and `status`
 * would run its `core.fsmonitor` hook and the clean filters (`filter.<driver>.clean`/`.process`)
 * of files whose timestamps changed. `-c` outranks every configuration file.
 */
export const GIT_SAFE_CONFIG = ['-c', 'core.fsmonitor=false', '-c', 'core.untrackedCache=false'];

/**
 * `git status --porcelain=v1 -z --untracked-files=all` in `dir`: an argument array (no shell), a
 * timeout, no optional locks (never blocks or disturbs a concurrent git command), output capped,
 * no hook or filter of the repository run (`GIT_SAFE_CONFIG`, `safeFilterConfig`). Throws an error
 * whose message says what failed (git missing, timeout, git's own message).
 */
export function gitStatusCli(dir: string, timeoutMs = 10_000): Uint8Array {
  const env = { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' };
  try {
    const config = [...GIT_SAFE_CONFIG, ...pinnedWorktree(dir), ...safeFilterConfig(dir, env, timeoutMs)];
    return execFileSync('git', [...config, '-C', dir, ...GIT_STATUS_ARGS], {
      encoding: 'buffer',
      timeout: timeoutMs,
      maxBuffer: 32 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
      env,
    });
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: Buffer; signal?: string; status?: number | null };
    if (e.code === 'ENOENT') {
      throw new Error('git is not installed (or not on PATH)', { cause: err });
    }
    if (e.code === 'ETIMEDOUT' || e.signal === 'SIGTERM') {
      throw new Error(`git status timed out after ${timeoutMs} ms`, { cause: err });
    }
    const stderr = e.stderr ? e.stderr.toString('utf8').trim() : '';
    throw new Error(stderr || e.message, { cause: err });
  }
}

/**
 * `--work-tree=<folder>` pinned to the folder git finds the repository in (the nearest of `dir` and
 * its parents holding a `.git` folder or file): a repository's `.git/config` could otherwise set
 * `core.worktree=/etc` (or `/`) and `status` would list that folder's files, outside the workspace
 * (issue 27). (`-c core.worktree=` does not outrank the repository's own: git reads it while it finds
 * the repository; `--work-tree` does.) Nothing when no `.git` is found (git then says it is not a
 * repository).
 */
export function pinnedWorktree(dir: string): string[] {
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    if (fs.existsSync(path.join(at, '.git'))) {
      return [`--work-tree=${at}`];
    }
    if (path.dirname(at) === at) {
      return [];
    }
  }
}

/**
 * `-c` options that turn every filter driver the configuration names into a pass-through: its
 * `clean` becomes `cat`, its `process` nothing, and it is no longer `required` (a file's content is
 * then hashed as it is on disk; at worst such a file shows as modified). Reading the configuration
 * runs nothing. A driver name git cannot take back through `-c` (an `=` in it) fails the call.
 */
export function safeFilterConfig(dir: string, env: NodeJS.ProcessEnv, timeoutMs: number): string[] {
  let listed: string;
  try {
    listed = execFileSync('git', ['-C', dir, 'config', '-z', '--name-only', '--get-regexp', '^filter\\..*\\.(clean|smudge|process|required)$'], {
      encoding: 'utf8',
      timeout: timeoutMs,
      stdio: ['ignore', 'pipe', 'ignore'],
      windowsHide: true,
      env,
    });
  } catch {
    return []; // exit 1: no filter configured (or not a repository: status says so)
  }
  const drivers = new Set(
    listed
      .split('\0')
      .filter((key) => key.startsWith('filter.'))
      .map((key) => key.slice('filter.'.length, key.lastIndexOf('.'))),
  );
  const out: string[] = [];
  for (const driver of drivers) {
    if (driver.includes('=')) {
      throw new Error(`the repository configures a filter git cannot be told to skip (${JSON.stringify(driver)}); not run`);
    }
    out.push('-c', `filter.${driver}.clean=cat`, '-c', `filter.${driver}.process=`, '-c', `filter.${driver}.required=false`);
  }
  return out;
}

/** The part of the Git extension's `Change` used here (`vscode.git` API version 1). */
export interface GitChange {
  uri: { fsPath: string };
  originalUri?: { fsPath: string };
  renameUri?: { fsPath: string };
  status: number;
}

/** The part of a Git extension repository's `state` used here. */
export interface GitState {
  indexChanges: readonly GitChange[];
  workingTreeChanges: readonly GitChange[];
  mergeChanges?: readonly GitChange[];
  untrackedChanges?: readonly GitChange[];
}

// The Git extension's `Status` enum (extensions/git/src/api/git.d.ts).
const INDEX: Record<number, string> = { 0: 'M', 1: 'A', 2: 'D', 3: 'R', 4: 'C' };
const WORKING: Record<number, string> = { 5: 'M', 6: 'D', 9: 'A', 10: 'R', 11: 'T' };
const UNTRACKED = 7;
const IGNORED = 8;

/** A repository's state as `git status --porcelain=v1 -z` output, paths relative to `root`. */
export function porcelainFromChanges(root: string, state: GitState): Uint8Array {
  const rel = (p: string) => path.relative(root, p).split(path.sep).join('/');
  const out: string[] = [];
  const add = (xy: string, change: GitChange) => {
    const target = change.renameUri ?? change.uri;
    out.push(`${xy} ${rel(target.fsPath)}`);
    if (xy.includes('R') || xy.includes('C')) {
      out.push(rel((change.originalUri ?? change.uri).fsPath));
    }
  };
  for (const change of state.indexChanges) {
    const x = INDEX[change.status];
    if (x) {
      add(`${x} `, change);
    }
  }
  for (const change of state.mergeChanges ?? []) {
    add('UU', change);
  }
  for (const change of [...state.workingTreeChanges, ...(state.untrackedChanges ?? [])]) {
    if (change.status === UNTRACKED) {
      add('??', change);
    } else if (change.status !== IGNORED && WORKING[change.status]) {
      add(` ${WORKING[change.status]}`, change);
    }
  }
  return new TextEncoder().encode(out.map((entry) => `${entry}\0`).join(''));
}
