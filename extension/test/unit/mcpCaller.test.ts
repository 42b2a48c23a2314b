// Who calls over MCP: the rule (mcp/caller.ts) on every shape an agent sends, and the built
// `secretary mcp` over stdio with an agent's environment and `_meta` against real logs on disk:
// garbage ids, a session with no log, a log that never records the running turn, a log deleted
// mid-call, a turn that lands while the call waits. Each gets a clear answer within the wait
// bound and never another session's words. (The real agents themselves: extension/test/agents.)
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

import { agentCallOf } from '../../src/mcp/caller';
import { agentOfClient } from '../../src/sessions/agents';
import { ROOT, tempDir } from './helpers';

const CLI = path.join(ROOT, 'dist', 'cli.js');
const ONE = '11111111-aaaa-4aaa-8aaa-000000000001';
const TWO = '22222222-bbbb-4bbb-8bbb-000000000002';

describe('agentCallOf: the caller from the client, the environment and _meta', () => {
  test('each agent is read where it says who it is', () => {
    assert.deepEqual(agentCallOf('copilot-cli', { progressToken: 2 }, { COPILOT_AGENT_SESSION_ID: ONE }), {
      caller: { kind: 'agent', source: 'copilot-cli', sessionId: ONE, via: 'COPILOT_AGENT_SESSION_ID' },
    });
    assert.deepEqual(agentCallOf('claude-code', { 'claudecode/toolUseId': 'toolu_1' }, { CLAUDE_CODE_SESSION_ID: ONE, CLAUDECODE: '1' }), {
      caller: { kind: 'agent', source: 'claude-code', sessionId: ONE, via: 'CLAUDE_CODE_SESSION_ID' },
      callId: 'toolu_1',
    });
    assert.deepEqual(agentCallOf('codex-mcp-client', { sessionId: ONE, threadId: ONE, callId: 'call_7' }, {}), {
      caller: { kind: 'agent', source: 'codex', sessionId: ONE, via: '_meta.sessionId' },
      callId: 'call_7',
    });
  });

  test("the client's name says whose variables count: a Copilot CLI started inside Claude Code", () => {
    const env = { CLAUDE_CODE_SESSION_ID: ONE, CLAUDECODE: '1', COPILOT_AGENT_SESSION_ID: TWO };
    assert.equal(agentCallOf('copilot-cli', undefined, env)?.caller.sessionId, TWO);
    assert.equal(agentCallOf('claude-code', undefined, env)?.caller.sessionId, ONE);
    // Codex says nothing in the environment: inherited variables are not its session.
    assert.equal(agentCallOf('codex-mcp-client', {}, env), undefined);
  });

  test("Kilo Code's CLI is known by its client name, and names no session", () => {
    // What @kilocode/cli 7.7.7 sends its servers (measured, docs/agents.md): client `kilo`, and
    // OpenCode's variable beside its own; `KILO_RUN_ID` changes with every run of one session.
    const kiloEnv = { KILO: '1', OPENCODE: '1', AGENT: '1', KILO_PID: '2755', KILO_RUN_ID: '333d6764-0168-4a92-b6ec-3647808b0f32' };
    assert.equal(agentOfClient('kilo', kiloEnv), 'kilo-code');
    assert.equal(agentOfClient('opencode', kiloEnv), 'opencode');
    // Names that merely contain it are not Kilo's.
    assert.equal(agentOfClient('kilo-opencode', {}), undefined);
    assert.equal(agentOfClient('mykilo', {}), undefined);
    assert.equal(agentCallOf('kilo', { progressToken: 2 }, kiloEnv), undefined);
  });

  test('nothing exact, no caller; hostile _meta is read by own properties only', () => {
    assert.equal(agentCallOf('some-client', undefined, {}), undefined);
    assert.equal(agentCallOf(undefined, undefined, {}), undefined);
    assert.equal(agentCallOf('copilot-cli', undefined, { COPILOT_AGENT_SESSION_ID: '' }), undefined);
    const inherited = Object.create({ sessionId: ONE }) as object;
    assert.equal(agentCallOf('codex-mcp-client', inherited, {}), undefined);
    assert.equal(agentCallOf('codex-mcp-client', { sessionId: 42 }, {}), undefined);
    assert.equal(agentCallOf('codex-mcp-client', 'text', {}), undefined);
  });
});

/** A Copilot CLI `events.jsonl`: a session start in `folder`, then each prompt; `open`: the last
 * turn is still running (an assistant turn started and not ended). */
function copilotLog(id: string, folder: string, prompts: string[], open: boolean): string {
  const lines = [{ type: 'session.start', data: { sessionId: id, context: { cwd: folder } }, timestamp: '2026-01-01T00:00:00Z' }];
  prompts.forEach((content, i) => {
    const at = `2026-01-01T00:0${i + 1}:00Z`;
    lines.push({ type: 'user.message', data: { content } as never, timestamp: at });
    lines.push({ type: 'assistant.turn_start', data: {} as never, timestamp: at });
    if (!open || i < prompts.length - 1) {
      lines.push({ type: 'assistant.turn_end', data: {} as never, timestamp: at });
    }
  });
  return lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
}

