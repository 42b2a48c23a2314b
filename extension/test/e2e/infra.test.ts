// The host I/O bridge end to end: flag and content tools called as an agent calls them, in a real
// VS Code, reading and writing through the extension's NodeHost (storageUri, the workspace folder).
import * as assert from 'assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';

import { test } from './harness';
import { invoke, secretary } from './support';

test('flag and content tools work through the host bridge (set/get project flag, get_content)', async () => {
  await secretary();
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the e2e run opens a workspace folder');
  // Flags and content are deferred tools: an agent loads them first.
  const names = ['set_project_flag', 'get_project_flag', 'delete_project_flag', 'get_content'].map((n) => `chat_secretary_${n}`);
  assert.equal((await invoke('chat_secretary_tool_load', { names })).success, true);

  const set = await invoke('chat_secretary_set_project_flag', { name: 'e2eFlag', value: 'on' });
  assert.equal(set.success, true, JSON.stringify(set));
  const got = await invoke('chat_secretary_get_project_flag', { name: 'e2eFlag' });
  assert.deepEqual(got, { success: true, name: 'e2eFlag', value: 'on', source: 'project' });

  const dir = path.join(folder.uri.fsPath, '.github', 'instructions');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'x.md'), '# X\n\nAlways write tests first.\n');
  try {
    const content = await invoke('chat_secretary_get_content', { expression: 'instructions/x' });
    assert.equal(content.success, true, JSON.stringify(content));
    assert.equal(content.content, '## .github/instructions/x.md\n\n# X\n\nAlways write tests first.');
    const same = await invoke('chat_secretary_get_content', { category: 'instructions', pattern: 'x' });
    assert.deepEqual(same, content);
    const escape = await invoke('chat_secretary_get_content', { expression: 'instructions/../../etc' });
    assert.equal(escape.success, false);
    assert.match(String(escape.error), /escapes the category folder/);
  } finally {
    fs.rmSync(path.join(dir, 'x.md'), { force: true });
    await invoke('chat_secretary_delete_project_flag', { name: 'e2eFlag' });
  }
});
