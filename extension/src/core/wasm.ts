import * as path from 'path';

import type { CallContext, LiveOutcome } from '../chat/caller';
import type { HostBridge } from '../host/bridge';
import { HttpExchange, MAX_HTTP_REPLAYS, withHttp, type HttpOutcome, type HttpRequest } from '../host/http';
import type { Logger } from '../log';
import type { ApplyOutcome } from './generated/ApplyOutcome';
import type { ReadPlan } from './generated/ReadPlan';

// The JSON the facade returns is typed by the declarations scripts/gen-ts-types generates from the
// Rust types (./generated): `tools()` is `ToolListing[]`, `prompts()` `PromptListing[]`, `prompt()`
// a `PromptAnswer`, `dialogs()` `StoredDialog[]`, `dialog()`/`currentDialog()`/`findDialog()` a
// `StoredDialog` or `null`.

/** The wasm-bindgen `Secretary` object (crates/secretary-wasm). */
export interface SecretaryHandle {
  setReady(ready: boolean): void;
  /** What to read of the file (`SessionStore::plan`). */
  plan(path: string, size: number, mtimeMs: number): ReadPlan;
  apply(path: string, workspace: string | undefined, size: number, mtimeMs: number, offset: number, bytes: Uint8Array): ApplyOutcome;
  remove(path: string): void;
  generation(): number;
  /** `host`: the optional I/O bridge for tools that need files (flags, content). */
  invoke(
    name: string,
    argsJson: string,
    workspace: string | undefined,
    host?: HostBridge,
    callerJson?: string,
    live?: Uint8Array,
    liveError?: string,
  ): string;
  setIncludeExamples(include: boolean): void;
  tools(): string;
  /** The Copilot language server's client tools: `[{plain, deferred, tool: {name, description, inputSchema}}]`. */
  copilotLsTools(): string;
  /** Renders a prompt (`first` / `recall_first_request`...): `argsJson` is named arguments (an
   * object) or the words after a slash command (a string). Answers `PromptAnswer` JSON. */
  prompt(
    name: string,
    argsJson: string,
    workspace: string | undefined,
    callerJson?: string,
    live?: Uint8Array,
    liveError?: string,
  ): string;
  /** Every prompt's names, summary, generated description and arguments, as JSON text. */
  prompts(): string;
  configureTools(ownPrefix: string, legacyPrefixes: string[], excluded?: string[]): void;
  setExternalTools(toolsJson: string): void;
  setSemanticSearch(on: boolean): void;
  catalogTools(): string;
  dialogs(): string;
  dialog(sessionId: string): string;
  currentDialog(workspace: string | undefined): string;
  /** Serve only these sources' dialogs (`[]`: every source). */
  setSources(sources: string[]): void;
  /** The agent whose own latest dialog of the workspace is current (`undefined`: any). */
  setCurrentSource(source: string | undefined): void;
  /** The dialog of `source` with `sessionId` (JSON text, `null` when unknown). */
  findDialog(source: string, sessionId: string): string;
  free(): void;
}

/** The wasm-bindgen module's exports. */
/** A standalone tool index (`secretary find-tools`). */
export interface ToolIndexHandle {
  search(query: string, limit: number): string;
  size(): number;
  free(): void;
}

export interface WasmExports {
  Secretary: new () => SecretaryHandle;
  ToolIndex: new (catalogJson: string, semantic?: boolean) => ToolIndexHandle;
  parseSession(fileName: string, bytes: Uint8Array): string;
  parseSessionAs(source: string, fileName: string, bytes: Uint8Array): string;
  responseDetails(fileName: string, bytes: Uint8Array, index: number): string;
  /** The largest session file the core reads (bytes). */
  maxSessionBytes(): number;
  languageModelTools(): string;
  /** A tool's JSON text as the answer to `conversation/invokeClientTool`: `[{content, status}, null]`. */
  copilotLsResult(text: string): string;
  /** The MCP name of a tool (`MCP_TOOL_PREFIX` semantics; `undefined` prefix: `secretary`). */
  toolName(prefix: string | undefined, overridesJson: string, plain: string): string;
  /** The plain name of the tool an MCP host calls `name`, or `undefined`. */
  toolPlainName(prefix: string | undefined, overridesJson: string, name: string): string | undefined;
  version(): string;
  debugTrap(): void;
}

