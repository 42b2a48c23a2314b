// The calling dialog through the real chat loop: real chat requests in VS Code's own chat (view and
// editor), answered by the test-only `@loop` participant (extension/test/chat-loop), whose scripted
// model calls the Secretary's tools; the participant runs them with the request's real
// toolInvocationToken, as an agent does. Each answer must be the calling chat's own, including the
// request sent a moment ago that VS Code has not saved yet.
import * as assert from 'assert/strict';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';

import type { LoopCall } from '../chat-loop/src/extension';
import { focusedCommand, focusView, loop, send, sessionIdOf } from './chatLoopDriver';
import { recordMetric, test } from './harness';
import { eventually, secretary } from './support';


interface Outcome {
  scenario: string;
  /** The caller's session id (from the token) and what the answer says. */
  session: string;
  answer: Record<string, unknown>;
  baseline: Record<string, unknown>;
  marker: string;
}

const outcomes: Outcome[] = [];


function note(scenario: string, call: LoopCall, marker: string): Outcome {
  const outcome = {
    scenario,
    session: sessionIdOf(call),
    answer: JSON.parse(call.answer) as Record<string, unknown>,
    baseline: JSON.parse(call.answerWithoutToken) as Record<string, unknown>,
    marker,
  };
  outcomes.push(outcome);
  return outcome;
}

/** The answer is the calling chat's: its session id, and its own words (the marker). */
function assertCallers(outcome: Outcome, field: 'firstRequest' | 'request'): void {
  const { answer, session, marker } = outcome;
  assert.equal(answer.success, true, JSON.stringify(answer));
  assert.equal(answer.sessionId, session, `${outcome.scenario}: answered for another dialog: ${JSON.stringify(answer)}`);
  assert.equal(answer.dialogFrom, 'caller');
  assert.ok(String(answer[field]).includes(marker), `${outcome.scenario}: ${field} lacks #${marker}: ${JSON.stringify(answer)}`);
}

function right(outcome: Outcome, answer: Record<string, unknown>, field: 'firstRequest' | 'request'): boolean {
  return answer.success === true && answer.sessionId === outcome.session && String(answer[field]).includes(outcome.marker);
}

/** A chat with nothing saved whose live copy cannot be tied to it: the answer says so, gives no
 * words and never claims to be live. */
function assertUncertain(outcome: Outcome, others: string[]): void {
  const { answer } = outcome;
  assert.equal(answer.success, false, `${outcome.scenario}: ${JSON.stringify(answer)}`);
  assert.equal(answer.error_type, 'caller_uncertain', `${outcome.scenario}: ${JSON.stringify(answer)}`);
  assert.notEqual(answer.live, true);
  for (const marker of others) {
    assert.ok(!JSON.stringify(answer).includes(marker), `${outcome.scenario}: another chat's words (#${marker}): ${JSON.stringify(answer)}`);
  }
}

/** A chat that may have nothing saved yet (VS Code saves on a timer, which may or may not have
 * fired since the request was sent): its own words from the saved copy, or an uncertain answer;
 * never another chat's words. */
function assertOwnOrUncertain(outcome: Outcome, others: string[]): void {
  if (outcome.answer.success === true) {
    assertCallers(outcome, 'firstRequest');
    assert.notEqual(outcome.answer.live, true, 'a first request answered from the saved copy');
  } else {
    assertUncertain(outcome, others);
  }
}

/** Waits until VS Code has saved `session` with at least `requests` requests (every few seconds in
 * the web build) and the Secretary has read it. */
async function saved(session: string, requests: number): Promise<void> {
  const { api } = await secretary();
  await eventually(() => (api.sessions.getSession(session)?.dialog.requests.length ?? 0) >= requests, 20_000, `${session} saved`);
}

