import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import { kindOf, READ_CAPS, readBounded } from './boundedRead';

/**
 * Lock files for the core's read-modify-writes (`Host::lock`): flags and memory live in state folders
 * that several processes share (VS Code windows, CLI runs, MCP servers), and a change read before
 * another process's write and written after it would undo that write.
 *
 * `<target>.lock` is created with `O_EXCL` (`wx`): whoever creates it holds the lock, everyone else
 * waits (short sleeps, synchronously: the core calls the bridge synchronously) for at most
 * `LOCK_WAIT_MS`, then fails with a message saying which file is locked. A lock whose holder died
 * (same machine, its pid is gone) or that is older than `STALE_LOCK_MS` (no write takes that long) is
 * broken, under `<lock>.break` and only if it is still the lock judged stale (see `breakIfStale`).
 */

/** How long `acquire` waits for another process's lock. */
export const LOCK_WAIT_MS = 10_000;
/** A lock older than this is taken to be left behind by a crash. */
export const STALE_LOCK_MS = 30_000;
/** A lock file without a holder (empty or cut: its write failed, say on a full disk) older than this
 * is left behind too: a holder writes its line right after creating the file. */
export const EMPTY_LOCK_MS = 2_000;

interface Holder {
  pid?: number;
  host?: string;
  token?: string;
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** Blocks the thread for `ms` milliseconds without spinning. */
function sleepSync(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

export class LockFiles {
  /** Lock files this process holds, with their tokens. */
  private readonly held = new Map<string, string>();

  constructor(private readonly waitMs = LOCK_WAIT_MS) {}

  /** Takes `lockPath`, waiting at most `waitMs`; `what` names it in the error. */
  acquire(lockPath: string, what: string): void {
    if (this.held.has(lockPath)) {
      throw new Error(`${what} is already locked by this process`);
    }
    fs.mkdirSync(path.dirname(lockPath), { recursive: true });
    const token = crypto.randomBytes(8).toString('hex');
    const body = JSON.stringify({ pid: process.pid, host: os.hostname(), token, since: new Date().toISOString() });
    const deadline = Date.now() + this.waitMs;
    for (let attempt = 0; ; attempt++) {
      try {
        createLock(lockPath, body);
        this.held.set(lockPath, token);
        return;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
          throw err;
        }
      }
      if (breakIfStale(lockPath)) {
        continue;
      }
      if (Date.now() >= deadline) {
        throw new Error(`${what} is locked by another process (${path.basename(lockPath)}) for more than ${this.waitMs} ms; try again`);
      }
      // Short, growing, jittered sleeps: most holders finish within a few milliseconds.
      sleepSync(Math.min(50, 2 + attempt * 2) + Math.random() * 5);
    }
  }

  /** Releases `lockPath` if this process holds it (a lock broken as stale meanwhile is left alone). */
  release(lockPath: string): void {
    const token = this.held.get(lockPath);
    if (token === undefined) {
      return;
    }
    this.held.delete(lockPath);
    if (readHolder(lockPath)?.token === token) {
      try {
        fs.unlinkSync(lockPath);
      } catch {
        // Already gone.
      }
    }
  }
}

/**
 * Creates the lock file with `O_EXCL` and writes its holder. When the write fails (`ENOSPC` on a full
 * disk), the file just created is removed again: an empty lock file would hold every other process
 * off until it went stale.
 */
function createLock(lockPath: string, body: string): void {
  const fd = fs.openSync(lockPath, 'wx');
  try {
    fs.writeSync(fd, body);
  } catch (err) {
    fs.closeSync(fd);
    try {
      fs.unlinkSync(lockPath);
    } catch {
      // Removed meanwhile.
    }
    throw err;
  }
  fs.closeSync(fd);
}

/** The holder a lock file names; `undefined` when it names none (empty, cut, not JSON). A lock file is
 * never a link and never large: read as such (a FIFO or a link to `/dev/zero` cannot block it). */
function readHolder(lockPath: string): Holder | undefined {
  try {
    const holder = JSON.parse(readBounded(lockPath, { maxBytes: READ_CAPS.lockFile, noFollow: true }).toString('utf8')) as unknown;
    return holder !== null && typeof holder === 'object' ? (holder as Holder) : undefined;
  } catch {
    return undefined;
  }
}

/** A breaker file older than this was left by a process that died while breaking a lock. */
const STALE_BREAKER_MS = 5_000;

/** The lock file as judged: its identity (inode, mtime, token) when stale, `gone` when absent. */
type Judged = { ino: number; mtimeMs: number; token?: string } | 'gone' | undefined;

function judge(lockPath: string): Judged {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(lockPath);
  } catch {
    return 'gone';
  }
  if (!stat.isFile()) {
    // A FIFO, a link or a folder where the lock goes: no process of ours made it, and waiting would
    // not change it (reading a FIFO would block the process for good).
    throw new Error(`${lockPath} is not a lock file (${stat.isSymbolicLink() ? 'a symbolic link' : kindOf(stat)}); remove it to make changes here`);
  }
  const holder = readHolder(lockPath);
  const dead = holder?.host === os.hostname() && typeof holder.pid === 'number' && !isAlive(holder.pid);
  const age = Date.now() - stat.mtimeMs;
  const orphan = typeof holder?.token !== 'string' && age >= EMPTY_LOCK_MS;
  if (!dead && !orphan && age < STALE_LOCK_MS) {
    return undefined;
  }
  return { ino: stat.ino, mtimeMs: stat.mtimeMs, token: holder?.token };
}