/** Whether a tool's answer is the core asking for the calling chat's live copy. */
export function asksForLive(text: string): boolean {
  if (!text.includes('live_pending')) {
    return false;
  }
  try {
    return (JSON.parse(text) as { error_type?: unknown }).error_type === 'live_pending';
  } catch {
    return false;
  }
}

function liveBytes(live: LiveOutcome | undefined): Uint8Array | undefined {
  return live && 'bytes' in live ? live.bytes : undefined;
}

function liveError(live: LiveOutcome | undefined): string | undefined {
  return live && 'error' in live ? live.error : undefined;
}

/** `WebAssembly.RuntimeError`: what a trap (a Rust panic, `unreachable`) throws. Reached through
 * `globalThis` because the ES2022 + Node typings used here do not declare `WebAssembly`. */
const RuntimeError = (globalThis as unknown as { WebAssembly: { RuntimeError: new () => Error } }).WebAssembly
  .RuntimeError;

/** Thrown when the module trapped (a Rust panic). The core has already been re-instantiated. */
export class CoreTrapError extends Error {
  constructor(cause: Error) {
    super(`The Secretary core failed and was restarted: ${cause.message}`);
    this.name = 'CoreTrapError';
  }
}

/**
 * Owns the WASM core: loads the wasm-pack `nodejs` glue from `wasmDir`, runs calls, and when the
 * module traps (a panic is a `WebAssembly.RuntimeError`) logs it, drops the instance and loads a
 * fresh one, so a bug in the core never takes the extension host down. The state of a trapped
 * instance cannot be trusted, so listeners of `onDidReset` feed the sessions again.
 */
export class WasmCore {
  private exports!: WasmExports;
  private handle!: SecretaryHandle;
  private readonly resetListeners = new Set<() => void>();
  private resets = 0;
  private host: HostBridge | undefined;
  private includeExamples = false;

  constructor(
    private readonly wasmDir: string,
    private readonly log: Logger,
  ) {
    this.load();
  }

  /** The glue file the build puts beside the bundle. */
  static glueFile(wasmDir: string): string {
    return path.join(wasmDir, 'secretary_wasm.js');
  }

  get version(): string {
    return this.exports.version();
  }

  /** How many times the module was re-instantiated after a trap. */
  get resetCount(): number {
    return this.resets;
  }

  onDidReset(listener: () => void): { dispose(): void } {
    this.resetListeners.add(listener);
    return { dispose: () => this.resetListeners.delete(listener) };
  }

  /** Runs `fn` against the live instance; a trap becomes a `CoreTrapError` after recovery. */
  run<T>(fn: (handle: SecretaryHandle, exports: WasmExports) => T): T {
    try {
      return fn(this.handle, this.exports);
    } catch (err) {
      if (err instanceof RuntimeError) {
        this.log.error(`WASM core trapped: ${err.message}; re-instantiating`);
        this.resets += 1;
        this.load();
        for (const listener of [...this.resetListeners]) {
          try {
            listener();
          } catch (listenerError) {
            this.log.error(`reset listener failed: ${String(listenerError)}`);
          }
        }
        throw new CoreTrapError(err);
      }
      throw err;
    }
  }

  /** Runs a tool synchronously. Tools that make HTTP requests (library docs) need `invokeAsync`; here
   * they answer that this host cannot make HTTP requests. */
  invoke(name: string, args: unknown, workspace: string | undefined): string {
    return this.run((handle) => handle.invoke(name, argsJson(args), workspace, this.host));
  }

