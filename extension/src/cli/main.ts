import * as path from 'path';
import * as readline from 'readline';
import { parseArgs } from 'util';

import type { DialogSummary } from '../core/generated/DialogSummary';
import { WasmCore } from '../core/wasm';
import { READ_CAPS, readBounded } from '../host/boundedRead';
import { bundledDocsDir } from '../host/roots';
import { standaloneHost } from '../host/standalone';
import { stderrLogger, type Logger } from '../log';
import type { DialogSessionsService } from '../sessions/dialogSessionsService';
import { isCursorConversation, readCursorConversation } from '../sessions/cursor';
import { openSessions, semanticSearchFromEnv } from '../sessions/standalone';
import type { Dialog } from '../sessions/types';
import { parseOpenCodePath, readOpenCodeSession } from '../sessions/opencode';
import { formatDialog, formatToolResult } from './format';
import { exitQuietlyWhenOutputCloses } from './output';
import { errorMessage } from '../log';

/** The help text; `SOURCES` stands for the core's sources (`listing.json`), never a copy here. */
const USAGE = `secretary — Copilot Chat Secretary on the command line

Usage:
  secretary show <session file> [--json]        the parsed dialog of one session file (an OpenCode
                                                session: <opencode.db>#<sessionID>; Cursor: <state.vscdb>#<id>)
  secretary sessions [--storage <dir>] [--json] dialogs found under VS Code user-data folders
  secretary first [--session <id>]              the first request of the current dialog
  secretary request <n> [--session <id>]        the full text of request n (1-based)
  secretary dialogs [--limit <n>] [--query <w>] recent dialogs
  secretary search <words> [--limit <n>]        search past requests
  secretary tools [--json]                      the tools agents can call
  secretary call <tool> [<json arguments>]      call any tool by name, as an agent would
  secretary mcp [--storage <dir>] [--workspace <dir>]
                                                serve the tools over MCP on stdin/stdout (see README)
  secretary copilot-ls [--server <path>] [--storage <dir>] [--workspace <dir>]
                                                start @github/copilot-language-server, register the tools
                                                as its client tools and answer their calls (see README)
  secretary copilot-ls --prompt <text> [--prompt <follow-up>]... [--model <id>] [--mode agent|ask]
                                                run agent turns through it: tool calls on stderr, the reply
                                                on stdout; exit 1 when a turn fails (docs/copilot-ls.md)
  secretary hook <event> [--agent <a>] [--max-chars <n>]
                                                an agent's recall hook: the person's requests after a
                                                compaction, on stdout as the agent expects (docs/agents.md)
  secretary hooks install|uninstall [--agent claude-code,codex,copilot-cli,gemini-cli,vscode]
                          [--scope user|project] [--max-chars <n>] [--dry-run]
                                                put the recall hook into (or out of) each agent's settings
  secretary find-tools <query> --catalog <file> [--limit <n>] [--json] [--stdin] [--lexical]
                                                rank a catalog [{name, description, inputSchema?, tags?}];
                                                --stdin: one query per line in, one JSON line out

Options:
  --storage <dir>     a VS Code user-data folder (or User/, workspaceStorage/<id>/, chatSessions/);
                      repeatable; default: every VS Code, Insiders, VSCodium, Server, code-server folder found,
                      plus the other agents' logs and Cursor's chats (docs/agents.md)
  --source <name>     serve only these sources' dialogs:
SOURCES
                      (repeatable or comma-separated); \`show --source\`: read the file as that format
  --current-from <s>  the agent whose own latest session of the folder is the current dialog
                      (\`mcp\` detects it from the client; see docs/agents.md)
  --workspace <dir>   the workspace whose dialogs count as current (default: the current folder
                      when VS Code has sessions for it, else every workspace)
  --all               every workspace, whatever the current folder
  --state-dir <dir>   where flags are kept (default: $SECRETARY_STATE_DIR, else ~/.local/state/
                      copilot-chat-secretary or the platform's equivalent); content is read from --workspace
  --server <path>     copilot-ls: the language server (its dist/language-server.js or native binary;
                      default: $COPILOT_LS_PATH, else npx @github/copilot-language-server)
  --json              machine-readable output (stable; see README)
  --verbose           log what is read to stderr
  -h, --help          this help
  -v, --version       the version

Environment:
  SECRETARY_SEMANTIC_SEARCH=0   rank search and tool_find by TF-IDF alone (default: fused with embeddings)
`;

/** Exit codes: 0 success, 1 the tool or command failed, 2 bad usage. */
class UsageError extends Error {}

