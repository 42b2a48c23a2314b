// The one way the hosts read a file they did not write themselves: settings, instructions, content,
// READMEs, lock files, session files, catalogs. A cloned repository can put a symlink to `/dev/zero`
// or `/dev/stdin`, a FIFO or a 10 GB file where a small file is expected; each of those must be
// refused at once, never read without end (issue 27).
import * as fs from 'fs';

/** Why a bounded read refused a file (`reason` for callers that tell the cases apart; no `code`, so
 * callers that print an `fs` error's code print this message). */
export class BoundedReadError extends Error {
  constructor(
    readonly reason: 'not-a-file' | 'too-large' | 'link-refused',
    message: string,
  ) {
    super(message);
    this.name = 'BoundedReadError';
  }
}

export interface BoundedReadOptions {
  /** The most bytes read (from `offset`); a file with more is refused, before and while reading. */
  maxBytes: number;
  /** Refuse a symbolic link as the last part of the path (`O_NOFOLLOW`): where a link is not expected. */
  noFollow?: boolean;
  /** Read from this byte to the end (default 0). */
  offset?: number;
  /** How the file is named in errors (default: its path). */
  name?: string;
  /**
   * Read no more than the `fstat` said (a log that grows meanwhile is read up to there; the next read
   * takes the rest). Files of `/proc` say 0 bytes and then stream without end (`/proc/self/pagemap`):
   * with this, they read as empty.
   */
  statSizeOnly?: boolean;
}

/** `O_NONBLOCK`: opening a FIFO does not wait for a writer (refused after the `fstat`). */
function openFlags(noFollow: boolean | undefined): number {
  const c = fs.constants;
  return c.O_RDONLY | (c.O_NONBLOCK ?? 0) | (noFollow ? (c.O_NOFOLLOW ?? 0) : 0);
}

/** What a `fstat` says a non-regular file is, for errors. */
export function kindOf(stat: fs.Stats): string {
  if (stat.isDirectory()) {
    return 'a folder';
  }
  if (stat.isFIFO()) {
    return 'a FIFO';
  }
  if (stat.isCharacterDevice() || stat.isBlockDevice()) {
    return 'a device';
  }
  if (stat.isSocket()) {
    return 'a socket';
  }
  return 'not a file';
}

function open(file: string, options: BoundedReadOptions): number {
  try {
    return fs.openSync(file, openFlags(options.noFollow));
  } catch (err) {
    throw linkRefused(err, options.name ?? file) ?? err;
  }
}

/** `O_NOFOLLOW` on a link fails with `ELOOP` (Linux, macOS) or `EMLINK` (FreeBSD): say so plainly. */
function linkRefused(err: unknown, name: string): BoundedReadError | undefined {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ELOOP' || code === 'EMLINK'
    ? new BoundedReadError('link-refused', `${name} is a symbolic link, which is not followed here`)
    : undefined;
}

/** Checks the open file before reading: a regular file with at most `maxBytes` from `offset`. */
function check(stat: fs.Stats, options: BoundedReadOptions, name: string): number {
  if (!stat.isFile()) {
    throw new BoundedReadError('not-a-file', `${name} is not a regular file (${kindOf(stat)})`);
  }
  const length = Math.max(0, stat.size - (options.offset ?? 0));
  if (length > options.maxBytes) {
    throw new BoundedReadError('too-large', `${name} is larger than ${options.maxBytes} bytes (${stat.size} bytes)`);
  }
  return length;
}

function grewPast(name: string, maxBytes: number): BoundedReadError {
  return new BoundedReadError('too-large', `${name} grew past ${maxBytes} bytes while it was read`);
}

/** The largest chunk of one read. */
const CHUNK = 8 * 1024 * 1024;

/** The smallest chunk once past what the `fstat` promised (a file that grows while it is read). */
const MIN_CHUNK = 64 * 1024;

/** The next read's size: what the `fstat` promised plus one byte (to see growth at once), at least
 * `MIN_CHUNK` once past it, at most `CHUNK` and never more than one byte past the cap (`room`). */
