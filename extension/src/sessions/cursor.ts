// Cursor's chats: SQLite `state.vscdb` databases (the global one under `User/globalStorage`, one per
// workspace under `User/workspaceStorage/<id>`), read through `node:sqlite` read-only
// (`host/sqliteReadOnly.ts`). Each conversation becomes one session "file" named
// `<database>#<conversation id>`, whose bytes are the rows of that conversation as JSON
// (`{cursor: 1, conversation, folder?, rows: [{key, value}]}`); the core parses them
// (`session/agents/cursor.rs`). Here only the conversations are listed: the tab and composer ids of
// the two per-workspace rows, and the `composerData:<id>` rows of the global `cursorDiskKV` table.
// What could not be read is listed as `<database>#*` with why (no `node:sqlite`, locked, corrupt).
import * as os from 'os';
import * as path from 'path';
import * as fs from 'fs';

import { BoundedReadError } from '../host/boundedRead';
import { openReadOnly, sqliteMessage, sqliteUnavailable, type SqliteDatabase } from '../host/sqliteReadOnly';
import type { ChatStorage, StorageStat } from './chatStorage';
import { isDir, isFile, listDir, workspaceKey, type SessionFile } from './discovery';

/** The old chat panel's row (all tabs of a workspace) and the per-workspace composer list. */
const CHAT_DATA_KEY = 'workbench.panel.aichat.view.aichat.chatdata';
const COMPOSER_LIST_KEY = 'composer.composerData';
const DB_NAME = 'state.vscdb';
/** The id of a database's "could not be read" entry. */
const WHOLE = '*';

/** Cursor's `User` folder on this machine (desktop builds: Linux, macOS, Windows), existing or not
 * (a Cursor installed later is read on the next full sync); `SECRETARY_CURSOR_USER_DIR` names
 * another one (a portable install, the tests). */
export function cursorUserDirs(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = os.homedir(),
): string[] {
  if (env.SECRETARY_CURSOR_USER_DIR) {
    return [path.resolve(env.SECRETARY_CURSOR_USER_DIR)];
  }
  let base: string;
  if (platform === 'win32') {
    base = path.join(env.APPDATA || path.join(home, 'AppData', 'Roaming'), 'Cursor');
  } else if (platform === 'darwin') {
    base = path.join(home, 'Library', 'Application Support', 'Cursor');
  } else {
    base = path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), 'Cursor');
  }
  return [path.join(base, 'User')];
}

/** One state database and the workspace its conversations belong to (none: the global one). */
interface Database {
  file: string;
  /** The workspace key (`file://` URI) from the storage folder's `workspace.json`. */
  workspace?: string;
}

/** The workspace key of a per-workspace database (from `workspace.json`), else `undefined`. */
function workspaceOf(file: string): string | undefined {
  const dir = path.dirname(file);
  if (path.basename(path.dirname(dir)) !== 'workspaceStorage') {
    return undefined;
  }
  const key = workspaceKey(dir);
  return key === dir ? undefined : key;
}

function databases(user: string): Database[] {
  const found: Database[] = [];
  const global = path.join(user, 'globalStorage', DB_NAME);
  if (isFile(global)) {
    found.push({ file: global });
  }
  const storage = path.join(user, 'workspaceStorage');
  for (const id of listDir(storage).sort()) {
    const dir = path.join(storage, id);
    const file = path.join(dir, DB_NAME);
    if (isFile(file)) {
      found.push({ file, workspace: workspaceOf(file) });
    }
  }
  return found;
}

/** One conversation as listed: what tells a change of its rows (`fingerprint`), a size that
 * stands for them until the conversation is read, and when the fingerprint last changed. */
interface Listed {
  fingerprint: string;
  size: number;
  mtimeMs: number;
}

/** What a database held at its last listing. */
interface Listing {
  /** The database's and its `-wal`'s sizes and times: a listing is redone only when they change. */
  signature: string;
  conversations: Map<string, Listed>;
  /** Composers the workspace lists whose messages are in the global database. */
  workspaceComposers: string[];
  /** Each conversation of an `ItemTable` row (a tab of the old chat panel, an inline composer):
   * its row with that conversation alone, so a row of N tabs is not read N times whole. */
  slices?: Map<string, { key: string; value: string }>;
  /** Why the last listing failed (the conversations are then the previous ones). */
  error?: string;
}

