// Read-only access to another tool's SQLite database (Cursor's `state.vscdb`) through Node's own
// SQLite (`node:sqlite`, built into Node >= 22.13), never a hand-written reader and never a write.
//
// What SQLite does with a read-only open, measured on Node 24.21 (SQLite 3.50) in
// extension/test/unit/cursor.test.ts:
// - a database in rollback-journal mode (header bytes 18-19 = 1): nothing is created; a reader
//   waits for a writer's lock or fails with "database is locked";
// - a WAL database (bytes 18-19 = 2) whose writer is running (`-wal` and `-shm` beside it): read
//   through them, as every reader does (the reader takes its read lock in `-shm`); nothing new;
// - a WAL database with no `-wal`/`-shm` (its writer closed it): a plain read-only open CREATES
//   both files and leaves them behind. Such a database is opened `immutable=1` instead (no lock,
//   no WAL: there is none to read), which creates nothing.
import * as fs from 'fs';
import { pathToFileURL } from 'url';
import { errorMessage } from '../log';

/** The part of `node:sqlite`'s `DatabaseSync` used here (typed here: @types/node 20 has none). */
export interface SqliteDatabase {
  prepare(sql: string): { all(...params: unknown[]): unknown[]; get(...params: unknown[]): unknown };
  close(): void;
}

interface SqliteModule {
  DatabaseSync: new (path: string | URL, options?: { readOnly?: boolean; timeout?: number }) => SqliteDatabase;
}

/** Why SQLite databases cannot be read by this Node, or `undefined` when they can. */
export function sqliteUnavailable(): string | undefined {
  const sqlite = loadSqlite();
  return typeof sqlite === 'string' ? sqlite : undefined;
}

let loaded: SqliteModule | string | undefined;

/** `node:sqlite`, or why not: older Node has none (`process.getBuiltinModule` answers `undefined`). */
function loadSqlite(): SqliteModule | string {
  if (loaded === undefined) {
    let mod: unknown;
    try {
      // Not `import`/`require`: the bundler must not resolve it, and Node 20 has no such module.
      mod = process.getBuiltinModule?.('node:sqlite');
    } catch {
      mod = undefined;
    }
    loaded =
      mod && typeof (mod as SqliteModule).DatabaseSync === 'function'
        ? (mod as SqliteModule)
        : `needs Node >= 22.13 for node:sqlite (this is Node ${process.versions.node})`;
  }
  return loaded;
}

/** The SQLite header's first 16 bytes. */
const MAGIC = 'SQLite format 3\0';

/**
 * Opens `file` read-only (see the file's comment for how WAL databases are opened). Throws an
 * `Error` whose message says why not: no `node:sqlite`, not a SQLite database, locked, corrupt.
 *
 * `plainTables`: the tables the caller reads, each of which, when present, must be an ordinary
 * table whose columns hold what is stored. A view, or a column computed on read (`value BLOB AS
 * (zeroblob(200000000))`), lets a database of a few kilobytes hand out hundreds of megabytes a
 * row: 1 GB of memory and 9 s for one Cursor row, 4.4 GB for an OpenCode session, measured. The
 * tools that write these databases make neither; such a database is refused, not read.
 */
export function openReadOnly(file: string, options: { timeoutMs?: number; plainTables?: readonly string[] } = {}): SqliteDatabase {
  const sqlite = loadSqlite();
  if (typeof sqlite === 'string') {
    throw new Error(sqlite);
  }
  const header = readHeader(file);
  if (header.length < 100 || header.subarray(0, 16).toString('latin1') !== MAGIC) {
    throw new Error('not a SQLite database');
  }
  const wal = header[18] === 2 || header[19] === 2;
  const walFilesExist = fs.existsSync(`${file}-wal`) && fs.existsSync(`${file}-shm`);
  let target: string | URL = file;
  if (wal && !walFilesExist) {
    target = pathToFileURL(file);
    target.searchParams.set('immutable', '1');
  }
  let db: SqliteDatabase;
  try {
    db = new sqlite.DatabaseSync(target, { readOnly: true, timeout: options.timeoutMs ?? 200 });
  } catch (err) {
    throw new Error(sqliteMessage(err), { cause: err });
  }
  try {
    refuseComputed(db, options.plainTables ?? []);
  } catch (err) {
    db.close();
    throw err instanceof ComputedTableError ? err : new Error(sqliteMessage(err), { cause: err });
  }
  return db;
}

class ComputedTableError extends Error {}

/** Throws when one of `names` is a view or has a column computed on read (`PRAGMA table_xinfo`:
 * `hidden` is 2 or 3 for generated columns, 1 for a virtual table's hidden ones). */
function refuseComputed(db: SqliteDatabase, names: readonly string[]): void {
  const schema = new Map(
    (db.prepare('SELECT name, type, sql FROM sqlite_master WHERE type IN (?, ?)').all('table', 'view') as { name: string; type: string; sql: unknown }[]).map(
      (row) => [row.name, row],
    ),
  );
  for (const name of names) {
    const entry = schema.get(name);
    if (entry === undefined) {
      continue;
    }
    const computed =
      entry.type !== 'table' ||
      /\bVIRTUAL\s+TABLE\b/i.test(String(entry.sql ?? '')) ||
      (db.prepare('SELECT hidden FROM pragma_table_xinfo(?)').all(name) as { hidden: number }[]).some((col) => Number(col.hidden) !== 0);
    if (computed) {
      throw new ComputedTableError(`its ${name} is ${entry.type === 'table' ? 'a table with columns computed on read' : `a ${entry.type}`}, which the tool that writes it never makes: not read`);
    }
  }
}

/** SQLite's message with what it means here ("database is locked": in use by its tool). */
export function sqliteMessage(err: unknown): string {
  const message = errorMessage(err);
  if (message.endsWith(')')) {
    return message; // said already
  }
  if (/database is locked|SQLITE_BUSY/i.test(message)) {
    return `${message} (in use by the tool that writes it; read again on its next change)`;
  }
  if (/malformed|not a database|SQLITE_CORRUPT|SQLITE_NOTADB/i.test(message)) {
    return `${message} (corrupt or not a SQLite database)`;
  }
  return message;
}

/** The first 100 bytes of `file` (a regular file only). */
function readHeader(file: string): Buffer {
  const stat = fs.statSync(file);
  if (!stat.isFile()) {
    throw new Error('not a regular file');
  }
  const fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  try {
    const buf = Buffer.alloc(100);
    const n = fs.readSync(fd, buf, 0, 100, 0);
    return buf.subarray(0, n);
  } finally {
    fs.closeSync(fd);
  }
}