test('chat loop: a new chat in the view, nothing saved yet, is told its answer is uncertain (or reads its saved copy)', async () => {
  await secretary();
  await focusView();
  await vscode.commands.executeCommand('workbench.action.chat.newChat');
  await focusView();
  const call = await send('get_first_request', {}, 'view-first');
  const outcome = note('new chat in the view: first request', call, 'view-first');
  assertOwnOrUncertain(outcome, []);
}, { timeoutMs: 90_000 });

test('chat loop: the second message of the view chat reads itself, not yet saved', async () => {
  await saved(outcomes[0].session, 1);
  await focusView();
  const call = await send('get_request', { index: 2 }, 'view-second');
  const outcome = note('view chat: its second request (running)', call, 'view-second');
  assertCallers(outcome, 'request');
  assert.equal(outcome.answer.totalRequests, 2);
}, { timeoutMs: 60_000 });

test('chat loop: a chat in an editor answers for itself, not for the chat in the view', async () => {
  const viewSession = outcomes[0]?.session;
  await vscode.commands.executeCommand('workbench.action.openChat');
  const call = await send('get_first_request', {}, 'editor-first');
  const outcome = note('new chat in an editor beside the view chat: first request', call, 'editor-first');
  assert.notEqual(outcome.session, viewSession, 'the editor chat is another session');
  assertOwnOrUncertain(outcome, ['view-first', 'view-second']);
}, { timeoutMs: 90_000 });

test('chat loop: the editor chat, still focused, reads its second request', async () => {
  await saved(outcomes[2].session, 1);
  const call = await send('get_request', { index: 2 }, 'editor-second');
  const outcome = note('editor chat: its second request (running)', call, 'editor-second');
  assertCallers(outcome, 'request');
  assert.equal(outcome.answer.live, true, JSON.stringify(outcome.answer));
}, { timeoutMs: 60_000 });

test('chat loop: a chat that lost the focus answers for itself from disk and says it may be behind', async () => {
  const { api } = await secretary();
  const editorSession = outcomes[2].session;
  // The editor chat was saved a moment ago (VS Code flushes chats every few seconds in the web build).
  await eventually(() => (api.sessions.getSession(editorSession)?.dialog.requests.length ?? 0) >= 2, 15_000, 'the editor chat on disk');
  // While its agent works, the person opens another chat: VS Code's live copy is now that chat's, which
  // must not answer for the editor chat.
  const call = await send('get_first_request', {}, 'hold', async () => {
    await vscode.commands.executeCommand('workbench.action.openChat');
  });
  const outcome = note('editor chat after the person opened another chat: first request', call, 'editor-first');
  assert.equal(outcome.session, editorSession, 'the request ran in the editor chat');
  assertCallers(outcome, 'firstRequest');
  assert.equal(outcome.answer.live, false, JSON.stringify(outcome.answer));
  // The first request is saved: answered without a live copy, which would be the other chat's.
  assert.match(String(outcome.answer.behind), /no live copy was taken|no requests|not the calling chat/);
}, { timeoutMs: 60_000 });

