import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';

import { sharedFixturesOrSkip } from '../sharedFixtures';
import { ROOT, SAMPLES, tempDir } from './helpers';

const CLI = path.join(ROOT, 'dist', 'cli.js');
const WS = '/home/dev/projects/todo-app';

function secretary(...args: string[]) {
  const run = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 30_000 });
  return { code: run.status, out: run.stdout, err: run.stderr };
}

test('show --json prints the parsed dialog with 1-based indexes and full texts', () => {
  const file = path.join(SAMPLES, 'User', 'workspaceStorage', '5f2a9c0e1b7d4e3f8a6b2c1d0e9f8a7b', 'chatSessions', 'c3d9e8f1-2a4b-4c6d-8e0f-1a2b3c4d5e6f.jsonl');
  const { code, out } = secretary('show', file, '--json');
  assert.equal(code, 0);
  const dialog = JSON.parse(out);
  assert.equal(dialog.sessionId, 'c3d9e8f1-2a4b-4c6d-8e0f-1a2b3c4d5e6f');
  assert.equal(dialog.title, 'Speed up the todo list');
  assert.deepEqual(
    dialog.requests.map((r: { index: number }) => r.index),
    [1, 2],
  );
  assert.match(dialog.requests[0].text, /^The todo list is slow with 5,000 items/);
  assert.equal(typeof dialog.requests[0].timestamp, 'number');
});

test('sessions --json lists every dialog under a user-data folder', () => {
  const { code, out } = secretary('sessions', '--storage', SAMPLES, '--json');
  assert.equal(code, 0);
  const listing = JSON.parse(out);
  assert.equal(listing.dialogs.length, 3);
  const ids = listing.dialogs.map((d: { sessionId: string }) => d.sessionId).sort();
  assert.deepEqual(ids, [
    'a1f4c2e0-7b3d-4d9a-9c51-2e8f6b0d3a71',
    'c3d9e8f1-2a4b-4c6d-8e0f-1a2b3c4d5e6f',
    'e7f6a5b4-c3d2-4e1f-9a8b-7c6d5e4f3a2b',
  ]);
  assert.deepEqual(listing.unreadable, []);
});

test('tool commands print what an agent gets and exit 1 on a failed result', () => {
  const first = secretary('first', '--storage', SAMPLES, '--workspace', WS, '--json');
  assert.equal(first.code, 0);
  assert.equal(JSON.parse(first.out).sessionId, 'c3d9e8f1-2a4b-4c6d-8e0f-1a2b3c4d5e6f');
  const tooFar = secretary('request', '9', '--storage', SAMPLES, '--workspace', WS, '--json');
  assert.equal(tooFar.code, 1);
  assert.deepEqual(JSON.parse(tooFar.out), { success: false, error: 'Index 9 exceeds total requests (2)' });
  const word = secretary('request', 'two', '--storage', SAMPLES, '--workspace', WS, '--json');
  assert.equal(word.code, 1);
  assert.match(JSON.parse(word.out).error, /whole number/);
  const legacy = secretary('call', 'copilot_chat_secretary_get_first_request', '{}', '--storage', SAMPLES);
  assert.equal(legacy.code, 1);
  assert.match(JSON.parse(legacy.out).error, /renamed to chat_secretary_get_first_request/);
});

test('--version prints the core version on its own', () => {
  const run = secretary('--version');
  assert.equal(run.code, 0);
  assert.match(run.out.trim(), /^\d+\.\d+\.\d+$/);
});

test('bad usage and unreadable files give one clear line', () => {
  assert.equal(secretary('frobnicate').code, 2);
  assert.match(secretary('frobnicate').err, /unknown command: frobnicate/);
  const missing = secretary('show', '/no/such/file.json');
  assert.equal(missing.code, 1);
  assert.match(missing.err, /cannot read \/no\/such\/file.json: ENOENT/);
  const temp = tempDir();
  try {
    const bad = path.join(temp.dir, 'bad.json');
    fs.writeFileSync(bad, '{"requests": [ {"message": ');
    const parsed = secretary('show', bad);
    assert.equal(parsed.code, 1);
    assert.ok(parsed.err.startsWith('secretary: '), parsed.err);
    assert.ok(!parsed.err.includes('    at '), 'no stack trace');
  } finally {
    temp.cleanup();
  }
  const noStorage = secretary('first', '--storage', '/no/such/dir');
  assert.equal(noStorage.code, 1);
  assert.match(noStorage.err, /--storage \/no\/such\/dir: no such folder/);
});

