// The parts of what a VS Code user sees that run without VS Code: date sections and relative
// times of the sidebar, the chat resource a dialog opens by, which context keys a real
// `tool_load` answer of the core sets (the `when` clauses package.json contributes), the
// settings' texts and the icon.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';

import { WasmCore } from '../../src/core/wasm';
import { silentLogger } from '../../src/log';
import type { ToolListing } from '../../src/tools/coreTool';
import { contextKeysOf, loadedKeys } from '../../src/tools/loadedContext';
import { chatSessionUri, dateGroup, relativeTime, shortTitle } from '../../src/tree/dialogTime';
import { ROOT, WASM_DIR } from './helpers';

const at = (y: number, m: number, d: number, h = 12, min = 0) => new Date(y, m - 1, d, h, min).getTime();

test('dialogs fall into Today, Yesterday, This week and Older by local day', () => {
  const now = at(2026, 11, 23, 9, 30);
  assert.equal(dateGroup(at(2026, 11, 23, 0, 1), now), 'Today');
  assert.equal(dateGroup(now + 3_600_000, now), 'Today', 'a clock ahead of ours');
  assert.equal(dateGroup(at(2026, 11, 22, 23, 59), now), 'Yesterday');
  assert.equal(dateGroup(at(2026, 11, 22, 0, 0), now), 'Yesterday');
  assert.equal(dateGroup(at(2026, 11, 21, 23, 0), now), 'This week');
  assert.equal(dateGroup(at(2026, 11, 17, 0, 0), now), 'This week', 'seven days with today');
  assert.equal(dateGroup(at(2026, 11, 16, 23, 59), now), 'Older');
  assert.equal(dateGroup(undefined, now), 'Older');
});

test('relative times are short, and dates come back after a week', () => {
  const now = at(2026, 11, 23, 9, 30);
  assert.equal(relativeTime(now - 20_000, now), 'just now');
  assert.equal(relativeTime(now - 5 * 60_000, now), '5 min ago');
  assert.equal(relativeTime(now - 2 * 3_600_000 - 60_000, now), '2 h ago');
  assert.equal(relativeTime(now - 3 * 86_400_000, now), '3 d ago');
  assert.equal(relativeTime(at(2026, 10, 14), now), 'Oct 14');
  assert.equal(relativeTime(at(2024, 10, 14), now), 'Oct 2024');
  assert.equal(relativeTime(undefined, now), 'no time');
});

test('long titles are cut to one short line', () => {
  assert.equal(shortTitle('Speed up the todo list'), 'Speed up the todo list');
  const cut = shortTitle('Add a dark mode toggle that persists in localStorage and follows the system theme');
  assert.ok(cut.length <= 48 && cut.endsWith('…'), cut);
  assert.equal(shortTitle('  two\nlines  '), 'two lines');
  assert.equal(shortTitle('   '), 'Untitled dialog');
});

test('a dialog opens in chat by vscode-chat-session://local/<base64url of its id, no padding>', () => {
  const id = 'c3d9e8f1-2a4b-4c6d-8e0f-1a2b3c4d5e6f';
  const uri = chatSessionUri(id);
  assert.equal(uri, `vscode-chat-session://local/${Buffer.from(id).toString('base64url')}`);
  assert.ok(!uri.includes('='));
  // 4 bytes need '==' in base64: base64url drops it, and '/' becomes '_'.
  assert.equal(chatSessionUri('a>?b'), 'vscode-chat-session://local/YT4_Yg');
  assert.equal(Buffer.from(uri.slice('vscode-chat-session://local/'.length), 'base64url').toString(), id);
});

test("tool_load's answer sets the context keys package.json gates the deferred tools with", () => {
  const core = new WasmCore(WASM_DIR, silentLogger);
  core.run((h) => h.configureTools('chat_secretary_', []));
  const tools = JSON.parse(core.run((h) => h.tools())) as ToolListing[];
  const keys = contextKeysOf(tools);
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    contributes: { languageModelTools: { name: string; when?: string }[] };
  };
  const gated = manifest.contributes.languageModelTools.filter((tool) => tool.when?.startsWith('copilotChatSecretary.loaded.'));
  assert.ok(gated.length >= 3, 'deferred tools are gated');
  assert.deepEqual(new Map(gated.map((tool) => [tool.name, tool.when])), keys, 'one key per deferred tool, as contributed');

  const answer = core.invoke('tool_load', { names: ['chat_secretary_memory', 'chat_secretary_tool_find'] }, undefined);
  assert.deepEqual(loadedKeys(answer, keys), ['copilotChatSecretary.loaded.memory'], answer);
  // Loading it again: already active, the key is set again (harmless), nothing else.
  const again = core.invoke('tool_load', { names: ['chat_secretary_memory'] }, undefined);
  assert.deepEqual(loadedKeys(again, keys), ['copilotChatSecretary.loaded.memory'], again);
  // A failed load sets nothing.
  const failed = core.invoke('tool_load', { names: ['chat_secretary_get_changed_files', 'no_such_tool'] }, undefined);
  assert.deepEqual(loadedKeys(failed, keys), [], failed);
  assert.deepEqual(loadedKeys('not json', keys), []);
});

test('settings whose text has backticks use markdownDescription; mcp.enabled is off and says why', () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    icon?: string;
    contributes: { configuration: { properties: Record<string, { description?: string; markdownDescription?: string; default?: unknown }> } };
  };
  const properties = manifest.contributes.configuration.properties;
  for (const [key, setting] of Object.entries(properties)) {
    assert.ok(!setting.description?.includes('`'), `${key}: backticks in a plain description show as they are`);
    assert.ok(setting.description || setting.markdownDescription, `${key} is described`);
  }
  const mcp = properties['copilotChatSecretary.mcp.enabled'];
  assert.equal(mcp.default, false);
  assert.match(mcp.markdownDescription ?? '', /a second time in the chat's tool picker/);
  assert.match(properties['copilotChatSecretary.legacyToolPrefixes'].markdownDescription ?? '', /current name/);
  // The Marketplace icon: a 128x128 PNG.
  assert.equal(manifest.icon, 'resources/icon.png');
  const png = fs.readFileSync(path.join(ROOT, 'resources', 'icon.png'));
  assert.equal(png.subarray(1, 4).toString(), 'PNG');
  assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [128, 128]);
});
