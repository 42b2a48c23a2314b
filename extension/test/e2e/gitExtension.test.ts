// get_changed_files through VS Code's built-in Git extension (its `getAPI(1)` repository state),
// not the git CLI fallback. Registered only in the run that keeps the Git extension on
// (SECRETARY_E2E_GIT=1, a second pass of scripts/test); the main run turns git off for speed.
//
// To prove which path answered, the test hides the git CLI from the extension host (PATH emptied)
// once the Git extension has read the repository: the tool can then only answer from the
// extension's cached state. The Git extension spawns "git" by that same PATH, and a failed spawn
// makes it close the repository, so scripts/e2e.mjs turns its auto refresh off in this run (a file
// event after PATH is emptied closed it before the tool call: seen once in a clean-clone run, and
// every time with a file written in the repository then).
import * as assert from 'assert/strict';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';

import { test } from './harness';
import { invoke, secretary } from './support';

interface GitRepository {
  rootUri: vscode.Uri;
  state: { untrackedChanges?: unknown[]; workingTreeChanges: unknown[]; indexChanges: unknown[] };
  status(): Promise<void>;
}

interface GitApi {
  openRepository(root: vscode.Uri): Promise<GitRepository | null>;
  getRepository(uri: vscode.Uri): GitRepository | null;
}

if (process.env.SECRETARY_E2E_GIT === '1') {
  test('Git extension: get_changed_files answers from its repository state, without the git CLI', async () => {
    await secretary();
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the e2e run opens a workspace folder');
    const extension = vscode.extensions.getExtension<{ getAPI(version: 1): GitApi }>('vscode.git');
    assert.ok(extension, 'the built-in Git extension is present in this run');
    const git = (await extension.activate()).getAPI(1);

    const name = `e2e-git-${Date.now()}`;
    const dir = path.join(folder.uri.fsPath, name);
    fs.mkdirSync(dir, { recursive: true });
    const savedPath = process.env.PATH;
    try {
      const run = (...args: string[]) => execFileSync('git', ['-C', dir, ...args], { stdio: 'ignore' });
      run('init', '-q');
      run('config', 'user.email', 'e2e@example.com');
      run('config', 'user.name', 'e2e');
      fs.writeFileSync(path.join(dir, 'tracked.txt'), 'one\n');
      run('add', 'tracked.txt');
      run('commit', '-q', '-m', 'first');
      fs.writeFileSync(path.join(dir, 'tracked.txt'), 'two\n'); // unstaged
      fs.writeFileSync(path.join(dir, 'staged.txt'), 'new\n');
      run('add', 'staged.txt'); // staged
      fs.writeFileSync(path.join(dir, 'loose.txt'), 'x\n'); // untracked

      const repository = await git.openRepository(vscode.Uri.file(dir));
      assert.ok(repository, 'the Git extension opened the repository');
      await repository.status();
      const deadline = Date.now() + 15_000;
      while (repository.state.indexChanges.length === 0 || repository.state.workingTreeChanges.length === 0) {
        assert.ok(Date.now() < deadline, 'the Git extension saw the changes');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }

      assert.equal((await invoke('chat_secretary_tool_load', { names: ['chat_secretary_get_changed_files'] })).success, true);
      process.env.PATH = '';
      assert.throws(() => execFileSync('git', ['--version'], { stdio: 'ignore' }), 'the git CLI is out of reach now');

      const changed = await invoke('chat_secretary_get_changed_files', { repositoryPath: name });
      assert.equal(changed.success, true, JSON.stringify(changed));
      assert.equal(
        changed.text,
        'Staged files:\n- added: staged.txt\n\nUnstaged changes:\n- modified: tracked.txt\n\nUntracked files:\n- untracked: loose.txt',
      );
      const staged = await invoke('chat_secretary_get_changed_files', { repositoryPath: name, sourceControlState: 'staged' });
      assert.deepEqual(staged.staged, [{ path: 'staged.txt', status: 'added' }], JSON.stringify(staged));
      assert.equal(staged.text, 'Staged files:\n- added: staged.txt');
    } finally {
      process.env.PATH = savedPath;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
}
