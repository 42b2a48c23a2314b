import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';

import {
  canonicalKey,
  EMPTY_WINDOW,
  defaultUserDataDirs,
  folderKey,
  sessionsOfUser,
  sessionsUnder,
  userDir,
  workspaceKey,
} from '../../src/sessions/discovery';
import { SAMPLES, SAMPLE_STORAGE, SAMPLE_WORKSPACE, tempDir } from './helpers';

test('finds every session of a user-data folder and files it under its workspace', () => {
  const files = sessionsOfUser(path.join(SAMPLES, 'User'));
  const byName = new Map(files.map((f) => [path.basename(f.path), f]));
  assert.equal(files.length, 3);
  assert.equal(byName.get('a1f4c2e0-7b3d-4d9a-9c51-2e8f6b0d3a71.json')?.workspace, SAMPLE_WORKSPACE);
  assert.equal(byName.get('c3d9e8f1-2a4b-4c6d-8e0f-1a2b3c4d5e6f.jsonl')?.workspace, SAMPLE_WORKSPACE);
  assert.equal(byName.get('e7f6a5b4-c3d2-4e1f-9a8b-7c6d5e4f3a2b.json')?.workspace, EMPTY_WINDOW);
});

test('accepts a user-data folder, its User folder, a workspace storage folder or a chatSessions folder', () => {
  assert.equal(userDir(SAMPLES), path.join(SAMPLES, 'User'));
  assert.equal(userDir(path.join(SAMPLES, 'User')), path.join(SAMPLES, 'User'));
  assert.equal(sessionsUnder(SAMPLES).length, 3);
  assert.equal(sessionsUnder(path.join(SAMPLES, 'User', 'workspaceStorage')).length, 2);
  assert.equal(sessionsUnder(SAMPLE_STORAGE).length, 2);
  const chatSessions = sessionsUnder(path.join(SAMPLE_STORAGE, 'chatSessions'));
  assert.equal(chatSessions.length, 2);
});

test('workspace keys come from workspace.json, else the storage folder', () => {
  assert.equal(workspaceKey(SAMPLE_STORAGE), SAMPLE_WORKSPACE);
  const temp = tempDir();
  try {
    const bare = path.join(temp.dir, 'workspaceStorage', 'abc');
    fs.mkdirSync(bare, { recursive: true });
    assert.equal(workspaceKey(bare), bare);
    fs.writeFileSync(path.join(bare, 'workspace.json'), '{"workspace":"file:///w/x.code-workspace"}');
    assert.equal(workspaceKey(bare), 'file:///w/x.code-workspace');
    fs.writeFileSync(path.join(bare, 'workspace.json'), '{not json');
    assert.equal(workspaceKey(bare), bare);
    assert.equal(workspaceKey(path.join(temp.dir, 'workspaceStorage', 'no-workspace')), EMPTY_WINDOW);
  } finally {
    temp.cleanup();
  }
  assert.equal(folderKey('/home/dev/projects/todo-app'), SAMPLE_WORKSPACE);
});

test('finds transcripts, transferred sessions and ignores other files', () => {
  const temp = tempDir();
  try {
    const user = path.join(temp.dir, 'User');
    const ws = path.join(user, 'workspaceStorage', 'w1');
    fs.mkdirSync(path.join(ws, 'GitHub.copilot-chat', 'transcripts'), { recursive: true });
    fs.mkdirSync(path.join(ws, 'chatSessions'), { recursive: true });
    fs.mkdirSync(path.join(user, 'globalStorage', 'transferredChatSessions'), { recursive: true });
    fs.writeFileSync(path.join(ws, 'GitHub.copilot-chat', 'transcripts', 's1.jsonl'), '');
    fs.writeFileSync(path.join(ws, 'chatSessions', 's2.json'), '{}');
    fs.writeFileSync(path.join(ws, 'chatSessions', 'notes.txt'), 'x');
    fs.mkdirSync(path.join(ws, 'chatSessions', 'folder.json'));
    fs.writeFileSync(path.join(user, 'globalStorage', 'transferredChatSessions', 't.json'), '{}');
    // Links are followed: to a file it is a session, to a folder or to nothing it is not.
    fs.writeFileSync(path.join(temp.dir, 'elsewhere.json'), '{}');
    fs.symlinkSync(path.join(temp.dir, 'elsewhere.json'), path.join(ws, 'chatSessions', 'linked.json'));
    fs.symlinkSync(path.join(ws, 'chatSessions', 'folder.json'), path.join(ws, 'chatSessions', 'to-folder.json'));
    fs.symlinkSync(path.join(temp.dir, 'gone.json'), path.join(ws, 'chatSessions', 'dangling.json'));
    const kinds = sessionsOfUser(user).map((f) => `${f.kind}:${path.basename(f.path)}`).sort();
    assert.deepEqual(kinds, ['native:linked.json', 'native:s2.json', 'transcript:s1.jsonl', 'transferred:t.json']);
  } finally {
    temp.cleanup();
  }
});

test('default user-data folders cover desktop builds, servers and code-server per platform', () => {
  const temp = tempDir();
  try {
    const home = temp.dir;
    for (const dir of ['.config/Code/User', '.config/Code - Insiders/User', '.vscode-server/data/User', '.local/share/code-server/User']) {
      fs.mkdirSync(path.join(home, dir), { recursive: true });
    }
    const linux = defaultUserDataDirs('linux', {}, home).map((d) => path.relative(home, d));
    assert.deepEqual(linux, ['.config/Code', '.config/Code - Insiders', '.vscode-server/data', '.local/share/code-server']);
    fs.mkdirSync(path.join(home, 'Library/Application Support/VSCodium/User'), { recursive: true });
    assert.ok(defaultUserDataDirs('darwin', {}, home).some((d) => d.endsWith(path.join('Application Support', 'VSCodium'))));
    fs.mkdirSync(path.join(home, 'Roaming/Code/User'), { recursive: true });
    assert.ok(defaultUserDataDirs('win32', { APPDATA: path.join(home, 'Roaming') }, home).includes(path.join(home, 'Roaming', 'Code')));
  } finally {
    temp.cleanup();
  }
});

test('canonicalKey gives a workspace.json URI the one spelling; other keys and odd URIs stay as they are', () => {
  // VS Code encodes ( ) ! ' that Node leaves; both name the same folder.
  assert.equal(canonicalKey("file:///home/u/it%27s%20%28v2%29%21"), "file:///home/u/it's%20(v2)!");
  assert.equal(canonicalKey('file:///home/u/proj'), 'file:///home/u/proj');
  // Not a local folder, or not a file URI: no spelling to give, kept as written.
  assert.equal(canonicalKey('file://server/share/proj'), 'file://server/share/proj');
  assert.equal(canonicalKey('file:///a%2Fb'), 'file:///a%2Fb');
  assert.equal(canonicalKey('vscode-remote://ssh-remote%2Bhost/home/u/proj'), 'vscode-remote://ssh-remote%2Bhost/home/u/proj');
  assert.equal(canonicalKey('/storage/workspaceStorage/abc'), '/storage/workspaceStorage/abc');
});
