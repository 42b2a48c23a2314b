import * as vscode from 'vscode';

import { NodeHost } from './nodeHost';

/**
 * The I/O bridge of the VS Code extension: the Node bridge over the extension's own folders.
 *
 * - `workspace`: the first folder of the open workspace (`file:` only; none in an empty window);
 * - `workspaceState`: `context.storageUri` (project flags; none in an empty window);
 * - `globalState`: `context.globalStorageUri` (global flags, memory).
 *
 * Settings are read live, so a changed `copilotChatSecretary.content.categories` applies at once.
 */
export function vscodeHost(context: vscode.ExtensionContext): NodeHost {
  const fileUri = (uri: vscode.Uri | undefined) => (uri?.scheme === 'file' ? uri.fsPath : undefined);
  return new NodeHost({
    roots: {
      workspace: () => fileUri(vscode.workspace.workspaceFolders?.[0]?.uri),
      workspaceState: () => fileUri(context.storageUri),
      globalState: () => fileUri(context.globalStorageUri),
    },
    settings: (key) => vscode.workspace.getConfiguration().get(key),
  });
}