const listings = new Map<string, Listing>();
/** The length of the document last read for a conversation, while its fingerprint stays: the
 * size the sync records and compares is the document's. */
const documentSizes = new Map<string, { fingerprint: string; size: number }>();

/** Forgets every listing, so that the next scan opens each database again (a cold scan: the
 * agents-scan benchmark). */
export function forgetCursorListings(): void {
  listings.clear();
  documentSizes.clear();
}

/**
 * Connections and database signatures kept for the rest of this turn of the event loop only: a
 * sync lists and reads the conversations of a database one after the other in one slice, and one
 * connection serves them all. None is kept longer: an open reader would keep Cursor's own close
 * from cleaning up its WAL.
 */
const turn = { connections: new Map<string, SqliteDatabase>(), signatures: new Map<string, { text: string; mtimeMs: number }>(), ending: false };

function endTurnSoon(): void {
  if (turn.ending) {
    return;
  }
  turn.ending = true;
  setImmediate(() => {
    turn.ending = false;
    for (const db of turn.connections.values()) {
      db.close();
    }
    turn.connections.clear();
    turn.signatures.clear();
  }).unref();
}

/** Runs `fn` on `file` opened read-only (`host/sqliteReadOnly`), the connection shared for this
 * turn; a failure closes it and says why. */
function withDatabase<T>(file: string, fn: (db: SqliteDatabase) => T): T {
  let db = turn.connections.get(file);
  if (!db) {
    db = openReadOnly(file, { plainTables: ['ItemTable', 'cursorDiskKV'] });
    turn.connections.set(file, db);
    endTurnSoon();
  }
  try {
    return fn(db);
  } catch (err) {
    turn.connections.delete(file);
    db.close();
    throw err instanceof BoundedReadError ? err : new Error(sqliteMessage(err), { cause: err });
  }
}

function signature(file: string): { text: string; mtimeMs: number } {
  const known = turn.signatures.get(file);
  if (known) {
    return known;
  }
  const sig = freshSignature(file);
  turn.signatures.set(file, sig);
  endTurnSoon();
  return sig;
}

function freshSignature(file: string): { text: string; mtimeMs: number } {
  let mtimeMs = 0;
  const parts = [file, `${file}-wal`].map((f) => {
    try {
      const st = fs.statSync(f);
      mtimeMs = Math.max(mtimeMs, st.mtimeMs);
      return `${st.size}:${st.mtimeMs}`;
    } catch {
      return '-';
    }
  });
  return { text: parts.join('|'), mtimeMs };
}

/** A value as text (`node:sqlite` gives TEXT as a string, BLOB as bytes). */
function textOf(value: unknown): string | null {
  if (typeof value === 'string') {
    return value;
  }
  if (value instanceof Uint8Array) {
    return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('utf8');
  }
  return null;
}

function tables(db: SqliteDatabase): Set<string> {
  const rows = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
  return new Set(rows.map((r) => r.name));
}

