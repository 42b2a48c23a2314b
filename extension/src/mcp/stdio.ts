import { format } from 'util';

import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

import type { WasmCore } from '../core/wasm';
import { errorMessage, stderrLogger, type Logger } from '../log';
import { coreBackend } from './backend';
import { JsonRpcGuard } from './guard';
import { McpLogger } from './logging';
import { prefixProblem, toolNamePrefix } from './names';
import { createSecretaryServer } from './server';
import { agentOfClient, parseSources, type DialogSource } from '../sessions/agents';
import { agentCallOf } from './caller';
import type { DialogSessionsService } from '../sessions/dialogSessionsService';
import { folderKey } from '../sessions/discovery';
import { openSessions, type McpScopeOptions } from '../sessions/standalone';

/** How long a closing server waits for running calls to answer: as long as the slowest call may
 * take (a library-docs call waits for Context7 up to its 120 s timeout; issue 27), then it ends. */
const DRAIN_TIMEOUT_MS = 130_000;
/** After SIGINT/SIGTERM, how long the process may take to end on its own before it is ended. */
const SIGNAL_EXIT_MS = 500;
/** When the first scan starts if no client asked for `tools/list` before. */
const SCAN_DELAY_MS = 250;

export interface McpIo {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
}

/**
 * `secretary mcp`: serves the core's tools over MCP on stdin/stdout until the client closes
 * stdin (or a SIGINT/SIGTERM). stdout carries nothing but protocol messages: logs go to stderr
 * and to the client as logging notifications, and `console.log` is sent to stderr too. Bad input
 * is answered, never fatal. Resolves with the exit code.
 */
export async function runMcpServer(
  core: WasmCore,
  baseLog: Logger,
  options: McpScopeOptions,
  io: McpIo = { stdin: process.stdin, stdout: process.stdout },
): Promise<number> {
  keepStdoutForProtocol();
  const log = new McpLogger(stderrLevel(process.env.SECRETARY_LOG_LEVEL) ?? baseLog);
  const prefix = toolNamePrefix();
  const problem = prefixProblem(prefix);
  if (problem) {
    log.warn(problem);
  }
  const sessions = openSessions(core, log, options);
  // The core loads and the first scan starts once the first `tools/list` was answered (or after
  // SCAN_DELAY_MS, or at the first call, which waits for it): `initialize` and `tools/list` come
  // from the build-time listing and do not share the CPU with compiling the module.
  let scanning = false;
  const startScan = () => {
    clearTimeout(scanTimer);
    if (!scanning) {
      scanning = true;
      sessions.start(false).catch((err) => log.error(`initial session scan failed: ${String(err)}`));
    }
  };
  const scanTimer = setTimeout(startScan, SCAN_DELAY_MS);
  const currentFrom = options['current-from'] ? parseSources([options['current-from']], core.listing.sources)[0] : undefined;
  // Filled once the client said its name (`initialize`); calls come after that.
  let clientName: string | undefined;
  const callerOf = (meta: unknown) => agentCallOf(clientName, meta, process.env, currentFrom ?? agentOfClient(clientName));
  const secretary = createSecretaryServer({
    backend: coreBackend(core, sessions, prefix, callerOf, log),
    prefix,
    log,
    version: core.version,
    onFirstList: startScan,
  });
  const { server } = secretary;
  // Run by Claude Code, Copilot CLI or Codex: "current dialog" is that agent's own latest session
  // of the folder, unless --current-from says otherwise (docs/agents.md).
  const announced = server.oninitialized;
  server.oninitialized = () => {
    announced?.();
    clientName = server.getClientVersion()?.name;
    adoptClient(clientName, { core, sessions, log, options, currentFrom });
  };
  server.onerror = (err) => log.warn(`MCP transport: ${err.message}`);

  const guard = new JsonRpcGuard((reply) => {
    io.stdout.write(`${JSON.stringify(reply)}\n`);
  }, log);
  // The SDK's transport waits for 'drain' with one listener per answer that could not be written
  // at once: a client that pipelines thousands of requests and reads slowly would trip Node's
  // leak warning (10 listeners), which here is no leak, each listener ends with its answer.
  (io.stdout as NodeJS.WritableStream & { setMaxListeners?(n: number): void }).setMaxListeners?.(0);
  io.stdin.pipe(guard);
  await server.connect(new StdioServerTransport(guard, io.stdout as NodeJS.WriteStream));
  log.info(`MCP server ready: ${secretary.registry.active().length} tools, core ${core.version}`);

  return servedUntilClosed({
    io,
    guard,
    log,
    stop: () => clearTimeout(scanTimer),
    whenIdle: () => secretary.whenIdle(),
    close: async () => {
      secretary.dispose();
      sessions.dispose();
      await server.close().catch(() => undefined);
    },
  });
}

/** What `adoptClient` configures, and the options it honours. */
interface ClientContext {
  core: WasmCore;
  sessions: DialogSessionsService;
  log: Logger;
  options: McpScopeOptions;
  /** `--current-from`, checked. */
  currentFrom: DialogSource | undefined;
}

