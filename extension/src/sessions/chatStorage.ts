import * as fs from 'fs';
import * as path from 'path';

import { kindOf, readBounded, readBoundedAsync } from '../host/boundedRead';
import { openCodeSessionExists, parseOpenCodePath, readOpenCodeSession, statOpenCodeSession } from './opencode';
import { withCursorConversations } from './cursor';

/** What a sync needs to know of a session file before it asks the core for a plan. */
export interface StorageStat {
  size: number;
  mtimeMs: number;
  /** What the path is when it is not a regular file (`a folder`, `a FIFO`...): never read. */
  notAFile?: string;
}

export interface StorageWatcher {
  dispose(): void;
}

/**
 * Where chat session files are read from. A session file's `path` is either a path of this
 * machine (Node `fs`: desktop windows, code-server, the CLI and the MCP server) or a URI string
 * (`vscode-local:/...`, `vscode-userdata:/...`: the window's own files, read through
 * `vscode.workspace.fs` when the extension runs in a remote extension host and VS Code's chat
 * storage is on the other machine; see docs/remote.md). `SessionSync` only talks to this.
 */
export interface ChatStorage {
  /** Size and modification time; throws when the file cannot be read. */
  stat(file: string): Promise<StorageStat>;
  /** The bytes of `file` from `offset` to its end, at most `maxBytes` of them (more is refused,
   * before and while reading: `host/boundedRead`). */
  read(file: string, offset: number, maxBytes: number): Promise<Uint8Array>;
  exists(file: string): Promise<boolean>;
  /** `stat` and `read` without a round trip through the event loop, where the storage can (Node). */
  readonly sync?: { stat(file: string): StorageStat; read(file: string, offset: number, maxBytes: number): Uint8Array };
  /** The file `name` in the folder `dir`, spelled as this storage spells paths. */
  join(dir: string, name: string): string;
  /**
   * Watches the folder `dir` (not its subfolders); `listener` gets the name of what changed in it,
   * or `undefined` when the platform did not say. `onError` when the watcher stopped. `undefined`
   * when the folder cannot be watched now (missing).
   */
  watch(dir: string, listener: (name: string | undefined) => void, onError: () => void): StorageWatcher | undefined;
}

/** A URI string (`scheme:/...`) rather than a path; a Windows drive (`c:\`, `c:/`) is a path. */
export function isUriPath(file: string): boolean {
  return /^[a-zA-Z][a-zA-Z0-9+.-]+:\//.test(file);
}

/** A Node stat as the sync needs it. */
function storageStat(stat: fs.Stats): StorageStat {
  return { size: stat.size, mtimeMs: stat.mtimeMs, ...(stat.isFile() ? {} : { notAFile: kindOf(stat) }) };
}

/** The session files of this machine, through Node `fs` and the hosts' one bounded reader (OpenCode's
 * sessions, `<db>#<sessionID>`, through its database: `opencode.ts`): only
 * what the stat promised is read (a log growing meanwhile is read up to there, the next read takes
 * the rest; `/proc` files read as empty). Cursor's conversations (`…state.vscdb#<id>`) are read
 * from their SQLite database (`sessions/cursor.ts`). */
export const nodeChatStorage: ChatStorage = withCursorConversations({
  async stat(file) {
    return parseOpenCodePath(file) ? statOpenCodeSession(file) : storageStat(await fs.promises.stat(file));
  },
  read: (file, offset, maxBytes) =>
    parseOpenCodePath(file)
      ? Promise.resolve().then(() => readOpenCodeSession(file, offset, maxBytes))
      : readBoundedAsync(file, { maxBytes, offset, statSizeOnly: true }),
  async exists(file) {
    if (parseOpenCodePath(file)) {
      return openCodeSessionExists(file);
    }
    try {
      await fs.promises.access(file);
      return true;
    } catch {
      return false;
    }
  },
  sync: {
    stat: (file) => (parseOpenCodePath(file) ? statOpenCodeSession(file) : storageStat(fs.statSync(file))),
    read: (file, offset, maxBytes) =>
      parseOpenCodePath(file) ? readOpenCodeSession(file, offset, maxBytes) : readBounded(file, { maxBytes, offset, statSizeOnly: true }),
  },
  join: (dir, name) => path.join(dir, name),
  watch(dir, listener, onError) {
    try {
      const watcher = fs.watch(dir, { persistent: false }, (_event, name) =>
        listener(name === null || name === undefined ? undefined : name.toString()),
      );
      watcher.on('error', () => {
        watcher.close();
        onError();
      });
      return { dispose: () => watcher.close() };
    } catch {
      return undefined; // the folder does not exist (yet); its parent is watched and a sync retries
    }
  },
});

/**
 * Paths to Node `fs`, URI strings to `remote` (when there is one): in a remote window the calling
 * chat's storage is the window's, the other agents' logs and Copilot's transcripts the remote
 * host's.
 */
export function routedChatStorage(remote: ChatStorage | undefined): ChatStorage {
  if (!remote) {
    return nodeChatStorage;
  }
  const pick = (file: string) => (isUriPath(file) ? remote : nodeChatStorage);
  return {
    stat: (file) => pick(file).stat(file),
    read: (file, offset, maxBytes) => pick(file).read(file, offset, maxBytes),
    exists: (file) => pick(file).exists(file),
    join: (dir, name) => pick(dir).join(dir, name),
    watch: (dir, listener, onError) => pick(dir).watch(dir, listener, onError),
  };
}