/** The conversations of one database: ids, fingerprints and sizes. */
function scan(db: SqliteDatabase): {
  found: Map<string, Omit<Listed, 'mtimeMs'>>;
  workspaceComposers: string[];
  slices: Map<string, { key: string; value: string }>;
} {
  const found = new Map<string, Omit<Listed, 'mtimeMs'>>();
  const workspaceComposers: string[] = [];
  const slices = new Map<string, { key: string; value: string }>();
  const have = tables(db);
  if (have.has('ItemTable')) {
    const rows = db.prepare('SELECT key, value FROM ItemTable WHERE key IN (?, ?)').all(CHAT_DATA_KEY, COMPOSER_LIST_KEY) as {
      key: string;
      value: unknown;
    }[];
    for (const row of rows) {
      const text = textOf(row.value);
      if (text === null) {
        continue;
      }
      const bytes = Buffer.byteLength(text);
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        // Listed under the row's key: the core says what is wrong with it.
        found.set(row.key, { fingerprint: String(bytes), size: bytes });
        continue;
      }
      for (const [id, value] of conversationSlices(row.key, parsed, workspaceComposers)) {
        slices.set(id, { key: row.key, value });
        found.set(id, { fingerprint: `${value.length}:${fnv1a(value)}`, size: Buffer.byteLength(value) });
      }
    }
  }
  if (have.has('cursorDiskKV')) {
    // Keys only, through the key's index (never the values: a global database holds gigabytes):
    // how many bubbles each composer has, and how long its `composerData` row is. A composer's row
    // is rewritten with each message (its list of bubbles grows), so the two tell a change.
    const bubbles = new Map<string, number>();
    const bubbleRows = db
      .prepare(
        "SELECT substr(key, 10, instr(substr(key, 10), ':') - 1) AS id, count(*) AS n FROM cursorDiskKV WHERE key >= 'bubbleId:' AND key < 'bubbleId;' GROUP BY 1",
      )
      .all() as { id: string; n: number }[];
    for (const row of bubbleRows) {
      bubbles.set(row.id, Number(row.n));
    }
    const composers = db
      .prepare("SELECT substr(key, 14) AS id, octet_length(value) AS n FROM cursorDiskKV WHERE key >= 'composerData:' AND key < 'composerData;' AND value IS NOT NULL")
      .all() as { id: string; n: number }[];
    // A composer without bubble rows is a draft (no message yet: not a conversation), unless it
    // holds its messages inline (older rows): only those few are looked into.
    const inline = db.prepare(
      `SELECT CASE WHEN json_valid(value) THEN coalesce(json_array_length(value, '$.conversation'), 0) ELSE 1 END AS n
       FROM cursorDiskKV WHERE key = ?`,
    );
    for (const row of composers) {
      if (!usableId(row.id)) {
        continue;
      }
      const count = bubbles.get(row.id) ?? 0;
      if (count > 0 || Number((inline.get(`composerData:${row.id}`) as { n: number } | undefined)?.n ?? 0) > 0) {
        found.set(row.id, { fingerprint: `${row.n}:${count}`, size: Number(row.n) + count });
      }
    }
  }
  return { found, workspaceComposers, slices };
}

/** FNV-1a of a string's UTF-16 units: a conversation's fingerprint within its row. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  }
  return (hash >>> 0).toString(16);
}

/** Whether an id from a database can name a conversation: a non-empty string of at most 256
 * characters without `#` (the separator of `<database>#<id>`) or control characters. */
function usableId(id: unknown): id is string {
  return typeof id === 'string' && id.length > 0 && id.length <= 256 && ![...id].some((c) => c === '#' || c.charCodeAt(0) < 0x20);
}

/**
 * The tabs (old chat panel) and composers with inline messages of a per-workspace row, each with
 * the row's JSON holding it alone (`{"tabs":[tab]}`, `{"allComposers":[composer]}`: what the core
 * reads of it; the first of an id, as the core takes); composers listed without their messages are
 * noted in `elsewhere` (their rows are in the global database).
 */
function conversationSlices(key: string, parsed: unknown, elsewhere: string[]): [string, string][] {
  const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
  const obj = (value: unknown): Record<string, unknown> =>
    value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  const tabs = key === CHAT_DATA_KEY;
  const field = tabs ? 'tabs' : 'allComposers';
  const out = new Map<string, string>();
  for (const item of list(obj(parsed)[field])) {
    const { tabId, bubbles, composerId, conversation } = obj(item);
    const id = tabs ? tabId : composerId;
    if (!usableId(id)) {
      continue;
    }
    if (list(tabs ? bubbles : conversation).length > 0) {
      if (!out.has(id)) {
        out.set(id, JSON.stringify({ [field]: [item] }));
      }
    } else if (!tabs) {
      elsewhere.push(id);
    }
  }
  return [...out];
}

/** The listing of `file`, redone when the database (or its WAL) changed since the last one. A
 * listing that fails keeps the conversations listed before (a locked database is not emptied). */
