import * as fs from 'fs';
import * as path from 'path';
import { parseArgs } from 'util';

import { WasmCore, type HookInput } from '../core/wasm';
import { silentLogger } from '../log';
import { agentOfClient, agentRoots, agentSessionFiles, type AgentRoots, type DialogSource } from '../sessions/agents';
import { readBounded } from '../host/boundedRead';
import { errorMessage } from '../log';
import { findVscodeSession } from './vscodeHookSession';

/**
 * `secretary hook <event> [--agent claude-code|codex|copilot-cli|gemini-cli|vscode] [--max-chars N]`: what an
 * agent's hook runs after a compaction (docs/agents.md, "Recall hooks"). It reads the hook's
 * input from stdin, finds the session's own log and prints what the core answers: the person's
 * requests, verbatim, within the budget, in the shape the agent reads. What to recall and how to
 * format it is the core's (`secretary_core::recall`); this file only reads stdin and files.
 *
 * It must never hold the agent up or break its turn: stdin is read up to the core's limit and for
 * at most {@link STDIN_MS}, the whole run ends after {@link DEADLINE_MS}, and any failure prints
 * nothing, logs one line to stderr and exits 0. It writes no file.
 */

/** How long stdin may stay open (the agents write the input and close it at once). */
const STDIN_MS = 2_000;
/** The whole run, reading and parsing a large log included. The agents' own hook timeouts are
 * longer (Claude Code 60 s, Codex 600 s), so this one decides. */
const DEADLINE_MS = 8_000;

export const HOOK_USAGE = `secretary hook <event> [--agent claude-code|codex|copilot-cli|gemini-cli|vscode] [--max-chars <n>]
  event: session-start (Claude Code, Codex: SessionStart after a compaction)
         user-prompt-submitted (Copilot CLI: userPromptSubmitted; VS Code: UserPromptSubmit,
           once after Copilot Chat compacted the conversation)
         before-agent (Gemini CLI: BeforeAgent, once after a compression)
  Reads the hook input (JSON) on stdin; prints the person's requests of that session, verbatim,
  as the agent's hook output; prints nothing and exits 0 on any failure (one line on stderr).
`;

export async function runHook(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const until = Date.now() + DEADLINE_MS;
  const deadline = setTimeout(() => {
    fail(`gave up after ${DEADLINE_MS} ms`);
    process.exit(0);
  }, DEADLINE_MS);
  deadline.unref();
  try {
    const output = await answer(argv, env, until);
    if (output !== undefined) {
      await new Promise<void>((resolve) => process.stdout.write(`${output}\n`, () => resolve()));
    }
  } catch (err) {
    fail(errorMessage(err));
  } finally {
    clearTimeout(deadline);
  }
  return 0;
}

function fail(message: string): void {
  process.stderr.write(`secretary hook: ${message.replace(/\s+/g, ' ').slice(0, 500)}\n`);
}

async function answer(argv: string[], env: NodeJS.ProcessEnv, until: number): Promise<string | undefined> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { agent: { type: 'string' }, 'max-chars': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    process.stderr.write(HOOK_USAGE);
    return undefined;
  }
  const event = positionals[0];
  if (!event || positionals.length > 1) {
    throw new Error('needs one event, e.g. `secretary hook session-start --agent claude-code`');
  }
  const agent = (values.agent ?? agentOfClient(undefined, env)) as DialogSource | undefined;
  if (!agent || !(Object.hasOwn(LOG_ROOT, agent) || agent === 'vscode')) {
    throw new Error('needs --agent claude-code, codex, copilot-cli, gemini-cli or vscode');
  }
  let maxChars: number | undefined;
  if (values['max-chars'] !== undefined) {
    maxChars = Number(values['max-chars']);
    if (!Number.isInteger(maxChars) || maxChars < 1) {
      throw new Error(`--max-chars takes a positive whole number, got ${values['max-chars'].slice(0, 20)}`);
    }
  }
  const core = new WasmCore(path.join(__dirname, 'wasm'), silentLogger);
  const stdin = await readStdin(core.run((_h, m) => m.hookMaxInputBytes()));
  const input = JSON.parse(core.run((_h, m) => m.hookInput(event, stdin))) as HookInput;
  if (input.refused?.length) {
    fail(`ignored ${input.refused.join(', ')}`);
  }
  if (!input.wantsRecall) {
    return undefined;
  }
  const maxBytes = core.run((_h, m) => m.maxSessionBytes());
  const log = agent === 'vscode' ? findVscodeSession(input, maxBytes, env, undefined, until) : findLog(agent, input, agentRoots(env));
  if (!log) {
    throw new Error(`no ${agent} log for session ${input.sessionId ?? '(none given)'}`);
  }
  const bytes = readBounded(log, { maxBytes, statSizeOnly: true });
  return core.run((_h, m) => m.hookAnswer(agent, event, stdin, log, bytes, maxChars));
}

