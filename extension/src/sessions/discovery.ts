import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { fileURLToPath, pathToFileURL } from 'url';

import { READ_CAPS, readBounded } from '../host/boundedRead';

/** One chat session file found on disk, with the workspace it belongs to. */
export interface SessionFile {
  path: string;
  /** The workspace key: the folder (or `.code-workspace`) URI from `workspace.json`, else the
   * storage folder's path; `empty-window` for sessions of windows without a folder. */
  workspace: string | undefined;
  /** `agent`: another agent's log (Copilot CLI, Claude Code, Codex); its workspace is
   * `undefined`, the core derives it from the folder the log names. */
  kind: 'native' | 'transcript' | 'transferred' | 'agent';
}

/** Where sessions of one workspace live, and the key they are filed under. */
export interface WorkspaceStorage {
  dir: string;
  workspace: string;
}

export const EMPTY_WINDOW = 'empty-window';

/** VS Code builds whose user-data folders are looked for by default. */
export const PRODUCTS = ['Code', 'Code - Insiders', 'VSCodium', 'VSCodium - Insiders', 'Code - OSS', 'Cursor'];

/**
 * The default VS Code user-data folders (the folder holding `User/`) for this platform: desktop
 * builds, VS Code Server and code-server. Only existing ones are returned.
 */
export function defaultUserDataDirs(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = os.homedir(),
): string[] {
  const candidates: string[] = [];
  if (platform === 'win32') {
    const appData = env.APPDATA ?? path.join(home, 'AppData', 'Roaming');
    candidates.push(...PRODUCTS.map((p) => path.join(appData, p)));
  } else if (platform === 'darwin') {
    candidates.push(...PRODUCTS.map((p) => path.join(home, 'Library', 'Application Support', p)));
  } else {
    const config = env.XDG_CONFIG_HOME ?? path.join(home, '.config');
    candidates.push(...PRODUCTS.map((p) => path.join(config, p)));
  }
  candidates.push(
    path.join(home, '.vscode-server', 'data'),
    path.join(home, '.vscode-server-insiders', 'data'),
    path.join(home, '.vscode-remote', 'data'),
    path.join(env.XDG_DATA_HOME ?? path.join(home, '.local', 'share'), 'code-server'),
  );
  return candidates.filter((dir) => isDir(path.join(dir, 'User')));
}

/**
 * The `User` folder for a path given by a person: a user-data folder (holding `User/`), a `User`
 * folder, or anything below one. `undefined` when the path is none of these.
 */
export function userDir(root: string): string | undefined {
  const abs = path.resolve(root);
  if (isDir(path.join(abs, 'User', 'workspaceStorage')) || isDir(path.join(abs, 'User', 'globalStorage'))) {
    return path.join(abs, 'User');
  }
  if (isDir(path.join(abs, 'data', 'User'))) {
    return path.join(abs, 'data', 'User');
  }
  if (path.basename(abs) === 'User') {
    return abs;
  }
  return undefined;
}

/** The workspace key of a `workspaceStorage/<id>` folder, from its `workspace.json`. */
export function workspaceKey(storageDir: string): string {
  if (path.basename(storageDir) === 'no-workspace') {
    return EMPTY_WINDOW;
  }
  try {
    const text = readBounded(path.join(storageDir, 'workspace.json'), { maxBytes: READ_CAPS.workspaceJson }).toString('utf8');
    const data = JSON.parse(text) as {
      folder?: unknown;
      workspace?: unknown;
      configuration?: unknown;
    };
    for (const value of [data.folder, data.workspace, data.configuration]) {
      if (typeof value === 'string' && value.length > 0) {
        return canonicalKey(value);
      }
    }
  } catch {
    // No or unreadable workspace.json: fall back to the storage folder itself.
  }
  return storageDir;
}

/**
 * The key of a folder on this machine: its `file://` URI as Node spells it, with a Windows drive
 * letter in lower case. The core spells an agent's `cwd` the same way (`session::folder_key`), so
 * that its dialogs join the VS Code chats of the folder.
 */
export function folderKey(folder: string): string {
  return pathToFileURL(path.resolve(folder)).href.replace(/^file:\/\/\/([A-Za-z]):/, (_, drive: string) => `file:///${drive.toLowerCase()}:`);
}

/**
 * One spelling for a `file:` URI key: VS Code's `workspace.json` writes `file:///c%3A/...` and
 * encodes `(`, `!` and others that Node leaves; decoded and spelled again by `folderKey`. Other
 * keys (remote URIs, storage paths) as given.
 */
export function canonicalKey(key: string): string {
  if (!key.startsWith('file:')) {
    return key;
  }
  try {
    return folderKey(fileURLToPath(key));
  } catch {
    return key; // a file URI of another host: no local folder to spell
  }
}

/** Folders that exist but cannot be listed (permissions, I/O errors), with why: hosts show them
 * with the unreadable files instead of skipping them silently. */
export type FolderProblems = Map<string, string>;

