// Tool discovery in a real VS Code: the catalog holds VS Code's own tools and ours.
import * as assert from 'assert/strict';
import * as vscode from 'vscode';

import { test } from './harness';
import { invoke, secretary, textOf } from './support';

test('tool_find finds a built-in tool and the Secretary\'s own tools', async () => {
  await secretary();
  const builtIn = await invoke('chat_secretary_tool_find', { query: 'last command run in the terminal' });
  const names = (builtIn.tools as { name: string; active: boolean; source: string }[]).map((t) => t.name);
  assert.ok(names.slice(0, 3).includes('terminal_last_command'), names.join(', '));
  const own = await invoke('chat_secretary_tool_find', { query: 'recall the first request of the chat' });
  const top = (own.tools as { name: string; active: boolean }[])[0];
  assert.equal(top.name, 'chat_secretary_get_first_request');
  assert.equal(top.active, true);
});

test('tool_describe gives a built-in tool\'s schema, and names the new name for an old one', async () => {
  const described = await invoke('chat_secretary_tool_describe', { name: 'terminal_last_command' });
  assert.equal(described.success, true);
  assert.equal(described.active, false);
  const renamed = await invoke('chat_secretary_tool_describe', { name: 'copilot_chat_secretary_get_request' });
  assert.equal(renamed.error, 'Tool not found: copilot_chat_secretary_get_request. It was renamed to chat_secretary_get_request.');
});

test('tool_load then tool_call runs an external tool, and tool_active reflects it', async () => {
  const notYet = await invoke('chat_secretary_tool_call', { name: 'terminal_last_command', input: {} });
  assert.equal(notYet.error, 'Tool terminal_last_command is not loaded.');
  const before = (await invoke('chat_secretary_tool_active', {})).count as number;
  const refused = await invoke('chat_secretary_tool_load', { names: ['terminal_last_command', 'no_such_tool'] });
  assert.equal(refused.error, 'Unknown tools: no_such_tool. Nothing was loaded.');
  const loaded = await invoke('chat_secretary_tool_load', { names: ['terminal_last_command'] });
  assert.deepEqual(loaded.loaded, ['terminal_last_command']);
  const active = await invoke('chat_secretary_tool_active', {});
  assert.equal(active.count, before + 1);
  assert.ok((active.tools as { name: string }[]).some((t) => t.name === 'terminal_last_command'));
  // The external tool's own result comes back, not the Secretary's JSON envelope.
  const result = await vscode.lm.invokeTool('chat_secretary_tool_call', {
    input: { name: 'terminal_last_command', input: {} },
    toolInvocationToken: undefined,
  });
  const text = textOf(result);
  assert.ok(text.length > 0);
  assert.ok(!text.startsWith('{"success"'), text);
});