/** The options every command reads (`parseArgs` checks them). */
const OPTIONS = {
  storage: { type: 'string', multiple: true },
  server: { type: 'string' },
  prompt: { type: 'string', multiple: true },
  model: { type: 'string' },
  mode: { type: 'string' },
  'state-dir': { type: 'string' },
  catalog: { type: 'string' },
  lexical: { type: 'boolean' },
  stdin: { type: 'boolean' },
  workspace: { type: 'string' },
  source: { type: 'string', multiple: true },
  'current-from': { type: 'string' },
  session: { type: 'string' },
  limit: { type: 'string' },
  query: { type: 'string' },
  all: { type: 'boolean' },
  json: { type: 'boolean' },
  verbose: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

function parseCommandLine(argv: string[]) {
  return parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
}

/** What a command gets: the core (host and settings set), the options, the words after it. */
interface Invocation {
  core: WasmCore;
  log: Logger;
  values: ReturnType<typeof parseCommandLine>['values'];
  rest: string[];
  json: boolean;
}

/** Every command but `hook`/`hooks` (which parse their own options), by name. */
const COMMANDS: Record<string, (run: Invocation) => number | Promise<number>> = {
  show: ({ core, rest, json, values }) => show(core, rest, json, values.source?.[0]),
  sessions: ({ core, log, values, json }) => sessions(core, log, values, json),
  tools: ({ core, json }) => listTools(core, json),
  first: ({ core, log, values, json }) => callTool(core, log, values, 'get_first_request', withSession({}, values.session), json),
  request: ({ core, log, values, rest, json }) => callTool(core, log, values, 'get_request', requestArgs(rest[0], values.session), json),
  dialogs: ({ core, log, values, json }) =>
    callTool(core, log, values, 'list_dialogs', { ...limitArg(values.limit), ...(values.query ? { query: values.query } : {}) }, json),
  search: ({ core, log, values, rest, json }) =>
    callTool(core, log, values, 'search_requests', withSession({ query: rest.join(' '), ...limitArg(values.limit) }, values.session), json),
  'find-tools': ({ core, values, rest, json }) =>
    findTools(core, rest.join(' '), values.catalog, values.limit, json, Boolean(values.stdin), !values.lexical),
  mcp: async ({ core, log, values }) => {
    // Validated and compiled on V8's worker threads while the server starts; instantiated
    // after the first `tools/list` (see runMcpServer).
    core.precompile();
    (await import('../mcp/zodConfig')).interpretSchemas();
    return (await import('../mcp/stdio')).runMcpServer(core, log, values);
  },
  // A long-running client: say what it does on stderr unless asked for more (--verbose).
  'copilot-ls': async ({ core, values }) =>
    (await import('../copilotLs/run')).runCopilotLs(core, stderrLogger(values.verbose ? 'debug' : 'info'), values),
  call: ({ core, log, values, rest }) => callAny(core, log, values, rest),
};

export async function main(argv: string[]): Promise<number> {
  // The recall hooks parse their own options (cli/hook.ts, cli/hooksInstall.ts).
  if (argv[0] === 'hook') {
    return (await import('./hook')).runHook(argv.slice(1));
  }
  if (argv[0] === 'hooks') {
    return (await import('./hooksInstall')).runHooks(argv.slice(1));
  }
  let parsed;
  try {
    parsed = parseCommandLine(argv);
  } catch (err) {
    return usage(errorMessage(err));
  }
  const { values, positionals } = parsed;
  const log = stderrLogger(values.verbose ? 'debug' : 'error');
  // Help and version read the core's listing only: no module, no settings file, no state folder.
  const core = new WasmCore(path.join(__dirname, 'wasm'), log);
  if (values.help || (positionals.length === 0 && !values.version)) {
    process.stdout.write(usageText(core.listing.sources));
    return values.help ? 0 : 2;
  }
  if (values.version) {
    process.stdout.write(`${core.version}\n`);
    return 0;
  }
  setUpCore(core, values, log);
  const [command, ...rest] = positionals;
  const run = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!run) {
    return usage(`unknown command: ${command}`);
  }
  if (command !== 'mcp') {
    // `mcp` ends on its own when its client goes (it answers the calls already read first).
    exitQuietlyWhenOutputCloses();
  }
  try {
    return await run({ core, log, values, rest, json: Boolean(values.json) });
  } catch (err) {
    if (err instanceof UsageError) {
      return usage(err.message);
    }
    process.stderr.write(`secretary: ${errorMessage(err)}\n`);
    return 1;
  }
}

/** The core's settings and its I/O bridge. Flags, content, library docs (also for `mcp`): the
 * bridge is over the workspace folder, the state folder (--state-dir, else SECRETARY_STATE_DIR,
 * else the platform's state folder), the cargo registry sources and the library docs shipped beside
 * dist/. */
