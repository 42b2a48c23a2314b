import { CoreTrapError, type WasmCore } from '../core/wasm';
import type { Logger } from '../log';
import { nodeChatStorage, type ChatStorage, type StorageStat, type StorageWatcher } from './chatStorage';
import { AIDER_HISTORY } from './agents';
import { isStateDatabaseName } from './cursor';
import type { SessionFile } from './discovery';
import { Quarantine, ResetBackoff } from './quarantine';
import { errorMessage } from '../log';

/** What to read and watch: given by the host (extension scope setting, CLI/MCP flags). Paths are
 * those of the `ChatStorage` the sync reads with (paths of this machine, or URI strings). */
export interface SessionScope {
  /** The session files that exist now. */
  files(): SessionFile[] | Promise<SessionFile[]>;
  /** Folders whose changes may add, change or remove session files. */
  watchDirs(): string[];
  /** Folders watched for the named entries alone: where a folder the scope reads does not exist
   * yet, the nearest folder that does, for the name that will appear in it (`.claude` in the home
   * folder before Claude Code's first run). Any other change there wakes nothing: the home folder's
   * own dotfiles are written all the time. A folder also in `watchDirs` is watched for everything. */
  watchNames?(): ReadonlyMap<string, ReadonlySet<string>>;
  /** Folders of the scope that exist but could not be listed at the last `files()`, with why. */
  unreadableDirs?(): ReadonlyMap<string, string>;
}

export interface SyncReport {
  files: number;
  read: number;
  skipped: number;
  failed: number;
  removed: number;
  ms: number;
}

/**
 * Feeds session files to the core and keeps them fresh. The host's only jobs are here: list,
 * stat, read bytes. The core decides what to read (`plan`: nothing, the whole file, or only what a
 * `.jsonl` log appended) and parses it. Freshness comes from `fs.watch` (inotify/FSEvents/
 * ReadDirectoryChangesW), debounced, never from a polling loop; a sync is also cheap enough to run
 * before each tool call, since unchanged files cost one `stat`.
 */
export class SessionSync {
  private known = new Map<string, SessionFile>();
  private readonly errors = new Map<string, string>();
  private watchers = new Map<string, StorageWatcher>();
  /** The folders watched for some names alone (`SessionScope.watchNames`), with those names. */
  private watchedNames = new Map<string, ReadonlySet<string>>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<SyncReport> | undefined;
  private again = false;
  private syncs = 0;
  private readonly listeners = new Set<() => void>();
  /** Files the watchers said changed since they were last read. */
  private readonly dirty = new Set<string>();
  /** Something changed that a path alone cannot say (a new folder, a new file, an event without a
   * name, a watcher error): the next `freshen` lists the whole scope. */
  private needsFullSync = true;
  /** Files whose reading trapped the core: not read again until they change. */
  readonly quarantine = new Quarantine();
  private readonly backoff = new ResetBackoff();
  private resyncTimer: NodeJS.Timeout | undefined;
  /** A sync is running (set before its first step, which may trap synchronously). */
  private syncing = false;
  /** How long the running sync waits before it reads everything again after a reset. */
  private againDelay = 0;
  private maxSessionBytes: number | undefined;

  constructor(
    private readonly core: WasmCore,
    private readonly scope: SessionScope,
    private readonly log: Logger,
    private readonly debounceMs = 300,
    /** Files (or appended tails) up to this many bytes are read synchronously by a full sync; 0:
     * every read is asynchronous (with read-ahead), as before issue 19. */
    private readonly syncReadLimit = SYNC_READ_LIMIT,
    /** Where the files are read: Node `fs`, or (a remote window) the window's files too. */
    private readonly storage: ChatStorage = nodeChatStorage,
  ) {
    // A trapped core lost its state: feed everything again, at once after a first reset and later and
    // later while resets keep coming (a tool call meanwhile still reads what it needs: `freshen`).
    core.onDidReset(() => {
      this.known.clear();
      this.needsFullSync = true;
      const delay = this.backoff.next();
      if (this.syncing) {
        // Trapped inside a sync (the file that trapped is quarantined once the trap reaches
        // `syncFile`): that sync reads everything again when it ends, after the back-off.
        this.again = true;
        this.againDelay = Math.max(this.againDelay, delay);
      } else if (delay === 0) {
        void this.sync();
      } else if (!this.resyncTimer) {
        this.log.warn(`the Secretary core was reset again; reading the sessions again in ${delay} ms`);
        this.resyncTimer = setTimeout(() => {
          this.resyncTimer = undefined;
          void this.sync();
        }, delay);
        this.resyncTimer.unref();
      }
    });
  }