/** Reads stdin up to `max` bytes and for at most {@link STDIN_MS}; more, or longer, is an error. */
function readStdin(max: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const done = (err?: Error) => {
      clearTimeout(timer);
      process.stdin.removeAllListeners('data').removeAllListeners('end').removeAllListeners('error');
      process.stdin.pause();
      process.stdin.unref?.();
      if (err) {
        reject(err);
      } else {
        resolve(Buffer.concat(chunks, total));
      }
    };
    const timer = setTimeout(() => done(new Error(`stdin stayed open for ${STDIN_MS} ms`)), STDIN_MS);
    process.stdin.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > max) {
        done(new Error(`the input is larger than ${max} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    process.stdin.on('end', () => done());
    process.stdin.on('error', (err) => done(err));
  });
}

/** The agents `secretary hook` answers, and the field of {@link AgentRoots} holding each one's logs. */
const LOG_ROOT: Partial<Record<DialogSource, 'claude' | 'codex' | 'copilot' | 'gemini'>> = {
  'claude-code': 'claude',
  codex: 'codex',
  'copilot-cli': 'copilot',
  'gemini-cli': 'gemini',
};

/** Whether `file` (a log under the agent's root) is named as the log of session `id`. Gemini CLI
 * names its logs `session-<time>-<first 8 of the id>.jsonl` ({@link headerNames} decides between
 * several). */
function isLogOf(agent: DialogSource, file: string, id: string): boolean {
  const base = path.basename(file);
  switch (agent) {
    case 'codex':
      return base.endsWith(`-${id}.jsonl`);
    case 'claude-code':
      return base === `${id}.jsonl`;
    case 'gemini-cli':
      return base.startsWith('session-') && base.endsWith(`-${id.slice(0, 8)}.jsonl`);
    default:
      return path.basename(path.dirname(file)) === id || base === `${id}.jsonl`;
  }
}

/** Whether the header line of a Gemini CLI log names session `id`. */
function headerNames(file: string, id: string): boolean {
  try {
    const text = readBounded(file, { maxBytes: MAX_GEMINI_LOG_BYTES, statSizeOnly: true }).toString('utf8');
    const first = JSON.parse(text.slice(0, text.indexOf('\n') >>> 0)) as { sessionId?: unknown };
    return first.sessionId === id;
  } catch {
    return false;
  }
}

/** The largest Gemini CLI log read to tell two logs of the same 8-character prefix apart. */
const MAX_GEMINI_LOG_BYTES = 64 * 1024 * 1024;

/**
 * The session's log: the transcript path the agent gave when it lies in that agent's own log
 * folder (its real path, so a link cannot lead out), else the log named by the session id.
 */
export function findLog(agent: DialogSource, input: HookInput, roots: AgentRoots): string | undefined {
  const key = LOG_ROOT[agent];
  if (!key) {
    return undefined;
  }
  const root = roots[key];
  const realRoot = realpath(root);
  if (!realRoot) {
    return undefined;
  }
  if (input.transcriptPath) {
    const real = realpath(input.transcriptPath);
    if (real && real.startsWith(realRoot + path.sep) && real.endsWith('.jsonl')) {
      return real;
    }
    fail(`the transcript path is not a log under ${root}; looking the session id up instead`);
  }
  const id = input.sessionId;
  if (!id) {
    return undefined;
  }
  const only: AgentRoots = {
    claude: '',
    codex: '',
    copilot: '',
    gemini: '',
    qwen: '',
    tasks: [],
    continue: '',
    opencode: '',
    aider: [],
    [key]: root,
  };
  const named = agentSessionFiles(only)
    .map((f) => f.path)
    .filter((file) => isLogOf(agent, file, id));
  const file = named.length > 1 ? named.find((f) => headerNames(f, id)) : named[0];
  const real = file === undefined ? undefined : realpath(file);
  return real?.startsWith(realRoot + path.sep) ? real : undefined;
}

function realpath(file: string): string | undefined {
  try {
    return fs.realpathSync(file);
  } catch {
    return undefined;
  }
}
