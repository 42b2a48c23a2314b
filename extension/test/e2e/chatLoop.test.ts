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

test('chat loop: a new chat in the view gets its own first request, sent a moment ago', async () => {
  await secretary();
  await focusView();
  await vscode.commands.executeCommand('workbench.action.chat.newChat');
  await focusView();
  const call = await send('get_first_request', {}, 'view-first');
  const outcome = note('new chat in the view: first request', call, 'view-first');
  assertCallers(outcome, 'firstRequest');
  assert.equal(outcome.answer.live, true, JSON.stringify(outcome.answer));
}, { timeoutMs: 90_000 });

test('chat loop: the second message of the view chat reads itself, not yet saved', async () => {
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
  assertCallers(outcome, 'firstRequest');
}, { timeoutMs: 90_000 });

test('chat loop: the editor chat, still focused, reads its second request', async () => {
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
  assert.match(String(outcome.answer.behind), /no requests|not the calling chat/);
}, { timeoutMs: 60_000 });

test('chat loop: right and wrong answers, with the caller vs without (the old rule)', async () => {
  const { api } = await secretary();
  const rows = outcomes.map((o) => {
    const field = 'firstRequest' in o.answer ? 'firstRequest' : 'request';
    return { scenario: o.scenario, withCaller: right(o, o.answer, field), withoutCaller: right(o, o.baseline, field), live: o.answer.live };
  });
  for (const row of rows) {
    console.log(`chat-loop: ${row.scenario}: with the caller ${row.withCaller ? 'right' : 'WRONG'} (live ${String(row.live)}), without ${row.withoutCaller ? 'right' : 'wrong'}`);
  }
  recordMetric('chatLoop.rightWithCaller', rows.filter((r) => r.withCaller).length);
  recordMetric('chatLoop.rightWithoutCaller', rows.filter((r) => r.withoutCaller).length);
  recordMetric('chatLoop.scenarios', rows.length);
  // What answering for the caller costs in VS Code: the live copy (VS Code's export) on top.
  const calls = (await loop()).calls;
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  recordMetric('chatLoop.toolCall.withCaller.median.ms', Math.round(median(calls.map((c) => c.ms))));
  recordMetric('chatLoop.toolCall.withoutToken.median.ms', Math.round(median(calls.map((c) => c.msWithoutToken))));
  assert.equal(rows.length, 5, `only ${rows.length} scenarios ran`);
  assert.deepEqual(rows.filter((r) => !r.withCaller), []);
  // The sidebar's current dialog is the chat that called last.
  assert.equal(api.sessions.getCurrentSessionId(), outcomes[outcomes.length - 1].session);
}, { timeoutMs: 30_000 });

test('chat loop: @secretary /first in a real chat recalls that chat\'s first request', async () => {
  await focusView();
  await vscode.commands.executeCommand('workbench.action.chat.newChat');
  await focusView();
  const opening = await send('get_first_request', {}, 'secretary-first');
  const session = sessionIdOf(opening);
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
