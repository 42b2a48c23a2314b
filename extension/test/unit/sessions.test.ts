import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';

import { WasmCore } from '../../src/core/wasm';
import { silentLogger } from '../../src/log';
import { sessionsUnder } from '../../src/sessions/discovery';
import { DialogSessionsService } from '../../src/sessions/dialogSessionsService';
import { SAMPLE_WORKSPACE, WASM_DIR, withSamples } from './helpers';

const JSONL = 'c3d9e8f1-2a4b-4c6d-8e0f-1a2b3c4d5e6f';
const JSON_ID = 'a1f4c2e0-7b3d-4d9a-9c51-2e8f6b0d3a71';

function open(root: string, workspace: string | undefined = SAMPLE_WORKSPACE) {
  const core = new WasmCore(WASM_DIR, silentLogger);
  const service = new DialogSessionsService(core, { files: () => sessionsUnder(root), watchDirs: () => [] }, silentLogger, {
    workspace,
  });
  return { core, service };
}

/** Runs `fn` with a started-later service whose watcher watches `watchDirs` of a fresh copy of the samples; the
 * service is disposed and the copy removed afterwards. */
function withWatchingService(
  watchDirs: (storage: string) => string[],
  debounceMs: number,
  fn: (service: DialogSessionsService, samples: { dir: string; storage: string }) => Promise<void>,
): Promise<void> {
  return withSamples(async (samples) => {
    const core = new WasmCore(WASM_DIR, silentLogger);
    const service = new DialogSessionsService(
      core,
      { files: () => sessionsUnder(samples.dir), watchDirs: () => watchDirs(samples.storage) },
      silentLogger,
      { workspace: SAMPLE_WORKSPACE, debounceMs },
    );
    try {
      await fn(service, samples);
    } finally {
      service.dispose();
    }
  });
}

async function call(service: DialogSessionsService, name: string, args: unknown) {
  return JSON.parse(await service.invokeTool(name, args)) as Record<string, unknown>;
}

test('the current dialog is the most recently active one of the workspace', async () => {
  await withSamples(async (samples) => {
    const { service } = open(samples.dir);
    await service.start(false);
    assert.equal(service.getCurrentSessionId(), JSONL);
    const first = await call(service, 'get_first_request', {});
    assert.equal(first.success, true);
    assert.equal(first.sessionId, JSONL);
    assert.equal(first.requestsCount, 2);
    assert.equal(String(first.firstRequest).length <= 80, true);
    const full = await call(service, 'get_request', { index: 1, sessionId: JSON_ID });
    assert.equal(full.request, 'Add a dark mode toggle to the settings page of the todo app.\nIt must remember the choice in localStorage and follow the OS preference on first visit.');
    assert.equal(full.totalRequests, 3);
    assert.deepEqual(await call(service, 'get_request', { index: 10, sessionId: JSON_ID }), {
      success: false,
      error: 'Index 10 exceeds total requests (3)',
    });
  });
});

test('an appended .jsonl line shows up in the next call, reading only the new bytes', async () => {
  await withSamples(async (samples) => {
    const { core, service } = open(samples.dir);
    await service.start(false);
    const file = path.join(samples.storage, 'chatSessions', `${JSONL}.jsonl`);
    const before = fs.statSync(file).size;
    const line = JSON.stringify({
      kind: 2,
      k: ['requests'],
      v: [{ requestId: 'r3', timestamp: 1760530000000, message: { text: 'Third request: add a search box.', parts: [] }, response: [] }],
    });
    fs.appendFileSync(file, line + '\n');
    const stat = fs.statSync(file);
    const plan = core.run((h) => h.plan(file, stat.size, stat.mtimeMs));
    assert.equal(plan.kind, 'from');
    assert.ok(plan.kind === 'from' && plan.offset <= before && plan.offset > 0, JSON.stringify(plan));
    const third = await call(service, 'get_request', { index: 3 });
    assert.equal(third.request, 'Third request: add a search box.');
    assert.equal(third.totalRequests, 3);
  });
});

test('synchronous small reads, asynchronous reads and a mix of both give the same dialogs, appended tails included', async () => {
  await withSamples(async (samples) => {
    const file = path.join(samples.storage, 'chatSessions', `${JSONL}.jsonl`);
    // 0: every read asynchronous (before issue 19); 1 MB: all synchronous here; 2,000 bytes: the
    // small files synchronously, the larger ones asynchronously.
    const services = [0, undefined, 2_000].map((syncReadLimit) => {
      const core = new WasmCore(WASM_DIR, silentLogger);
      return new DialogSessionsService(core, { files: () => sessionsUnder(samples.dir), watchDirs: () => [] }, silentLogger, {
        workspace: SAMPLE_WORKSPACE,
        syncReadLimit,
      });
    });
    const sizes = sessionsUnder(samples.dir).map((f) => fs.statSync(f.path).size);
    assert.ok(sizes.some((size) => size <= 2_000) && sizes.some((size) => size > 2_000), `sizes ${sizes.join(', ')}`);
    const dialogsOf = async (service: DialogSessionsService) => {
      const report = await service.refresh();
      assert.equal(report.failed, 0);
      return service.getDialogs().map((entry) => ({ ...entry.dialog, path: entry.path }));
    };
    const first = await Promise.all(services.map((service) => service.start(false).then(() => dialogsOf(service))));
    assert.equal(first[0].length, 2);
    assert.deepEqual(first[1], first[0]);
    assert.deepEqual(first[2], first[0]);
    const line = JSON.stringify({
      kind: 2,
      k: ['requests'],
      v: [{ requestId: 'r3', timestamp: 1760530000000, message: { text: 'Third request: add a search box.', parts: [] }, response: [] }],
    });
    fs.appendFileSync(file, line + '\n');
    const after = await Promise.all(services.map(dialogsOf));
    assert.notDeepEqual(after[0], first[0]);
    assert.deepEqual(after[1], after[0]);
    assert.deepEqual(after[2], after[0]);
    for (const service of services) {
      assert.equal((await call(service, 'get_request', { index: 3 })).request, 'Third request: add a search box.');
    }
  });
});

