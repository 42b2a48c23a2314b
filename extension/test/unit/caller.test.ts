// The calling chat: every token shape VS Code has sent decodes in one place, and the sessions
// service answers for the caller with its live copy, on the real WASM core and real files.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';

import { callerOf, localChatResource, type CallContext, type LiveOutcome } from '../../src/chat/caller';
import { WasmCore } from '../../src/core/wasm';
import { silentLogger } from '../../src/log';
import { sessionsUnder } from '../../src/sessions/discovery';
import { DialogSessionsService } from '../../src/sessions/dialogSessionsService';
import { SAMPLE_WORKSPACE, WASM_DIR, withSamples } from './helpers';

const JSONL = 'c3d9e8f1-2a4b-4c6d-8e0f-1a2b3c4d5e6f';
const JSON_ID = 'a1f4c2e0-7b3d-4d9a-9c51-2e8f6b0d3a71';

/** A `vscode.Uri` look-alike: components as getters on a class, as VS Code's Uri has them. */
class FakeUri {
  constructor(
    private readonly s: string,
    private readonly a: string,
    private readonly p: string,
  ) {}
  get scheme() {
    return this.s;
  }
  get authority() {
    return this.a;
  }
  get path() {
    return this.p;
  }
}

const b64 = (id: string) => Buffer.from(id, 'utf8').toString('base64url');

test('every token shape names the calling chat, or says it cannot', () => {
  const id = 'c3d9e8f1-2a4b-4c6d-8e0f-1a2b3c4d5e6f';
  // 1.139: a frozen {sessionResource: Uri, workingDirectory?}
  assert.deepEqual(
    callerOf(Object.freeze({ sessionResource: new FakeUri('vscode-chat-session', 'local', `/${b64(id)}`), workingDirectory: new FakeUri('file', '', '/w') })),
    { kind: 'local', sessionId: id },
  );
  // the same as plain components (revived / marshalled) and as a string
  assert.deepEqual(callerOf({ sessionResource: { $mid: 1, scheme: 'vscode-chat-session', authority: 'local', path: `/${b64(id)}` } }), {
    kind: 'local',
    sessionId: id,
  });
  assert.deepEqual(callerOf({ sessionResource: localChatResource(id) }), { kind: 'local', sessionId: id });
  // older builds: {sessionId} (and both)
  assert.deepEqual(callerOf({ sessionId: id }), { kind: 'local', sessionId: id });
  assert.deepEqual(callerOf({ sessionId: 'other', sessionResource: localChatResource(id) }), { kind: 'local', sessionId: id });
  // other agents' chats
  assert.deepEqual(callerOf({ sessionResource: new FakeUri('copilotcli', '', '/abc') }), {
    kind: 'foreign',
    scheme: 'copilotcli',
    resource: 'copilotcli:/abc',
    sessionId: 'abc',
  });
  assert.equal((callerOf({ sessionResource: 'copilotcli:/..%2F..%2Fetc' }) as { sessionId?: string }).sessionId, undefined);
  assert.equal(callerOf({ sessionResource: 'claude-code:/s/1' })?.kind, 'foreign');
  // no token: another extension called
  assert.equal(callerOf(undefined), undefined);
  assert.equal(callerOf(null), undefined);
});

test('hostile or broken tokens never become another session', () => {
  const unknown = (token: unknown) => {
    const caller = callerOf(token);
    assert.equal(caller?.kind, 'unknown', JSON.stringify(caller));
  };
  unknown({});
  unknown({ foo: 1 });
  unknown('vscode-chat-session://local/abc');
  unknown(42);
  unknown({ sessionResource: 7 });
  unknown({ sessionResource: { scheme: 1 } });
  unknown({ sessionResource: localChatResource('../../etc/passwd') });
  unknown({ sessionResource: localChatResource('a/b') });
  unknown({ sessionResource: localChatResource('') });
  unknown({ sessionResource: 'vscode-chat-session://local/!!!' });
  unknown({ sessionResource: `vscode-chat-session://local/${Buffer.from([0xff, 0xfe]).toString('base64url')}` });
  unknown({ sessionId: '..' });
  unknown({ sessionId: 'x'.repeat(300) });
  // inherited names do not count as the token's own fields
  unknown(Object.create({ sessionId: 'inherited' }));
});

