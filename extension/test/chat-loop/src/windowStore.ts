// Test-only: a chat store served under a scheme of its own, as a remote window serves the Secretary
// its chats (`vscode-local:` / `vscode-userdata:` URIs read through `vscode.workspace.fs`). Started
// only when `SECRETARY_E2E_STORE_SEED` names a folder of session files (scripts/e2e with
// SECRETARY_E2E_REMOTE=1); the Secretary is pointed at `secretary-store:/User` by
// SECRETARY_E2E_CHAT_STORE in the same run.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';

export const STORE_SCHEME = 'secretary-store';

export interface WindowStoreApi {
  /** The folder the scheme serves: `secretary-store:/User/...` is `<root>/User/...`. */
  root: string;
  /** `<root>/User/workspaceStorage/<id>/chatSessions`, `<id>` this workspace's storage id. */
  chatSessions: string;
  /** How many reads (`stat`, `readDirectory`, `readFile`) the provider answered. */
  reads: number;
}

/** Copies the seed's session files under this workspace's id and serves them read-only. */
export function startWindowStore(context: vscode.ExtensionContext, seed: string): WindowStoreApi | undefined {
  if (!context.storageUri) {
    return undefined;
  }
  const id = path.basename(path.dirname(context.storageUri.fsPath));
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'secretary-window-store-'));
  const chatSessions = path.join(root, 'User', 'workspaceStorage', id, 'chatSessions');
  fs.mkdirSync(chatSessions, { recursive: true });
  for (const name of fs.readdirSync(seed)) {
    if (name.endsWith('.json') || name.endsWith('.jsonl')) {
      fs.copyFileSync(path.join(seed, name), path.join(chatSessions, name));
    }
  }
  const api: WindowStoreApi = { root, chatSessions, reads: 0 };
  const changes = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  const local = (uri: vscode.Uri): string => {
    const file = path.join(root, path.posix.normalize(uri.path));
    if (file !== root && !file.startsWith(root + path.sep)) {
      throw vscode.FileSystemError.FileNotFound(uri);
    }
    return file;
  };
  const statOf = (uri: vscode.Uri): vscode.FileStat => {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(local(uri));
    } catch {
      throw vscode.FileSystemError.FileNotFound(uri);
    }
    return {
      type: stat.isDirectory() ? vscode.FileType.Directory : vscode.FileType.File,
      ctime: stat.ctimeMs,
      mtime: stat.mtimeMs,
      size: stat.size,
    };
  };
  const provider: vscode.FileSystemProvider = {
    onDidChangeFile: changes.event,
    watch(uri) {
      let watcher: fs.FSWatcher | undefined;
      try {
        watcher = fs.watch(local(uri), { persistent: false }, (_event, name) => {
          if (name) {
            const changed = vscode.Uri.joinPath(uri, name.toString());
            const type = fs.existsSync(local(changed)) ? vscode.FileChangeType.Changed : vscode.FileChangeType.Deleted;
            changes.fire([{ type, uri: changed }]);
          }
        });
      } catch {
        // A folder that does not exist: nothing to report.
      }
      return new vscode.Disposable(() => watcher?.close());
    },
    stat(uri) {
      api.reads += 1;
      return statOf(uri);
    },
    readDirectory(uri) {
      api.reads += 1;
      try {
        return fs
          .readdirSync(local(uri), { withFileTypes: true })
          .map((entry): [string, vscode.FileType] => [entry.name, entry.isDirectory() ? vscode.FileType.Directory : vscode.FileType.File]);
      } catch {
        throw vscode.FileSystemError.FileNotFound(uri);
      }
    },
    readFile(uri) {
      api.reads += 1;
      try {
        return fs.readFileSync(local(uri));
      } catch {
        throw vscode.FileSystemError.FileNotFound(uri);
      }
    },
    createDirectory: (uri) => {
      throw vscode.FileSystemError.NoPermissions(uri);
    },
    writeFile: (uri) => {
      throw vscode.FileSystemError.NoPermissions(uri);
    },
    delete: (uri) => {
      throw vscode.FileSystemError.NoPermissions(uri);
    },
    rename: (uri) => {
      throw vscode.FileSystemError.NoPermissions(uri);
    },
  };
  context.subscriptions.push(
    changes,
    vscode.workspace.registerFileSystemProvider(STORE_SCHEME, provider, { isCaseSensitive: true, isReadonly: true }),
    { dispose: () => fs.rmSync(root, { recursive: true, force: true }) },
  );
  return api;
}