test('chat loop: a request the saved copy holds is answered without VS Code\'s export (cost per call)', async () => {
  // A chat whose first request is saved (whichever chat the focus sends to); in it, the same tool
  // timed 15 times a call: its first request (saved: no live copy) and the request running now
  // (only the live copy has it).
  await focusView();
  const warmUp = await send('get_request', { index: 1 }, 'bench warm-up');
  const view = sessionIdOf(warmUp);
  await saved(view, warmUp.history.length + 1);
  const fromSaved = await send('get_first_request', {}, 'bench saved');
  // The running request's index: the chat's earlier requests, `bench saved`, then this one.
  const fromLive = await send('get_request', { index: fromSaved.history.length + 2 }, 'bench live');
  assert.equal(sessionIdOf(fromSaved), view);
  assert.equal(sessionIdOf(fromLive), view);
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const viaSaved: number[] = [];
  const viaLive: number[] = [];
  for (const call of [fromSaved, fromLive]) {
    const bench = call.bench;
    assert.equal(bench?.answers.length, 15);
    bench?.answers.forEach((text, i) => {
      const answer = JSON.parse(text) as Record<string, unknown>;
      assert.equal(answer.sessionId, view, text);
      assert.ok(String(answer[call === fromSaved ? 'firstRequest' : 'request']).includes(call === fromSaved ? '#bench warm-up' : '#bench live'), text);
      if (answer.live === true) {
        viaLive.push(bench.withToken[i]);
      } else {
        // VS Code saves every few seconds in the web build: the running request may be saved too.
        assert.match(String(answer.behind), /no live copy was taken/, text);
        viaSaved.push(bench.withToken[i]);
      }
    });
  }
  recordMetric('chatLoop.bench.savedCopy.calls', viaSaved.length);
  recordMetric('chatLoop.bench.savedCopy.median.ms', Math.round(median(viaSaved)));
  recordMetric('chatLoop.bench.liveCopy.calls', viaLive.length);
  recordMetric('chatLoop.bench.liveCopy.median.ms', Math.round(median(viaLive)));
  recordMetric('chatLoop.bench.withoutToken.median.ms', Math.round(median([...(fromSaved.bench?.withoutToken ?? []), ...(fromLive.bench?.withoutToken ?? [])])));
  // The first request is saved: none of its 15 calls took a live copy. The running one needs it
  // until VS Code's timer saves the chat (every 5 s in the web build), so how many of its calls did
  // depends on that timer: the unit tests count the exports exactly.
  assert.ok(fromSaved.bench?.answers.every((text) => (JSON.parse(text) as { live?: unknown }).live === false));
}, { timeoutMs: 90_000 });

test('chat loop: two brand-new chats sending their first request at once: neither gets the other one\'s words', async () => {
  const lp = await loop();
  // Chat A, new, in an editor: its first request holds before its tool call.
  await vscode.commands.executeCommand('workbench.action.openChat');
  let sentB: Thenable<unknown> | undefined;
  let callB: LoopCall | undefined;
  const callA = await send('get_first_request', {}, 'hold-two-a', async () => {
    // Meanwhile chat B, new, in the view: its first request calls the tool and keeps running.
    await focusView();
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    await focusView();
    const before = lp.calls.length;
    sentB = vscode.commands.executeCommand(await focusedCommand(), {
      query: '@loop call chat_secretary_get_first_request {} #linger two-b',
      isPartialQuery: false,
      mode: 'ask',
      modelSelector: { vendor: 'secretary-test' },
      blockOnResponse: true,
    });
    await eventually(() => lp.lingering && lp.calls.length > before, 30_000, 'chat B to call the tool and keep running');
    callB = lp.calls[lp.calls.length - 1];
  });
  // A called while B, new and running, had the focus: VS Code's live copy was B's.
  lp.releaseLinger();
  await Promise.resolve(sentB);
  assert.ok(callB, 'chat B called the tool');
  const a = note('two new chats at once: the first one (editor)', callA, 'hold-two-a');
  const b = note('two new chats at once: the second one (view, focused)', callB, 'linger two-b');
  assert.notEqual(a.session, b.session, 'two chats');
  assertOwnOrUncertain(a, ['two-b']);
  assertOwnOrUncertain(b, ['hold-two-a']);
}, { timeoutMs: 120_000 });

