import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';

import type { ErrorKind } from '../core/generated/ErrorKind';
import { errorMessage, type Logger } from '../log';
import type { PromptAnswer, PromptListing } from '../chat/participant';
import type { ToolListing } from '../tools/coreTool';
import { McpLogger } from './logging';
import { ToolRegistry, UnknownToolsError } from './registry';
import { failureText, thrownResult, toolResult, type McpToolResult } from './results';

/** What the server needs from the core: its tools and a way to run them. */
export interface ToolBackend {
  /** The core's listing (`Secretary.tools()`). */
  readonly listings: readonly ToolListing[];
  /** Runs a tool of the core by name and returns its JSON text (it may throw, e.g. a trap).
   * `meta`: the call's `_meta` as the client sent it (unchecked), where agents say who calls. */
  invoke(name: string, args: Record<string, unknown>, meta?: unknown): Promise<string>;
  /** Fires after the core was re-instantiated and so forgot which tools were loaded, for a backend
   * that does not load them again itself (the core's backend does: `DialogSessionsService`). */
  onDidReset?(listener: () => void): { dispose(): void };
  /** The core's prompts (`Secretary.prompts()`); the server offers `prompts/*` when present. */
  readonly prompts?: readonly PromptListing[];
  /** Renders a prompt of the core on named arguments and returns its JSON text (`PromptAnswer`).
   * The core calls the tools' logic directly: no tool call is logged for it. */
  prompt?(name: string, args: Record<string, string>): Promise<string>;
}

export interface SecretaryServerOptions {
  backend: ToolBackend;
  /** Put before every plain name (`toolNamePrefix()`). */
  prefix: string;
  /** The host's logger (stderr for `secretary mcp`); messages also go to the client. */
  log: Logger;
  version: string;
  /** Called once, just after the first `tools/list` was answered. */
  onFirstList?: () => void;
}

export interface SecretaryServer {
  server: Server;
  registry: ToolRegistry;
  log: McpLogger;
  /** Resolves when no tool call is running (to answer every call before shutting down). */
  whenIdle(): Promise<void>;
  dispose(): void;
}

export const SERVER_NAME = 'copilot-chat-secretary';

/** The SDK's own JSON Schema validator, created on first use. The server validates only the
 * answers to elicitations, which it never sends; building the validator (Ajv with its formats) on
 * every start was a measurable part of the time to the first `tools/list`. */
function lazyValidator(): jsonSchemaValidator {
  let validator: AjvJsonSchemaValidator | undefined;
  return { getValidator: (schema) => (validator ??= new AjvJsonSchemaValidator()).getValidator(schema) };
}

/**
 * The Secretary as an MCP server: `tools/list` answers the active tools with the core's schemas
 * and descriptions, `tools/call` runs them in the core and returns their JSON as text content.
 * When the core's `tool_load` succeeds, the tools it loaded are registered here and the client
 * gets `notifications/tools/list_changed`. Built on the SDK's low-level `Server` because the tools'
 * JSON Schemas come from the core as they are (`McpServer` wants zod schemas and would validate
 * arguments itself; here the core validates them, with its own field-naming errors).
 */
