// The deferred `memory` tool on real folders: through the WASM facade and the Node bridge (atomic
// writes under <globalState>/memory, sizes and times from `stat`), and through the `secretary`
// command line, whose one-shot `call` loads the deferred tool itself.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';

import { WasmCore } from '../../src/core/wasm';
import { NodeHost } from '../../src/host/nodeHost';
import { silentLogger } from '../../src/log';
import { ROOT, SAMPLES, WASM_DIR, tempDir } from './helpers';

const CLI = path.join(ROOT, 'dist', 'cli.js');

test('NodeHost.stat: size and time of files, null for missing ones and folders', () => {
  const temp = tempDir('secretary-stat-');
  try {
    const host = new NodeHost({ roots: { globalState: temp.dir } });
    host.writeAtomic('globalState', 'memory/a.md', new TextEncoder().encode('hello'));
    const stat = host.stat('globalState', 'memory/a.md');
    assert.ok(stat);
    assert.equal(stat.size, 5);
    assert.ok(Math.abs(stat.mtimeMs - Date.now()) < 60_000, String(stat.mtimeMs));
    assert.equal(host.stat('globalState', 'memory/missing.md'), null);
    assert.equal(host.stat('globalState', 'memory'), null);
    assert.throws(() => host.stat('globalState', '../x'));
  } finally {
    temp.cleanup();
  }
});

test('memory through the WASM facade: deferred, then save/read/list/delete on disk', () => {
  const temp = tempDir('secretary-memory-');
  try {
    const core = new WasmCore(WASM_DIR, silentLogger);
    core.setHost(new NodeHost({ roots: { globalState: temp.dir } }));
    const call = (name: string, args: unknown) => JSON.parse(core.invoke(name, args, undefined));

    const before = call('memory', { command: 'list' });
    assert.equal(before.error_type, 'not_loaded', JSON.stringify(before));
    assert.equal(call('tool_load', { names: ['memory'] }).success, true);

    const saved = call('memory', { command: 'save', path: 'conventions', content: 'Use tabs.\n' });
    assert.deepEqual(saved, { success: true, path: 'conventions.md', bytes: 10, created: true });
    const dir = path.join(temp.dir, 'memory');
    assert.deepEqual(fs.readdirSync(dir), ['conventions.md'], 'no temporary file left');
    assert.equal(fs.readFileSync(path.join(dir, 'conventions.md'), 'utf8'), 'Use tabs.\n');

    assert.equal(call('memory', { command: 'read', path: 'conventions.md' }).content, 'Use tabs.\n');
    const list = call('memory', { command: 'list' });
    assert.equal(list.total, 1);
    assert.equal(list.notes[0].path, 'conventions.md');
    assert.equal(list.notes[0].bytes, 10);
    assert.match(list.notes[0].modified, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    for (const bad of ['../x', '/etc/passwd', 'CON', '.hidden', 'a\u0000b']) {
      const refused = call('memory', { command: 'save', path: bad, content: 'x' });
      assert.equal(refused.error_type, 'invalid_arguments', `${bad}: ${JSON.stringify(refused)}`);
    }
    assert.deepEqual(fs.readdirSync(temp.dir), ['memory'], 'nothing written outside memory/');

    const refused = call('memory', { command: 'delete', path: 'conventions' });
    assert.equal(refused.error_type, 'consent_required');
    assert.ok(fs.existsSync(path.join(dir, 'conventions.md')));
    assert.equal(call('memory', { command: 'delete', path: 'conventions', confirm: 'DELETE_MEMORY' }).deleted, true);
    assert.deepEqual(fs.readdirSync(dir), []);
  } finally {
    temp.cleanup();
  }
});

test('secretary call memory keeps notes under the state folder (--state-dir)', () => {
  const temp = tempDir('secretary-memory-cli-');
  try {
    const run = (args: object) =>
      spawnSync(process.execPath, [CLI, 'call', 'memory', JSON.stringify(args), '--storage', SAMPLES, '--state-dir', temp.dir], {
        encoding: 'utf8',
      });
    const saved = run({ command: 'save', path: 'cli note', content: 'from the command line' });
    assert.equal(saved.status, 0, saved.stderr + saved.stdout);
    assert.equal(fs.readFileSync(path.join(temp.dir, 'global', 'memory', 'cli note.md'), 'utf8'), 'from the command line');
    const read = run({ command: 'read', path: 'cli note' });
    assert.equal(JSON.parse(read.stdout).content, 'from the command line');
    const refused = run({ command: 'delete', path: 'cli note' });
    assert.equal(refused.status, 1);
    assert.equal(JSON.parse(refused.stdout).error_type, 'consent_required');
  } finally {
    temp.cleanup();
  }
});
