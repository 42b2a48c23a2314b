import type { Caller } from '../chat/caller';
import { agentOfClient, type DialogSource } from '../sessions/agents';

/**
 * Which agent session called a tool over MCP: the one place the MCP host decides it.
 *
 * What each agent tells the servers it starts (measured with the real CLIs offline, see
 * docs/agents.md):
 * - GitHub Copilot CLI 1.0.102: `COPILOT_AGENT_SESSION_ID=<uuid>` in the server's environment
 *   (the server is started per session; the id names `session-state/<uuid>/events.jsonl`);
 *   client `copilot-cli`; nothing per call.
 * - Claude Code 2.1.331: `CLAUDE_CODE_SESSION_ID=<uuid>` in the environment (stable across
 *   `--resume`; the log is `projects/<slug>/<uuid>.jsonl`) and, on each call,
 *   `_meta["claudecode/toolUseId"]`, the id of the `tool_use` the log records; client
 *   `claude-code`.
 * - Codex 0.169.0: nothing in the environment; on each call `_meta.sessionId` (also `threadId`,
 *   the rollout's id) and `_meta.callId`, the `call_id` of the `function_call` the rollout
 *   records; client `codex-mcp-client`.
 * - Qwen Code 0.24.4: `QWEN_CODE_SESSION_ID` in the environment; client
 *   `qwen-cli-mcp-client-<server>`.
 * - Gemini CLI 0.61.0: nothing (`GEMINI_CLI=1` only; `_meta` holds a progress token): the most
 *   recent Gemini CLI session of the folder answers, and says so.
 * - Kilo Code's CLI 7.7.7: nothing either (`KILO=1`, `OPENCODE=1`, `KILO_PID`, and a
 *   `KILO_RUN_ID` that changes with every run of one session; `_meta` holds a progress token);
 *   client `kilo`: its most recent session of the folder answers.
 *
 * The client's name says whose variables to trust: a Claude Code session's variables are
 * inherited by every process it starts, a Copilot CLI it runs included. With an unknown client
 * the variables count in the order above. Everything read here is checked again by the core
 * (`Caller::Agent`): an id that is not one is refused there, never guessed around.
 */
export interface AgentCall {
  caller: Extract<Caller, { kind: 'agent' }>;
  /** The id the agent's log records for the tool call running now, when the agent sends one:
   * the log holds the running turn once it holds this id. */
  callId?: string;
}

/** The environment variable each agent sets for the MCP servers it starts. */
const SESSION_VARIABLES: readonly [DialogSource, string][] = [
  ['copilot-cli', 'COPILOT_AGENT_SESSION_ID'],
  ['claude-code', 'CLAUDE_CODE_SESSION_ID'],
  ['qwen-code', 'QWEN_CODE_SESSION_ID'],
];

/** The calling agent session, or `undefined` when nothing exact names one (the core then answers
 * for the most recent dialog and says so). `agent`: `--current-from`, else the client's agent. */
export function agentCallOf(
  clientName: string | undefined,
  meta: unknown,
  env: NodeJS.ProcessEnv = process.env,
  agent: DialogSource | undefined = agentOfClient(clientName, env),
): AgentCall | undefined {
  const fromMeta = (key: string) => {
    const value = own(meta, key);
    return typeof value === 'string' ? value : undefined;
  };
  if (agent === undefined || agent === 'codex') {
    const codexId = fromMeta('sessionId') ?? fromMeta('threadId');
    if (codexId !== undefined && (agent === 'codex' || /codex/i.test(clientName ?? ''))) {
      const callId = fromMeta('callId');
      return { caller: { kind: 'agent', source: 'codex', sessionId: codexId, via: '_meta.sessionId' }, ...(callId ? { callId } : {}) };
    }
    if (agent === 'codex') {
      return undefined;
    }
  }
  const candidates = agent === undefined ? SESSION_VARIABLES : SESSION_VARIABLES.filter(([source]) => source === agent);
  for (const [source, variable] of candidates) {
    const sessionId = env[variable];
    if (sessionId !== undefined && sessionId !== '') {
      const callId = source === 'claude-code' ? fromMeta('claudecode/toolUseId') : undefined;
      return { caller: { kind: 'agent', source, sessionId, via: variable }, ...(callId ? { callId } : {}) };
    }
  }
  return undefined;
}

/** An own property of a JSON object from the wire (never an inherited one, `__proto__`...). */
function own(value: unknown, key: string): unknown {
  if (value === null || typeof value !== 'object' || !Object.prototype.hasOwnProperty.call(value, key)) {
    return undefined;
  }
  return (value as Record<string, unknown>)[key];
}
