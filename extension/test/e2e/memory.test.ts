// The deferred `memory` tool end to end in a real VS Code: registered but "not loaded" until
// chat_secretary_tool_load, then save → read → list → delete (refused without the literal) through
// vscode.lm.invokeTool, with the note stored under the extension's global storage folder.
import * as assert from 'assert/strict';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';

import { test } from './harness';
import { invoke, secretary } from './support';

test('memory is deferred: not loaded until tool_load, then save, read, list and delete (with consent)', async () => {
  const { ext, api } = await secretary();
  assert.ok(vscode.lm.tools.some((tool) => tool.name === 'chat_secretary_memory'), 'registered with VS Code');

  const before = await invoke('chat_secretary_memory', { command: 'list' });
  assert.equal(before.success, false, JSON.stringify(before));
  assert.equal(before.error_type, 'not_loaded');
  assert.match(String(before.instruction), /chat_secretary_tool_load/);

  const loaded = await invoke('chat_secretary_tool_load', { names: ['chat_secretary_memory'] });
  assert.equal(loaded.success, true, JSON.stringify(loaded));
  assert.deepEqual(loaded.loaded, ['chat_secretary_memory']);

  const name = `e2e-note-${Date.now()}`;
  try {
    const saved = await invoke('chat_secretary_memory', { command: 'save', path: name, content: 'Remember the e2e run.\n' });
    assert.deepEqual(saved, { success: true, path: `${name}.md`, bytes: 22, created: true });
    if (api.workspaceStorageDir) {
      // globalStorageUri is <user data>/User/globalStorage/<extension id, lower case>.
      const file = path.join(api.workspaceStorageDir, '..', '..', 'globalStorage', ext.id.toLowerCase(), 'memory', `${name}.md`);
      assert.equal(fs.readFileSync(file, 'utf8'), 'Remember the e2e run.\n');
    }

    const read = await invoke('chat_secretary_memory', { command: 'read', path: name });
    assert.equal(read.content, 'Remember the e2e run.\n');
    const list = await invoke('chat_secretary_memory', { command: 'list' });
    const notes = list.notes as { path: string; bytes?: number; modified?: string }[];
    const entry = notes.find((note) => note.path === `${name}.md`);
    assert.ok(entry, JSON.stringify(list));
    assert.equal(entry.bytes, 22);
    assert.match(String(entry.modified), /^\d{4}-\d\d-\d\dT/);

    const escape = await invoke('chat_secretary_memory', { command: 'save', path: '../escape', content: 'x' });
    assert.equal(escape.error_type, 'invalid_arguments', JSON.stringify(escape));

    const refused = await invoke('chat_secretary_memory', { command: 'delete', path: name });
    assert.equal(refused.success, false);
    assert.equal(refused.error_type, 'consent_required');
    assert.match(String(refused.error), /`confirm` must be exactly "DELETE_MEMORY"/);
    assert.equal((await invoke('chat_secretary_memory', { command: 'read', path: name })).success, true, 'still there');

    // With the literal, VS Code would also show its confirmation dialog (prepareInvocation), which
    // no one can click in this headless run: the delete goes through the same core call the tool
    // makes, without VS Code's dialog in front of it.
    const deleted = JSON.parse(await api.sessions.invokeTool('memory', { command: 'delete', path: name, confirm: 'DELETE_MEMORY' }));
    assert.deepEqual(deleted, { success: true, path: `${name}.md`, deleted: true });
  } finally {
    await api.sessions.invokeTool('memory', { command: 'delete', path: name, confirm: 'DELETE_MEMORY' });
  }
  const gone = await invoke('chat_secretary_memory', { command: 'read', path: name });
  assert.equal(gone.error, `Memory not found: ${name}.md`);
});

test('get_changed_files is deferred, then reads a repository inside the workspace (git CLI fallback)', async () => {
  await secretary();
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the e2e run opens a workspace folder');
  const before = await invoke('chat_secretary_get_changed_files', {});
  assert.equal(before.error_type, 'not_loaded', JSON.stringify(before));
  assert.equal((await invoke('chat_secretary_tool_load', { names: ['chat_secretary_get_changed_files'] })).success, true);

  const name = `e2e-repo-${Date.now()}`;
  const dir = path.join(folder.uri.fsPath, name);
  fs.mkdirSync(dir, { recursive: true });
  try {
    execFileSync('git', ['-C', dir, 'init', '-q'], { stdio: 'ignore' });
    fs.writeFileSync(path.join(dir, 'new.txt'), 'x\n');
    const changed = await invoke('chat_secretary_get_changed_files', { repositoryPath: name });
    assert.equal(changed.success, true, JSON.stringify(changed));
    assert.equal(changed.text, 'Untracked files:\n- untracked: new.txt');
    const absolute = await invoke('chat_secretary_get_changed_files', { repositoryPath: dir, sourceControlState: 'staged' });
    assert.equal(absolute.text, 'No changed files found.');
    const outside = await invoke('chat_secretary_get_changed_files', { repositoryPath: '../' });
    assert.equal(outside.error_type, 'path_refused', JSON.stringify(outside));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
