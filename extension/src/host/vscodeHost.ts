import * as vscode from 'vscode';

import { porcelainFromChanges, type GitState } from './gitStatus';
import { NodeHost } from './nodeHost';
import { bundledDocsDir, cargoRegistrySources } from './roots';
import { readSetting } from './vscodeSettings';

const API_KEY_SETTING = 'copilotChatSecretary.libraryDocs.context7.apiKey';

/**
 * The I/O bridge of the VS Code extension: the Node bridge over the extension's own folders.
 *
 * - `workspace`: the first folder of the open workspace (`file:` only; none in an empty window);
 * - `workspaceState`: `context.storageUri` (project flags; none in an empty window);
 * - `globalState`: `context.globalStorageUri` (global flags, memory);
 * - `cargoRegistry`: `$CARGO_HOME/registry/src` (default `~/.cargo`), read only (library docs);
 * - `bundled`: the extension's `resources/library-docs`, read only.
 *
 * Settings are read live, so a changed `copilotChatSecretary.content.categories` applies at once. The
 * Context7 API key falls back to the `CONTEXT7_API_KEY` environment variable.
 */
export function vscodeHost(context: vscode.ExtensionContext): NodeHost {
  const fileUri = (uri: vscode.Uri | undefined) => (uri?.scheme === 'file' ? uri.fsPath : undefined);
  return new NodeHost({
    roots: {
      workspace: () => fileUri(vscode.workspace.workspaceFolders?.[0]?.uri),
      workspaceState: () => fileUri(context.storageUri),
      globalState: () => fileUri(context.globalStorageUri),
      cargoRegistry: cargoRegistrySources(),
      bundled: bundledDocsDir(context.extensionPath),
    },
    settings: (key) => {
      const value = readSetting(key);
      return key === API_KEY_SETTING && !value ? process.env.CONTEXT7_API_KEY || undefined : value;
    },
    gitStatus: gitExtensionStatus,
    // Restricted Mode: no git at all (`capabilities.untrustedWorkspaces` in package.json).
    gitAllowed: () => vscode.workspace.isTrusted,
  });
}

/**
 * The git status from VS Code's built-in Git extension (its cached state, read synchronously), as
 * porcelain bytes; `undefined` when the extension is off or inactive or knows no repository there,
 * and the host falls back to the git CLI.
 */
function gitExtensionStatus(dir: string): Uint8Array | undefined {
  try {
    const git = vscode.extensions.getExtension<{ getAPI(version: 1): GitApi }>('vscode.git');
    if (!git?.isActive) {
      return undefined;
    }
    const repository = git.exports?.getAPI(1)?.getRepository(vscode.Uri.file(dir));
    return repository ? porcelainFromChanges(repository.rootUri.fsPath, repository.state) : undefined;
  } catch {
    return undefined;
  }
}

interface GitApi {
  getRepository(uri: vscode.Uri): { rootUri: vscode.Uri; state: GitState } | null;
}
