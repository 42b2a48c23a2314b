// Where the hosts find OpenCode's and Aider's sessions, and what the command line reads from them:
// a fake HOME with Aider's history in the working folder and an OpenCode database (made here
// with node:sqlite when this Node has it, in OpenCode 1.18.33's schema), read by `dist/cli.js`.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';

import { agentRoots, agentSessionFiles, agentWatchDirs } from '../../src/sessions/agents';
import { parseOpenCodePath } from '../../src/sessions/opencode';
import { mayConcernSessions } from '../../src/sessions/sessionSync';
import { ROOT, tempDir } from './helpers';

const CLI = path.join(ROOT, 'dist', 'cli.js');

interface Db {
  exec(sql: string): void;
  close(): void;
}

/** `node:sqlite`, when this Node has it. */
function sqlite(): { DatabaseSync: new (file: string) => Db } | undefined {
  try {
    return createRequire(__filename)('node:sqlite') as { DatabaseSync: new (file: string) => Db };
  } catch {
    return undefined;
  }
}

const AIDER = ['', '# aider chat started at 2026-11-24 22:39:15', '', '> Model: openai/x with whole edit format  ', '', '#### aider: fix the login  ', '', 'ok', ''].join('\n');

function cli(args: string[], home: string, cwd: string): { code: number | null; stdout: string; stderr: string } {
  const env = { PATH: process.env.PATH, HOME: home, XDG_DATA_HOME: path.join(home, '.data'), XDG_CONFIG_HOME: path.join(home, '.config') };
  const run = spawnSync(process.execPath, [CLI, ...args], { cwd, env, encoding: 'utf8' });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

test('roots: OpenCode under XDG_DATA_HOME, Aider from the folders served and AIDER_CHAT_HISTORY_FILE', () => {
  const roots = agentRoots({ XDG_DATA_HOME: '/d', AIDER_CHAT_HISTORY_FILE: '/repo/.aider.chat.history.md' }, '/h', []);
  assert.equal(roots.opencode, path.join('/d', 'opencode'));
  assert.deepEqual(roots.aider, ['/repo']);
  assert.equal(agentRoots({}, '/h', []).opencode, path.join('/h', '.local', 'share', 'opencode'));
  // Another history file name is Aider's choice for a custom file, not a folder to read.
  assert.deepEqual(agentRoots({ AIDER_CHAT_HISTORY_FILE: '/repo/notes.md' }, '/h', []).aider, []);
  assert.ok(mayConcernSessions('.aider.chat.history.md'));
  assert.ok(mayConcernSessions('opencode.db-wal'));
  assert.ok(!mayConcernSessions('notes.md'));
  assert.deepEqual(parseOpenCodePath('/d/opencode/opencode.db#ses_abc'), { db: '/d/opencode/opencode.db', id: 'ses_abc' });
  assert.equal(parseOpenCodePath('/d/opencode/opencode.db#../x'), undefined);
  assert.equal(parseOpenCodePath('/d/other.db#ses_abc'), undefined);
});

test("roots: Kilo Code's CLI's kilo.db under XDG_DATA_HOME/kilo, named and watched like OpenCode's", () => {
  assert.equal(agentRoots({ XDG_DATA_HOME: '/d' }, '/h', []).kilo, path.join('/d', 'kilo'));
  assert.equal(agentRoots({}, '/h', []).kilo, path.join('/h', '.local', 'share', 'kilo'));
  assert.ok(mayConcernSessions('kilo.db-wal'));
  assert.ok(mayConcernSessions('kilo.db'));
  assert.deepEqual(parseOpenCodePath('/d/kilo/kilo.db#ses_abc'), { db: '/d/kilo/kilo.db', id: 'ses_abc' });
  assert.equal(parseOpenCodePath('/d/kilo/notkilo.db#ses_abc'), undefined);
});

test("Aider's history of the working folder is found, read and watched; another folder's is not", (t) => {
  const temp = tempDir('aider-home-');
  t.after(() => temp.cleanup());
  const home = temp.dir;
  const work = path.join(home, 'work');
  const other = path.join(home, 'other');
  for (const dir of [work, other]) {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, '.aider.chat.history.md'), AIDER.replace('fix the login', `fix ${path.basename(dir)}`));
  }
  const roots = { ...agentRoots({}, home, []), aider: [work] };
  assert.deepEqual(
    agentSessionFiles(roots).map((f) => f.path),
    [path.join(work, '.aider.chat.history.md')],
  );
  assert.ok(agentWatchDirs(roots).includes(work));
  const out = cli(['sessions', '--json', '--source', 'aider'], home, work);
  assert.equal(out.code, 0, out.stderr);
  const dialogs = (JSON.parse(out.stdout) as { dialogs: { source: string; folder: string; title: string }[] }).dialogs;
  assert.deepEqual(
    dialogs.map((d) => [d.source, d.folder, d.title]),
    [['aider', work, 'aider: fix work']],
  );
});

