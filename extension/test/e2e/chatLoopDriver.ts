// Drives the test-only chat loop (extension/test/chat-loop) from the tests: sends real chat requests
// to the focused chat, as a person pressing Enter does, and reads back the tool calls its participant ran.
import * as assert from 'assert/strict';
import * as vscode from 'vscode';

import { callerOfResource } from '../../src/chat/caller';
import type { LoopApi, LoopCall } from '../chat-loop/src/extension';
import { eventually } from './support';

const LOOP_ID = 'secretary-test.secretary-chat-loop';

export async function loop(): Promise<LoopApi> {
  const ext = vscode.extensions.getExtension<LoopApi>(LOOP_ID);
  assert.ok(ext, `the test-only ${LOOP_ID} extension is not loaded (scripts/e2e loads extension/test/chat-loop)`);
  return ext.activate();
}

let askCommand: string | undefined;

/** The command that sends to the last focused chat (the mode-specific "open chat" actions). */
export async function focusedCommand(): Promise<string> {
  if (askCommand) {
    return askCommand;
  }
  const all = await vscode.commands.getCommands(true);
  askCommand = ['workbench.action.chat.openask', 'workbench.action.chat.openAsk'].find((c) => all.includes(c));
  assert.ok(askCommand, `no mode-specific open-chat command among ${all.filter((c) => c.startsWith('workbench.action.chat.open')).join(', ')}`);
  return askCommand;
}

/** Puts the focus in the chat view's input, as a person clicking into it does. */
export async function focusView(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.chat.open');
  await vscode.commands.executeCommand('workbench.action.chat.focusInput');
}

/** Sends `@loop call <tool> <json> #<marker>` to the focused chat, as a person pressing Enter does
 * (`toView`: to the chat view whatever has focus, as the "Open Chat" command with a query does). */
export async function send(tool: string, input: object, marker: string, meanwhile?: () => Promise<void>): Promise<LoopCall> {
  const api = await loop();
  const before = api.calls.length;
  const query = `@loop call chat_secretary_${tool} ${JSON.stringify(input)} #${marker}`;
  const sent = vscode.commands.executeCommand(await focusedCommand(), {
    query,
    isPartialQuery: false,
    mode: 'ask',
    modelSelector: { vendor: 'secretary-test' },
    blockOnResponse: true,
  });
  if (meanwhile) {
    // The request holds before its tool call (`#hold`) while something else happens.
    await eventually(() => api.holding, 20_000, `"${query}" to reach its tool call`);
    await meanwhile();
    api.release();
  }
  await Promise.race([
    Promise.resolve(sent),
    new Promise((_, reject) => setTimeout(() => reject(new Error(`no answer to "${query}" within 40 s`)), 40_000)),
  ]);
  await eventually(() => api.calls.length > before, 10_000, `the tool call of "${query}"`);
  return api.calls[api.calls.length - 1];
}

export function sessionIdOf(call: LoopCall): string {
  const caller = callerOfResource(call.session);
  assert.equal(caller.kind, 'local', `the token names a local chat: ${call.session}`);
  return caller.kind === 'local' ? caller.sessionId : '';
}
