import { spawn, type ChildProcess } from 'child_process';
import * as path from 'path';
import { pathToFileURL } from 'url';

import { createMessageConnection, ProgressType, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';

import { errorMessage, type Logger } from '../log';
import type { ClientTool, ClientTools, InvokeClientToolParams } from './tools';
import { TurnProgress, type TurnOutcome, type TurnSink } from './turn';

/** How long `dispose` waits for the server to answer `shutdown`. */
const SHUTDOWN_ANSWER_MS = 2_000;
/** How long `dispose` lets the server exit on its own before it is ended. */
const EXIT_GRACE_MS = 3_000;

/**
 * The methods of `@github/copilot-language-server` this client uses (checked against 1.539.0:
 * its README for the handshake and sign-in, its `dist/main.js` for the conversation methods and
 * their TypeBox schemas). Requests the server sends to a client are answered as `[result, error]`,
 * which it unpacks.
 */
export const METHODS = {
  initialize: 'initialize',
  initialized: 'initialized',
  didChangeConfiguration: 'workspace/didChangeConfiguration',
  /** `{options?: {localChecksOnly?, forceRefresh?}}` → `{status: "OK" | "NotSignedIn" | ..., user?}`. */
  checkStatus: 'checkStatus',
  /** `{tools: [{name, description, inputSchema?}]}` → every tool the model may get. */
  registerTools: 'conversation/registerTools',
  /** Server → client: `{name, input, conversationId, turnId, roundId, toolCallId}`. */
  invokeClientTool: 'conversation/invokeClientTool',
  /** Server → client: `{name, title, message, input, conversationId, turnId, roundId, toolCallId}`
   * → `[{result: "accept" | "dismiss"}, null]`. */
  invokeClientToolConfirmation: 'conversation/invokeClientToolConfirmation',
  /** `{workDoneToken, turns: [{request}], chatMode?: "Ask" | "Agent", modelInfo?: {id}, workspaceFolder?,
   * workspaceFolders?, computeSuggestions?}` → `{conversationId, turnId, modelName?}` once the turn
   * has ended; the turn is reported as `$/progress` of `workDoneToken` meanwhile. */
  conversationCreate: 'conversation/create',
  /** `{workDoneToken, conversationId, message, chatMode?, modelInfo?, workspaceFolder(s)?}`: a
   * follow-up turn, answered and reported as `conversation/create`. */
  conversationTurn: 'conversation/turn',
  /** `{}` → `[{id, modelName, isChatDefault, isChatFallback, ...}]`: the models of the signed-in user. */
  models: 'copilot/models',
  /** `{textDocument: {uri, languageId, version, text}}`: a file the client has written. */
  didOpen: 'textDocument/didOpen',
  /** `{textDocument: {uri, version}, contentChanges: [{text}]}`: the new content of an open file. */
  didChange: 'textDocument/didChange',
  shutdown: 'shutdown',
  exit: 'exit',
} as const;

/** How to start the language server. */
export interface ServerCommand {
  command: string;
  args: string[];
  /** `npx` on Windows is a `.cmd`, which needs a shell. */
  shell?: boolean;
  /** Where the command came from, for the log. */
  source: '--server' | 'COPILOT_LS_PATH' | 'npx';
}

/**
 * The language server to start: `--server <path>`, else `$COPILOT_LS_PATH`, else `npx --yes
 * @github/copilot-language-server`. A `.js`/`.cjs`/`.mjs` file (such as the package's
 * `dist/language-server.js`) runs with this Node.js; anything else is run as it is (the native
 * `copilot-language-server` binary). Always with `--stdio`.
 */
export function serverCommand(explicit: string | undefined, env: NodeJS.ProcessEnv = process.env): ServerCommand {
  const given = explicit?.trim() ? { file: explicit.trim(), source: '--server' as const } : undefined;
  const fromEnv = env.COPILOT_LS_PATH?.trim() ? { file: env.COPILOT_LS_PATH.trim(), source: 'COPILOT_LS_PATH' as const } : undefined;
  const chosen = given ?? fromEnv;
  if (chosen) {
    const file = path.resolve(chosen.file);
    return /\.[cm]?js$/i.test(file)
      ? { command: process.execPath, args: [file, '--stdio'], source: chosen.source }
      : { command: file, args: ['--stdio'], source: chosen.source };
  }
  const windows = process.platform === 'win32';
  return {
    command: windows ? 'npx.cmd' : 'npx',
    args: ['--yes', '@github/copilot-language-server', '--stdio'],
    shell: windows,
    source: 'npx',
  };
}

/** One turn to run: the user's text and how. */
export interface TurnRequest {
  prompt: string;
  /** `agent` (the default: tools are called) or `ask`. */
  mode: 'agent' | 'ask';
  /** A model id from the server's `/models`; the server's default when absent. */
  model?: string;
  /** Continue this conversation (`conversation/turn`); a new one when absent. */
  conversationId?: string;
}

export interface CopilotLsClientOptions {
  server: ServerCommand;
  /** The folder the language server is told about (`workspaceFolders`, `rootUri`). */
  workspaceFolder: string;
  /** The Secretary's version, sent as `editorPluginInfo`. */
  version: string;
  tools: ClientTools;
  log: Logger;
  /** How long the handshake may take (default `startTimeoutMs()`). */
  startTimeoutMs?: number;
}

/** How long a server has to answer the handshake: `SECRETARY_COPILOT_LS_START_MS`, else 60 s (the
 * real server starts in a few seconds; one that never answers `initialize` must not hold us forever). */
export function startTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env.SECRETARY_COPILOT_LS_START_MS);
  return Number.isFinite(value) && value > 0 ? value : 60_000;
}

