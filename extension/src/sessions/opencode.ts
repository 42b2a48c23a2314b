import * as path from 'path';

import type { StorageStat } from './chatStorage';
import { isFile, type SessionFile } from './discovery';
import { openReadOnly, sqliteUnavailable, type SqliteDatabase } from '../host/sqliteReadOnly';
import { errorMessage } from '../log';

/**
 * OpenCode keeps its sessions in a SQLite database, `opencode.db` in its data folder
 * (`$XDG_DATA_HOME/opencode`, else `~/.local/share/opencode` on every platform: OpenCode resolves
 * it with `xdg-basedir`). It is read through Node's own SQLite (`node:sqlite`), opened read-only,
 * never written: each session becomes one "file" named `<db>#<sessionID>` whose bytes are the
 * session in `opencode export`'s shape, `{info, messages: [{id, info, parts}]}`, built from the
 * rows' own JSON (`session`, `message.data`, `part.data`). The core reads that shape
 * (`session/agents/opencode.rs`) and never sees the database.
 *
 * Kilo Code's CLI (npm `@kilocode/cli`, built on OpenCode) keeps the same tables in `kilo.db` in
 * its own data folder (`$XDG_DATA_HOME/kilo`, measured with 7.7.7): read the same way; the core
 * calls its sessions Kilo Code's by the database's name.
 *
 * Without `node:sqlite` (Node before 22.13 without `--experimental-sqlite`), OpenCode's sessions
 * are listed as not read, with why.
 */

/** A row as `node:sqlite` gives it. */
type Row = Record<string, unknown>;

/** The database's file name in OpenCode's data folder. */
export const OPENCODE_DB = 'opencode.db';
/** The database's file name in Kilo Code's CLI's data folder (OpenCode's tables). */
export const KILO_DB = 'kilo.db';
/** The tables read, each refused when it is not an ordinary table (`openReadOnly`). */
const TABLES = ['session', 'message', 'part'];

/** Where OpenCode keeps its data (existing or not). */
export function openCodeDataDir(env: NodeJS.ProcessEnv, home: string): string {
  return path.join(env.XDG_DATA_HOME || path.join(home, '.local', 'share'), 'opencode');
}

/** Where Kilo Code's CLI keeps its data (existing or not): OpenCode's rule, its own folder. */
export function kiloDataDir(env: NodeJS.ProcessEnv, home: string): string {
  return path.join(env.XDG_DATA_HOME || path.join(home, '.local', 'share'), 'kilo');
}

/** A session's virtual file name: `<db>#<sessionID>`. */
export function openCodeSessionPath(db: string, id: string): string {
  return `${db}#${id}`;
}

/** The database and session id of a virtual file name, or `undefined` for any other path. */
export function parseOpenCodePath(file: string): { db: string; id: string } | undefined {
  const at = file.lastIndexOf('#');
  if (at < 0) {
    return undefined;
  }
  const db = file.slice(0, at);
  const id = file.slice(at + 1);
  return [OPENCODE_DB, KILO_DB].includes(path.basename(db)) && /^ses_[A-Za-z0-9_-]{1,120}$/.test(id) ? { db, id } : undefined;
}

/** The open read-only connection, kept for a moment so a sync's many sessions share it. */
let open: { db: string; database: SqliteDatabase; timer: NodeJS.Timeout } | undefined;
/** How long an idle connection stays open (a sync stats and reads every session in a burst). */
const IDLE_MS = 500;

/** Runs `use` on a read-only connection to `db` (`host/sqliteReadOnly`: a WAL database whose writer
 * is closed is opened immutable, so no `-wal`/`-shm` is left in OpenCode's folder; a busy writer
 * waits at most 2 s); the connection is closed after IDLE_MS without use, or at once when `use` fails. */
function withDb<T>(db: string, use: (database: SqliteDatabase) => T): T {
  const missing = sqliteUnavailable();
  if (missing) {
    throw new Error(`${missing}: OpenCode's sessions are not read`);
  }
  if (open && open.db !== db) {
    closeDb();
  }
  if (!open) {
    const database = openReadOnly(db, { timeoutMs: 2000, plainTables: TABLES });
    open = { db, database, timer: setTimeout(closeDb, IDLE_MS) };
    open.timer.unref();
  }
  const current = open;
  try {
    const result = use(current.database);
    current.timer.refresh();
    return result;
  } catch (err) {
    closeDb();
    throw err;
  }
}

function closeDb(): void {
  if (open) {
    clearTimeout(open.timer);
    try {
      open.database.close();
    } catch {
      // already closed
    }
    open = undefined;
  }
}