function setUpCore(core: WasmCore, values: Invocation['values'], log: Logger): void {
  const semantic = semanticSearchFromEnv();
  core.configure((handle) => handle.setSemanticSearch(semantic));
  core.setHost(
    standaloneHost({
      workspaceFolder: path.resolve(values.workspace ?? process.cwd()),
      stateDir: values['state-dir'],
      bundledDocs: bundledDocsDir(path.resolve(__dirname, '..')),
      onSettingsRefused: (why) => log.warn(`workspace settings not read: ${why}`),
    }),
  );
  core.setIncludeExamples(/^(1|true|yes)$/i.test(process.env.MCP_INCLUDE_EXAMPLE_TOOLS ?? ''));
}

function listTools(core: WasmCore, json: boolean): number {
  const tools = core.tools();
  if (json) {
    print(JSON.stringify(tools, null, 2));
  } else {
    for (const tool of tools) {
      print(`${tool.name.padEnd(22)} ${tool.summary}${tool.deferred ? ' (deferred)' : ''}`);
    }
  }
  return 0;
}

/** `request <n>`: a number when it reads as one (the core words the error for anything else). */
function requestArgs(index: string | undefined, session: string | undefined): Record<string, unknown> {
  if (index === undefined) {
    throw new UsageError('request needs a request number, e.g. `secretary request 2`');
  }
  const number = Number(index);
  // A person reads the whole request (agents get it in parts, `maxChars`).
  return withSession({ index: Number.isFinite(number) ? number : index, maxChars: Number.MAX_SAFE_INTEGER }, session);
}

/** `call <tool> [<json arguments>]`: any tool, as an agent would call it. */
async function callAny(core: WasmCore, log: Logger, options: CommonOptions, rest: string[]): Promise<number> {
  const [name, argsText] = rest;
  if (!name) {
    throw new UsageError('call needs a tool name, e.g. `secretary call get_request \'{"index": 1}\'`');
  }
  let args: unknown = {};
  if (argsText !== undefined) {
    try {
      args = JSON.parse(argsText);
    } catch (err) {
      throw new UsageError(`the arguments are not JSON: ${errorMessage(err)}`);
    }
  }
  // A one-shot call has no earlier turn to load a deferred tool in (memory): load it here.
  const deferred = core.tools().find((tool) => tool.deferred && (tool.name === name || tool.vscodeName === name));
  if (deferred) {
    core.invoke('tool_load', { names: [deferred.name] }, undefined);
  }
  // Any tool works whether or not the workspace has chat sessions.
  return callTool(core, log, options, name, args, true, false);
}

interface CommonOptions {
  storage?: string[];
  workspace?: string;
  all?: boolean;
  source?: string[];
  'current-from'?: string;
}

function show(core: WasmCore, rest: string[], json: boolean, source: string | undefined): number {
  const file = rest[0];
  if (!file) {
    throw new UsageError('show needs a session file, e.g. `secretary show chatSessions/<id>.json`');
  }
  let bytes: Uint8Array;
  try {
    const maxBytes = core.run((_h, m) => m.maxSessionBytes());
    // An OpenCode session, `<opencode.db>#<sessionID>`, is read from OpenCode's database; a Cursor
    // conversation (`…/state.vscdb#<id>`) from its SQLite database.
    bytes = parseOpenCodePath(file)
      ? Buffer.from(readOpenCodeSession(file, 0, maxBytes))
      : isCursorConversation(file)
        ? readCursorConversation(path.resolve(file), maxBytes)
        : readBounded(file, { maxBytes });
  } catch (err) {
    const error = err as NodeJS.ErrnoException;
    process.stderr.write(`secretary: cannot read ${file}: ${error.code ?? error.message ?? String(err)}\n`);
    return 1;
  }
  // The whole path: where a log lies tells a Copilot CLI log (`.copilot/session-state/`) apart.
  const name = path.resolve(file);
  const dialog = JSON.parse(
    core.run((_h, m) => (source ? m.parseSessionAs(source, name, bytes) : m.parseSession(name, bytes))),
  ) as Dialog;
  print(json ? JSON.stringify(dialog, null, 2) : formatDialog(dialog));
  return 0;
}