test('chat loop: right and wrong answers, with the caller vs without (the old rule)', async () => {
  const { api } = await secretary();
  const rows = outcomes.map((o) => {
    const field = 'firstRequest' in o.answer ? 'firstRequest' : 'request';
    const uncertain = o.answer.error_type === 'caller_uncertain';
    return { scenario: o.scenario, withCaller: right(o, o.answer, field), uncertain, withoutCaller: right(o, o.baseline, field), live: o.answer.live };
  });
  for (const row of rows) {
    const said = row.withCaller ? 'right' : row.uncertain ? 'uncertain' : 'WRONG';
    console.log(`chat-loop: ${row.scenario}: with the caller ${said} (live ${String(row.live)}), without ${row.withoutCaller ? 'right' : 'wrong'}`);
  }
  recordMetric('chatLoop.rightWithCaller', rows.filter((r) => r.withCaller).length);
  recordMetric('chatLoop.uncertainWithCaller', rows.filter((r) => r.uncertain).length);
  recordMetric('chatLoop.rightWithoutCaller', rows.filter((r) => r.withoutCaller).length);
  recordMetric('chatLoop.scenarios', rows.length);
  // What answering for the caller costs in VS Code: the live copy (VS Code's export) on top.
  const calls = (await loop()).calls;
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  recordMetric('chatLoop.toolCall.withCaller.median.ms', Math.round(median(calls.map((c) => c.ms))));
  recordMetric('chatLoop.toolCall.withoutToken.median.ms', Math.round(median(calls.map((c) => c.msWithoutToken))));
  // The calls a saved copy answers (no live copy taken) against those that needed one.
  const fromSaved = calls.filter((c) => /no live copy was taken/.test(c.answer));
  const withLive = calls.filter((c) => !/no live copy was taken/.test(c.answer));
  if (fromSaved.length > 0) {
    recordMetric('chatLoop.toolCall.savedAnswers.median.ms', Math.round(median(fromSaved.map((c) => c.ms))));
  }
  recordMetric('chatLoop.toolCall.liveCopy.median.ms', Math.round(median(withLive.map((c) => c.ms))));
  assert.equal(rows.length, 7, `only ${rows.length} scenarios ran`);
  // Never another chat's words: each answer is the caller's own, or says it is uncertain.
  assert.deepEqual(rows.filter((r) => !r.withCaller && !r.uncertain), []);
  // The sidebar's current dialog is the chat that called last (once VS Code has saved it).
  const last = sessionIdOf(calls[calls.length - 1]);
  await eventually(() => api.sessions.getCurrentSessionId() === last, 20_000, 'the last caller as the current dialog');
}, { timeoutMs: 30_000 });

test('chat loop: @secretary /first in a real chat recalls that chat\'s first request', async () => {
  await focusView();
  await vscode.commands.executeCommand('workbench.action.chat.newChat');
  await focusView();
  const opening = await send('get_first_request', {}, 'secretary-first');
  const session = sessionIdOf(opening);
  // Its first request must be saved for its live copy to be tied to it.
  await saved(session, 1);
  // The person asks the Secretary itself, in the same chat (it runs on the chat's language model).
  const done = vscode.commands.executeCommand(await focusedCommand(), {
    query: '@secretary /first',
    isPartialQuery: false,
    mode: 'ask',
    modelSelector: { vendor: 'secretary-test' },
    blockOnResponse: true,
  });
  await Promise.race([
    Promise.resolve(done),
    new Promise((_, reject) => setTimeout(() => reject(new Error('@secretary /first did not answer within 40 s')), 40_000)),
  ]);
  // What the chat shows: VS Code's own export of it.
  const { api } = await secretary();
  const file = vscode.Uri.file(path.join(os.tmpdir(), `secretary-first-${Date.now()}.json`));
  await vscode.commands.executeCommand('workbench.action.chat.export', file);
  const exported = JSON.parse(fs.readFileSync(file.fsPath, 'utf8')) as { requests: { response?: { value?: string }[] }[] };
  fs.rmSync(file.fsPath, { force: true });
  const last = exported.requests[exported.requests.length - 1];
  const shown = (last.response ?? []).map((part) => (typeof part?.value === 'string' ? part.value : '')).join('');
  assert.ok(shown.includes(session), `the answer names this chat (${session}): ${shown}`);
  assert.ok(shown.includes('secretary-first'), `the answer quotes this chat's first request: ${shown}`);
  // The sidebar's current dialog is this chat once VS Code has saved it.
  await eventually(() => api.sessions.getCurrentSessionId() === session, 20_000, 'the chat as the current dialog');
}, { timeoutMs: 90_000 });