/**
 * The person's sessions in OpenCode's database under `dataDir` (not the sub-agents' sessions,
 * whose prompts are the agent's), as session files of unknown workspace: the core reads the folder
 * from the session. A database that cannot be read is put in `problems` with why. `dbName`:
 * `kilo.db` for Kilo Code's CLI's data folder.
 */
export function openCodeSessionFiles(dataDir: string, problems?: Map<string, string>, dbName: string = OPENCODE_DB): SessionFile[] {
  const db = path.join(dataDir, dbName);
  if (!dataDir || !isFile(db)) {
    return [];
  }
  try {
    const rows = withDb(db, (d) => d.prepare('SELECT id FROM session WHERE parent_id IS NULL ORDER BY time_created').all() as Row[]);
    const files = rows
      .map((row) => row.id)
      .filter((id): id is string => typeof id === 'string')
      .map((id) => openCodeSessionPath(db, id))
      .filter((file) => parseOpenCodePath(file) !== undefined);
    // The exports of sessions no longer listed (deleted) are not kept.
    const listed = new Set(files);
    for (const key of built.keys()) {
      if (parseOpenCodePath(key)?.db === db && !listed.has(key)) {
        built.delete(key);
      }
    }
    return files.map((file) => ({ path: file, workspace: undefined, kind: 'agent' as const }));
  } catch (err) {
    problems?.set(db, errorMessage(err));
    return [];
  }
}

/** The last export built per session file, kept while the session's `time_updated` stays. */
const built = new Map<string, { updated: number; bytes: Uint8Array }>();

/** One session in `opencode export`'s shape, from its rows. */
function exportSession(d: SqliteDatabase, key: string, id: string): { updated: number; bytes: Uint8Array } {
  const session = d
    .prepare('SELECT id, title, directory, parent_id, version, time_created, time_updated FROM session WHERE id = ?')
    .get(id) as Row | undefined;
  if (!session) {
    throw new Error(`no session ${id} in OpenCode's database (deleted?)`);
  }
  const updated = Number(session.time_updated) || 0;
  const cached = built.get(key);
  if (cached && cached.updated === updated) {
    return cached;
  }
  const info = {
    id: session.id,
    title: session.title,
    directory: session.directory,
    ...(session.parent_id ? { parentID: session.parent_id } : {}),
    version: session.version,
    time: { created: session.time_created, updated: session.time_updated },
  };
  const parts = new Map<string, string[]>();
  for (const part of d.prepare('SELECT message_id, data FROM part WHERE session_id = ? ORDER BY id').all(id) as Row[]) {
    const list = parts.get(String(part.message_id)) ?? [];
    list.push(String(part.data));
    parts.set(String(part.message_id), list);
  }
  // The rows' JSON goes through as written (the core checks it); only the ids are quoted here.
  const messages = (d.prepare('SELECT id, data FROM message WHERE session_id = ? ORDER BY time_created, id').all(id) as Row[])
    .map((m) => `{"id":${JSON.stringify(String(m.id))},"info":${String(m.data)},"parts":[${(parts.get(String(m.id)) ?? []).join(',')}]}`);
  const text = `{"info":${JSON.stringify(info)},"messages":[${messages.join(',')}]}`;
  const entry = { updated, bytes: Buffer.from(text, 'utf8') };
  built.set(key, entry);
  return entry;
}

/** Whether the session is still in the database (a deleted one is dropped by the next sync). */
export function openCodeSessionExists(file: string): boolean {
  const where = parseOpenCodePath(file);
  try {
    return where !== undefined && withDb(where.db, (d) => d.prepare('SELECT 1 AS found FROM session WHERE id = ?').get(where.id)) !== undefined;
  } catch {
    return false;
  }
}

/** `stat` of a virtual session file: the export's size, the session's last update. */
export function statOpenCodeSession(file: string): StorageStat {
  const where = parseOpenCodePath(file);
  if (!where) {
    throw new Error(`not an OpenCode session: ${file}`);
  }
  const entry = withDb(where.db, (d) => exportSession(d, file, where.id));
  return { size: entry.bytes.length, mtimeMs: entry.updated };
}

/** The bytes of a virtual session file from `offset` (at most `maxBytes`). */
export function readOpenCodeSession(file: string, offset: number, maxBytes: number): Uint8Array {
  const where = parseOpenCodePath(file);
  if (!where) {
    throw new Error(`not an OpenCode session: ${file}`);
  }
  const entry = withDb(where.db, (d) => exportSession(d, file, where.id));
  const rest = entry.bytes.subarray(Math.min(offset, entry.bytes.length));
  if (rest.length > maxBytes) {
    throw new Error(`OpenCode session ${where.id} is ${rest.length} bytes, over the limit of ${maxBytes}`);
  }
  return rest;
}