  /** Files that could not be read or parsed, and folders that could not be listed, with the reason. */
  get failures(): ReadonlyMap<string, string> {
    const dirs = this.scope.unreadableDirs?.();
    return dirs && dirs.size > 0 ? new Map([...dirs, ...this.errors]) : this.errors;
  }

  onDidChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Syncs every file of the scope; concurrent calls share one run, which then runs once more (a
   * caller asking during a run gets what changed since it began: the promise waits for that too). */
  sync(): Promise<SyncReport> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.syncing = true;
    this.running = (async () => {
      let report = await this.syncOnce();
      while (this.again) {
        this.again = false;
        if (this.againDelay > 0) {
          await new Promise((resolve) => setTimeout(resolve, this.againDelay));
          this.againDelay = 0;
        }
        report = await this.syncOnce();
      }
      return report;
    })().finally(() => {
      this.syncing = false;
      this.running = undefined;
    });
    return this.running;
  }

  /**
   * Brings what a tool call needs up to date at the lowest cost: while the watchers run, only the
   * files they reported (and `extra`, e.g. the calling chat's files) are read, so an unchanged
   * folder of 1,000 sessions costs nothing; without watchers, or after a change a path cannot
   * describe, the whole scope is synced as `sync` does.
   */
  async freshen(extra: Iterable<string> = []): Promise<void> {
    if (this.running) {
      await this.running;
    }
    if (this.needsFullSync || this.watchers.size === 0) {
      await this.sync();
      return;
    }
    const paths = new Set([...this.dirty, ...extra]);
    this.dirty.clear();
    if (paths.size === 0) {
      return;
    }
    const before = this.core.run((h) => h.generation());
    for (const file of paths) {
      const known = this.known.get(file);
      if (!known) {
        if (await this.storage.exists(file)) {
          // A file the last listing did not have: only a listing tells its workspace and kind.
          await this.sync();
          return;
        }
        continue;
      }
      if (!(await this.storage.exists(file))) {
        this.known.delete(file);
        this.errors.delete(file);
        this.core.run((h) => h.remove(file));
        continue;
      }
      await this.syncFile(known);
    }
    if (this.core.run((h) => h.generation()) !== before) {
      this.notify();
    }
  }

  /** Starts watching the scope's folders. Returns a disposable that stops every watcher. */
  watch(): { dispose(): void } {
    this.refreshWatchers();
    return { dispose: () => this.stopWatching() };
  }

  stopWatching(): void {
    if (this.resyncTimer) {
      clearTimeout(this.resyncTimer);
      this.resyncTimer = undefined;
    }
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    for (const watcher of this.watchers.values()) {
      watcher.dispose();
    }
    this.watchers.clear();
  }

  private async syncOnce(): Promise<SyncReport> {
    const started = Date.now();
    // Whatever the watchers report from here on is read by the next freshen.
    this.needsFullSync = false;
    this.dirty.clear();
    const before = this.core.run((h) => h.generation());
    const report: SyncReport = { files: 0, read: 0, skipped: 0, failed: 0, removed: 0, ms: 0 };
    const current = new Map<string, SessionFile>();
    for (const file of await this.listScope()) {
      current.set(file.path, file);
    }
    report.files = current.size;
    const files = [...current.values()];
    if (this.syncReadLimit > 0 && this.storage.sync) {
      // Small files are stat'ed and read synchronously, in slices of SLICE_MS between which the
      // event loop runs: a session file is a few KB to a few MB, and one promise round trip
      // through libuv's thread pool per stat/open/read/close cost several times the system calls
      // themselves (a cold scan of 1,000 files was mostly that). Larger files are read
      // asynchronously.
      let slice = performance.now();
      for (const file of files) {
        if (performance.now() - slice > SLICE_MS) {
          await new Promise((resolve) => setImmediate(resolve));
          slice = performance.now();
        }
        const prepared = this.prepareSync(file, this.storage.sync) ?? (await this.prepare(file));
        report[await this.syncFile(file, prepared)] += 1;
      }
    } else {
      // Stat and read a few files ahead while the core applies them one by one, in order.
      const ahead: (Promise<Prepared> | undefined)[] = [];
      for (let i = 0; i < files.length; i += 1) {
        for (let j = ahead.length; j < Math.min(files.length, i + READ_AHEAD); j += 1) {
          ahead.push(this.prepare(files[j]));
        }
        const prepared = await ahead[i];
        ahead[i] = undefined;
        report[await this.syncFile(files[i], prepared)] += 1;
      }
    }
    for (const path of this.known.keys()) {
      if (!current.has(path)) {
        this.core.run((h) => h.remove(path));
        this.errors.delete(path);
        report.removed += 1;
      }
    }
    this.known = current;
    if (this.watchers.size > 0) {
      this.refreshWatchers();
    }
    report.ms = Date.now() - started;
    this.syncs += 1;
    if (this.core.run((h) => h.generation()) !== before) {
      this.notify();
    }
    this.log.debug(
      `sessions synced: ${report.files} files, ${report.read} read, ${report.skipped} unchanged, ${report.failed} failed, ${report.removed} removed in ${report.ms} ms`,
    );
    return report;
  }

  /** The scope's files; a scope that cannot be listed now (a remote window's storage that did not
   * answer) counts as unchanged for this sync, and the next one tries again. */
  private async listScope(): Promise<SessionFile[]> {
    try {
      return await this.scope.files();
    } catch (err) {
      this.log.warn(`cannot list the chat sessions: ${errorMessage(err)}`);
      this.needsFullSync = true;
      return [...this.known.values()];
    }
  }

  private notify(): void {
    for (const listener of [...this.listeners]) {
      listener();
    }
  }

  /** `prepare`, synchronously, when the core's plan asks for at most `syncReadLimit` bytes;
   * `undefined` when it asks for more (read those asynchronously). */
  private prepareSync(file: SessionFile, sync: NonNullable<ChatStorage['sync']>): Prepared | undefined {
    try {
      const stat = sync.stat(file.path);
      const first = this.beforeRead(file, stat);
      if (first.kind !== 'read') {
        return first;
      }
      if (stat.size - first.offset > this.syncReadLimit) {
        return undefined;
      }
      const bytes = sync.read(file.path, first.offset, this.maxBytes());
      return { ...first, bytes };
    } catch (err) {
      return { kind: 'error', err };
    }
  }

  /**
   * What to do with `file` before reading a byte: skip it (unchanged), refuse it (not a regular file,
   * over the core's size cap, quarantined), or read from an offset. The size cap is checked here, on
   * the stat: a 600 MB file is never read only to be refused (issue 27).
   */
  private beforeRead(file: SessionFile, stat: StorageStat): Prepared {
    if (stat.notAFile !== undefined) {
      return { kind: 'error', err: new Error(`not a regular file (${stat.notAFile})`) };
    }
    const held = this.quarantine.why(file.path, stat.size, stat.mtimeMs);
    if (held) {
      return { kind: 'error', err: new Error(held) };
    }
    const plan = this.core.run((h) => h.plan(file.path, stat.size, stat.mtimeMs));
    if (plan.kind === 'skip') {
      return { kind: 'skip' };
    }
    if (stat.size > this.maxBytes()) {
      return { kind: 'tooLarge', size: stat.size, mtimeMs: stat.mtimeMs };
    }
    return { kind: 'read', mtimeMs: stat.mtimeMs, offset: plan.kind === 'from' ? plan.offset : 0, bytes: new Uint8Array(0) };
  }

  /** The largest session file the core reads (`maxSessionBytes`), asked once. */
  private maxBytes(): number {
    this.maxSessionBytes ??= this.core.run((_h, m) => m.maxSessionBytes());
    return this.maxSessionBytes;
  }

  /** Stats `file` and reads what the core's plan asks for (nothing when it is unchanged). */
  private async prepare(file: SessionFile): Promise<Prepared> {
    try {
      const stat = await this.storage.stat(file.path);
      const first = this.beforeRead(file, stat);
      if (first.kind !== 'read') {
        return first;
      }
      const bytes = await this.storage.read(file.path, first.offset, this.maxBytes());
      return { ...first, bytes };
    } catch (err) {
      return { kind: 'error', err };
    }
  }

  /** Applies `file` to the core (`prepared`: its stat and bytes if already read ahead). */
  private async syncFile(file: SessionFile, prepared?: Prepared): Promise<'read' | 'skipped' | 'failed'> {
    const got = prepared ?? (await this.prepare(file));
    try {
      if (got.kind === 'error') {
        throw got.err;
      }
      if (got.kind === 'skip') {
        return 'skipped';
      }
      if (got.kind === 'tooLarge') {
        // Not read: the core records the file as unreadable with its size and the cap, and throws that.
        this.core.run((h) => h.apply(file.path, file.workspace, got.size, got.mtimeMs, 0, new Uint8Array(0)));
        return 'failed';
      }
      let { offset, bytes } = got;
      for (let attempt = 0; attempt < 2; attempt += 1) {
        // The file may have grown since the stat: what was read is the size the core records.
        const size = offset + bytes.length;
        try {
          const outcome = this.core.run((h) => h.apply(file.path, file.workspace, size, got.mtimeMs, offset, bytes));
          if (!outcome?.needsFullRead || attempt > 0) {
            break;
          }
        } catch (err) {
          if (err instanceof CoreTrapError) {
            throw new Error(this.quarantine.add(file.path, size, got.mtimeMs, err.message), { cause: err });
          }
          throw err;
        }
        offset = 0;
        bytes = await this.storage.read(file.path, 0, this.maxBytes());
      }
      this.errors.delete(file.path);
      return 'read';
    } catch (err) {
      const message = errorMessage(err);
      if (this.errors.get(file.path) !== message) {
        this.log.warn(`cannot read chat session ${file.path}: ${message}`);
      }
      this.errors.set(file.path, message);
      return 'failed';
    }
  }

  private refreshWatchers(): void {
    const all = new Set(this.scope.watchDirs());
    this.watchedNames = new Map([...(this.scope.watchNames?.() ?? [])].filter(([dir]) => !all.has(dir)));
    const wanted = new Set([...all, ...this.watchedNames.keys()]);
    for (const [dir, watcher] of this.watchers) {
      if (!wanted.has(dir)) {
        watcher.dispose();
        this.watchers.delete(dir);
      }
    }
    for (const dir of wanted) {
      if (this.watchers.has(dir)) {
        continue;
      }
      const watcher = this.storage.watch(
        dir,
        (name) => {
          if (this.concerns(dir, name)) {
            this.noteChange(dir, name);
            this.schedule();
          }
        },
        () => {
          this.watchers.delete(dir);
          this.needsFullSync = true;
        },
      );
      // Without one the folder does not exist (yet); its parent is watched and a sync retries.
      if (watcher) {
        this.watchers.set(dir, watcher);
      }
    }
  }

  /** Whether a change to `name` in the watched `dir` can matter (read when it happens: a folder's
   * names change with the scope's next refresh, its watcher stays). */
  private concerns(dir: string, name: string | undefined): boolean {
    const only = this.watchedNames.get(dir);
    if (only) {
      return name === undefined || only.has(name);
    }
    return mayConcernSessions(name) || this.isKnownDatabase(dir, name);
  }

  /** Whether `name` in `dir` is a SQLite database (or its WAL) whose conversations are read
   * (Cursor's `state.vscdb`): a change there is a change of those conversations. VS Code's own
   * `state.vscdb` beside its chat sessions is not one, and wakes nothing. */
  private isKnownDatabase(dir: string, name: string | undefined): boolean {
    if (name === undefined || !isStateDatabaseName(name)) {
      return false;
    }
    const prefix = `${this.storage.join(dir, 'state.vscdb')}#`;
    return [...this.known.keys()].some((file) => file.startsWith(prefix));
  }

  /** How many syncs have completed (for tests and diagnostics). */
  get syncCount(): number {
    return this.syncs;
  }

  /** Notes what a watcher event says: a known session file, or something only a listing can tell. */
  private noteChange(dir: string, name: string | undefined): void {
    const file = name === undefined ? undefined : this.storage.join(dir, name);
    if (file !== undefined && this.known.has(file)) {
      this.dirty.add(file);
    } else {
      this.needsFullSync = true;
    }
  }

  private schedule(): void {
    if (this.timer) {
      clearTimeout(this.timer);
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.freshen();
    }, this.debounceMs);
  }
}

