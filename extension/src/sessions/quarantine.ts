// What keeps one session file from trapping the core over and over (issue 27): a file whose reading
// made the WASM core trap is not read again until it changes, and the full re-reads that follow a
// reset come later and later when resets keep coming.

/** One quarantined file: the stat it trapped with, and why. */
interface Held {
  size: number;
  mtimeMs: number;
  why: string;
}

/**
 * Files whose reading trapped the core. A file is held as long as its size and modification time
 * are the ones it trapped with; once it changes it is read again (and held again if it traps again).
 */
export class Quarantine {
  private readonly held = new Map<string, Held>();

  /** Holds `path` at this stat; `cause` is the trap's message. */
  add(path: string, size: number, mtimeMs: number, cause: string): string {
    const why = `reading this file made the Secretary core fail (${cause}); it is not read again until it changes`;
    this.held.set(path, { size, mtimeMs, why });
    return why;
  }

  /** Why `path` is not read at this stat (`undefined`: read it; a changed file is let go). */
  why(path: string, size: number, mtimeMs: number): string | undefined {
    const held = this.held.get(path);
    if (!held) {
      return undefined;
    }
    if (held.size === size && held.mtimeMs === mtimeMs) {
      return held.why;
    }
    this.held.delete(path);
    return undefined;
  }

  forget(path: string): void {
    this.held.delete(path);
  }

  get size(): number {
    return this.held.size;
  }
}

/** The first re-read after a reset is at once; each reset within `WINDOW_MS` of the previous doubles
 * the wait, up to `MAX_MS`. */
export class ResetBackoff {
  static readonly WINDOW_MS = 60_000;
  static readonly FIRST_MS = 1_000;
  static readonly MAX_MS = 60_000;
  private streak = 0;
  private last = -Infinity;

  constructor(private readonly now: () => number = Date.now) {}

  /** How long to wait before the re-read that follows a reset happening now. */
  next(): number {
    const at = this.now();
    this.streak = at - this.last <= ResetBackoff.WINDOW_MS ? this.streak + 1 : 0;
    this.last = at;
    return this.streak === 0 ? 0 : Math.min(ResetBackoff.MAX_MS, ResetBackoff.FIRST_MS * 2 ** (this.streak - 1));
  }
}