function open(root: string) {
  const core = new WasmCore(WASM_DIR, silentLogger);
  const service = new DialogSessionsService(core, { files: () => sessionsUnder(root), watchDirs: () => [] }, silentLogger, {
    workspace: SAMPLE_WORKSPACE,
  });
  return { core, service };
}

/** A call from chat `sessionId` whose live copy is `copy`; counts how often the copy was taken. */
function from(sessionId: string, copy: () => LiveOutcome): CallContext & { taken: number } {
  const call = {
    caller: { kind: 'local' as const, sessionId },
    taken: 0,
    live: async () => {
      call.taken += 1;
      return copy();
    },
  };
  return call;
}

/** What VS Code's export writes for `requests` (no session id; the running one as cancelled). */
function exported(requests: { id: string; text: string; running?: boolean }[]): LiveOutcome {
  const body = {
    requests: requests.map((r, i) => ({
      requestId: r.id,
      timestamp: 1760600000000 + i,
      message: { text: r.text, parts: [] },
      response: r.running ? [] : [{ value: 'ok' }],
      modelState: { value: r.running ? 2 : 1 },
    })),
  };
  return { bytes: Buffer.from(JSON.stringify(body)) };
}

/** The request ids of a sample session, as the core read them. */
function idsOf(service: DialogSessionsService, sessionId: string) {
  const dialog = service.getSession(sessionId)?.dialog;
  assert.ok(dialog, sessionId);
  return dialog.requests.map((r) => ({ id: String(r.requestId), text: r.text }));
}

test('the calling chat answers, not the most recent one, with the request not saved yet', async () => {
  await withSamples(async (samples) => {
    const { service } = open(samples.dir);
    await service.start(false);
    assert.equal(service.getCurrentSessionId(), JSONL, 'the most recent dialog is the .jsonl one');
    const saved = idsOf(service, JSON_ID);
    const call = from(JSON_ID, () => exported([...saved, { id: 'live-1', text: 'Sent half a second ago', running: true }]));
    // The first request is saved: answered without a live copy.
    const first = JSON.parse(await service.invokeTool('get_first_request', {}, call)) as Record<string, unknown>;
    assert.equal(first.sessionId, JSON_ID);
    assert.equal(first.dialogFrom, 'caller');
    assert.equal(first.live, false);
    assert.match(String(first.behind), /no live copy was taken/);
    assert.equal(call.taken, 0, 'no export for a saved request');
    // The request sent a moment ago is only in the live copy.
    const last = JSON.parse(await service.invokeTool('get_request', { index: saved.length + 1 }, call)) as Record<string, unknown>;
    assert.equal(last.request, 'Sent half a second ago');
    assert.equal(last.live, true);
    assert.equal(last.totalRequests, saved.length + 1);
    assert.equal(call.taken, 1, 'one live copy per call that needs it');
    // The sidebar's current dialog follows the caller.
    assert.equal(service.getCurrentSessionId(), JSON_ID);
    // Tools that do not read the caller's dialog never take a copy.
    await service.invokeTool('list_dialogs', {}, call);
    await service.invokeTool('get_first_request', { sessionId: JSONL }, call);
    assert.equal(call.taken, 1);
  });
});