/**
 * Whether a change to `name` in a watched folder can matter: session files (`.json`, `.jsonl`) and
 * folders (no extension: `chatSessions`, a new workspace's storage folder). VS Code keeps writing
 * `state.vscdb` and `vscode.lock` beside `chatSessions`; reacting to those would re-scan for
 * nothing, over and over, while nothing changed.
 */
export function mayConcernSessions(name: string | Buffer | null | undefined): boolean {
  if (name === null || name === undefined) {
    return true; // the platform did not say what changed
  }
  const text = name.toString();
  const dot = text.lastIndexOf('.');
  if (dot <= 0) {
    return true;
  }
  const ext = text.slice(dot).toLowerCase();
  // Aider's Markdown history; OpenCode's (and Kilo Code's CLI's) database and its write-ahead log
  // (a full sync re-lists it).
  return ext === '.json' || ext === '.jsonl' || text === AIDER_HISTORY || /^(opencode|kilo)\.db(-wal)?$/.test(text);
}

/** How many files a sync stats and reads ahead of the one the core is applying (asynchronous reads). */
const READ_AHEAD = 16;
/** Default `syncReadLimit`: most session files are smaller; a larger read would hold the event
 * loop for more than a slice. */
export const SYNC_READ_LIMIT = 1 << 20;
/** How long a sync works before it lets the event loop run. */
const SLICE_MS = 12;

/** One file's stat and bytes, read ahead of its turn. */
type Prepared =
  | { kind: 'skip' }
  | { kind: 'read'; mtimeMs: number; offset: number; bytes: Uint8Array }
  | { kind: 'tooLarge'; size: number; mtimeMs: number }
  | { kind: 'error'; err: unknown };