test("OpenCode's database: read through node:sqlite, or listed as not read with why", (t) => {
  const temp = tempDir('opencode-home-');
  t.after(() => temp.cleanup());
  const home = temp.dir;
  const dir = path.join(home, '.data', 'opencode');
  fs.mkdirSync(dir, { recursive: true });
  const db = path.join(dir, 'opencode.db');
  const module = sqlite();
  if (!module) {
    // No node:sqlite here: a file stands in for the database, and the CLI says why it is not read.
    fs.writeFileSync(db, 'SQLite format 3\0');
    const out = cli(['sessions', '--json', '--source', 'opencode'], home, home);
    assert.equal(out.code, 0, out.stderr);
    const parsed = JSON.parse(out.stdout) as { dialogs: unknown[]; unreadable: { path: string; error: string }[] };
    assert.deepEqual(parsed.dialogs, []);
    const problem = parsed.unreadable.find((u) => u.path === db);
    assert.ok(problem && /node:sqlite/.test(problem.error), JSON.stringify(parsed.unreadable));
    return;
  }
  const d = new module.DatabaseSync(db);
  // The columns OpenCode 1.18.33 has and the hosts read (its other columns and tables omitted).
  d.exec(`CREATE TABLE session (id text PRIMARY KEY, project_id text, parent_id text, directory text NOT NULL, title text NOT NULL,
      version text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL);
    CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
    CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
    INSERT INTO session VALUES ('ses_a', 'global', NULL, '${home}/w', 'Login fix', '1.18.33', 1000, 3000);
    INSERT INTO session VALUES ('ses_child', 'global', 'ses_a', '${home}/w', 'sub', '1.18.33', 1500, 1600);
    INSERT INTO message VALUES ('msg_1', 'ses_a', 1100, 1100, '{"role":"user","time":{"created":1100}}');
    INSERT INTO part VALUES ('prt_1', 'msg_1', 'ses_a', 1100, 1100, '{"type":"text","text":"opencode: fix the login"}');
    INSERT INTO part VALUES ('prt_2', 'msg_1', 'ses_a', 1100, 1100, '{"type":"text","synthetic":true,"text":"Called the Read tool"}');
    INSERT INTO message VALUES ('msg_2', 'ses_a', 1200, 1300, '{"role":"assistant","modelID":"m","time":{"created":1200,"completed":1300}}');
    INSERT INTO part VALUES ('prt_3', 'msg_2', 'ses_a', 1200, 1300, '{"type":"text","text":"done"}');`);
  d.close();
  const out = cli(['sessions', '--json', '--source', 'opencode'], home, home);
  assert.equal(out.code, 0, out.stderr);
  const dialogs = (JSON.parse(out.stdout) as { dialogs: { sessionId: string; folder: string; title: string; requestsCount: number }[] }).dialogs;
  // The sub-agent's session is not listed.
  assert.deepEqual(
    dialogs.map((x) => [x.sessionId, x.folder, x.title, x.requestsCount]),
    [['ses_a', `${home}/w`, 'Login fix', 1]],
  );
  const shown = cli(['show', `${db}#ses_a`, '--json'], home, home);
  assert.equal(shown.code, 0, shown.stderr);
  assert.deepEqual(
    (JSON.parse(shown.stdout) as { requests: { text: string }[] }).requests.map((r) => r.text),
    ['opencode: fix the login'],
  );
  // The database was only read.
  assert.ok(!fs.existsSync(`${db}-journal`));
  // A corrupt database is listed as not read, with SQLite's reason; nothing crashes.
  fs.writeFileSync(db, Buffer.alloc(4096, 7));
  const corrupt = cli(['sessions', '--json', '--source', 'opencode'], home, home);
  assert.equal(corrupt.code, 0, corrupt.stderr);
  const listed = JSON.parse(corrupt.stdout) as { dialogs: unknown[]; unreadable: { path: string; error: string }[] };
  assert.deepEqual(listed.dialogs, []);
  assert.ok(listed.unreadable.some((u) => u.path === db && /not a database|malformed/i.test(u.error)), JSON.stringify(listed.unreadable));
});