function listing(file: string): Listing {
  const sig = signature(file);
  const cached = listings.get(file);
  if (cached && cached.signature === sig.text) {
    return cached;
  }
  let fresh: Listing;
  try {
    const { found, workspaceComposers, slices } = withDatabase(file, scan);
    const conversations = new Map<string, Listed>();
    for (const [id, listed] of found) {
      const before = cached?.conversations.get(id);
      conversations.set(id, { ...listed, mtimeMs: before && before.fingerprint === listed.fingerprint ? before.mtimeMs : sig.mtimeMs });
    }
    fresh = { signature: sig.text, conversations, workspaceComposers, slices };
  } catch (err) {
    fresh = {
      signature: sig.text,
      conversations: cached?.conversations ?? new Map(),
      workspaceComposers: cached?.workspaceComposers ?? [],
      error: sqliteMessage(err),
    };
  }
  listings.set(file, fresh);
  return fresh;
}

/** Every Cursor conversation under the `User` folders, with its workspace: the workspace's own
 * database, else (a global composer) the workspace whose composer list names it, else none (it
 * then counts for every workspace). A database that cannot be read is one `<db>#*` entry. */
export function cursorSessionFiles(users: readonly string[]): SessionFile[] {
  const dbs = users.flatMap(databases);
  if (dbs.length === 0) {
    return [];
  }
  const unavailable = sqliteUnavailable();
  if (unavailable !== undefined) {
    return dbs.map((db) => ({ path: `${db.file}#${WHOLE}`, workspace: db.workspace, kind: 'agent' }));
  }
  const owner = new Map<string, string>();
  const listed = dbs.map((db) => ({ db, listing: listing(db.file) }));
  for (const { db, listing: l } of listed) {
    if (db.workspace !== undefined) {
      for (const id of [...l.workspaceComposers, ...l.conversations.keys()]) {
        owner.set(id, db.workspace);
      }
    }
  }
  const found: SessionFile[] = [];
  for (const { db, listing: l } of listed) {
    if (l.error !== undefined) {
      found.push({ path: `${db.file}#${WHOLE}`, workspace: db.workspace, kind: 'agent' });
    }
    for (const id of l.conversations.keys()) {
      found.push({ path: `${db.file}#${id}`, workspace: db.workspace ?? owner.get(id), kind: 'agent' });
    }
  }
  return found;
}

/** Folders whose changes may change the conversations: each `globalStorage` and
 * `workspaceStorage` folder, and each workspace folder whose database holds one. */
export function cursorWatchDirs(users: readonly string[]): string[] {
  const dirs: string[] = [];
  for (const user of users) {
    dirs.push(path.join(user, 'globalStorage'), path.join(user, 'workspaceStorage'));
    for (const db of databases(user)) {
      if ((listings.get(db.file)?.conversations.size ?? 0) > 0) {
        dirs.push(path.dirname(db.file));
      }
    }
  }
  return dirs.filter(isDir);
}

/** Whether a change to `name` in a watched folder is a change of a state database (or its WAL). */
export function isStateDatabaseName(name: string): boolean {
  return /^state\.vscdb(-wal|-journal)?$/.test(name);
}

/** Whether `file` is a Cursor conversation (`…state.vscdb#<id>`). */
export function isCursorConversation(file: string): boolean {
  const at = file.lastIndexOf('#');
  return at > 0 && at < file.length - 1 && path.basename(file.slice(0, at)) === DB_NAME;
}

function split(file: string): { db: string; id: string } {
  const at = file.lastIndexOf('#');
  return { db: file.slice(0, at), id: file.slice(at + 1) };
}

/** The stat of a conversation: the size of its document once read (while its rows keep their
 * size), else the bytes of its rows; throws why a database could not be read. */
function conversationStat(file: string): StorageStat {
  const { db, id } = split(file);
  const unavailable = sqliteUnavailable();
  if (unavailable !== undefined) {
    throw new Error(unavailable);
  }
  const l = listing(db);
  if (id === WHOLE) {
    throw l.error !== undefined ? new Error(l.error) : gone(file);
  }
  const entry = l.conversations.get(id);
  if (!entry) {
    throw gone(file);
  }
  const known = documentSizes.get(file);
  return { size: known && known.fingerprint === entry.fingerprint ? known.size : entry.size, mtimeMs: entry.mtimeMs };
}

function gone(file: string): Error {
  return Object.assign(new Error(`${file}: no longer in the database`), { code: 'ENOENT' });
}

