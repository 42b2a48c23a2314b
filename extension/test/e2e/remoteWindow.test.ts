// The code path of a remote window (WSL, Remote-SSH, Dev Containers, Codespaces): the window keeps
// its chats on its own machine, out of reach of Node `fs` in the remote extension host, and the
// Secretary reads them through `vscode.workspace.fs` (docs/remote.md). Registered only in the run
// that serves a chat store under a scheme of its own: the test-only chat loop extension registers a
// FileSystemProvider for `secretary-store:` with a copy of the sample sessions
// (SECRETARY_E2E_STORE_SEED), and SECRETARY_E2E_CHAT_STORE points the Secretary at
// `secretary-store:/User` (scripts/test runs it as a third pass).
import * as assert from 'assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';

import type { SecretaryNode } from '../../src/tree/chatMonitorTreeProvider';
import { test } from './harness';
import { eventually, invoke, secretary } from './support';

interface LoopApi {
  windowStore?: { root: string; chatSessions: string; reads: number };
}

const SAMPLES = {
  json: { id: 'a1f4c2e0-7b3d-4d9a-9c51-2e8f6b0d3a71', first: 'Add a dark mode toggle to the settings page of the todo app.' },
  jsonl: { id: 'c3d9e8f1-2a4b-4c6d-8e0f-1a2b3c4d5e6f', first: 'The todo list is slow with 5,000 items.' },
};

async function windowStore(): Promise<NonNullable<LoopApi['windowStore']>> {
  const loop = vscode.extensions.getExtension<LoopApi>('secretary-test.secretary-chat-loop');
  assert.ok(loop, 'the chat loop test extension is installed');
  const store = (await loop.activate()).windowStore;
  assert.ok(store, 'the chat loop serves the secretary-store: scheme (SECRETARY_E2E_STORE_SEED)');
  return store;
}

function dialogIds(tree: { getChildren(node?: SecretaryNode): SecretaryNode[] }): string[] {
  return tree.getChildren().flatMap((node) =>
    node.kind === 'dialog' ? [node.entry.dialog.sessionId] : tree.getChildren(node).flatMap((child) => (child.kind === 'dialog' ? [child.entry.dialog.sessionId] : [])),
  );
}

if (process.env.SECRETARY_E2E_CHAT_STORE) {
  test('remote window: the chats are read through vscode.workspace.fs; the dialog tools answer and the sidebar lists them', async () => {
    const { api } = await secretary();
    const served = await windowStore();
    const found = await api.windowStore;
    assert.ok(found, 'the window store was found');
    assert.equal(found.via, 'test');
    assert.equal(found.storage.scheme, 'secretary-store');
    assert.equal(path.posix.basename(found.storage.path), path.basename(api.workspaceStorageDir ?? ''), 'the workspace id is the storage folder name');
    await api.sessions.start();
    const readsBefore = served.reads;
    assert.ok(readsBefore > 0, 'the provider was read');

    // The dialog tools answer from the served files, their paths are the window's URIs.
    const listed = await invoke('chat_secretary_list_dialogs', {});
    assert.equal(listed.success, true, JSON.stringify(listed));
    const ids = (listed.dialogs as { sessionId: string }[]).map((d) => d.sessionId);
    for (const sample of Object.values(SAMPLES)) {
      assert.ok(ids.includes(sample.id), `${sample.id} listed: ${ids.join(', ')}`);
      const entry = api.sessions.getSession(sample.id);
      assert.ok(entry?.path.startsWith('secretary-store:/User/workspaceStorage/'), entry?.path);
      const request = await invoke('chat_secretary_get_request', { index: 1, sessionId: sample.id });
      assert.equal(request.success, true, JSON.stringify(request));
      assert.ok(String(request.request).startsWith(sample.first), String(request.request));
    }
    const first = await invoke('chat_secretary_get_first_request', {});
    assert.equal(first.success, true, JSON.stringify(first));
    assert.equal(first.dialogFrom, 'mostRecent');
    assert.ok(Object.values(SAMPLES).some((s) => s.id === first.sessionId), String(first.sessionId));
    assert.deepEqual(Object.fromEntries(api.sessions.sync.failures), {}, 'every served file read');

    // The sidebar lists them.
    api.trees.dialogs.refresh();
    const shown = dialogIds(api.trees.dialogs);
    for (const sample of Object.values(SAMPLES)) {
      assert.ok(shown.includes(sample.id), `sidebar shows ${sample.id}: ${shown.join(', ')}`);
    }

    // A chat saved later reaches the Secretary through the watcher on the window's folder
    // (createFileSystemWatcher on a RelativePattern of a `secretary-store:` URI): no call asks for it.
    const id = 'f00dfeed-0000-4000-8000-00000000e2e0';
    const text = 'Remote windows: list the chats the window keeps on its own machine.';
    const session = JSON.parse(fs.readFileSync(path.join(served.chatSessions, `${SAMPLES.json.id}.json`), 'utf8')) as {
      sessionId: string;
      requests: { requestId: string; timestamp: number; message: { text: string; parts: { text: string }[] } }[];
    };
    session.sessionId = id;
    session.requests = session.requests.slice(0, 1).map((r) => ({
      ...r,
      requestId: 'request_remote_1',
      timestamp: Date.now(),
      message: { ...r.message, text, parts: r.message.parts.map((p) => ({ ...p, text })) },
    }));
    fs.writeFileSync(path.join(served.chatSessions, `${id}.json`), JSON.stringify(session));
    await eventually(() => api.sessions.getSession(id) !== undefined, 15_000, 'the watcher to report the new chat');
    await eventually(() => dialogIds(api.trees.dialogs).includes(id), 5_000, 'the sidebar to list the new chat');
    const newest = await invoke('chat_secretary_get_first_request', {});
    assert.equal(newest.sessionId, id, JSON.stringify(newest));
    assert.equal(newest.firstRequest, text);
  }, { timeoutMs: 60_000 });
}
