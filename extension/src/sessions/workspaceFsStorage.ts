import * as vscode from 'vscode';

import type { ChatStorage, StorageWatcher } from './chatStorage';

/**
 * Session files read through `vscode.workspace.fs`, paths being URI strings. In a remote window the
 * extension runs in the remote extension host, where Node `fs` cannot see the window's chat
 * storage; the extension host hands URIs of schemes it has no provider for to the window, which
 * reads `vscode-local:/<path>` as its own `file:` and `vscode-userdata:/<path>` from its user data
 * (docs/remote.md says what was verified in VS Code's source and what in a test). The whole file is
 * read each time (the API has no ranged read); the core keeps only what it has not seen.
 */
export function workspaceFsStorage(): ChatStorage {
  const fsApi = vscode.workspace.fs;
  return {
    async stat(file) {
      const stat = await fsApi.stat(toUri(file));
      return { size: stat.size, mtimeMs: stat.mtime, ...((stat.type & vscode.FileType.File) === 0 ? { notAFile: 'not a file' } : {}) };
    },
    async read(file, offset, maxBytes) {
      // The API reads whole files: the size is checked on the stat first, and again on what came.
      const uri = toUri(file);
      if ((await fsApi.stat(uri)).size - offset > maxBytes) {
        throw new Error(`${file} is over ${maxBytes} bytes`);
      }
      const bytes = await fsApi.readFile(uri);
      const part = offset > 0 ? bytes.subarray(Math.min(offset, bytes.length)) : bytes;
      if (part.length > maxBytes) {
        throw new Error(`${file} is over ${maxBytes} bytes`);
      }
      return part;
    },
    async exists(file) {
      try {
        await fsApi.stat(toUri(file));
        return true;
      } catch {
        return false;
      }
    },
    join: (dir, name) => vscode.Uri.joinPath(toUri(dir), name).toString(),
    watch(dir, listener): StorageWatcher | undefined {
      let base: vscode.Uri;
      try {
        base = toUri(dir);
      } catch {
        return undefined;
      }
      // One folder, not its subfolders: the pattern has no `/` and no `**`.
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(base, '*'));
      const prefix = `${base.toString().replace(/\/$/, '')}/`;
      const report = (uri: vscode.Uri) => {
        const text = uri.toString();
        const name = text.startsWith(prefix) ? text.slice(prefix.length) : undefined;
        listener(name !== undefined && !name.includes('/') ? decodeURIComponent(name) : undefined);
      };
      const subscriptions = [watcher.onDidCreate(report), watcher.onDidChange(report), watcher.onDidDelete(report)];
      return {
        dispose: () => {
          subscriptions.forEach((s) => s.dispose());
          watcher.dispose();
        },
      };
    },
  };
}

/** A storage path (a URI string) as a `Uri`; throws on anything else. */
export function toUri(file: string): vscode.Uri {
  return vscode.Uri.parse(file, true);
}

/** The folder names in `dir` (a URI), none when it cannot be listed. */
export async function listFolders(dir: vscode.Uri): Promise<string[]> {
  try {
    const entries = await vscode.workspace.fs.readDirectory(dir);
    return entries.filter(([, type]) => (type & vscode.FileType.Directory) !== 0).map(([name]) => name);
  } catch {
    return [];
  }
}

/** `.json` and `.jsonl` files in `dir` (a URI) as URI strings, sorted; none when it is missing. */
export async function listSessionUris(dir: vscode.Uri): Promise<string[]> {
  let entries: [string, vscode.FileType][];
  try {
    entries = await vscode.workspace.fs.readDirectory(dir);
  } catch {
    return [];
  }
  return entries
    .filter(([name, type]) => (type & vscode.FileType.File) !== 0 && (name.endsWith('.json') || name.endsWith('.jsonl')))
    .map(([name]) => name)
    .sort()
    .map((name) => vscode.Uri.joinPath(dir, name).toString());
}