/** The rows of one conversation as the core reads them. */
function conversationDocument(file: string, maxBytes: number): Uint8Array {
  const { db, id } = split(file);
  const workspace = workspaceOf(db);
  const slice = listing(db).slices?.get(id);
  const rows = withDatabase(db, (conn) => {
    const have = tables(conn);
    const out: { key: string; value: string | null }[] = [];
    if (have.has('cursorDiskKV')) {
      const composer = conn.prepare('SELECT key, value FROM cursorDiskKV WHERE key = ?').get(`composerData:${id}`) as
        | { key: string; value: unknown }
        | undefined;
      if (composer) {
        out.push({ key: composer.key, value: textOf(composer.value) });
        // `;` follows `:`: the range is every `bubbleId:<id>:…` key, through the key's index. Their
        // size is asked first: a conversation over the cap is refused before its rows are loaded.
        const total = conn
          .prepare('SELECT sum(octet_length(value)) AS n FROM cursorDiskKV WHERE key >= ? AND key < ?')
          .get(`bubbleId:${id}:`, `bubbleId:${id};`) as { n: number | null };
        const rowBytes = Number(total.n ?? 0) + (out[0].value?.length ?? 0);
        if (rowBytes > maxBytes) {
          throw new BoundedReadError('too-large', `${file} holds ${rowBytes} bytes, more than the ${maxBytes} read at most`);
        }
        const bubbles = conn
          .prepare('SELECT key, value FROM cursorDiskKV WHERE key >= ? AND key < ?')
          .all(`bubbleId:${id}:`, `bubbleId:${id};`) as { key: string; value: unknown }[];
        out.push(...bubbles.map((b) => ({ key: b.key, value: textOf(b.value) })));
        return out;
      }
    }
    // A tab or an inline composer: its row with it alone, from the current listing.
    if (slice) {
      out.push(slice);
      return out;
    }
    if (have.has('ItemTable')) {
      const items = conn.prepare('SELECT key, value FROM ItemTable WHERE key IN (?, ?)').all(CHAT_DATA_KEY, COMPOSER_LIST_KEY) as {
        key: string;
        value: unknown;
      }[];
      out.push(...items.map((r) => ({ key: r.key, value: textOf(r.value) })));
    }
    return out;
  });
  const doc = Buffer.from(JSON.stringify({ cursor: 1, conversation: id, ...(workspace ? { folder: workspace } : {}), rows }), 'utf8');
  if (doc.length > maxBytes) {
    throw new BoundedReadError('too-large', `${file} is ${doc.length} bytes, more than the ${maxBytes} read at most`);
  }
  const entry = listings.get(db)?.conversations.get(id);
  if (entry) {
    documentSizes.set(file, { fingerprint: entry.fingerprint, size: doc.length });
  }
  return doc;
}

/** The rows of one conversation (`<database>#<id>`) as the core reads them (`secretary show`). */
export function readCursorConversation(file: string, maxBytes: number): Uint8Array {
  return conversationDocument(file, maxBytes);
}

/** `storage` with Cursor's conversations readable through it (stat, read, exists). */
export function withCursorConversations(storage: ChatStorage): ChatStorage {
  const sync = storage.sync;
  return {
    ...storage,
    stat: (file) => (isCursorConversation(file) ? Promise.resolve().then(() => conversationStat(file)) : storage.stat(file)),
    read: (file, offset, maxBytes) =>
      isCursorConversation(file) ? Promise.resolve().then(() => conversationDocument(file, maxBytes)) : storage.read(file, offset, maxBytes),
    async exists(file) {
      if (!isCursorConversation(file)) {
        return storage.exists(file);
      }
      try {
        conversationStat(file);
        return true;
      } catch (err) {
        return (err as NodeJS.ErrnoException).code !== 'ENOENT';
      }
    },
    ...(sync
      ? {
          sync: {
            stat: (file) => (isCursorConversation(file) ? conversationStat(file) : sync.stat(file)),
            read: (file, offset, maxBytes) => (isCursorConversation(file) ? conversationDocument(file, maxBytes) : sync.read(file, offset, maxBytes)),
          },
        }
      : {}),
  };
}
