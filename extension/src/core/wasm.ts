import * as fs from 'fs';
import * as path from 'path';

import type { CallContext, LiveOutcome } from '../chat/caller';
import type { HostBridge } from '../host/bridge';
import { HttpExchange, MAX_HTTP_REPLAYS, withHttp, type HttpOutcome, type HttpRequest } from '../host/http';
import type { Logger } from '../log';
import type { ApplyOutcome } from './generated/ApplyOutcome';
import type { DialogSource } from './generated/DialogSource';
import type { ErrorKind } from './generated/ErrorKind';
import type { ReadPlan } from './generated/ReadPlan';
import type { PromptListing } from './generated/PromptListing';
import type { ToolListing } from './generated/ToolListing';
import { errorMessage } from '../log';

// The boundary. `SecretaryHandle`, `CatalogHandle` and `WasmExports` restate the module's exports
// with the JSON they return named: the text is typed by the declarations scripts/gen-ts-types
// generates from the Rust types (./generated): `tools()` is `ToolListing[]`, `prompts()`
// `PromptListing[]`, `prompt()` a `PromptAnswer`, `dialogs()` `StoredDialog[]`,
// `dialog()`/`currentDialog()`/`findDialog()` a `StoredDialog` or `null`. wasm-pack's own
// declarations (`build/wasm/secretary_wasm.d.ts`) only say `string` and `any`, so they are not
// imported but checked: `scripts/check-wasm-boundary` (run by scripts/test after the build) fails
// when an export is missing here, named here but gone, or takes other arguments.

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
  /** The dialogs of `workspace` (all when `undefined`), newest first, ties by session id: the core's one order. */
  recentDialogs(workspace: string | undefined): string;
  /** `recentDialogs` without the requests: `DialogSummary[]` (a size that does not grow with the text). */
  dialogSummaries(workspace: string | undefined): string;
  /** The workspaces of the served dialogs, each once: a JSON array of strings. */
  dialogWorkspaces(): string;
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

/** A standalone catalog (`secretary find-tools`). */
export interface CatalogHandle {
  search(query: string, limit: number): string;
  size(): number;
  free(): void;
}

/** The wasm-bindgen module's exports. */
export interface WasmExports {
  Secretary: new () => SecretaryHandle;
  Catalog: new (catalogJson: string, semantic?: boolean) => CatalogHandle;
  parseSession(fileName: string, bytes: Uint8Array): string;
  parseSessionAs(source: string, fileName: string, bytes: Uint8Array): string;
  responseDetails(fileName: string, bytes: Uint8Array, index: number): string;
  /** The largest session file the core reads (bytes). */
  maxSessionBytes(): number;
  /** A tool's JSON text as the answer to `conversation/invokeClientTool`: `[{content, status}, null]`. */
  copilotLsResult(text: string): string;
  /** What an MCP host puts before plain names (`MCP_TOOL_PREFIX` semantics; `undefined`: `secretary_`). */
  toolPrefix(prefix: string | undefined): string;
  /** Every agent the core reads, by wire name: a JSON array of `DialogSource` (`listing.json` holds it). */
  dialogSources(): string;
  version(): string;
  debugTrap(): void;
  /** A hook's stdin, checked by the core (`secretary hook`): JSON text of {@link HookInput}; throws on
   * an unknown event or input that is not a JSON object. */
  hookInput(event: string, input: Uint8Array): string;
  /** What `secretary hook` prints for the agent's log, or `undefined` for nothing. */
  hookAnswer(agent: string, event: string, input: Uint8Array, fileName: string, bytes: Uint8Array, maxChars: number | undefined): string | undefined;
  /** The largest hook input the core reads (bytes). */
  hookMaxInputBytes(): number;
}

/** What the core read from a hook's stdin (`secretary_core::recall::HookInput`). */
export interface HookInput {
  sessionId?: string;
  transcriptPath?: string;
  source?: string;
  refused?: string[];
  wantsRecall: boolean;
}

/** The kind with which the core asks for the calling chat's live copy. */
const LIVE_PENDING: ErrorKind = 'live_pending';