export function createSecretaryServer(options: SecretaryServerOptions): SecretaryServer {
  const { backend, prefix, version } = options;
  const log = options.log instanceof McpLogger ? options.log : new McpLogger(options.log);
  const registry = new ToolRegistry(backend.listings, prefix);
  const server = new Server(
    { name: SERVER_NAME, title: 'Copilot Chat Secretary', version },
    {
      capabilities: { tools: { listChanged: true }, logging: {}, ...(backend.prompt && backend.prompts ? { prompts: {} } : {}) },
      instructions: instructions(registry),
      jsonSchemaValidator: lazyValidator(),
    },
  );
  // Log messages reach the client once it is initialized (before that, stderr only).
  server.oninitialized = () =>
    log.attach((level, data) => {
      server.sendLoggingMessage({ level, logger: SERVER_NAME, data }).catch(() => undefined);
    });

  const subscriptions: { dispose(): void }[] = [];
  subscriptions.push(
    registry.onDidChange((added) => {
      log.info(`tools loaded: ${added.map((plain) => registry.find(plain)?.name ?? plain).join(', ')}`);
      server.sendToolListChanged().catch((err) => log.warn(`could not send tools/list_changed: ${errorMessage(err)}`));
    }),
  );

  let onFirstList = options.onFirstList;
  server.setRequestHandler(ListToolsRequestSchema, () => {
    if (onFirstList) {
      // After this turn, so that the answer is written first.
      setImmediate(onFirstList);
      onFirstList = undefined;
    }
    return { tools: registry.active().map(ToolRegistry.toMcpTool) };
  });
  let running = 0;
  const idle: (() => void)[] = [];
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    running += 1;
    try {
      return await callTool(request.params.name, request.params.arguments ?? {}, request.params._meta, backend, registry, log);
    } finally {
      running -= 1;
      if (running === 0) {
        idle.splice(0).forEach((resolve) => resolve());
      }
    }
  });

  if (backend.prompt && backend.prompts) {
    registerPrompts(server, backend.prompts, backend.prompt.bind(backend));
  }

  if (backend.onDidReset) {
    // A fresh core knows only the tools that are active from the start: load the others again.
    subscriptions.push(backend.onDidReset(() => void reloadAfterReset(backend, registry, log)));
  }

  return {
    server,
    registry,
    log,
    whenIdle: () => (running === 0 ? Promise.resolve() : new Promise<void>((resolve) => idle.push(resolve))),
    dispose: () => {
      subscriptions.forEach((s) => s.dispose());
      log.detach();
    },
  };
}

async function callTool(
  name: string,
  args: Record<string, unknown>,
  meta: unknown,
  backend: ToolBackend,
  registry: ToolRegistry,
  log: Logger,
): Promise<McpToolResult> {
  const started = performance.now();
  log.trace(`Tool called: ${cutName(name)}`);
  // An active tool runs under its plain name; any other name goes to the core as it was given,
  // and the core answers it (renamed, not loaded, unknown).
  const tool = registry.activeTool(name);
  let text: string;
  try {
    text = await backend.invoke(tool ? tool.plain : name, args, meta);
    text = registerLoaded(text, registry);
  } catch (err) {
    log.error(`Tool ${cutName(name)} failed: ${errorMessage(err)}`);
    return thrownResult(err);
  }
  const result = toolResult(text);
  if (result.isError) {
    log.error(`Tool ${cutName(name)} failed: ${failureText(text)}`);
  } else {
    log.debug(`Tool ${cutName(name)} completed successfully in ${(performance.now() - started).toFixed(1)} ms`);
  }
  return result;
}

/** The kind of a failure that is the Secretary's own fault. */
const INTERNAL: ErrorKind = 'internal';

/**
 * After a successful `tool_load` (an answer with `loaded`), registers the tools it names. The
 * core has already checked the names; if one is not a tool of this server after all, nothing is
 * registered and the call answers an error saying so. (Also the Copilot language-server client's.)
 */
export function registerLoaded(text: string, registry: ToolRegistry): string {
  if (!text.includes('"loaded"')) {
    return text;
  }
  let answer: { success?: unknown; loaded?: unknown; alreadyActive?: unknown };
  try {
    answer = JSON.parse(text) as typeof answer;
  } catch {
    return text;
  }
  if (answer.success !== true || !Array.isArray(answer.loaded)) {
    return text;
  }
  // `alreadyActive` tools were active in the core before: register those this server has too
  // (it may have missed an earlier load, e.g. under another name), ignore the others.
  const strings = (value: unknown) => (Array.isArray(value) ? value.filter((name): name is string => typeof name === 'string') : []);
  const names = [...strings(answer.loaded), ...strings(answer.alreadyActive).filter((name) => registry.find(name))];
  try {
    registry.activate(names);
  } catch (err) {
    if (err instanceof UnknownToolsError) {
      return JSON.stringify({
        success: false,
        error: `The core loaded tools this MCP server does not have: ${err.names.join(', ')}. Nothing was registered.`,
        error_type: INTERNAL,
      });
    }
    throw err;
  }
  return text;
}

