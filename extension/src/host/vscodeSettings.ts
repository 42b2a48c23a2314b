// Settings as the extension reads them in VS Code.
import * as vscode from 'vscode';

import { OFF_SWITCHES } from './libraryDocsEnv';

/**
 * A setting's value as VS Code resolves it, except an off switch (`OFF_SWITCHES`): on only when
 * neither the user (or the default) nor the workspace or its folder says `false`. A cloned
 * repository's `.vscode/settings.json` can then turn Context7 off, never back on for a person who
 * turned it off.
 */
export function readSetting(key: string): unknown {
  const config = vscode.workspace.getConfiguration();
  if (!OFF_SWITCHES.includes(key)) {
    return config.get(key);
  }
  const seen = config.inspect<unknown>(key);
  const user = seen?.globalValue ?? seen?.defaultValue;
  return user !== false && seen?.workspaceValue !== false && seen?.workspaceFolderValue !== false;
}