/** Whether a tool's answer is the core asking for the calling chat's live copy. */
export function asksForLive(text: string): boolean {
  if (!text.includes(LIVE_PENDING)) {
    return false;
  }
  try {
    return (JSON.parse(text) as { error_type?: unknown }).error_type === LIVE_PENDING;
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

/** A compiled `WebAssembly.Module` (opaque here). */
type CompiledModule = object & { readonly __compiledWasm?: never };

/** The parts of `WebAssembly` used here, reached through `globalThis` because the ES2022 + Node
 * typings used here do not declare it. `RuntimeError` is what a trap (a Rust panic,
 * `unreachable`) throws. */
const WasmApi = (
  globalThis as unknown as {
    WebAssembly: {
      RuntimeError: new () => Error;
      Module: new (bytes: Uint8Array) => CompiledModule;
      compile(bytes: Uint8Array): Promise<CompiledModule>;
    };
  }
).WebAssembly;
const RuntimeError = WasmApi.RuntimeError;

/** Thrown when the module trapped (a Rust panic). The core has already been re-instantiated. */
export class CoreTrapError extends Error {
  constructor(cause: Error) {
    super(`The Secretary core failed and was restarted: ${cause.message}`);
    this.name = 'CoreTrapError';
  }
}

/** What a host shows before the module is loaded: the core's own listings, written at build time
 * by this very module (`scripts/wasm-glue.mjs` writes `listing.json` beside it). */
export interface StaticListing {
  version: string;
  /** Every tool, the example tools included (`example: true`). */
  tools: ToolListing[];
  prompts: PromptListing[];
  /** Every agent the core reads dialogs of (`dialogSources()`): what `--source` may name. */
  sources: DialogSource[];
}

/** The patched glue's own export (see `scripts/wasm-glue.mjs`). */
interface Glue extends WasmExports {
  __instantiate(module?: CompiledModule): void;
}

/** Compiled modules by file: compiling is the expensive part of loading (~100 ms for 5 MB), and
 * a compiled module instantiates any number of times (a fresh core after a trap, every core of a
 * process). */
const compiled = new Map<string, CompiledModule | Promise<CompiledModule>>();

/** Compiles `file` with `WebAssembly.compile` (V8 compiles on its worker threads), once per file. */
function compileInBackground(file: string): Promise<CompiledModule> {
  const known = compiled.get(file);
  if (known) {
    return Promise.resolve(known);
  }
  const compiling = fs.promises.readFile(file).then((bytes) => WasmApi.compile(bytes));
  compiled.set(file, compiling);
  // Unless a synchronous load put its own module there meanwhile.
  compiling.then(
    (module) => {
      if (compiled.get(file) === compiling) {
        compiled.set(file, module);
      }
    },
    () => {
      if (compiled.get(file) === compiling) {
        compiled.delete(file);
      }
    },
  );
  return compiling;
}

/**
 * Owns the WASM core: loads the wasm-pack `nodejs` glue from `wasmDir`, runs calls, and when the
 * module traps (a panic is a `WebAssembly.RuntimeError`) logs it, drops the instance and loads a
 * fresh one, so a bug in the core never takes the extension host down. The state of a trapped
 * instance cannot be trusted, so listeners of `onDidReset` feed the sessions again.
 *
 * Nothing is loaded until needed: the listings come from `listing.json`, `configure` records
 * settings for every instance, `warmUp` compiles the module off the main thread (V8 compiles
 * asynchronously on its worker threads) and the first `run` instantiates it (compiling it then,
 * synchronously, if no warm-up finished), so a host can start without paying for the module.
 */
export class WasmCore {
  private exports: WasmExports | undefined;
  private handle: SecretaryHandle | undefined;
  private readonly resetListeners = new Set<() => void>();
  private readonly configurers: ((handle: SecretaryHandle) => void)[] = [];
  private resets = 0;
  private host: HostBridge | undefined;
  private includeExamples = false;
  private staticListing: StaticListing | undefined;
  private warming: Promise<void> | undefined;

  constructor(
    private readonly wasmDir: string,
    private readonly log: Logger,
  ) {}

  /** The glue file the build puts beside the bundle. */
  static glueFile(wasmDir: string): string {
    return path.join(wasmDir, 'secretary_wasm.js');
  }

  /** The module file the build puts beside the bundle. */
  static moduleFile(wasmDir: string): string {
    return path.join(wasmDir, 'secretary_wasm_bg.wasm');
  }

  /** The core's version (from its listing: the module is not loaded for it). */
  get version(): string {
    return this.listing.version;
  }

  /** The core's listings as the build wrote them (read once, on first use). */
  get listing(): StaticListing {
    this.staticListing ??= JSON.parse(fs.readFileSync(path.join(this.wasmDir, 'listing.json'), 'utf8')) as StaticListing;
    return this.staticListing;
  }

  /** The tools this host offers, as the core's `tools()` lists them (example tools only when
   * included), without loading the module. */
  tools(): ToolListing[] {
    return this.listing.tools.filter((tool) => this.includeExamples || !tool.example);
  }

  /** Whether an instance is live (the module was loaded). */
  get isLoaded(): boolean {
    return this.handle !== undefined;
  }

  /** How many times the module was re-instantiated after a trap. */
  get resetCount(): number {
    return this.resets;
  }

  onDidReset(listener: () => void): { dispose(): void } {
    this.resetListeners.add(listener);
    return { dispose: () => this.resetListeners.delete(listener) };
  }

  /** Applies `fn` (settings) to the live instance and to every later one (the first load, a fresh
   * core after a trap) before anything else runs on it. Does not load the module. */
  configure(fn: (handle: SecretaryHandle) => void): void {
    this.configurers.push(fn);
    if (this.handle) {
      fn(this.handle);
    }
  }

  /** Starts compiling the module on V8's worker threads without instantiating it (the instance,
   * its memory and its first calls are for `warmUp` or the first `run`). */
  precompile(): void {
    compileInBackground(WasmCore.moduleFile(this.wasmDir)).catch(() => undefined);
  }

  /**
   * Compiles the module asynchronously (off the main thread) and then instantiates it, so that the
   * first call does not wait for a synchronous compile. Idempotent; resolves at once when loaded.
   * Never rejects: if the background compile fails, the next `run` loads synchronously and throws.
   */
  warmUp(): Promise<void> {
    this.warming ??= compileInBackground(WasmCore.moduleFile(this.wasmDir))
      .then(() => {
        // A `run` may have loaded it meanwhile (synchronously).
        if (!this.handle) {
          this.load();
        }
      })
      // The next `run` loads it synchronously and reports what is wrong to its caller.
      .catch((err) => this.log.warn(`loading the WASM core in the background failed: ${errorMessage(err)}`));
    return this.warming;
  }

  /** Runs `fn` against the live instance (loading it first if needed); a trap becomes a
   * `CoreTrapError` after recovery. */
  run<T>(fn: (handle: SecretaryHandle, exports: WasmExports) => T): T {
    if (!this.handle || !this.exports) {
      this.load();
    }
    try {
      return fn(this.handle as SecretaryHandle, this.exports as WasmExports);
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
    let live: LiveOutcome | undefined;
    for (let round = 0; ; round++) {
      // Read each round: waiting for an agent's log (`call.live`) updates what the caller is.
      const callerJson = call && JSON.stringify(call.caller);
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
    this.handle?.setIncludeExamples(include);
  }

  private load(): void {
    const started = performance.now();
    const file = WasmCore.moduleFile(this.wasmDir);
    const ready = compiled.get(file);
    let module: CompiledModule;
    if (ready instanceof WasmApi.Module) {
      module = ready;
    } else {
      // Not compiled yet (or still compiling in the background): compile now, synchronously.
      module = new WasmApi.Module(fs.readFileSync(file));
      compiled.set(file, module);
    }
    const glue = WasmCore.glueFile(this.wasmDir);
    // A fresh require of the glue holds a fresh instance: wasm-bindgen's glue keeps the instance
    // in module state.
    const resolved = require.resolve(glue);
    delete require.cache[resolved];
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const exports = require(resolved) as Glue;
    exports.__instantiate(module);
    const handle = new exports.Secretary();
    if (this.includeExamples) {
      handle.setIncludeExamples(true);
    }
    for (const configure of this.configurers) {
      configure(handle);
    }
    this.exports = exports;
    this.handle = handle;
    this.log.debug(`WASM core loaded in ${(performance.now() - started).toFixed(1)} ms${ready instanceof WasmApi.Module ? ' (compiled in the background)' : ''}`);
  }
}

/** Stands in for a number JSON cannot hold while `argsJson` serializes. */
const NON_FINITE = '\u0000secretary-non-finite-number\u0000';

/** Arguments nested past the core's limit (128 levels), in the place of arguments too deep for
 * `JSON.stringify`'s stack: the core refuses them as it refuses any too deep. */
const TOO_DEEP = `{"arguments":${'['.repeat(200)}${']'.repeat(200)}}`;

/**
 * Tool arguments as JSON text for the core. `JSON.parse` reads `1e400` as `Infinity`, which
 * `JSON.stringify` would write as `null`: a flag set to `1e400` would be stored as null. Such a
 * number is written as `1e999` instead, which the core refuses as out of range. Arguments nested
 * so deep that `JSON.stringify` runs out of stack (an MCP client's 20,000 brackets parse fine)
 * become {@link TOO_DEEP}, so the agent gets the core's `invalid_arguments` answer, not "Maximum
 * call stack size exceeded".
 */
export function argsJson(args: unknown): string {
  let nonFinite = false;
  let text: string;
  try {
    text = JSON.stringify(args ?? {}, (_key, value: unknown) => {
      if (typeof value === 'number' && !Number.isFinite(value)) {
        nonFinite = true;
        return NON_FINITE;
      }
      return value;
    });
  } catch (err) {
    if (err instanceof RangeError) {
      return TOO_DEEP;
    }
    throw err;
  }
  return nonFinite ? text.split(JSON.stringify(NON_FINITE)).join('1e999') : text;
}
