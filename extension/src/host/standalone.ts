// The Node bridge of a host outside VS Code (the CLI and the MCP server).
import * as path from 'path';

import { settingsFromEnv, USER_ONLY_SETTINGS } from './libraryDocsEnv';
import { NodeHost } from './nodeHost';
import { cargoRegistrySources, defaultStateDir, stateRoots } from './roots';
import { readSettings } from './settingsFile';

/**
 * The bridge of a host outside VS Code (CLI, MCP server): the workspace folder, state under
 * `stateDir` (default `defaultStateDir()`), the cargo registry sources (`CARGO_HOME`), the bundled
 * library docs (`bundledDocs`), and settings from the workspace's `.vscode/settings.json` (comments and
 * trailing commas allowed), so `copilotChatSecretary.content.categories` applies there too, except the
 * `USER_ONLY_SETTINGS`; the environment variables of `LIBRARY_DOCS_ENV` override the library-docs settings.
 */
export function standaloneHost(options: {
  workspaceFolder?: string;
  stateDir?: string;
  env?: NodeJS.ProcessEnv;
  bundledDocs?: string;
  /** Told why the workspace's settings file was refused (a link to a device, a FIFO, too large). */
  onSettingsRefused?: (why: string) => void;
}): NodeHost {
  const env = options.env ?? process.env;
  const stateDir = options.stateDir ? path.resolve(options.stateDir) : defaultStateDir(env);
  const roots = stateRoots(stateDir, options.workspaceFolder);
  const fromWorkspace = options.workspaceFolder ? readSettings(path.join(options.workspaceFolder, '.vscode', 'settings.json'), options.onSettingsRefused) : {};
  for (const key of USER_ONLY_SETTINGS) {
    delete fromWorkspace[key];
  }
  const settings: Record<string, unknown> = { ...fromWorkspace, ...settingsFromEnv(env) };
  return new NodeHost({
    roots: {
      workspace: options.workspaceFolder,
      workspaceState: roots.workspaceState,
      globalState: roots.globalState,
      cargoRegistry: cargoRegistrySources(env),
      bundled: options.bundledDocs,
    },
    settings: (key) => (Object.hasOwn(settings, key) ? settings[key] : undefined),
  });
}