test("another chat's live copy is refused: the saved copy answers and says it may be behind", async () => {
  await withSamples(async (samples) => {
    const { service } = open(samples.dir);
    await service.start(false);
    const other = idsOf(service, JSONL);
    const call = from(JSON_ID, () => exported([...other, { id: 'x', text: 'the other chat is running', running: true }]));
    // A request past the saved ones needs the live copy, which is the other chat's.
    const answer = JSON.parse(await service.invokeTool('get_request', { index: 99 }, call)) as Record<string, unknown>;
    assert.equal(answer.success, false);
    assert.match(String(answer.error), /exceeds total requests .*may not be saved yet: .*not the calling chat/);
    assert.equal(call.taken, 1);
    assert.doesNotMatch(JSON.stringify(answer), /the other chat is running/);
    // An export that failed or timed out: the same honest answer.
    const failed = from(JSON_ID, () => ({ error: 'VS Code wrote no live copy within 2000 ms' }));
    const again = JSON.parse(await service.invokeTool('get_request', { index: 99 }, failed)) as Record<string, unknown>;
    assert.equal(again.success, false);
    assert.match(String(again.error), /within 2000 ms/);
    assert.equal(failed.taken, 1);
  });
});

test('a brand-new chat with no file is told its answer is uncertain, never given the previous dialog', async () => {
  await withSamples(async (samples) => {
    const { service } = open(samples.dir);
    await service.start(false);
    // Its own copy or another new chat's: nothing tells them apart, so neither is used.
    const fresh = from('brand-new', () => exported([{ id: 'n1', text: 'My very first words here', running: true }]));
    const first = JSON.parse(await service.invokeTool('get_first_request', {}, fresh)) as Record<string, unknown>;
    assert.equal(first.success, false);
    assert.equal(first.error_type, 'caller_uncertain');
    assert.doesNotMatch(JSON.stringify(first), /My very first words/);
    // Focus is on a known dialog: its words must not answer for the new chat.
    const known = idsOf(service, JSONL);
    const wrong = from('brand-new', () => exported([...known, { id: 'k', text: 'running', running: true }]));
    const refused = JSON.parse(await service.invokeTool('get_first_request', {}, wrong)) as Record<string, unknown>;
    assert.equal(refused.success, false);
    assert.equal(refused.error_type, 'caller_not_found');
    assert.doesNotMatch(JSON.stringify(refused), new RegExp(known[0].text.slice(0, 20)));
  });
});

test('with watchers running, a call reads only what changed: the calling chat file and reported files', async () => {
  await withSamples(async (samples) => {
    const { service } = open(samples.dir);
    const scope = { files: () => sessionsUnder(samples.dir), watchDirs: () => [path.join(samples.storage, 'chatSessions')] };
    const core = new WasmCore(WASM_DIR, silentLogger);
    const watched = new DialogSessionsService(core, scope, silentLogger, { workspace: SAMPLE_WORKSPACE, debounceMs: 20 });
    await watched.start(true);
    const syncsBefore = watched.sync.syncCount;
    for (let i = 0; i < 5; i++) {
      await watched.invokeTool('get_request', { index: 1, sessionId: JSON_ID });
    }
    assert.equal(watched.sync.syncCount, syncsBefore, 'no full rescan per call while nothing changed');
    // A change on disk is seen by the next call (the watcher marks the file).
    const file = path.join(samples.storage, 'chatSessions', `${JSONL}.jsonl`);
    const line = JSON.stringify({
      kind: 2,
      k: ['requests'],
      v: [{ requestId: 'r9', timestamp: 1760530000000, message: { text: 'Appended while watched', parts: [] }, response: [] }],
    });
    fs.appendFileSync(file, `\n${line}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const answer = JSON.parse(await watched.invokeTool('get_request', { index: 3, sessionId: JSONL })) as Record<string, unknown>;
    assert.equal(answer.request, 'Appended while watched');
    watched.dispose();
    service.dispose();
  });
});

test('an index past 2^32 is refused in the WASM core, not wrapped to request 1 (usize has 32 bits there)', async () => {
  await withSamples(async (samples) => {
    const { service } = open(samples.dir);
    await service.start(false);
    for (const index of [4294967297, 4294967296 + 2, 2 ** 53]) {
      const answer = JSON.parse(await service.invokeTool('get_request', { index, sessionId: JSON_ID })) as Record<string, unknown>;
      assert.equal(answer.success, false, `${index}: ${JSON.stringify(answer)}`);
      assert.match(String(answer.error), /exceeds total requests \(3\)|whole number|past 2\^53/);
    }
  });
});