/** Session files of one workspace's storage folder: `chatSessions/` and Copilot transcripts. */
export function sessionsOfWorkspace(storage: WorkspaceStorage, problems?: FolderProblems): SessionFile[] {
  const found: SessionFile[] = [];
  for (const file of listSessionFiles(path.join(storage.dir, 'chatSessions'), problems)) {
    found.push({ path: file, workspace: storage.workspace, kind: 'native' });
  }
  for (const file of listSessionFiles(path.join(storage.dir, 'GitHub.copilot-chat', 'transcripts'), problems)) {
    found.push({ path: file, workspace: storage.workspace, kind: 'transcript' });
  }
  return found;
}

/** Every workspace storage folder under a `User` folder. */
export function workspaceStorages(user: string): WorkspaceStorage[] {
  const root = path.join(user, 'workspaceStorage');
  return listDir(root)
    .map((name) => path.join(root, name))
    .filter(isDir)
    .map((dir) => ({ dir, workspace: workspaceKey(dir) }));
}

/**
 * The storage folders of one workspace: `storageDir` and every other `workspaceStorage/<id>` whose
 * `workspace.json` names the same folder. A second window of a workspace gets `<id>-1` (`-2`...)
 * while the first holds the lock, yet its chats may still be written to the unsuffixed folder, so
 * the workspace's chats are found by the folder they belong to, not by `context.storageUri` alone.
 * `keys` caches each folder's key across calls (a `workspace.json` does not change).
 */
export function workspaceTwins(storageDir: string, keys = new Map<string, string>()): WorkspaceStorage[] {
  const keyOf = (dir: string) => {
    let key = keys.get(dir);
    if (key === undefined) {
      key = workspaceKey(dir);
      keys.set(dir, key);
    }
    return key;
  };
  const own = { dir: storageDir, workspace: keyOf(storageDir) };
  const root = path.dirname(storageDir);
  const base = path.basename(storageDir).replace(/-\d+$/, '');
  const twins = listDir(root)
    .map((name) => path.join(root, name))
    .filter((dir) => dir !== storageDir && isDir(dir))
    .filter((dir) => {
      const name = path.basename(dir);
      // Same folder by `workspace.json`, or the same id with a window suffix (when a folder has
      // no workspace.json, its key is its own path and cannot match).
      return keyOf(dir) === own.workspace || name === base || name.replace(/-\d+$/, '') === base;
    })
    .map((dir) => ({ dir, workspace: own.workspace }));
  return [own, ...twins];
}

/** Every chat session file under a `User` folder: all workspaces, empty windows, transferred. */
export function sessionsOfUser(user: string, problems?: FolderProblems): SessionFile[] {
  const found: SessionFile[] = [];
  for (const storage of workspaceStorages(user)) {
    found.push(...sessionsOfWorkspace(storage, problems));
  }
  for (const file of listSessionFiles(path.join(user, 'globalStorage', 'emptyWindowChatSessions'), problems)) {
    found.push({ path: file, workspace: EMPTY_WINDOW, kind: 'native' });
  }
  for (const file of listSessionFiles(path.join(user, 'globalStorage', 'transferredChatSessions'), problems)) {
    found.push({ path: file, workspace: EMPTY_WINDOW, kind: 'transferred' });
  }
  return found;
}

/**
 * Session files under any folder a person names: a user-data or `User` folder, a
 * `workspaceStorage/<id>` folder, a `chatSessions` folder, or a folder of exported chats.
 */
export function sessionsUnder(root: string, problems?: FolderProblems): SessionFile[] {
  const abs = path.resolve(root);
  const user = userDir(abs);
  if (user) {
    return sessionsOfUser(user, problems);
  }
  if (path.basename(abs) === 'workspaceStorage') {
    return workspaceStorages(path.dirname(abs)).flatMap((storage) => sessionsOfWorkspace(storage, problems));
  }
  if (isDir(path.join(abs, 'chatSessions')) || fs.existsSync(path.join(abs, 'workspace.json'))) {
    return sessionsOfWorkspace({ dir: abs, workspace: workspaceKey(abs) }, problems);
  }
  return listSessionFiles(abs, problems).map((file) => ({ path: file, workspace: abs, kind: 'native' as const }));
}

/** `.json` and `.jsonl` files of a folder, sorted; none when the folder is missing. A folder that
 * exists but cannot be listed is noted in `problems` with why. */
export function listSessionFiles(dir: string, problems?: FolderProblems): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (problems && code !== 'ENOENT' && code !== 'ENOTDIR') {
      problems.set(dir, `the folder cannot be listed (${code ?? String(err)}); its chat sessions are not read`);
    }
    return [];
  }
  // The directory listing tells regular files apart without a stat each (a cold scan of 1,000
  // files paid 1,000 extra stats here; Node itself lstats an entry whose type the file system
  // did not report); a link is followed by a stat as before.
  return entries
    .filter((entry) => entry.name.endsWith('.json') || entry.name.endsWith('.jsonl'))
    .filter((entry) => entry.isFile() || (entry.isSymbolicLink() && isFile(path.join(dir, entry.name))))
    .map((entry) => entry.name)
    .sort()
    .map((name) => path.join(dir, name));
}

/** The names in `dir`; none when it cannot be read. */
export function listDir(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

export function isDir(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

export function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}