/**
 * What the client's name tells once it said it (`initialize`): the calling agent and its session,
 * the agent's working folder as the workspace (never "every workspace"), and that agent's own
 * latest session as the current dialog, unless `--current-from` names another source.
 */
function adoptClient(client: string | undefined, server: ClientContext): void {
  const { core, sessions, log, options, currentFrom } = server;
  const caller = agentCallOf(client, undefined, process.env, currentFrom ?? agentOfClient(client));
  if (caller) {
    log.info(`client ${client ?? '(unnamed)'}: calls come from ${caller.caller.source} session ${caller.caller.sessionId} (${caller.caller.via})`);
  }
  // An agent's own folder, even before it wrote a log there: never "every workspace".
  if ((caller || agentOfClient(client)) && options.workspace === undefined && !options.all && !options.storage?.length) {
    sessions.pinWorkspace(folderKey(process.cwd()));
    log.info(`workspace: ${folderKey(process.cwd())} (the agent's working folder)`);
  }
  if (options['current-from']) {
    return;
  }
  const agent = agentOfClient(client);
  if (agent) {
    core.configure((h) => h.setCurrentSource(agent));
    log.info(`client ${client ?? '(unnamed)'}: the current dialog is ${agent}'s own latest session`);
  }
}

/** What the server's lifetime needs: its streams, and how to stop and close what it started. */
interface Lifetime {
  io: McpIo;
  guard: JsonRpcGuard;
  log: Logger;
  /** Cancels what has not started yet (the delayed first scan). */
  stop(): void;
  /** Resolves once every call already read has answered. */
  whenIdle(): Promise<unknown>;
  /** Closes the server, the sessions and the transport. */
  close(): Promise<void>;
}

/**
 * Serves until the client closes stdin (the calls already read are answered first, for at most
 * `DRAIN_TIMEOUT_MS`), stdout breaks, or a SIGINT/SIGTERM ends it at once. Resolves with the exit
 * code.
 */
function servedUntilClosed({ io, guard, log, stop, whenIdle, close }: Lifetime): Promise<number> {
  const onRejection = (reason: unknown) => log.error(`unexpected failure: ${errorMessage(reason)}`);
  const onException = (err: Error) => log.error(`unexpected failure: ${err.message}`);
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);

  return new Promise<number>((resolve) => {
    let finished = false;
    /** `drain`: the client closed stdin; answer the calls already read before closing. */
    const finish = async (code: number, drain: boolean) => {
      if (finished) {
        return;
      }
      finished = true;
      stop();
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      if (drain) {
        // Requests read just before the end start their handlers in the next microtasks.
        await new Promise((done) => setImmediate(done));
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([whenIdle(), new Promise((done) => (timer = setTimeout(done, DRAIN_TIMEOUT_MS)))]);
        clearTimeout(timer);
        // The SDK writes each answer a few microtasks after its handler returned.
        await new Promise((done) => setImmediate(done));
      }
      await close();
      process.off('unhandledRejection', onRejection);
      process.off('uncaughtException', onException);
      resolve(code);
      if (drain && io.stdin === process.stdin) {
        // Nothing is left to answer: a call still waiting past the drain must not keep the process.
        setTimeout(() => process.exit(process.exitCode ?? code), SIGNAL_EXIT_MS).unref();
      }
    };
    // A signal ends the server now, whatever still holds the event loop (an open stdin, a call
    // waiting for the network, the first scan): the client wants it gone, not drained. The exit is
    // forced only if those keep the process alive once everything was closed.
    const onSignal = () => {
      io.stdin.unpipe(guard);
      (io.stdin as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
      void finish(0, false).then(() => setTimeout(() => process.exit(process.exitCode ?? 0), SIGNAL_EXIT_MS).unref());
    };
    // The guard ends once every line before the end of stdin has gone to the transport.
    guard.once('end', () => void finish(0, true));
    io.stdin.once('close', () => {
      if (!guard.writableEnded) {
        guard.end();
      }
    });
    io.stdout.on('error', (err: NodeJS.ErrnoException) => void finish(err.code === 'EPIPE' ? 0 : 1, false));
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  });
}

/** A stderr logger at `SECRETARY_LOG_LEVEL` (MCP clients set environment variables more easily
 * than arguments), or `undefined` to keep the command's own. */
function stderrLevel(level: string | undefined): Logger | undefined {
  const levels = ['trace', 'debug', 'info', 'warn', 'error', 'off'] as const;
  const wanted = levels.find((name) => name === level?.trim().toLowerCase());
  return wanted ? stderrLogger(wanted) : undefined;
}

/** Sends `console.log`/`info`/`debug` (a dependency's stray output) to stderr. */
function keepStdoutForProtocol(): void {
  const toStderr = (...args: unknown[]) => {
    process.stderr.write(`${format(...args)}\n`);
  };
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
}
