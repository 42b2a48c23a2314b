// get_changed_files on a real temporary git repository: the Node bridge runs `git status` (argument
// array, no shell, timeout), the core parses and formats it; and the Git-extension rendering
// (porcelainFromChanges) gives the core the same bytes git would.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';

import { WasmCore } from '../../src/core/wasm';
import { gitStatusCli, porcelainFromChanges } from '../../src/host/gitStatus';
import { NodeHost } from '../../src/host/nodeHost';
import { silentLogger } from '../../src/log';
import { WASM_DIR, tempDir } from './helpers';

function git(dir: string, ...args: string[]): void {
  execFileSync('git', ['-C', dir, ...args], { stdio: 'ignore', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });
}

function repository(): { dir: string; cleanup(): void } {
  const temp = tempDir('secretary-git-');
  const dir = fs.realpathSync(temp.dir);
  git(dir, 'init', '-q');
  git(dir, 'config', 'user.email', 'test@example.com');
  git(dir, 'config', 'user.name', 'Test');
  git(dir, 'config', 'commit.gpgsign', 'false');
  fs.writeFileSync(path.join(dir, 'edited.txt'), 'one\n');
  fs.writeFileSync(path.join(dir, 'old.txt'), 'rename me\n');
  fs.writeFileSync(path.join(dir, 'both.txt'), 'a\n');
  git(dir, 'add', '.');
  git(dir, 'commit', '-q', '-m', 'initial');
  fs.writeFileSync(path.join(dir, 'edited.txt'), 'two\n');
  fs.writeFileSync(path.join(dir, 'staged new.txt'), 'new\n');
  git(dir, 'add', 'staged new.txt');
  git(dir, 'mv', 'old.txt', 'renamed.txt');
  fs.writeFileSync(path.join(dir, 'both.txt'), 'b\n');
  git(dir, 'add', 'both.txt');
  fs.writeFileSync(path.join(dir, 'both.txt'), 'c\n');
  fs.mkdirSync(path.join(dir, 'notes'));
  fs.writeFileSync(path.join(dir, 'notes', 'todo.md'), '- x\n');
  return { dir, cleanup: temp.cleanup };
}

test('get_changed_files reads a real repository through the Node bridge', () => {
  const repo = repository();
  try {
    const core = new WasmCore(WASM_DIR, silentLogger);
    core.setHost(new NodeHost({ roots: { workspace: repo.dir } }));
    const call = (args: object) => JSON.parse(core.invoke('get_changed_files', args, undefined));
    assert.equal(call({}).error_type, 'not_loaded', 'deferred');
    assert.equal(JSON.parse(core.invoke('tool_load', { names: ['get_changed_files'] }, undefined)).success, true);

    const all = call({});
    assert.equal(all.success, true, JSON.stringify(all));
    assert.equal(
      all.text,
      [
        'Staged files:',
        '- modified: both.txt',
        '- renamed: renamed.txt (from old.txt)',
        '- added: staged new.txt',
        '',
        'Unstaged changes:',
        '- modified: both.txt',
        '- modified: edited.txt',
        '',
        'Untracked files:',
        '- untracked: notes/todo.md',
      ].join('\n'),
    );
    assert.deepEqual(call({ sourceControlState: 'untracked' }).untracked, [{ path: 'notes/todo.md', status: 'untracked' }]);
    assert.equal(call({ repositoryPath: repo.dir }).repositoryPath, '.', 'an absolute path inside the workspace');

    for (const outside of ['..', '../x', '/', path.dirname(repo.dir)]) {
      const refused = call({ repositoryPath: outside });
      assert.equal(refused.error_type, 'path_refused', `${outside}: ${JSON.stringify(refused)}`);
    }
    const notAFolder = call({ repositoryPath: 'edited.txt' });
    assert.match(notAFolder.error, /is not a folder of the workspace/);

    git(repo.dir, 'add', '-A');
    git(repo.dir, 'commit', '-q', '-m', 'all');
    assert.equal(call({}).text, 'No changed files found.');
  } finally {
    repo.cleanup();
  }
});

test('outside a repository and with a tiny timeout, git status fails with a clear message', () => {
  const temp = tempDir('secretary-nogit-');
  try {
    assert.throws(() => gitStatusCli(temp.dir), /not a git repository/i);
    const core = new WasmCore(WASM_DIR, silentLogger);
    core.setHost(new NodeHost({ roots: { workspace: temp.dir } }));
    core.invoke('tool_load', { names: ['get_changed_files'] }, undefined);
    const result = JSON.parse(core.invoke('get_changed_files', {}, undefined));
    assert.equal(result.success, false);
    assert.match(result.error, /^Could not read the git status of the workspace folder: fatal: not a git repository/);
  } finally {
    temp.cleanup();
  }
});

test('the Git extension state renders as the porcelain git itself prints', () => {
  const repo = repository();
  try {
    const uri = (rel: string) => ({ fsPath: path.join(repo.dir, rel) });
    const rendered = porcelainFromChanges(repo.dir, {
      indexChanges: [
        { uri: uri('both.txt'), status: 0 },
        { uri: uri('renamed.txt'), originalUri: uri('old.txt'), renameUri: uri('renamed.txt'), status: 3 },
        { uri: uri('staged new.txt'), status: 1 },
      ],
      workingTreeChanges: [
        { uri: uri('both.txt'), status: 5 },
        { uri: uri('edited.txt'), status: 5 },
        { uri: uri('notes/todo.md'), status: 7 },
        { uri: uri('ignored.log'), status: 8 },
      ],
    });
    const fromGit = (bytes: Uint8Array) =>
      new Set(
        Buffer.from(bytes)
          .toString('utf8')
          .split('\0')
          .filter(Boolean)
          .flatMap((entry) => (entry.startsWith('MM ') ? [`M  ${entry.slice(3)}`, ` M ${entry.slice(3)}`] : [entry])),
      );
    assert.deepEqual(fromGit(rendered), fromGit(gitStatusCli(repo.dir)));
  } finally {
    repo.cleanup();
  }
});