async function sessions(core: WasmCore, log: Logger, options: CommonOptions, json: boolean): Promise<number> {
  const service = await openService(core, log, { ...options, all: true });
  // Summaries, not dialogs: every dialog's text as one string can be more than V8 holds (issue 27).
  const dialogs = JSON.parse(core.run((h) => h.dialogSummaries(undefined))) as DialogSummary[];
  const failures = [...service.sync.failures].map(([file, error]) => ({ path: file, error }));
  if (json) {
    print(JSON.stringify({ dialogs, unreadable: failures }, null, 2));
  } else {
    if (dialogs.length === 0) {
      print('No chat sessions found.');
    }
    for (const dialog of dialogs) {
      const when = dialog.lastActivity ? new Date(dialog.lastActivity).toISOString() : 'unknown time';
      print(`${dialog.sessionId}  ${String(dialog.requestsCount).padStart(3)} requests  ${when}  ${dialog.title}`);
      print(`    ${dialog.path}`);
    }
    for (const failure of failures) {
      print(`unreadable: ${failure.path}: ${failure.error}`);
    }
  }
  return 0;
}

async function callTool(
  core: WasmCore,
  log: Logger,
  options: CommonOptions,
  name: string,
  args: unknown,
  json: boolean,
  strict = true,
): Promise<number> {
  const service = await openService(core, log, options, strict);
  const text = await service.invokeTool(name, args);
  const result = JSON.parse(text) as { success?: boolean };
  print(json ? JSON.stringify(result, null, 2) : formatToolResult(name, result));
  return result.success === false ? 1 : 0;
}

/** The sessions service over the storage folders the options name, scanned once (no watching). */
async function openService(core: WasmCore, log: Logger, options: CommonOptions, strict = true): Promise<DialogSessionsService> {
  const service = openSessions(core, log, { ...options, strict });
  await service.start(false);
  return service;
}

/** Ranks a catalog file's tools for a query, or for every line of stdin (one catalog, many
 * queries: how the search is evaluated outside VS Code). */
async function findTools(
  core: WasmCore,
  query: string,
  catalogFile: string | undefined,
  limitText: string | undefined,
  json: boolean,
  stdin: boolean,
  semantic: boolean,
): Promise<number> {
  if (!catalogFile) {
    throw new UsageError('find-tools needs --catalog <file.json>, a JSON array of {name, description}');
  }
  let text: string;
  try {
    text = readBounded(catalogFile, { maxBytes: READ_CAPS.catalog }).toString('utf8');
  } catch (err) {
    throw new Error(`cannot read ${catalogFile}: ${(err as NodeJS.ErrnoException).code ?? (errorMessage(err))}`, { cause: err });
  }
  const limit = limitArg(limitText).limit ?? 10;
  if (limit < 1) {
    throw new UsageError('--limit must be 1 or greater');
  }
  const catalog = core.run((_h, m) => new m.Catalog(text, semantic));
  try {
    if (stdin) {
      const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
      for await (const line of lines) {
        const q = line.trim();
        if (!q) {
          continue;
        }
        process.stdout.write(`${JSON.stringify({ query: q, results: JSON.parse(catalog.search(q, limit)) })}\n`);
      }
      return 0;
    }
    if (!query.trim()) {
      throw new UsageError('find-tools needs a query, e.g. `secretary find-tools "convert currency" --catalog tools.json`');
    }
    const results = JSON.parse(catalog.search(query, limit)) as { name: string; score: number }[];
    if (json) {
      print(JSON.stringify({ query, results }, null, 2));
    } else if (results.length === 0) {
      print('No matching tools.');
    } else {
      for (const result of results) {
        print(`${result.score.toFixed(3).padStart(8)}  ${result.name}`);
      }
    }
    return 0;
  } finally {
    catalog.free();
  }
}

function withSession<T extends object>(args: T, session: string | undefined): T & { sessionId?: string } {
  return session ? { ...args, sessionId: session } : args;
}

function limitArg(limit: string | undefined): { limit?: number } {
  if (limit === undefined) {
    return {};
  }
  // `Number('')` is 0: an empty or spaced value is a usage error, not a limit of 0.
  const value = /^\s*[-+]?\d+\s*$/.test(limit) ? Number(limit) : NaN;
  if (!Number.isSafeInteger(value)) {
    throw new UsageError(`--limit takes a whole number, got ${limit}`);
  }
  return { limit: value };
}

/** The help text with the core's sources, wrapped under the option they belong to. */
function usageText(sources: readonly string[]): string {
  const lines: string[] = [];
  for (const source of sources) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last].length + source.length + 2 <= 78) {
      lines[last] += `, ${source}`;
    } else {
      if (last >= 0) {
        lines[last] += ',';
      }
      lines.push(source);
    }
  }
  return USAGE.replace('SOURCES', lines.map((line) => `${' '.repeat(22)}${line}`).join('\n'));
}

function usage(message: string): number {
  process.stderr.write(`secretary: ${message}\nRun \`secretary --help\` for usage.\n`);
  return 2;
}

function print(text: string): void {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err) => {
      process.stderr.write(`secretary: ${errorMessage(err)}\n`);
      process.exitCode = 1;
    },
  );
}
