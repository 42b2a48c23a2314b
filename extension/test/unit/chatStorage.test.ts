// Chat storage behind one interface (docs/remote.md): the sessions service reads, stats and watches
// every session file through a `ChatStorage`, so a storage that is not Node `fs` (a remote window's
// `vscode.workspace.fs`) serves the same answers. Here a storage over URI strings keeps the sample
// files in memory: Node `fs` never sees them, yet the real WASM core answers from them.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';

import { WasmCore } from '../../src/core/wasm';
import { silentLogger } from '../../src/log';
import { isUriPath, nodeChatStorage, routedChatStorage, type ChatStorage } from '../../src/sessions/chatStorage';
import { DialogSessionsService } from '../../src/sessions/dialogSessionsService';
import { SAMPLE_STORAGE, WASM_DIR } from './helpers';

const DIR = 'mem:/User/workspaceStorage/abc/chatSessions';
const WORKSPACE = 'file:///remote/project';

/** An in-memory storage of URI strings, counting its reads, with one watcher per folder. */
function memoryStorage(): ChatStorage & { files: Map<string, { bytes: Uint8Array; mtimeMs: number }>; reads: number; fire(dir: string, name: string): void } {
  const files = new Map<string, { bytes: Uint8Array; mtimeMs: number }>();
  const listeners = new Map<string, (name: string | undefined) => void>();
  const storage = {
    files,
    reads: 0,
    async stat(file: string) {
      const entry = files.get(file);
      if (!entry) {
        throw new Error(`not found: ${file}`);
      }
      return { size: entry.bytes.length, mtimeMs: entry.mtimeMs };
    },
    async read(file: string, offset: number) {
      storage.reads += 1;
      const entry = files.get(file);
      if (!entry) {
        throw new Error(`not found: ${file}`);
      }
      return entry.bytes.subarray(offset);
    },
    async exists(file: string) {
      return files.has(file);
    },
    join: (dir: string, name: string) => `${dir}/${name}`,
    watch(dir: string, listener: (name: string | undefined) => void) {
      listeners.set(dir, listener);
      return { dispose: () => listeners.delete(dir) };
    },
    fire(dir: string, name: string) {
      listeners.get(dir)?.(name);
    },
  };
  return storage;
}

test('the routed storage sends URI strings to the second storage and paths to Node fs', async () => {
  assert.equal(isUriPath('vscode-local:/home/me/.config/Code/User'), true);
  assert.equal(isUriPath('vscode-userdata:/c%3A/Users/me'), true);
  assert.equal(isUriPath('/home/me/.config/Code/User'), false);
  assert.equal(isUriPath('C:\\Users\\me'), false);
  assert.equal(isUriPath('c:/Users/me'), false);
  const memory = memoryStorage();
  memory.files.set(`${DIR}/x.json`, { bytes: Buffer.from('{}'), mtimeMs: 1 });
  const routed = routedChatStorage(memory);
  assert.equal(await routed.exists(`${DIR}/x.json`), true);
  assert.equal(await routed.exists(path.join(SAMPLE_STORAGE, 'workspace.json')), true, 'a path goes to Node fs');
  assert.equal(routed.join(DIR, 'y.jsonl'), `${DIR}/y.jsonl`);
  assert.equal(routed.join('/a/b', 'c.json'), path.join('/a/b', 'c.json'));
  assert.equal(routedChatStorage(undefined), nodeChatStorage);
});

test('the sessions service answers from a storage Node fs cannot see, and its watcher brings a new chat', async () => {
  const memory = memoryStorage();
  const chats = path.join(SAMPLE_STORAGE, 'chatSessions');
  for (const name of fs.readdirSync(chats)) {
    memory.files.set(`${DIR}/${name}`, { bytes: fs.readFileSync(path.join(chats, name)), mtimeMs: 1 });
  }
  const scope = {
    // Asynchronous, as listing through vscode.workspace.fs is.
    files: async () => [...memory.files.keys()].map((file) => ({ path: file, workspace: WORKSPACE, kind: 'native' as const })),
    watchDirs: () => [DIR],
  };
  const core = new WasmCore(WASM_DIR, silentLogger);
  const service = new DialogSessionsService(core, scope, silentLogger, { workspace: WORKSPACE, debounceMs: 10, storage: memory });
  try {
    const report = await service.start(true);
    assert.equal(report.files, 2);
    assert.equal(memory.reads, 2, 'both files read through the storage');
    const listed = JSON.parse(await service.invokeTool('list_dialogs', {})) as { dialogs: { sessionId: string }[] };
    assert.deepEqual(listed.dialogs.map((d) => d.sessionId).sort(), ['a1f4c2e0-7b3d-4d9a-9c51-2e8f6b0d3a71', 'c3d9e8f1-2a4b-4c6d-8e0f-1a2b3c4d5e6f']);
    const first = JSON.parse(await service.invokeTool('get_request', { index: 1, sessionId: 'a1f4c2e0-7b3d-4d9a-9c51-2e8f6b0d3a71' })) as { request: string };
    assert.ok(first.request.startsWith('Add a dark mode toggle'), first.request);
    assert.equal(service.getSession('a1f4c2e0-7b3d-4d9a-9c51-2e8f6b0d3a71')?.path, `${DIR}/a1f4c2e0-7b3d-4d9a-9c51-2e8f6b0d3a71.json`);

    // A new chat: the storage's watcher reports it, and it is read without a call asking for it.
    const sample = JSON.parse(fs.readFileSync(path.join(chats, 'a1f4c2e0-7b3d-4d9a-9c51-2e8f6b0d3a71.json'), 'utf8')) as { sessionId: string };
    sample.sessionId = 'feedf00d-0000-4000-8000-000000000001';
    memory.files.set(`${DIR}/${sample.sessionId}.json`, { bytes: Buffer.from(JSON.stringify(sample)), mtimeMs: 2 });
    memory.fire(DIR, `${sample.sessionId}.json`);
    const until = Date.now() + 5_000;
    while (!service.getSession(sample.sessionId) && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.ok(service.getSession(sample.sessionId), 'the watcher brought the new chat');
    // Unchanged files are not read again.
    const reads = memory.reads;
    await service.invokeTool('list_dialogs', {});
    assert.equal(memory.reads, reads);
  } finally {
    service.dispose();
  }
});
