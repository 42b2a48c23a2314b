// `secretary copilot-ls --prompt` end to end, offline: the built CLI starts the real
// @github/copilot-language-server (pinned, installed by scripts/copilot-ls-setup into
// .tools/copilot-language-server), which signs in with a fake token against a fake Copilot API on
// 127.0.0.1 (fakeCopilotApi.ts). The fake model calls the Secretary's tools through the server;
// the tests assert on the tool messages the model received and on what the CLI printed.
// HOME and XDG_* point into a temporary folder. Every wait is bounded: a hung server fails a test
// within TURN_TIMEOUT_MS. Without the server the tests are skipped, except under CI=true, where
// they fail.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { findServer, skipWithoutServer } from '../unit/copilotLsServer';
import { FAKE_MODEL, startFakeCopilotApi, type FakeCopilotApi, type Step } from './fakeCopilotApi';
import { ROOT, SAMPLES, tempDir } from '../unit/helpers';

const CLI = path.join(ROOT, 'dist', 'cli.js');
const TODO_APP = '/home/dev/projects/todo-app';
const FIRST_SESSION = 'c3d9e8f1-2a4b-4c6d-8e0f-1a2b3c4d5e6f';
/** One CLI run (start-up ~5 s, a turn well under a second with the fake): a hang fails here. */
const TURN_TIMEOUT_MS = 30_000;

const server = findServer();
const skip = skipWithoutServer(server);

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `secretary copilot-ls --prompt ...` against the real server and the fake API. */
function runPrompts(api: FakeCopilotApi, home: string, prompts: string[], extra: string[] = []): Promise<CliRun> {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    // No proxy and no real Copilot credentials may leak in.
    if (!/^(https?_proxy|all_proxy|no_proxy|gh_|github_|copilot_|xdg_)/i.test(key)) {
      env[key] = value;
    }
  }
  Object.assign(env, {
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    XDG_STATE_HOME: path.join(home, '.local', 'state'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    NO_PROXY: '127.0.0.1,localhost',
    GH_COPILOT_TOKEN: 'fake-oauth-token',
    GH_COPILOT_API_URL: api.url,
    GH_COPILOT_SERVER_URL: api.url,
  });
  const args = [CLI, 'copilot-ls', '--server', server.path!, '--storage', SAMPLES, '--state-dir', path.join(home, 'state'), ...extra];
  for (const prompt of prompts) {
    args.push('--prompt', prompt);
  }
  const child = spawn(process.execPath, args, { env, cwd: home, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      stderr += `\n[test] no exit within ${TURN_TIMEOUT_MS} ms: killed`;
      child.kill('SIGKILL');
    }, TURN_TIMEOUT_MS * prompts.length);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

function parse(text: string): Record<string, unknown> {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    assert.fail(`the tool message is the tool's JSON: ${text}`);
  }
}

/** 1.539.0 gives the model a client tool's `status: "error"` result with this prefix. */
const FAILED = 'Tool call failed with error: ';

/** The JSON of a failed tool's message, after checking the server's prefix. */
function parseFailed(text: string): Record<string, unknown> {
  assert.ok(text.startsWith(FAILED), `a failed tool's message starts with ${JSON.stringify(FAILED)}: ${text}`);
  return parse(text.slice(FAILED.length));
}

const SCENARIOS: Record<string, Step[]> = {
  'scenario-dialog': [
    { call: 'get_first_request', args: {} },
    { text: ([first]) => `Your first request was: ${String(parse(first).firstRequest)}` },
  ],
  'scenario-followup': [
    { call: 'get_request', args: { index: 2 } },
    { text: ([second]) => `Request ${String(parse(second).index)} of ${String(parse(second).sessionId)}.` },
  ],
  'scenario-failing': [
    { call: 'get_request', args: { index: 0 } },
    { text: ([failed]) => `The tool said: ${String(parseFailed(failed).error)}` },
  ],
  'scenario-load': [
    { call: 'tool_load', args: { names: ['memory'] } },
    { call: 'memory', args: { command: 'save', path: 'e2e-note', content: 'Tests use node:test.\n' } },
    { text: (results) => `Saved: ${String(parse(results[1]).path)}` },
  ],
  'scenario-consent': [
    { call: 'tool_load', args: { names: ['memory'] } },
    { call: 'memory', args: { command: 'save', path: 'keep-me', content: 'keep\n' } },
    { call: 'memory', args: { command: 'delete', path: 'keep-me' } },
    { text: (results) => `Refused: ${String(parseFailed(results[2]).error_type)}` },
  ],
  'scenario-broken': [{ fail: 400 }],
  'scenario-ask': [{ text: (results) => `Asked, with ${results.length} tool results.` }],
};

