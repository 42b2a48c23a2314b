// What the model is offered in a real VS Code: the tools on by default, and a deferred tool that
// VS Code lists only once `tool_load` set its context key (the `when` clause of its contribution).
// Runs before the tests that load deferred tools (memory, library docs, changed files).
import * as assert from 'assert/strict';
import * as vscode from 'vscode';

import { recordMetric, test } from './harness';
import { eventually, invoke, secretary } from './support';

interface Contribution {
  name: string;
  when?: string;
  icon?: string;
}

/**
 * Our tools VS Code offers now. `vscode.lm.tools` lists every registered tool, `when` or not
 * (VS Code 1.139 sends the extension host `getAllToolsIncludingDisabled()`); the tools whose
 * `when` clause holds are the ones it gives the model (`getTools`) and the ones with a
 * `fullReferenceName` (its `#` reference map, built with the same `when` check).
 */
const ours = () =>
  vscode.lm.tools
    .filter((tool) => tool.name.startsWith('chat_secretary_') && (tool as { fullReferenceName?: string }).fullReferenceName)
    .map((tool) => tool.name);

test('tools: only the dialog and discovery tools are offered by default, each with its own icon', async () => {
  const { ext } = await secretary();
  const expected = ['get_first_request', 'get_request', 'list_dialogs', 'search_requests', 'tool_find', 'tool_describe', 'tool_load', 'tool_active', 'tool_call'];
  assert.deepEqual([...ours()].sort(), expected.map((n) => `chat_secretary_${n}`).sort());
  const contributed = (ext.packageJSON?.contributes?.languageModelTools ?? []) as Contribution[];
  const byDefault = contributed.filter((tool) => !tool.when).map((tool) => tool.name).sort();
  assert.deepEqual([...ours()].sort(), byDefault, 'vscode.lm.tools lists exactly the ungated tools');
  recordMetric('tools.offeredByDefault', ours().length);
  for (const name of ['chat_secretary_memory', 'chat_secretary_get_changed_files', 'chat_secretary_set_project_flag', 'chat_secretary_get_content']) {
    const tool = contributed.find((t) => t.name === name);
    assert.equal(tool?.when, `copilotChatSecretary.loaded.${name.slice('chat_secretary_'.length)}`, name);
    assert.ok(!ours().includes(name), `${name} is offered before tool_load`);
  }
  const icons = new Set(contributed.map((tool) => tool.icon));
  assert.ok(icons.size >= 10, `icons: ${[...icons].join(' ')}`);
  assert.equal(contributed.find((t) => t.name === 'chat_secretary_search_requests')?.icon, '$(search)');
});

test('tools: tool_load makes VS Code offer a deferred tool (vscode.lm.tools lists it only after)', async () => {
  await secretary();
  // A tool no later test expects to find unloaded.
  const name = 'chat_secretary_list_feature_flags';
  assert.ok(!ours().includes(name), 'not offered before tool_load');
  const loaded = await invoke('chat_secretary_tool_load', { names: [name] });
  assert.equal(loaded.success, true, JSON.stringify(loaded));
  assert.deepEqual(loaded.loaded, [name]);
  const started = performance.now();
  await eventually(() => ours().includes(name), 5_000, `${name} in vscode.lm.tools after tool_load`);
  recordMetric('tools.loadToOffered.ms', Math.round(performance.now() - started));
  const answer = await invoke(name, {});
  assert.equal(answer.success, true, JSON.stringify(answer));
  // The other deferred tools stay hidden.
  assert.ok(!ours().includes('chat_secretary_memory'));
});

test('tools: a loaded deferred tool stays offered and loaded after the WASM core restarts', async () => {
  const { api } = await secretary();
  const name = 'chat_secretary_list_feature_flags';
  if (!ours().includes(name)) {
    await invoke('chat_secretary_tool_load', { names: [name] });
    await eventually(() => ours().includes(name), 5_000, `${name} offered`);
  }
  const activeBefore = (await invoke('chat_secretary_tool_active', {})).tools as { name: string }[];
  assert.ok(activeBefore.some((t) => t.name === name), JSON.stringify(activeBefore));
  // A trap replaces the core instance: what the agent loaded must survive it, in the core (tool_active)
  // and in VS Code (the context key that offers the tool to the model).
  assert.throws(() => api.core.run((_h, m) => m.debugTrap()), /restarted/);
  const activeAfter = (await invoke('chat_secretary_tool_active', {})).tools as { name: string }[];
  assert.deepEqual(activeAfter.map((t) => t.name).sort(), activeBefore.map((t) => t.name).sort());
  assert.ok(ours().includes(name), `${name} is still offered after the restart`);
  assert.ok(!ours().includes('chat_secretary_memory'), 'and nothing else was loaded');
  const answer = await invoke(name, {});
  assert.equal(answer.success, true, JSON.stringify(answer));
});