test('show --json gives every real fixture\'s request texts (../shared)', (t) => {
  const dir = sharedFixturesOrSkip(ROOT, 'sessions', (why) => t.skip(why));
  if (!dir) {
    return;
  }
  for (const name of fs.readdirSync(dir)) {
    const file = path.join(dir, name);
    const { code, out, err } = secretary('show', file, '--json');
    assert.equal(code, 0, `${name}: ${err}`);
    const dialog = JSON.parse(out) as { requests: { index: number; text: string }[] };
    const expected = name.endsWith('.jsonl') ? replay(fs.readFileSync(file, 'utf8')) : JSON.parse(fs.readFileSync(file, 'utf8'));
    const texts = (expected.requests as { message: { text: string } }[]).map((r) => r.message.text);
    assert.deepEqual(
      dialog.requests.map((r) => r.text),
      texts,
      name,
    );
    assert.deepEqual(
      dialog.requests.map((r) => r.index),
      texts.map((_, i) => i + 1),
    );
  }
});

/** A plain replay of a .jsonl mutation log (kinds 0-3), independent of the core's reader. */
function replay(text: string): { requests: unknown[] } {
  let state: Record<string, unknown> = {};
  for (const line of text.split('\n')) {
    if (!line.trim()) {
      continue;
    }
    const entry = JSON.parse(line) as { kind: number; k?: (string | number)[]; v?: unknown; i?: number };
    if (entry.kind === 0) {
      state = entry.v as Record<string, unknown>;
      continue;
    }
    const keys = entry.k ?? [];
    let parent: Record<string | number, unknown> = state;
    for (const key of keys.slice(0, -1)) {
      parent = parent[key] as Record<string | number, unknown>;
    }
    const last = keys[keys.length - 1];
    if (entry.kind === 1) {
      parent[last] = entry.v;
    } else if (entry.kind === 2) {
      const list = ((parent[last] as unknown[]) ?? []).slice(0, entry.i ?? undefined);
      list.push(...(entry.v as unknown[]));
      parent[last] = list;
    } else if (entry.kind === 3) {
      delete parent[last];
    }
  }
  return state as { requests: unknown[] };
}

test('the launcher keeps V8 compiled code in the user cache folder and reuses it on the next run', () => {
  const cache = tempDir();
  try {
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_CACHE_HOME: cache.dir };
    delete env.NODE_DISABLE_COMPILE_CACHE;
    delete env.NODE_COMPILE_CACHE;
    const run = () => spawnSync(process.execPath, [CLI, 'tools', '--json'], { encoding: 'utf8', timeout: 30_000, env });
    const first = run();
    assert.equal(first.status, 0, first.stderr);
    const dir = path.join(cache.dir, 'copilot-chat-secretary', 'code-cache');
    const files = () =>
      fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => {
        const file = path.join(entry.parentPath ?? entry.path, entry.name);
        return { file, mtimeMs: fs.statSync(file).mtimeMs };
      });
    const written = files();
    assert.ok(written.length > 0, 'no compiled code was cached');
    const second = run();
    assert.equal(second.status, 0, second.stderr);
    assert.equal(second.stdout, first.stdout);
    // Accepted, not written again (a cache V8 refuses is replaced).
    assert.deepEqual(files(), written);
    // A cache folder that cannot be written is no failure.
    const notAFolder = path.join(cache.dir, 'not-a-folder.txt');
    fs.writeFileSync(notAFolder, '');
    const blocked = spawnSync(process.execPath, [CLI, '--version'], { encoding: 'utf8', env: { ...env, XDG_CACHE_HOME: notAFolder } });
    assert.equal(blocked.status, 0, blocked.stderr);
    assert.equal(blocked.stderr, '');
  } finally {
    cache.cleanup();
  }
});
