// The `@secretary` chat participant in a real VS Code: its handler (the participant API cannot be
// driven without a language model) on the live core and sessions, writing to a recording stream
// with ChatResponseStream's methods. Sessions are the samples seeded as dialogs.test.ts does.
import * as assert from 'assert/strict';
import * as vscode from 'vscode';

import { test } from './harness';
import { eventually, invoke, secretary, secretaryWithSamples } from './support';

const JSONL = 'c3d9e8f1-2a4b-4c6d-8e0f-1a2b3c4d5e6f';
const JSON_ID = 'a1f4c2e0-7b3d-4d9a-9c51-2e8f6b0d3a71';

/** Records what the handler streams, in order. */
class RecordingStream {
  readonly parts: { kind: string; value: unknown }[] = [];
  markdown(value: string | vscode.MarkdownString): void {
    this.parts.push({ kind: 'markdown', value: typeof value === 'string' ? value : value.value });
  }
  button(command: vscode.Command): void {
    this.parts.push({ kind: 'button', value: command });
  }
  progress(value: string): void {
    this.parts.push({ kind: 'progress', value });
  }
  reference(value: vscode.Uri | vscode.Location): void {
    this.parts.push({ kind: 'reference', value });
  }
  get text(): string {
    return this.parts.filter((p) => p.kind === 'markdown').map((p) => String(p.value)).join('');
  }
  get buttons(): vscode.Command[] {
    return this.parts.filter((p) => p.kind === 'button').map((p) => p.value as vscode.Command);
  }
}

async function ask(command: string | undefined, prompt = '') {
  const { api } = await secretary();
  const stream = new RecordingStream();
  const token = new vscode.CancellationTokenSource().token;
  const result = await api.chat.handle({ command, prompt }, stream, token);
  return { stream, result, followups: result.metadata.followups };
}

async function seeded(): Promise<void> {
  const { api } = await secretaryWithSamples();
  const ids = () => api.sessions.getDialogs().map((entry) => entry.dialog.sessionId);
  await api.sessions.refresh();
  await eventually(() => ids().includes(JSONL) && ids().includes(JSON_ID), 10_000, 'the sample sessions');
}

test('@secretary /first streams the full first request with Copy and Insert buttons', async () => {
  await seeded();
  const facts = await invoke('chat_secretary_get_first_request', {});
  const full = await invoke('chat_secretary_get_request', { index: 1 });
  const { stream, result, followups } = await ask('first');
  const count = Number(facts.requestsCount);
  assert.ok(
    stream.text.startsWith(`**First request** of dialog \`${String(facts.sessionId)}\` (${String(facts.time)}, ${count} request${count === 1 ? '' : 's'} in all):\n\n> `),
    stream.text,
  );
  const text = String(full.request);
  assert.ok(text.length > String(facts.firstRequest).length - 3, 'the full text, not the preview');
  assert.ok(stream.text.includes(text.split('\n')[0]), stream.text);
  assert.equal(stream.parts[0].kind, 'progress');
  assert.deepEqual(
    stream.buttons.map((b) => [b.command, b.title, b.arguments]),
    [
      ['copilotChatSecretary.copyText', 'Copy', [text]],
      ['copilotChatSecretary.insertIntoChat', 'Insert into chat input', [text]],
    ],
  );
  assert.equal(result.errorDetails, undefined);
  // The current dialog may be a one-request fixture of ../shared (when present).
  assert.deepEqual(
    followups[0],
    count >= 2
      ? { command: 'request', prompt: '2', label: 'Show the second request' }
      : { command: 'dialogs', prompt: '', label: 'List the recent dialogs' },
  );
  // The buttons' commands exist in this host, and Copy puts the text on the clipboard.
  const commands = await vscode.commands.getCommands(true);
  assert.ok(commands.includes('copilotChatSecretary.copyText') && commands.includes('copilotChatSecretary.insertIntoChat'));
  await vscode.commands.executeCommand('copilotChatSecretary.copyText', text);
  assert.equal(await vscode.env.clipboard.readText(), text);
});

test('@secretary /request <n> [sessionId], and the tools\' errors in plain words', async () => {
  const { stream, followups } = await ask('request', `2 ${JSON_ID}`);
  assert.equal(
    stream.text,
    `**Request 2 of 3** of dialog \`${JSON_ID}\` (2025-10-14T09:25:00.000Z):\n\n` +
      '> Use CSS custom properties for the colours, not a second stylesheet. Keep contrast at WCAG AA.\n',
  );
  assert.deepEqual(followups, [
    { command: 'request', prompt: `3 ${JSON_ID}`, label: 'Show request 3' },
    { command: 'request', prompt: `1 ${JSON_ID}`, label: 'Show request 1' },
  ]);
  const tooFar = await ask('request', `9 ${JSON_ID}`);
  assert.equal(tooFar.stream.text, 'Index 9 exceeds total requests (3).');
  assert.equal(tooFar.result.errorDetails?.message, 'Index 9 exceeds total requests (3)');
  assert.deepEqual(tooFar.stream.buttons, []);
  assert.equal((await ask('request', 'two')).stream.text, 'Index must be a whole number (1, 2, 3...), got the string "two".');
  assert.equal((await ask('first', 'nope')).stream.text, 'Session not found: nope.');
});

test('@secretary /dialogs, /search and /tools answer with the tools\' facts', async () => {
  const dialogs = await ask('dialogs');
  assert.match(dialogs.stream.text, /^\*\*Recent dialogs\*\* \(\d+ of \d+, newest first\):\n\n1\. /);
  assert.equal(dialogs.followups[0].command, 'first');
  const darkMode = await ask('dialogs', 'dark mode toggle');
  assert.match(darkMode.stream.text, /^\*\*Dialogs mentioning "dark mode toggle"\*\* \(\d+ of \d+, newest first\):\n\n1\. /);
  assert.ok(darkMode.stream.text.includes(`**Dark mode for the todo app**: 3 requests`), darkMode.stream.text);

  const search = await ask('search', 'playwright reload');
  assert.match(search.stream.text, /^\*\*\d+ (?:request matches|requests match) "playwright reload"\*\*, best first:\n\n1\. \*\*Dark mode for the todo app\*\*, request 3 /);
  assert.deepEqual(search.followups[0], { command: 'request', prompt: `3 ${JSON_ID}`, label: 'Show request 3 of "Dark mode for the todo app"' });

  const tools = await ask('tools', 'recall earlier chat request');
  assert.match(tools.stream.text, /^\*\*Tools for "recall earlier chat request"\*\*, best first:\n\n- `chat_secretary_/);
});

test('@secretary without a command lists the commands from the core\'s specs', async () => {
  const { stream, followups } = await ask(undefined, 'hello');
  for (const line of ['`@secretary /first [sessionId]`', '`@secretary /request <index> [sessionId]`', '`@secretary /search <query...>`']) {
    assert.ok(stream.text.includes(line), stream.text);
  }
  assert.deepEqual(followups, [{ command: 'first', prompt: '', label: 'Show the first request of this dialog' }]);
  // package.json contributes the participant with those commands.
  const { ext } = await secretary();
  const participant = (ext.packageJSON as { contributes: { chatParticipants: { id: string; commands: { name: string }[] }[] } })
    .contributes.chatParticipants[0];
  assert.equal(participant.id, 'copilot-chat-secretary.secretary');
  assert.deepEqual(participant.commands.map((c) => c.name), ['first', 'request', 'dialogs', 'search', 'tools']);
});