  /**
   * Runs a tool with HTTP: the host answers the core's GETs from this call's `HttpExchange`; when the
   * core asked for a URL not fetched yet, the URLs are fetched and the call runs again (at most
   * `MAX_HTTP_REPLAYS` times; see `host/http.ts`). Tools without HTTP run once, as with `invoke`.
   *
   * `call` names the chat that called (VS Code's token): when the core needs that chat's live copy
   * it answers `live_pending`; the copy is taken once (`call.live`) and the call runs again with it.
   */
  async invokeAsync(
    name: string,
    args: unknown,
    workspace: string | undefined,
    fetcher?: (request: HttpRequest) => Promise<HttpOutcome>,
    call?: CallContext,
  ): Promise<string> {
    const text = argsJson(args);
    const exchange = new HttpExchange(fetcher);
    const host = this.host && withHttp(this.host, exchange);
    const callerJson = call && JSON.stringify(call.caller);
    let live: LiveOutcome | undefined;
    for (let round = 0; ; round++) {
      const answer = this.run((handle) =>
        handle.invoke(name, text, workspace, host, callerJson, liveBytes(live), liveError(live)),
      );
      if (call && live === undefined && asksForLive(answer)) {
        live = await call.live();
        continue;
      }
      if (!exchange.hasPending || round >= MAX_HTTP_REPLAYS) {
        return answer;
      }
      const urls = await exchange.fetchPending();
      this.log.debug(`Tool ${name} fetched ${urls.join(', ')}; running it again`);
    }
  }

  /** Renders a prompt of the core: its tools' logic called directly, not the tool path. With a
   * calling chat, its live copy is taken first (a prompt is always about that chat). */
  async prompt(
    name: string,
    args: Record<string, unknown> | string,
    workspace: string | undefined,
    call?: CallContext,
  ): Promise<string> {
    const live = call ? await call.live() : undefined;
    const callerJson = call && JSON.stringify(call.caller);
    return this.run((handle) =>
      handle.prompt(name, argsJson(args), workspace, callerJson, liveBytes(live), liveError(live)),
    );
  }

  /** The I/O bridge every `invoke` passes to the core (`undefined`: tools that need files answer
   * that this host offers no file access). */
  setHost(host: HostBridge | undefined): void {
    this.host = host;
  }

  /** The I/O bridge set by `setHost` (a host may wrap it). */
  getHost(): HostBridge | undefined {
    return this.host;
  }

  /** Offers (or hides) the example tools; kept across re-instantiation. */
  setIncludeExamples(include: boolean): void {
    this.includeExamples = include;
    this.handle.setIncludeExamples(include);
  }

  private load(): void {
    const glue = WasmCore.glueFile(this.wasmDir);
    // A fresh require of the glue instantiates a fresh module: wasm-bindgen's nodejs target
    // instantiates at load time and keeps the instance in module state.
    const resolved = require.resolve(glue);
    delete require.cache[resolved];
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    this.exports = require(resolved) as WasmExports;
    this.handle = new this.exports.Secretary();
    if (this.includeExamples) {
      this.handle.setIncludeExamples(true);
    }
  }
}

/** Stands in for a number JSON cannot hold while `argsJson` serializes. */
const NON_FINITE = '\u0000secretary-non-finite-number\u0000';

/**
 * Tool arguments as JSON text for the core. `JSON.parse` reads `1e400` as `Infinity`, which
 * `JSON.stringify` would write as `null`: a flag set to `1e400` would be stored as null. Such a
 * number is written as `1e999` instead, which the core refuses as out of range.
 */
export function argsJson(args: unknown): string {
  let nonFinite = false;
  const text = JSON.stringify(args ?? {}, (_key, value: unknown) => {
    if (typeof value === 'number' && !Number.isFinite(value)) {
      nonFinite = true;
      return NON_FINITE;
    }
    return value;
  });
  return nonFinite ? text.split(JSON.stringify(NON_FINITE)).join('1e999') : text;
}