export async function reloadAfterReset(backend: Pick<ToolBackend, 'invoke'>, registry: ToolRegistry, log: Logger): Promise<void> {
  const names = registry.loadedDeferred().map((tool) => tool.plain);
  if (names.length === 0) {
    return;
  }
  try {
    const text = await backend.invoke('tool_load', { names });
    if (toolResult(text).isError) {
      log.error(`could not load tools again after the core restarted: ${failureText(text)}`);
    }
  } catch (err) {
    log.error(`could not load tools again after the core restarted: ${errorMessage(err)}`);
  }
}

function instructions(registry: ToolRegistry): string {
  const names = new Map(registry.all.map((tool) => [tool.plain, tool.name]));
  const name = (plain: string) => names.get(plain) ?? plain;
  const lines = [
    "The user's own words, read from the session logs on disk (this agent's, VS Code Copilot Chat's " +
      `and other agents'): the first or Nth request of this session, recent dialogs, and a search over past requests.`,
    `After your conversation history was summarized or compacted, do not trust the summary for what the user asked: ` +
      `recall their exact words with ${name('get_first_request')} (the original goal) and ${name('get_request')} ` +
      `(request n, in full), and check your work against them before you say a task is done.`,
  ];
  if (names.has('tool_find') && names.has('tool_load')) {
    lines.push(
      `More tools are available than listed: find them with ${names.get('tool_find')} and activate them ` +
        `with ${names.get('tool_load')}; the tool list then changes.`,
    );
  }
  return lines.join('\n');
}

/**
 * `prompts/list` and `prompts/get`: the core's prompts (`recall_first_request`...) with their
 * generated descriptions. A prompt answers one user message holding the recalled markdown, ready
 * to insert into the conversation; a failure (the tool's error in plain words) is that message too,
 * since a person asked for it. Unknown prompts and missing required arguments are protocol errors.
 */
function registerPrompts(
  server: Server,
  prompts: readonly PromptListing[],
  render: (name: string, args: Record<string, string>) => Promise<string>,
): void {
  server.setRequestHandler(ListPromptsRequestSchema, () => ({
    prompts: prompts.map((p) => ({
      name: p.name,
      title: p.summary.replace(/\.$/, ''),
      description: p.description,
      arguments: p.arguments.map((a) => ({ name: a.name, description: a.description, required: a.required })),
    })),
  }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    const spec = prompts.find((p) => p.name === request.params.name);
    if (!spec) {
      throw new McpError(ErrorCode.InvalidParams, `Prompt not found: ${cutName(request.params.name)}`);
    }
    const args = request.params.arguments ?? {};
    const missing = spec.arguments.filter((a) => a.required && !args[a.name]?.trim()).map((a) => a.name);
    if (missing.length > 0) {
      throw new McpError(ErrorCode.InvalidParams, `Missing required argument(s) of ${spec.name}: ${missing.join(', ')}`);
    }
    const answer = JSON.parse(await render(spec.name, args)) as PromptAnswer;
    return {
      description: answer.error ? `${spec.summary} Failed: ${answer.error}` : spec.summary,
      messages: [{ role: 'user' as const, content: { type: 'text' as const, text: answer.markdown } }],
    };
  });
}

/** The most of a name from the wire an error or a log line quotes (a client may send megabytes). */
const QUOTED_NAME_CHARS = 200;

/** A name from the wire as an error quotes it: at most `QUOTED_NAME_CHARS` characters. */
function cutName(name: string): string {
  return name.length > QUOTED_NAME_CHARS ? `${name.slice(0, QUOTED_NAME_CHARS)}... (${name.length} characters)` : name;
}