/**
 * Breaks a lock left behind by a dead process or a crash; `true` when the caller should try to
 * take the lock at once. Two waiters can judge the same lock stale; if the first breaks it and
 * takes a lock of its own, the second must not break that one. So breaking happens under a second,
 * short-lived lock (`<lock>.break`, `O_EXCL`), and only when the lock file is still the one judged
 * stale (same inode, mtime and token).
 */
function breakIfStale(lockPath: string): boolean {
  const judged = judge(lockPath);
  if (judged === 'gone') {
    return true; // released meanwhile: try again at once
  }
  if (!judged) {
    return false;
  }
  const breaker = `${lockPath}.break`;
  try {
    fs.writeFileSync(breaker, String(process.pid), { flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
      throw err;
    }
    // Another waiter is breaking it (a few system calls); unless it died doing so, wait.
    try {
      if (Date.now() - fs.statSync(breaker).mtimeMs > STALE_BREAKER_MS) {
        fs.unlinkSync(breaker);
      }
    } catch {
      // Gone meanwhile.
    }
    return false;
  }
  try {
    const now = judge(lockPath);
    if (now === 'gone') {
      return true;
    }
    if (now && now.ino === judged.ino && now.mtimeMs === judged.mtimeMs && now.token === judged.token) {
      try {
        fs.unlinkSync(lockPath);
      } catch {
        // Gone meanwhile.
      }
      return true;
    }
    return false; // broken and taken again since it was judged: that lock is live
  } finally {
    try {
      fs.unlinkSync(breaker);
    } catch {
      // Best effort.
    }
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Temporary files of `writeAtomic` (`.<name>.<pid>.<12 hex>.tmp`) older than this are orphans. */
export const ORPHAN_TEMP_MS = 60_000;
const TEMP_NAME = /^\..+\.\d+\.[0-9a-f]{12}\.tmp$/;

/** Removes the temporary files a crashed write left in `dir` (older than `ORPHAN_TEMP_MS`); returns how many. */
export function removeOrphanTemps(dir: string, now = Date.now()): number {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    if (!TEMP_NAME.test(name)) {
      continue;
    }
    const full = path.join(dir, name);
    try {
      const stat = fs.lstatSync(full);
      if (stat.isFile() && now - stat.mtimeMs > ORPHAN_TEMP_MS) {
        fs.unlinkSync(full);
        removed += 1;
      }
    } catch {
      // Removed by another process meanwhile.
    }
  }
  return removed;
}
