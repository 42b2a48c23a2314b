import * as fs from 'fs';
import * as path from 'path';
import { fileURLToPath } from 'url';
import * as vscode from 'vscode';

import { libraryDocsEnv } from '../host/libraryDocsEnv';
import { flag, stringList } from '../host/settingValues';
import { readSetting } from '../host/vscodeSettings';
import type { Logger } from '../log';
import { EMPTY_WINDOW, workspaceKey } from '../sessions/discovery';

/** The provider id of `contributes.mcpServerDefinitionProviders`. */
export const MCP_PROVIDER_ID = 'copilotChatSecretary.mcpServers';
export const MCP_SERVER_LABEL = 'Copilot Chat Secretary';

const CONFIG = 'copilotChatSecretary';

/** Where this window's sessions are, as the extension itself reads them. */
export interface McpProviderScope {
  /** The VS Code `User` folder. */
  userDir: string;
  /** This workspace's `workspaceStorage/<id>` folder; `undefined` in an empty window. */
  workspaceStorageDir: string | undefined;
}

/**
 * Offers the bundled `secretary mcp` server to VS Code's own MCP client: one stdio definition
 * that runs `dist/cli.js mcp` with the Node.js running this extension host, scoped to the sessions
 * this window reads (the `scope` and `extraStorageRoots` settings). Only when
 * `copilotChatSecretary.mcp.enabled` is true (default false): the extension already contributes the
 * same tools to VS Code, and offering the server too would show every tool twice in the tool picker.
 * Other MCP clients run `secretary mcp` themselves and are not affected. Returns the provider (the e2e tests read its definitions), or
 * `undefined` when this VS Code has no MCP API.
 */
export function registerMcpServerProvider(
  context: vscode.ExtensionContext,
  scope: McpProviderScope,
  log: Logger,
): vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition> | undefined {
  if (typeof vscode.lm?.registerMcpServerDefinitionProvider !== 'function') {
    log.info('this VS Code has no MCP server definition API; the MCP server is not offered');
    return undefined;
  }
  const changed = new vscode.EventEmitter<void>();
  const cli = path.join(context.extensionPath, 'dist', 'cli.js');
  const version = String(context.extension.packageJSON?.version ?? '0.0.0');
  const provider: vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition> = {
    onDidChangeMcpServerDefinitions: changed.event,
    provideMcpServerDefinitions: () => {
      const config = vscode.workspace.getConfiguration(CONFIG);
      if (!flag(config.get('mcp.enabled'), false)) {
        return [];
      }
      const args = [cli, 'mcp', ...scopeArgs(config, scope)];
      // In desktop VS Code `process.execPath` is Electron, which runs as plain Node.js only with
      // ELECTRON_RUN_AS_NODE; in a VS Code server it is Node.js already.
      const env: Record<string, string> = process.versions.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {};
      // The library-docs settings (Context7 switch, URL, timeout, key) reach the server as variables.
      Object.assign(env, libraryDocsEnv(readSetting));
      return [new vscode.McpStdioServerDefinition(MCP_SERVER_LABEL, process.execPath, args, env, version)];
    },
    resolveMcpServerDefinition: (server) => {
      if (!fs.existsSync(cli)) {
        throw new Error(`the bundled MCP server is missing: ${cli}`);
      }
      return server;
    },
  };
  context.subscriptions.push(
    changed,
    vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, provider),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (['mcp.enabled', 'scope', 'extraStorageRoots', 'libraryDocs'].some((key) => event.affectsConfiguration(`${CONFIG}.${key}`))) {
        changed.fire();
      }
    }),
  );
  log.info(`MCP server definition provider registered: ${MCP_PROVIDER_ID}`);
  return provider;
}

/** `--storage`/`--workspace`/`--all` arguments reading what the extension reads. */
export function scopeArgs(config: vscode.WorkspaceConfiguration, scope: McpProviderScope): string[] {
  const extras = stringList(config.get('extraStorageRoots'))
    .filter((root) => fs.existsSync(root))
    .flatMap((root) => ['--storage', root]);
  if (config.get<string>('scope', 'workspace') === 'all') {
    return ['--storage', scope.userDir, ...extras, '--all'];
  }
  if (scope.workspaceStorageDir) {
    const key = workspaceKey(scope.workspaceStorageDir);
    if (!/^[A-Za-z][A-Za-z0-9+.-]+:/.test(key) && fs.existsSync(scope.workspaceStorageDir)) {
      // No workspace.json (a web or server workspace): the storage folder holds this workspace's
      // sessions only, so all of them are this workspace's.
      return ['--storage', scope.workspaceStorageDir, ...extras, '--all'];
    }
    const root = fs.existsSync(scope.workspaceStorageDir) ? scope.workspaceStorageDir : scope.userDir;
    return ['--storage', root, ...extras, '--workspace', workspaceArg(key)];
  }
  const emptyWindows = path.join(scope.userDir, 'globalStorage', 'emptyWindowChatSessions');
  if (fs.existsSync(emptyWindows) && extras.length === 0) {
    return ['--storage', emptyWindows, '--all'];
  }
  return ['--storage', scope.userDir, ...extras, '--workspace', EMPTY_WINDOW];
}

/** A `file:` workspace key as its folder (the server also works in that folder: flags, content);
 * any other key (a remote URI, a storage path) as it is. */
export function workspaceArg(key: string): string {
  if (key.startsWith('file:')) {
    try {
      return fileURLToPath(key);
    } catch {
      // not a local file URI
    }
  }
  return key;
}