describe('secretary mcp started by an agent: the calling session, bounded waits, clear failures', () => {
  let temp: ReturnType<typeof tempDir>;
  let home: string;
  let work: string;
  const logPath = (id: string) => path.join(home, '.copilot', 'session-state', id, 'events.jsonl');
  const writeLog = (id: string, text: string) => {
    fs.mkdirSync(path.dirname(logPath(id)), { recursive: true });
    fs.writeFileSync(logPath(id), text);
  };

  before(() => {
    temp = tempDir();
    home = path.join(temp.dir, 'home');
    work = path.join(temp.dir, 'work');
    fs.mkdirSync(work, { recursive: true });
    writeLog(ONE, copilotLog(ONE, work, ['words of one', 'one asks again'], true));
    writeLog(TWO, copilotLog(TWO, work, ['words of two'], true));
  });
  after(() => temp.cleanup());

  /** `secretary mcp` as the Copilot CLI starts it: its client name and its session's variable. */
  async function asCopilot(sessionId: string | undefined) {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp'],
      cwd: work,
      env: { PATH: process.env.PATH ?? '', HOME: home, ...(sessionId === undefined ? {} : { COPILOT_AGENT_SESSION_ID: sessionId }) },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'copilot-cli', version: '1.0.102' });
    await client.connect(transport);
    const first = async (args: Record<string, unknown> = {}) => {
      const started = performance.now();
      const result = await client.callTool({ name: 'secretary_get_first_request', arguments: args });
      const text = (result.content as { text: string }[])[0]?.text ?? '';
      return { json: JSON.parse(text) as Record<string, unknown>, text, ms: performance.now() - started };
    };
    return { client, first, close: () => client.close() };
  }

  /** Runs `fn` with `secretary mcp` started as the Copilot CLI starts it (see asCopilot), closed afterwards. */
  async function withCopilot(sessionId: string | undefined, fn: (server: Awaited<ReturnType<typeof asCopilot>>) => Promise<void>) {
    const server = await asCopilot(sessionId);
    try {
      await fn(server);
    } finally {
      await server.close();
    }
  }

  test('each session gets its own first request, at once when its log holds the running turn', async () => {
    for (const [id, words] of [
      [ONE, 'words of one'],
      [TWO, 'words of two'],
    ]) {
      await withCopilot(id, async (server) => {
        const answer = await server.first();
        assert.equal(answer.json.firstRequest, words, answer.text);
        assert.equal(answer.json.dialogFrom, 'caller');
        assert.equal(answer.json.behind, undefined, answer.text);
        assert.ok(answer.ms < 900, `no wait for a log that holds the running turn: ${answer.ms.toFixed(0)} ms`);
      });
    }
  });

  test('garbage and unknown ids get a clear failure within the bound, never another session', async () => {
    for (const [id, kind] of [
      ['../../etc/passwd', 'unknown_caller'],
      ['x'.repeat(5000), 'unknown_caller'],
      ['99999999-9999-4999-8999-999999999999', 'caller_not_found'],
    ]) {
      await withCopilot(id, async (server) => {
        const answer = await server.first();
        assert.equal(answer.json.success, false, answer.text);
        assert.equal(answer.json.error_type, kind, answer.text);
        assert.ok(!answer.text.includes('words of'), answer.text);
        assert.ok(answer.text.length < 1000, 'the answer quotes a bounded part of the id');
        assert.ok(answer.ms < 3000, `bounded: ${answer.ms.toFixed(0)} ms`);
      });
    }
  });

  test('a log that never records the running turn answers after the wait, and says it may be behind', async () => {
    const three = '33333333-cccc-4ccc-8ccc-000000000003';
    writeLog(three, copilotLog(three, work, ['words of three'], false));
    await withCopilot(three, async (server) => {
      const answer = await server.first();
      assert.equal(answer.json.firstRequest, 'words of three', answer.text);
      assert.match(String(answer.json.behind), /had not recorded the turn running now/);
      assert.ok(answer.ms >= 900 && answer.ms < 3000, `waited about 1 s: ${answer.ms.toFixed(0)} ms`);
    });
  });

  test('a turn that lands during the wait is answered fresh, as soon as it is written', async () => {
    const four = '44444444-dddd-4ddd-8ddd-000000000004';
    writeLog(four, copilotLog(four, work, ['words of four'], false));
    await withCopilot(four, async (server) => {
      // Warm the server (first scan) so the wait below is what is measured.
      await server.client.listTools();
      const pending = server.first();
      await new Promise((done) => setTimeout(done, 150));
      fs.writeFileSync(logPath(four), copilotLog(four, work, ['words of four', 'four asks'], true));
      const answer = await pending;
      assert.equal(answer.json.requestsCount, 2, answer.text);
      assert.equal(answer.json.behind, undefined, answer.text);
      assert.ok(answer.ms < 900, `answered at the write, not at the deadline: ${answer.ms.toFixed(0)} ms`);
    });
  });

  test('a log deleted before the call: a clear failure, not the other session', async () => {
    const five = '55555555-eeee-4eee-8eee-000000000005';
    writeLog(five, copilotLog(five, work, ['words of five'], true));
    await withCopilot(five, async (server) => {
      assert.equal((await server.first()).json.firstRequest, 'words of five');
      fs.rmSync(path.dirname(logPath(five)), { recursive: true });
      const answer = await server.first();
      assert.equal(answer.json.success, false, answer.text);
      // The store keeps the dialog it read, marked unavailable: the contract's own words.
      assert.equal(answer.json.error, 'Chat data not available for session', answer.text);
      assert.ok(!answer.text.includes('words of'), answer.text);
    });
  });

  test('without a session id the agent folder decides, and the answer says by which rule', async () => {
    await withCopilot(undefined, async (server) => {
      const answer = await server.first();
      assert.equal(answer.json.dialogFrom, 'mostRecent', answer.text);
      // The agent's working folder, not every workspace.
      assert.match(String(answer.json.chosenBy), /most recently active copilot-cli session of file:\/\/.*\/work:/);
    });
  });
});
