// A window reload in the middle of a chat, through the real chat loop: a chat's request is answered,
// the window reloads at once (VS Code may not have saved the chat yet: it writes on a timer), and the
// restored chat's next request must still be answered for that chat, with what the chat shows as its
// first request. Imported last: the tests after a reload run in a new extension host.
import * as assert from 'assert/strict';
import * as vscode from 'vscode';

import type { LoopCall } from '../chat-loop/src/extension';
import { focusView, send, sessionIdOf } from './chatLoopDriver';
import { recordMetric, testAcrossReload } from './harness';
import { eventually, secretary } from './support';

interface Saved {
  session: string;
  resource: string;
}

/** The `#marker` a loop prompt ends with. */
function markerOf(prompt: string): string {
  const found = /#(\S+)\s*$/.exec(prompt);
  assert.ok(found, `no #marker in ${prompt}`);
  return found[1];
}

function answerOf(call: LoopCall): Record<string, unknown> {
  return JSON.parse(call.answer) as Record<string, unknown>;
}

/** The answer is for the chat the request ran in, whichever that was. */
function assertOwnCaller(call: LoopCall): void {
  const answer = answerOf(call);
  if (call.history.length === 0 && answer.error_type === 'caller_uncertain') {
    // A brand-new chat with nothing saved: its live copy cannot be tied to it, and the answer says
    // so (docs/calling-dialog.md) rather than give words that may be another new chat's.
    assert.notEqual(answer.live, true);
    return;
  }
  assert.equal(answer.success, true, JSON.stringify(answer));
  assert.equal(answer.sessionId, sessionIdOf(call), `answered for another dialog: ${JSON.stringify(answer)}`);
  assert.equal(answer.dialogFrom, 'caller');
  // What the chat shows as its first request: an earlier one, else this one.
  const shown = call.history.length > 0 ? call.history[0] : call.prompt;
  assert.ok(String(answer.firstRequest).includes(`#${markerOf(shown)}`), `the chat shows ${JSON.stringify(shown)} first; the answer: ${JSON.stringify(answer)}`);
}

/** Opens a chat by its session resource (as the sidebar does), moves it into the chat view and puts
 * the focus in its input, as a person clicking there does. */
async function openInView(resource: string): Promise<void> {
  await vscode.commands.executeCommand('vscode.open', vscode.Uri.parse(resource), { preview: false });
  const label = vscode.window.tabGroups.activeTabGroup.activeTab?.label;
  const count = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.label === label).length;
  const opened = count();
  await vscode.commands.executeCommand('workbench.action.chat.openInSidebar');
  await eventually(() => count() < opened, 10_000, `the chat (${label}) to leave the editor`);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await focusView();
}

testAcrossReload<Saved>(
  'chat loop: after a window reload, the restored chat answers for itself',
  async () => {
    const { api } = await secretary();
    await focusView();
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    await focusView();
    const first = await send('get_first_request', {}, 'before-reload');
    assertOwnCaller(first);
    const session = sessionIdOf(first);
    // VS Code saves the chat on its timer; once it has, the chat survives a reload.
    await eventually(() => (api.sessions.getSession(session)?.dialog.requests.length ?? 0) >= 1, 20_000, 'the chat on disk');
    // A second request, and the reload at once, within a second of its reply: VS Code may not save it.
    const second = await send('get_request', { index: 2 }, 'just-before-reload');
    assert.equal(sessionIdOf(second), session);
    assert.ok(String(answerOf(second).request).includes('#just-before-reload'), second.answer);
    return { session, resource: first.session };
  },
  async (saved) => {
    await secretary();
    // VS Code sends a request to the chat that had the focus last, and the moved chat loads in the
    // view asynchronously: a request can land in another chat. Each answer must be its own caller's;
    // try again (at most three times) until one ran in the restored chat.
    let call: LoopCall | undefined;
    const landed: string[] = [];
    for (let attempt = 1; attempt <= 3 && call === undefined; attempt++) {
      await openInView(saved.resource);
      const marker = `after-reload-${attempt}`;
      const tried = await send('get_first_request', {}, marker);
      assertOwnCaller(tried);
      if (sessionIdOf(tried) === saved.session) {
        call = tried;
      } else {
        landed.push(sessionIdOf(tried));
      }
    }
    assert.ok(call, `no request reached the restored chat ${saved.session}; they ran in ${landed.join(', ')}`);
    recordMetric('reload.attempts', landed.length + 1);
    // assertOwnCaller checked the first request against the chat's own: the one before the reload.
    assert.ok(call.history[0]?.includes('#before-reload'), `the restored chat shows ${JSON.stringify(call.history)}`);
    recordMetric('reload.secondRequestKeptByVsCode', call.history.some((prompt) => prompt.includes('#just-before-reload')) ? 1 : 0);
  },
  { timeoutMs: 90_000 },
);