function chunkSize(expected: number, total: number, room: number): number {
  return Math.min(CHUNK, room, Math.max(expected + 1 - total, MIN_CHUNK));
}

/**
 * Reads a file refusing anything that is not a regular file and anything larger than `maxBytes`:
 * checked on the open descriptor before reading (so a link to `/dev/zero`, a FIFO or a socket is
 * refused at once, and a FIFO's open does not wait for a writer) and again while reading (a file that
 * grows past the cap meanwhile is refused, not read to the end). Missing files throw `ENOENT` as
 * `fs` does; the refusals throw a `BoundedReadError` whose message says why.
 */
export function readBounded(file: string, options: BoundedReadOptions): Buffer {
  const name = options.name ?? file;
  const fd = open(file, options);
  try {
    const steps = reading(check(fs.fstatSync(fd), options, name), options, name);
    let step = steps.next();
    while (!step.done) {
      const { buffer, offset, length, position } = step.value;
      step = steps.next(fs.readSync(fd, buffer, offset, length, position));
    }
    return step.value;
  } finally {
    fs.closeSync(fd);
  }
}

/** `readBounded`, asynchronously (large session files: the event loop runs between chunks). */
export async function readBoundedAsync(file: string, options: BoundedReadOptions): Promise<Buffer> {
  const name = options.name ?? file;
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file, openFlags(options.noFollow));
  } catch (err) {
    throw linkRefused(err, name) ?? err;
  }
  try {
    const steps = reading(check(await handle.stat(), options, name), options, name);
    let step = steps.next();
    while (!step.done) {
      const { buffer, offset, length, position } = step.value;
      step = steps.next((await handle.read(buffer, offset, length, position)).bytesRead);
    }
    return step.value;
  } finally {
    await handle.close();
  }
}

/** One read the loop asks for: into `buffer` at `offset`, `length` bytes from the file's `position`. */
interface ReadStep {
  buffer: Buffer;
  offset: number;
  length: number;
  position: number;
}

/**
 * The reading loop of both readers, which differ only in how a read is done: it yields each read it
 * wants and is given the count of bytes read (0 at the end of the file). `expected` is the checked
 * size from the stat. With `statSizeOnly`, one buffer of that size is filled in place (no chunks to
 * join: a 100 MB session); otherwise chunks are read until the end, and a file that grows past
 * `maxBytes` meanwhile is refused.
 */
function* reading(expected: number, options: BoundedReadOptions, name: string): Generator<ReadStep, Buffer, number> {
  const start = options.offset ?? 0;
  if (options.statSizeOnly) {
    const buffer = Buffer.allocUnsafe(expected);
    let filled = 0;
    while (filled < expected) {
      const read = yield { buffer, offset: filled, length: expected - filled, position: start + filled };
      if (read === 0) {
        break;
      }
      filled += read;
    }
    return buffer.subarray(0, filled);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const room = options.maxBytes + 1 - total;
    const chunk = Buffer.allocUnsafe(chunkSize(expected, total, room));
    const read = yield { buffer: chunk, offset: 0, length: chunk.length, position: start + total };
    if (read === 0) {
      break;
    }
    total += read;
    if (total > options.maxBytes) {
      throw grewPast(name, options.maxBytes);
    }
    chunks.push(read === chunk.length ? chunk : chunk.subarray(0, read));
  }
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, total);
}

/** The caps of the files the hosts read (docs/security.md lists them). */
export const READ_CAPS = {
  /** `.vscode/settings.json` of a workspace, read by the CLI and MCP server. */
  settings: 16 * 1024 * 1024,
  /** A storage folder's `workspace.json`. */
  workspaceJson: 64 * 1024,
  /** A lock file (`flags.json.lock`, `memory.lock`): a pid, a host name and a token. */
  lockFile: 4 * 1024,
  /** A `find-tools --catalog` file. */
  catalog: 64 * 1024 * 1024,
} as const;
