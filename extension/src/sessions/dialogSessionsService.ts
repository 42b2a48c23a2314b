import type { CallContext } from '../chat/caller';
import type { WasmCore } from '../core/wasm';
import type { Logger } from '../log';
import type { ChatStorage } from './chatStorage';
import { SessionSync, type SessionScope, type SyncReport } from './sessionSync';
import type { DialogStatus, StoredDialog } from './types';

export interface HistoryFilter {
  limit?: number;
  status?: DialogStatus;
}

export interface DialogSessionsOptions {
  /** The caller's workspace key: picks the current dialog and scopes the tools. `undefined`:
   * every workspace. */
  workspace: string | undefined;
  /** Decides the workspace once the first scan is done (the CLI and the MCP server: the current
   * folder counts when any source has dialogs for it, which agent logs tell only once read). */
  resolveWorkspace?: () => string | undefined;
  debounceMs?: number;
  /** How long a tool call waits for the first scan before answering "Service temporarily
   * unavailable". */
  readyTimeoutMs?: number;
  /** Reads up to this many bytes synchronously during a full sync (`SessionSync`; 0: all
   * asynchronous). */
  syncReadLimit?: number;
  /** Where session files are read (default: Node `fs`; a remote window: the window's files too). */
  storage?: ChatStorage;
}

/**
 * The dialogs the Secretary serves, for every host (VS Code, MCP, CLI). It finds this workspace's
 * sessions (or all, as the scope says), keeps them fresh through `SessionSync`, and answers
 * queries from the WASM core, where the parsed sessions live. It imports nothing from `vscode`, so
 * the MCP server and the CLI use it unchanged.
 */
export class DialogSessionsService {
  readonly sync: SessionSync;
  private workspace: string | undefined;
  private readonly resolveWorkspace: (() => string | undefined) | undefined;
  private pinned = false;
  private readonly readyTimeoutMs: number;
  private readyFlag = false;
  private started: Promise<SyncReport> | undefined;
  private watching: { dispose(): void } | undefined;
  /** Deferred tools an agent loaded with `tool_load` (names as given), loaded again after the core
   * was re-instantiated: a trap must not make an agent's tools vanish mid-dialog. */
  private readonly loadedTools = new Set<string>();
  private reloadPending = false;
  /** The last local chat that called a tool: the sidebar's "current" dialog. */
  private lastCaller: string | undefined;

  constructor(
    readonly core: WasmCore,
    scope: SessionScope,
    private readonly log: Logger,
    options: DialogSessionsOptions,
  ) {
    this.workspace = options.workspace;
    this.resolveWorkspace = options.resolveWorkspace;
    this.readyTimeoutMs = options.readyTimeoutMs ?? 10_000;
    this.sync = new SessionSync(core, scope, log, options.debounceMs ?? 300, options.syncReadLimit, options.storage);
    core.onDidReset(() => {
      core.run((h) => h.setReady(this.readyFlag));
      // Not here: the host's own reset listeners (tool names, settings) must run first.
      this.reloadPending = this.loadedTools.size > 0;
    });
  }

  get currentWorkspace(): string | undefined {
    return this.workspace;
  }

  /** Serves `key`'s dialogs from now on, the decision of the first scan included (`secretary mcp`
   * started by an agent in a folder it has no log of yet: its first session will be there). */
  pinWorkspace(key: string): void {
    this.workspace = key;
    this.pinned = true;
  }

  get isReady(): boolean {
    return this.readyFlag;
  }

  /** Loads the core (compiled off the main thread, see `WasmCore.warmUp`), scans once, marks the
   * service ready, and (with `watch`) keeps watching. */
  start(watch = true): Promise<SyncReport> {
    this.started ??= this.core.warmUp().then(() => this.sync.sync()).then((report) => {
      if (this.resolveWorkspace && !this.pinned) {
        this.workspace = this.resolveWorkspace();
      }
      this.readyFlag = true;
      this.core.run((h) => h.setReady(true));
      if (watch) {
        this.watching = this.sync.watch();
      }
      this.log.info(`chat sessions ready: ${report.files} files in ${report.ms} ms`);
      return report;
    });
    return this.started;
  }

  onDidChange(listener: () => void): { dispose(): void } {
    return this.sync.onDidChange(listener);
  }

  /** Reads what changed on disk now (unchanged files cost one `stat`). */
  refresh(): Promise<SyncReport> {
    return this.sync.sync();
  }

  /** Runs a tool of the core and returns its JSON text. Waits (bounded) for the first scan and
   * reads what changed on disk first (what the watchers reported, and the calling chat's file), so
   * an agent never gets a stale answer. `call`: the chat that called (VS Code's token); the core
   * then answers for that chat, with its live copy (see `WasmCore.invokeAsync`). */
  async invokeTool(name: string, input: unknown, call?: CallContext): Promise<string> {
    await this.whenReady();
    if (this.readyFlag) {
      await this.sync.freshen(this.filesOf(call));
    }
    if (call?.caller.kind === 'local') {
      this.noteCaller(call.caller.sessionId);
    }
    if (this.reloadPending) {
      this.reloadPending = false;
      await this.reloadTools();
    }
    // Async: tools that make HTTP requests (library docs) fetch and run again, and tools that need
    // the calling chat's live copy get it (`WasmCore.invokeAsync`).
    const text = await this.core.invokeAsync(name, input, this.workspace, undefined, call);
    if (name === 'tool_load') {
      this.noteLoaded(input, text);
    }
    return text;
  }

