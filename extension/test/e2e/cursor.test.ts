// Cursor's chats in a real VS Code: its SQLite databases (written here with the extension host's own
// `node:sqlite`, rows shaped like the public databases cited in docs/agents.md) under this run's own
// Cursor folder (`SECRETARY_CURSOR_USER_DIR`, set by scripts/e2e), read into the sidebar, and a
// message Cursor adds to its database read again by the watchers, without a Refresh.
import * as assert from 'assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';

import type { SecretaryNode } from '../../src/tree/chatMonitorTreeProvider';
import { test } from './harness';
import { eventually, secretary } from './support';

interface Db {
  exec(sql: string): void;
  prepare(sql: string): { run(...values: unknown[]): void };
  close(): void;
}

function open(file: string): Db {
  const sqlite = process.getBuiltinModule?.('node:sqlite') as { DatabaseSync: new (file: string) => Db } | undefined;
  assert.ok(sqlite, `the extension host's Node ${process.versions.node} has node:sqlite`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new sqlite.DatabaseSync(file);
  return db;
}

function put(db: Db, table: string, rows: [string, unknown][]): void {
  db.exec(`CREATE TABLE IF NOT EXISTS ${table} (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)`);
  const insert = db.prepare(`INSERT INTO ${table} VALUES (?, ?)`);
  for (const [key, value] of rows) {
    insert.run(key, JSON.stringify(value));
  }
}

test("cursor: a Cursor conversation of this folder joins the sidebar and follows Cursor's writes", async () => {
  const { api } = await secretary();
  await api.sessions.start();
  const user = process.env.SECRETARY_CURSOR_USER_DIR;
  assert.ok(user, 'scripts/e2e sets SECRETARY_CURSOR_USER_DIR');
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  assert.ok(folder, 'the e2e window has a folder');
  const id = `cursor-e2e-${Date.now()}`;
  const headers = [
    { bubbleId: 'u1', type: 1 },
    { bubbleId: 'a1', type: 2 },
  ];
  const composer = { _v: 9, composerId: id, name: 'Cursor e2e conversation', createdAt: Date.now(), lastUpdatedAt: Date.now(), fullConversationHeadersOnly: headers };

  // The workspace database names the composer; the global one holds its messages.
  const wsDir = path.join(user, 'workspaceStorage', 'e2e');
  const ws = open(path.join(wsDir, 'state.vscdb'));
  put(ws, 'ItemTable', [['composer.composerData', { allComposers: [{ composerId: id }], selectedComposerId: id }]]);
  ws.close();
  fs.writeFileSync(path.join(wsDir, 'workspace.json'), JSON.stringify({ folder: folder.toString() }));
  const globalDb = path.join(user, 'globalStorage', 'state.vscdb');
  const db = open(globalDb);
  put(db, 'ItemTable', [['cursorAuth/cachedSignUpType', 'x']]);
  put(db, 'cursorDiskKV', [
    [`composerData:${id}`, composer],
    [`bubbleId:${id}:u1`, { _v: 3, type: 1, text: 'Cursor e2e: the first prompt typed in Cursor' }],
    [`bubbleId:${id}:a1`, { _v: 3, type: 2, text: 'done' }],
  ]);
  db.close();

  // Cursor's folder did not exist when the window opened: the sidebar's Refresh reads it.
  await vscode.commands.executeCommand('copilotChatSecretary.refresh');
  await eventually(() => api.sessions.getSession(id)?.dialog.source === 'cursor', 10_000, 'the Cursor conversation in the sidebar');
  const entry = api.sessions.getSession(id);
  assert.ok(entry);
  assert.deepEqual(
    entry.dialog.requests.map((r) => r.text),
    ['Cursor e2e: the first prompt typed in Cursor'],
  );
  assert.ok(
    api.sessions.getDialogs().some((d) => d.dialog.sessionId === id),
    `the Cursor conversation joins the window's dialogs (workspace ${api.sessions.currentWorkspace})`,
  );
  const node: SecretaryNode = { kind: 'dialog', entry, current: false };
  const item = api.trees.dialogs.getTreeItem(node);
  assert.match(String(item.description), /^Cursor · /);
  assert.ok(item.command);
  assert.equal(item.command.title, 'Show Requests');

  // Cursor writes a second prompt: the watchers on its folder read it again, no Refresh.
  const later = open(globalDb);
  put(later, 'cursorDiskKV', [
    [`composerData:${id}`, { ...composer, fullConversationHeadersOnly: [...headers, { bubbleId: 'u2', type: 1 }] }],
    [`bubbleId:${id}:u2`, { _v: 3, type: 1, text: 'Cursor e2e: a second prompt' }],
  ]);
  later.close();
  await eventually(
    () => api.sessions.getSession(id)?.dialog.requests.length === 2,
    10_000,
    'the second prompt read after Cursor wrote it',
  );
  assert.deepEqual(fs.readdirSync(path.dirname(globalDb)), ['state.vscdb'], 'nothing created beside the database');

  // A click shows its requests (there is no log file to open).
  const shown = (await vscode.commands.executeCommand(item.command.command, ...(item.command.arguments ?? []))) as vscode.Uri | undefined;
  assert.equal(shown?.scheme, 'untitled');
  assert.match(vscode.window.activeTextEditor?.document.getText() ?? '', /the first prompt typed in Cursor/);
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
});