/**
 * A JSON-RPC client of the Copilot language server over its stdio (Content-Length framing, by
 * `vscode-jsonrpc`): starts the server, does the LSP handshake the server asks for
 * (`initialize` with `editorInfo`/`editorPluginInfo`, `initialized`,
 * `workspace/didChangeConfiguration`), reports the sign-in status, registers the Secretary's tools
 * and then serves `conversation/invokeClientTool` (and accepts every
 * `conversation/invokeClientToolConfirmation`) until the server exits.
 */
export class CopilotLsClient {
  private child: ChildProcess | undefined;
  private connection: MessageConnection | undefined;
  private exitCode: Promise<number> | undefined;
  private registered = 0;
  private turns = 0;
  private chosenModel: string | undefined;
  private readonly versions = new Map<string, number>();

  constructor(private readonly options: CopilotLsClientOptions) {}

  /** How many tools the server has been given so far. */
  get registeredCount(): number {
    return this.registered;
  }

  /** Starts the server, completes the handshake and registers the active tools. Rejects when the
   * server cannot be started or refuses the handshake or the registration. */
  async start(): Promise<void> {
    const { server, log } = this.options;
    log.info(`starting the Copilot language server (${server.source}): ${[server.command, ...server.args].join(' ')}`);
    const child = spawn(server.command, server.args, { stdio: ['pipe', 'pipe', 'pipe'], shell: server.shell ?? false, windowsHide: true });
    this.child = child;
    const spawned = new Promise<void>((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', (err) => reject(new Error(`cannot start the Copilot language server (${server.command}): ${err.message}`)));
    });
    this.exitCode = new Promise<number>((resolve) => {
      child.once('exit', (code, signal) => {
        log.info(`the Copilot language server exited (${signal ?? `code ${code}`})`);
        resolve(code ?? 1);
      });
      child.once('error', () => resolve(1));
    });
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      for (const line of chunk.split(/\r?\n/).filter((l) => l.trim())) {
        log.debug(`[language server] ${line}`);
      }
    });
    await spawned;

    const connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!), {
      error: (message) => log.error(`JSON-RPC: ${message}`),
      warn: (message) => log.warn(`JSON-RPC: ${message}`),
      info: (message) => log.debug(`JSON-RPC: ${message}`),
      log: (message) => log.debug(`JSON-RPC: ${message}`),
    });
    this.connection = connection;
    this.listen(connection);
    connection.listen();
    // A server that dies before answering must not leave the handshake waiting forever.
    const died = this.exitCode.then((code) => Promise.reject(new Error(`the Copilot language server exited (code ${code}) during start-up`)));
    // Nor may one that never answers (issue 27).
    const limit = this.options.startTimeoutMs ?? startTimeoutMs();
    let timer: NodeJS.Timeout | undefined;
    const silent = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`the Copilot language server did not complete the start-up handshake within ${limit} ms`)), limit);
    });
    try {
      await Promise.race([this.handshake(connection), died, silent]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Runs one turn (`conversation/create`, or `conversation/turn` with `conversationId`) and
   * passes its `$/progress` to `sink` until the server answers. Resolves with the reply and, for a
   * failed turn, the server's error (a refused request or an `end` with an error); rejects only when
   * the server exits meanwhile.
   */
  async converse(turn: TurnRequest, sink: TurnSink): Promise<TurnOutcome> {
    const connection = this.connection;
    if (!connection) {
      throw new Error('the Copilot language server is not started');
    }
    const { workspaceFolder } = this.options;
    // A server that dies mid-turn must not leave the turn waiting forever.
    const died = this.whenExited().then((code) => Promise.reject(new Error(`the Copilot language server exited (code ${code}) during the turn`)));
    // 1.539.0 refuses a turn without a model id ("A model id is required").
    let model = turn.model;
    if (!model) {
      try {
        model = await Promise.race([this.defaultModel(connection), died]);
      } catch (err) {
        if (err instanceof Error && /exited \(code/.test(err.message)) {
          throw err;
        }
        return { reply: '', error: `no model to use: ${errorMessage(err)}` };
      }
    }
    const token = `secretary-turn-${++this.turns}`;
    const progress = new TurnProgress(sink);
    const listening = connection.onProgress(new ProgressType<unknown>(), token, (value) => progress.accept(value));
    const uri = pathToFileURL(workspaceFolder).href;
    const common = {
      workDoneToken: token,
      chatMode: turn.mode === 'ask' ? 'Ask' : 'Agent',
      modelInfo: { id: model },
      workspaceFolder: uri,
      workspaceFolders: [{ uri, name: path.basename(workspaceFolder) || workspaceFolder }],
      computeSuggestions: false,
    };
    const request = turn.conversationId
      ? connection.sendRequest(METHODS.conversationTurn, { ...common, conversationId: turn.conversationId, message: turn.prompt })
      : connection.sendRequest(METHODS.conversationCreate, { ...common, turns: [{ request: turn.prompt }] });
    try {
      const result = await Promise.race([request, died]);
      return progress.outcome(result);
    } catch (err) {
      if (err instanceof Error && /exited \(code/.test(err.message)) {
        throw err;
      }
      return { ...progress.outcome(undefined), error: errorMessage(err) };
    } finally {
      listening.dispose();
    }
  }

  /** The user's chat default model (`copilot/models`: the one marked `isChatDefault`, else the
   * fallback, else the first), asked once. */
  private async defaultModel(connection: MessageConnection): Promise<string> {
    if (!this.chosenModel) {
      const models = (await connection.sendRequest(METHODS.models, {})) as unknown;
      const list = (Array.isArray(models) ? models : []).filter(
        (m): m is { id: string; isChatDefault?: unknown; isChatFallback?: unknown } => typeof m?.id === 'string' && m.id.length > 0,
      );
      const chosen = list.find((m) => m.isChatDefault === true) ?? list.find((m) => m.isChatFallback === true) ?? list[0];
      if (!chosen) {
        throw new Error('the language server lists no model (pass --model <id>)');
      }
      this.options.log.info(`model: ${chosen.id} (the default; --model chooses another)`);
      this.chosenModel = chosen.id;
    }
    return this.chosenModel;
  }

  /**
   * Tells the server about a file the client wrote inside the workspace, as an editor would:
   * `textDocument/didOpen` the first time, `textDocument/didChange` (the whole text) after that.
   */
  async announceWrite(file: string, text: string): Promise<void> {
    const connection = this.connection;
    if (!connection) {
      return;
    }
    const uri = pathToFileURL(file).href;
    const version = (this.versions.get(uri) ?? 0) + 1;
    this.versions.set(uri, version);
    if (version === 1) {
      await connection.sendNotification(METHODS.didOpen, { textDocument: { uri, languageId: languageOf(file), version, text } });
    } else {
      await connection.sendNotification(METHODS.didChange, { textDocument: { uri, version }, contentChanges: [{ text }] });
    }
    this.options.log.debug(`announced ${uri} to the language server (version ${version})`);
  }

  /** Resolves with the server's exit code (once it exits). */
  whenExited(): Promise<number> {
    return this.exitCode ?? Promise.resolve(0);
  }

  /** Asks the server to shut down (`shutdown`, waited for `SHUTDOWN_ANSWER_MS`; then `exit`), and
   * ends it if it has not exited within `EXIT_GRACE_MS`. */
  async dispose(): Promise<void> {
    const child = this.child;
    const connection = this.connection;
    if (!child || child.exitCode !== null || child.signalCode !== null) {
      connection?.dispose();
      return;
    }
    const exited = this.whenExited();
    try {
      await Promise.race([connection?.sendRequest(METHODS.shutdown), delay(SHUTDOWN_ANSWER_MS)]);
      await connection?.sendNotification(METHODS.exit);
    } catch {
      // the server may already be gone
    }
    const timer = setTimeout(() => child.kill(), EXIT_GRACE_MS);
    await exited;
    clearTimeout(timer);
    connection?.dispose();
  }

  private listen(connection: MessageConnection): void {
    const { tools, log } = this.options;
    connection.onRequest(METHODS.invokeClientTool, (params: InvokeClientToolParams) => tools.invoke(params));
    connection.onRequest(METHODS.invokeClientToolConfirmation, (params: { name?: string; toolCallId?: string }) => {
      log.debug(`confirmation asked for ${params?.name ?? 'a tool'}: accepted`);
      return [{ result: 'accept' }, null];
    });
    // What the server may ask of any LSP client: answered so that it does not log failures.
    connection.onRequest('workspace/configuration', (params: { items?: unknown[] }) => (params?.items ?? []).map(() => null));
    connection.onRequest('window/workDoneProgress/create', () => null);
    connection.onRequest('client/registerCapability', () => null);
    connection.onRequest('client/unregisterCapability', () => null);
    connection.onNotification('window/logMessage', (params: { message?: string }) => {
      for (const line of String(params?.message ?? '').split(/\r?\n/).filter((l) => l.trim())) {
        log.debug(`[language server] ${line}`);
      }
    });
    connection.onNotification('didChangeStatus', (params: { kind?: string; message?: string }) => {
      if (params?.message) {
        log.info(`language server status: ${params.kind ?? ''} ${params.message}`.replace(/\s+/g, ' '));
      }
    });
    connection.onError(([err]) => log.warn(`JSON-RPC connection: ${err.message}`));
    tools.onDidLoad((loaded) => void this.register(connection, loaded));
  }

  private async handshake(connection: MessageConnection): Promise<void> {
    const { workspaceFolder, version, tools, log } = this.options;
    const uri = pathToFileURL(workspaceFolder).href;
    await connection.sendRequest(METHODS.initialize, {
      processId: process.pid,
      clientInfo: { name: 'copilot-chat-secretary', version },
      rootUri: uri,
      workspaceFolders: [{ uri, name: path.basename(workspaceFolder) || workspaceFolder }],
      capabilities: { workspace: { workspaceFolders: true, configuration: true } },
      initializationOptions: {
        editorInfo: { name: 'secretary-cli', version },
        editorPluginInfo: { name: 'copilot-chat-secretary', version },
      },
    });
    await connection.sendNotification(METHODS.initialized, {});
    await connection.sendNotification(METHODS.didChangeConfiguration, { settings: {} });
    await this.reportSignIn(connection);
    const registered = await this.register(connection, tools.active());
    if (!registered) {
      throw new Error('the Copilot language server refused the tools (see the error above)');
    }
    log.info(`registered ${this.registered} tools with the Copilot language server; serving their calls`);
  }

  /** Logs whether a Copilot user is signed in: the server only calls tools in their agent-mode
   * conversations. A server without `checkStatus` is only noted. */
  private async reportSignIn(connection: MessageConnection): Promise<void> {
    const { log } = this.options;
    try {
      const status = (await connection.sendRequest(METHODS.checkStatus, { options: { localChecksOnly: true } })) as { status?: string; user?: string } | null;
      if (status?.user && (status.status === 'OK' || status.status === 'MaybeOK')) {
        log.info(`signed in to Copilot as ${status.user}`);
      } else {
        log.warn(
          `not signed in to Copilot (${status?.status ?? 'unknown'}): the tools are registered, but the language server calls them only in agent-mode conversations of a signed-in user`,
        );
      }
    } catch (err) {
      log.debug(`checkStatus failed: ${errorMessage(err)}`);
    }
  }

  /** Sends `conversation/registerTools`; false (after logging why) when the server refuses. */
  private async register(connection: MessageConnection, list: ClientTool[]): Promise<boolean> {
    const { log } = this.options;
    if (list.length === 0) {
      return true;
    }
    try {
      await connection.sendRequest(METHODS.registerTools, { tools: list });
      this.registered += list.length;
      log.debug(`registered: ${list.map((tool) => tool.name).join(', ')}`);
      return true;
    } catch (err) {
      log.error(`conversation/registerTools failed: ${errorMessage(err)}`);
      return false;
    }
  }
}

/** The LSP language id of a file, by its extension (`plaintext` when unknown). */
export function languageOf(file: string): string {
  const ext = path.extname(file).toLowerCase();
  const known: Record<string, string> = {
    '.md': 'markdown',
    '.json': 'json',
    '.ts': 'typescript',
    '.js': 'javascript',
    '.rs': 'rust',
    '.py': 'python',
    '.toml': 'toml',
    '.yaml': 'yaml',
    '.yml': 'yaml',
  };
  return known[ext] ?? 'plaintext';
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