  private noteLoaded(input: unknown, text: string): void {
    const names = (input as { names?: unknown } | undefined)?.names;
    if (!Array.isArray(names) || !(parse<{ success?: boolean }>(text)?.success ?? false)) {
      return;
    }
    for (const name of names) {
      if (typeof name === 'string') {
        this.loadedTools.add(name);
      }
    }
  }

  private async reloadTools(): Promise<void> {
    const names = [...this.loadedTools];
    const text = await this.core.invokeAsync('tool_load', { names }, this.workspace);
    if (parse<{ success?: boolean }>(text)?.success) {
      this.log.info(`loaded ${names.join(', ')} again after the core restarted`);
    } else {
      this.log.error(`could not load ${names.join(', ')} again after the core restarted: ${text}`);
    }
  }

  /** Renders a prompt of the core (the chat participant, MCP prompts) on fresh sessions, as
   * `invokeTool` does, and returns its JSON text (`{markdown, followups, text?, error?}`). */
  async renderPrompt(name: string, args: Record<string, unknown> | string, call?: CallContext): Promise<string> {
    await this.whenReady();
    if (this.readyFlag) {
      await this.sync.freshen(this.filesOf(call));
    }
    if (call?.caller.kind === 'local') {
      this.noteCaller(call.caller.sessionId);
    }
    return this.core.prompt(name, args, this.workspace, call);
  }

  /** The session files of the calling chat that the store knows (a new chat's file is reported by
   * the watchers). */
  private filesOf(call: CallContext | undefined): string[] {
    if (call?.caller.kind !== 'local') {
      return [];
    }
    const known = this.getSession(call.caller.sessionId);
    return known?.path ? [known.path] : [];
  }

  private noteCaller(sessionId: string): void {
    if (this.lastCaller !== sessionId) {
      this.lastCaller = sessionId;
      this.callerListeners.forEach((listener) => listener());
    }
  }

  private readonly callerListeners = new Set<() => void>();

  /** Fires when another chat becomes the one that called last (the sidebar's current dialog). */
  onDidChangeCaller(listener: () => void): { dispose(): void } {
    this.callerListeners.add(listener);
    return { dispose: () => this.callerListeners.delete(listener) };
  }

  /**
   * The dialog of an agent's own session: `source` `copilot-cli`, `claude-code`, `codex` (or
   * `vscode`) and the session id the agent uses (a VS Code chat's `copilotcli:` /
   * `claude-code:` session resource path). `undefined` when no such log was read.
   */
  findDialog(source: string, sessionId: string): StoredDialog | undefined {
    return parse<StoredDialog | null>(this.core.run((h) => h.findDialog(source, sessionId))) ?? undefined;
  }

  getSession(sessionId: string): StoredDialog | undefined {
    return parse<StoredDialog | null>(this.core.run((h) => h.dialog(sessionId))) ?? undefined;
  }

  /** The chat that called a tool last, when its dialog is known; else the most recently active
   * dialog of this workspace. */
  getCurrentDialog(): StoredDialog | undefined {
    const caller = this.lastCaller === undefined ? undefined : this.getSession(this.lastCaller);
    if (caller?.available) {
      return caller;
    }
    return parse<StoredDialog | null>(this.core.run((h) => h.currentDialog(this.workspace))) ?? undefined;
  }

  getCurrentSessionId(): string | undefined {
    return this.getCurrentDialog()?.dialog.sessionId;
  }

  /** The dialogs of this workspace (every workspace when it has none), newest first, in the core's
   * order (ties by session id, as `list_dialogs` answers). */
  getDialogs(): StoredDialog[] {
    return parse<StoredDialog[]>(this.core.run((h) => h.recentDialogs(this.workspace))) ?? [];
  }

  getDialogHistory(filter: HistoryFilter = {}): StoredDialog[] {
    const dialogs = this.getDialogs().filter((entry) => !filter.status || entry.dialog.status === filter.status);
    return filter.limit !== undefined && filter.limit >= 0 ? dialogs.slice(0, filter.limit) : dialogs;
  }

  dispose(): void {
    this.watching?.dispose();
    this.sync.stopWatching();
  }

  private async whenReady(): Promise<void> {
    if (this.readyFlag) {
      return;
    }
    const started = this.start();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.readyTimeoutMs);
    });
    await Promise.race([started.then(() => undefined), timeout]);
    clearTimeout(timer);
  }
}

function parse<T>(text: string): T | undefined {
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}