describe('copilot-ls --prompt through the real @github/copilot-language-server', { skip }, () => {
  let api: FakeCopilotApi;
  let temp: { dir: string; cleanup(): void };

  before(async () => {
    assert.ok(server.path, `CI=true: the server must be installed (${server.why})`);
    api = await startFakeCopilotApi(SCENARIOS);
    temp = tempDir('secretary-copilot-ls-e2e-');
  });
  after(async () => {
    await api?.close();
    temp?.cleanup();
  });

  /** A fresh HOME (and workspace) per run. */
  function home(name: string): string {
    const dir = path.join(temp.dir, name);
    fs.mkdirSync(dir, { recursive: true });
    return dir;
  }

  test('a dialog tool answers from the sample sessions, then a follow-up turn in the same conversation', async () => {
    const run = await runPrompts(api, home('dialog'), ['scenario-dialog: what was my first request?', 'scenario-followup: and the second?'], [
      '--workspace',
      TODO_APP,
      '--model',
      FAKE_MODEL,
    ]);
    assert.equal(run.code, 0, `exit 0; stderr:\n${run.stderr}`);
    const [first, firstAnswer] = api.chats.filter((chat) => chat.scenario === 'scenario-dialog');
    assert.ok(first && firstAnswer, `two model requests for the first turn: ${api.requests.join(', ')}`);
    assert.ok(first.tools.includes('get_first_request'), `the model is offered the tools: ${first.tools.join(', ')}`);
    assert.ok(!first.tools.includes('memory'), 'deferred tools are not offered before tool_load');
    assert.equal(firstAnswer.toolResults.length, 1);
    const tool = parse(firstAnswer.toolResults[0]);
    assert.equal(tool.success, true, firstAnswer.toolResults[0]);
    assert.equal(tool.sessionId, FIRST_SESSION);
    const request = String(tool.firstRequest);
    assert.match(request, /^The todo list is slow with 5,000 items/, 'the first request of the sample session');

    const followUp = api.chats.filter((chat) => chat.scenario === 'scenario-followup');
    assert.equal(followUp.length, 2);
    const second = parse(followUp[1].toolResults[0]);
    assert.equal(second.success, true, followUp[1].toolResults[0]);
    assert.equal(second.index, 2);
    // The follow-up is a turn of the same conversation: the model sees the first turn's exchange.
    const history = JSON.stringify(followUp[0].messages);
    assert.ok(history.includes('scenario-dialog'), 'the first turn is in the follow-up history');

    // stdout: the replies, streamed, one per turn; stderr: the tool calls as they ran.
    assert.equal(run.stdout, `Your first request was: ${request}\nRequest 2 of ${FIRST_SESSION}.\n`);
    assert.match(run.stderr, /… get_first_request: running\n[^]*✓ get_first_request: completed/);
    assert.match(run.stderr, /✓ get_request: completed/);
    assert.ok(api.requests.includes('GET /copilot_internal/v2/token'), 'the token was exchanged with the fake');
    assert.doesNotMatch(run.stderr, /model: .*the default/, '--model was given');
  });

  test('a failing tool reaches the model as the error and shows as error', async () => {
    const run = await runPrompts(api, home('failing'), ['scenario-failing: show request zero'], ['--workspace', TODO_APP]);
    assert.equal(run.code, 0, `a failed tool does not fail the turn; stderr:\n${run.stderr}`);
    const answer = api.chats.filter((chat) => chat.scenario === 'scenario-failing')[1];
    assert.ok(answer, 'the model was asked again after the tool call');
    // The tool's JSON, unchanged, after the server's prefix for a failed call.
    assert.equal(answer.toolResults[0], `${FAILED}{"error":"Index must be 1 or greater","success":false}`);
    assert.equal(run.stdout, 'The tool said: Index must be 1 or greater\n');
    assert.match(run.stderr, /✗ get_request: error/);
    assert.match(run.stderr, new RegExp(`model: ${FAKE_MODEL} \\(the default`), 'without --model, the default model of /models');
  });

  test('tool_load, then the loaded tool in the same turn; its write in the workspace is announced', async () => {
    const dir = home('load');
    const run = await runPrompts(api, dir, ['scenario-load: remember how tests run'], ['--workspace', dir, '--verbose']);
    assert.equal(run.code, 0, `exit 0; stderr:\n${run.stderr}`);
    const chats = api.chats.filter((chat) => chat.scenario === 'scenario-load');
    assert.equal(chats.length, 3, 'tool_load, memory, then the reply');
    assert.ok(!chats[0].tools.includes('memory'));
    assert.ok(chats[1].tools.includes('memory'), `memory is offered once loaded, in the same turn: ${chats[1].tools.join(', ')}`);
    assert.equal(parse(chats[1].toolResults[0]).success, true, chats[1].toolResults[0]);
    const saved = parse(chats[2].toolResults[1]);
    assert.equal(saved.success, true, chats[2].toolResults[1]);
    assert.equal(saved.path, 'e2e-note.md');
    assert.equal(run.stdout, 'Saved: e2e-note.md\n');
    // The note is written under --state-dir, inside the workspace here: announced to the server.
    const note = findFile(path.join(dir, 'state'), 'e2e-note.md');
    assert.ok(note, 'the note is on disk');
    assert.equal(fs.readFileSync(note, 'utf8'), 'Tests use node:test.\n');
    assert.ok(run.stderr.includes(`announced ${pathToUri(note)} to the language server (version 1)`), run.stderr);
  });

  test('a consent-requiring call without the literal is refused and changes nothing', async () => {
    const dir = home('consent');
    const run = await runPrompts(api, dir, ['scenario-consent: delete my note'], ['--workspace', dir]);
    assert.equal(run.code, 0, `exit 0; stderr:\n${run.stderr}`);
    const last = api.chats.filter((chat) => chat.scenario === 'scenario-consent')[3];
    assert.ok(last, 'four model requests');
    const refused = parseFailed(last.toolResults[2]);
    assert.equal(refused.success, false);
    assert.equal(refused.error_type, 'consent_required');
    assert.match(String(refused.error), /"DELETE_MEMORY"/);
    assert.equal(run.stdout, 'Refused: consent_required\n');
    assert.ok(findFile(path.join(dir, 'state'), 'keep-me.md'), 'the note is still there');
  });

  test('--mode ask: a turn without tools', async () => {
    const run = await runPrompts(api, home('ask'), ['scenario-ask: explain'], ['--workspace', TODO_APP, '--mode', 'ask']);
    assert.equal(run.code, 0, `exit 0; stderr:\n${run.stderr}`);
    const chats = api.chats.filter((chat) => chat.scenario === 'scenario-ask');
    assert.equal(chats.length, 1);
    assert.ok(!chats[0].tools.includes('get_first_request'), `no client tools in ask mode: ${chats[0].tools.join(', ')}`);
    assert.equal(run.stdout, 'Asked, with 0 tool results.\n');
  });

  test('a turn the API fails ends with exit 1 and the server error', async () => {
    const run = await runPrompts(api, home('broken'), ['scenario-broken: anything'], ['--workspace', TODO_APP]);
    assert.equal(run.code, 1, `exit 1; stderr:\n${run.stderr}`);
    assert.ok(api.chats.some((chat) => chat.scenario === 'scenario-broken'), 'the model was asked');
    // The server's error, which carries the API's answer.
    assert.match(run.stderr, /the turn failed: .*400 .*fake failure 400/);
    assert.equal(run.stdout, '', 'no reply');
  });
});

function findFile(dir: string, name: string): string | undefined {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name === name) {
      return path.join(entry.parentPath ?? (entry as unknown as { path: string }).path, entry.name);
    }
  }
  return undefined;
}

function pathToUri(file: string): string {
  return `file://${file.split(path.sep).map(encodeURIComponent).join('/')}`;
}