test('a removed session file is known but unavailable; a broken one hides nothing else', async () => {
  await withSamples(async (samples) => {
    const { service } = open(samples.dir);
    await service.start(false);
    fs.writeFileSync(path.join(samples.storage, 'chatSessions', 'broken.json'), '{"version": 3, "requests": [');
    fs.rmSync(path.join(samples.storage, 'chatSessions', `${JSON_ID}.json`));
    assert.deepEqual(await call(service, 'get_request', { index: 1, sessionId: JSON_ID }), {
      success: false,
      error: 'Chat data not available for session',
    });
    assert.ok([...service.sync.failures.keys()].some((p) => p.endsWith('broken.json')));
    const current = await call(service, 'get_first_request', {});
    assert.equal(current.sessionId, JSONL);
    assert.deepEqual(await call(service, 'get_first_request', { sessionId: 'nope' }), {
      success: false,
      error: 'Session not found: nope',
    });
  });
});

test('search_requests ranks the request that matches and returns a snippet', async () => {
  await withSamples(async (samples) => {
    const { service } = open(samples.dir);
    await service.start(false);
    const found = await call(service, 'search_requests', { query: 'playwright reload' });
    const results = found.results as { sessionId: string; index: number; snippet: string }[];
    assert.equal(results[0].sessionId, JSON_ID);
    assert.equal(results[0].index, 3);
    assert.match(results[0].snippet, /Playwright/);
    assert.deepEqual(await call(service, 'search_requests', { query: '   ' }), { success: false, error: 'Query must not be empty' });
  });
});

test('search_requests reads "yesterday" by the host clock: a session dated next year does not move today', async () => {
  await withSamples(async (samples) => {
    const day = 86_400_000;
    const now = Date.now();
    const sessions = [
      ['clock-a', now - 2 * day, 'Rotate the signing keys'],
      ['clock-b', now - day, 'Pin the toolchain version'],
      ['clock-ahead', now + 400 * day, 'A request from next year'],
    ] as const;
    for (const [id, time, text] of sessions) {
      const session = { version: 3, sessionId: id, creationDate: time, requests: [{ requestId: `${id}-1`, timestamp: time, message: { text, parts: [] } }] };
      fs.writeFileSync(path.join(samples.storage, 'chatSessions', `${id}.json`), JSON.stringify(session));
    }
    const { service } = open(samples.dir);
    await service.start(false);
    const found = await call(service, 'search_requests', { query: 'what did I ask yesterday' });
    const results = found.results as { sessionId: string }[];
    // The newest request not ahead of the clock is clock-b's, so "yesterday" is clock-a's day.
    assert.deepEqual(
      results.map((r) => r.sessionId),
      ['clock-a'],
      JSON.stringify(found),
    );
  });
});

test('the watcher picks up a new session file without polling', async () => {
  await withWatchingService((storage) => [path.join(storage, 'chatSessions')], 50, async (service, samples) => {
    await service.start(true);
    const arrived = new Promise<void>((resolve) => service.onDidChange(resolve));
    const id = 'f0000000-0000-4000-8000-000000000001';
    fs.writeFileSync(
      path.join(samples.storage, 'chatSessions', `${id}.json`),
      JSON.stringify({ version: 3, sessionId: id, creationDate: Date.now(), requests: [{ message: { text: 'fresh' }, timestamp: Date.now() }] }),
    );
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      arrived,
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('no change seen in 5 s')), 5000);
      }),
    ]);
    clearTimeout(timer);
    assert.equal(service.getCurrentSessionId(), id);
  });
});

test('VS Code\'s own files beside chatSessions do not wake the sync', async () => {
  await withWatchingService((storage) => [storage, path.join(storage, 'chatSessions')], 20, async (service, samples) => {
    await service.start(true);
    const before = service.sync.syncCount;
    for (let i = 0; i < 5; i += 1) {
      fs.writeFileSync(path.join(samples.storage, 'state.vscdb'), `state ${i}`);
      fs.writeFileSync(path.join(samples.storage, 'vscode.lock'), `${i}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(service.sync.syncCount, before, 'a write to state.vscdb or vscode.lock caused a sync');
    // A session file still does.
    fs.writeFileSync(path.join(samples.storage, 'chatSessions', 'new.json'), '{"version":3,"sessionId":"n","requests":[]}');
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.ok(service.sync.syncCount > before);
  });
});

test('tools an agent loaded are loaded again after the core traps and restarts', async () => {
  await withSamples(async (samples) => {
    const { core, service } = open(samples.dir);
    await service.start(false);
    const call_ = (name: string, args: unknown) => call(service, name, args);
    const before = await call_('resolve_library_id', { libraryName: 'left-pad' });
    assert.equal(before.error_type, 'not_loaded', JSON.stringify(before));
    assert.equal((await call_('tool_load', { names: ['resolve_library_id'] })).success, true);
    const loaded = await call_('resolve_library_id', { libraryName: 'left-pad' });
    assert.notEqual(loaded.error_type, 'not_loaded', JSON.stringify(loaded));

    assert.throws(() => core.run((_h, m) => m.debugTrap()));
    assert.equal(core.resetCount, 1);
    const after = await call_('resolve_library_id', { libraryName: 'left-pad' });
    assert.notEqual(after.error_type, 'not_loaded', JSON.stringify(after));
    assert.equal((await call_('get_first_request', {})).success, true, 'the sessions came back too');
  });
});
