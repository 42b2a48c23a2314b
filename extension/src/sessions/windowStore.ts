import * as path from 'path';
import * as vscode from 'vscode';

import type { Logger } from '../log';
import { PRODUCTS } from './discovery';
import { oneHome, probedHomes } from './storeProbe';
import { listFolders } from './workspaceFsStorage';

/**
 * Test-only: the URI of a `User` folder whose chat storage the extension reads through
 * `vscode.workspace.fs`, as it does in a remote window. Set only by the end-to-end tests
 * (`scripts/e2e` with `SECRETARY_E2E_REMOTE=1`), in the environment of the extension host: no
 * setting, so no workspace can point the extension at another store.
 */
export const TEST_STORE_ENV = 'SECRETARY_E2E_CHAT_STORE';

/** Where this window keeps its chats when the extension cannot read them with Node `fs`. */
export interface WindowStore {
  /** The window's `User` folder, as a URI the window answers (`vscode-local:`, `vscode-userdata:`). */
  user: vscode.Uri;
  /** `User/workspaceStorage/<id>`: this workspace's storage folder in the window. */
  storage: vscode.Uri;
  /** How it was found: the test variable, the setting, or a probe of the usual folders. */
  via: 'test' | 'setting' | 'probe';
}

/**
 * Whether the window's chat storage is out of Node's reach: a desktop window whose extension host
 * runs on another machine (WSL, Remote-SSH, Dev Containers, Codespaces in VS Code). A web window
 * (code-server, `code serve-web`) keeps its user data on the server, where Node `fs` reads it.
 */
export function chatsAreElsewhere(): boolean {
  return vscode.env.remoteName !== undefined && vscode.env.uiKind === vscode.UIKind.Desktop;
}

/**
 * Finds the window's storage folder of this workspace: `User/workspaceStorage/<id>`, `<id>` being
 * the folder name of `context.storageUri`'s parent (the remote host's copy of the same id). No API
 * names the window's user-data folder, so candidates are tried and the one that has this exact
 * `<id>` folder wins: the test variable, the `remote.localUserDataDir` setting (application scope:
 * only the user's own settings), then each user folder under `/home`, `/Users`, `/c:/Users` and
 * `/root` of the window's machine with every known VS Code build's data folder (not the folders
 * every account can write, and not when two accounts' folders both have it). `undefined` when
 * none has it (or the window has no workspace).
 */
export async function findWindowStore(
  context: vscode.ExtensionContext,
  configured: string | undefined,
  log: Logger,
  env: NodeJS.ProcessEnv = process.env,
): Promise<WindowStore | undefined> {
  if (!context.storageUri) {
    return undefined;
  }
  const id = path.basename(path.dirname(context.storageUri.path));
  if (!id || id === '.' || id === '/') {
    return undefined;
  }
  const candidates: [vscode.Uri, WindowStore['via'], string?][] = [];
  const test = env[TEST_STORE_ENV];
  if (test) {
    try {
      candidates.push([vscode.Uri.parse(test, true), 'test']);
    } catch {
      log.warn(`${TEST_STORE_ENV} is not a URI: ${test}`);
    }
  } else {
    if (configured) {
      candidates.push([userFolder(localUri(configured)), 'setting']);
    }
    for (const [user, home] of await probeCandidates()) {
      candidates.push([user, 'probe', home]);
    }
  }
  // The remote host's folder is `<id>-1` (`-2`...) when another window holds `<id>`'s lock; the
  // window's own folder never has the suffix.
  const ids = /-\d+$/.test(id) ? [id, id.replace(/-\d+$/, '')] : [id];
  const found = (store: WindowStore): WindowStore => {
    log.info(`chat storage of this window: ${store.storage.toString()} (${store.via})`);
    return store;
  };
  const probed: (WindowStore & { home: string })[] = [];
  for (const [user, via, home] of candidates) {
    for (const name of ids) {
      const storage = vscode.Uri.joinPath(user, 'workspaceStorage', name);
      if (!(await isFolder(storage))) {
        continue;
      }
      // The test variable and the setting are taken at once; a probe's matches are weighed.
      if (home === undefined) {
        return found({ user, storage, via });
      }
      probed.push({ user, storage, via, home });
      break;
    }
  }
  const chosen = oneHome(probed);
  if (chosen && 'match' in chosen) {
    const { user, storage, via } = chosen.match;
    return found({ user, storage, via });
  }
  if (chosen) {
    log.warn(
      `this remote window's chats were found under more than one account's folder (${chosen.ambiguous.join(', ')}), so none is read: ` +
        'set copilotChatSecretary.remote.localUserDataDir to the VS Code user-data folder of your own machine',
    );
    return undefined;
  }
  log.warn(
    `the chats of this remote window are in a folder the extension could not find (workspace id ${id}): ` +
      'set copilotChatSecretary.remote.localUserDataDir to the VS Code user-data folder of your own machine',
  );
  return undefined;
}

/** A path of the window's machine as a `vscode-local:` URI (`C:\x` becomes `/c:/x`). */
export function localUri(local: string): vscode.Uri {
  const slashed = local.replace(/\\/g, '/');
  const withRoot = /^[a-zA-Z]:\//.test(slashed) ? `/${slashed[0].toLowerCase()}${slashed.slice(1)}` : slashed;
  return vscode.Uri.from({ scheme: 'vscode-local', path: withRoot });
}

/** A user-data folder, or its `User` folder, as the `User` folder. */
function userFolder(uri: vscode.Uri): vscode.Uri {
  return path.posix.basename(uri.path) === 'User' ? uri : vscode.Uri.joinPath(uri, 'User');
}

/** The usual `User` folders of the window's machine, for every home folder it lists (shared ones
 * left out, `storeProbe.ts`), each with its home. */
async function probeCandidates(): Promise<[vscode.Uri, string][]> {
  const found: [vscode.Uri, string][] = [];
  const layouts: [string, string[]][] = [
    ['/home', ['.config']],
    ['/Users', ['Library', 'Application Support']],
    ['/c:/Users', ['AppData', 'Roaming']],
  ];
  for (const [root, below] of layouts) {
    const homes = probedHomes(root, await listFolders(localUri(root)));
    if (root === '/home') {
      homes.push('/root');
    }
    for (const home of homes) {
      for (const product of PRODUCTS) {
        found.push([vscode.Uri.joinPath(localUri(home), ...below, product, 'User'), home]);
      }
    }
  }
  return found;
}

async function isFolder(uri: vscode.Uri): Promise<boolean> {
  try {
    return ((await vscode.workspace.fs.stat(uri)).type & vscode.FileType.Directory) !== 0;
  } catch {
    return false;
  }
}
