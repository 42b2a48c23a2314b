// Where the Node bridge's areas live outside VS Code: the state folders of the CLI and the MCP
// server, the cargo registry sources and the bundled library docs.
import * as crypto from 'crypto';
import * as os from 'os';
import * as path from 'path';

/** Where cargo unpacks registry crates: `$CARGO_HOME/registry/src` (default `~/.cargo`). */
export function cargoRegistrySources(env: NodeJS.ProcessEnv = process.env): string {
  const home = env.CARGO_HOME ? path.resolve(env.CARGO_HOME) : path.join(os.homedir(), '.cargo');
  return path.join(home, 'registry', 'src');
}

/** The library docs shipped in the VSIX, under the extension's (or the CLI package's) root. */
export function bundledDocsDir(extensionRoot: string): string {
  return path.join(extensionRoot, 'resources', 'library-docs');
}

/**
 * Where the CLI and the MCP server keep state (VS Code uses the extension's own storage folders):
 * `SECRETARY_STATE_DIR` when set, else the platform's state folder: `$XDG_STATE_HOME` or
 * `~/.local/state` on Linux, `~/Library/Application Support` on macOS, `%LOCALAPPDATA%` on Windows,
 * each with `copilot-chat-secretary` appended.
 */
export function defaultStateDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.SECRETARY_STATE_DIR) {
    return path.resolve(env.SECRETARY_STATE_DIR);
  }
  const home = os.homedir();
  const base =
    platform === 'win32'
      ? (env.LOCALAPPDATA ?? path.join(home, 'AppData', 'Local'))
      : platform === 'darwin'
        ? path.join(home, 'Library', 'Application Support')
        : (env.XDG_STATE_HOME ?? path.join(home, '.local', 'state'));
  return path.join(base, 'copilot-chat-secretary');
}

/**
 * The state roots under a state folder: `global/` for global flags (and memory), and
 * `workspaces/<folder name>-<12 hex of sha256(folder path)>/` for one workspace's project flags.
 */
export function stateRoots(stateDir: string, workspaceFolder: string | undefined): { globalState: string; workspaceState?: string } {
  const globalState = path.join(stateDir, 'global');
  if (!workspaceFolder) {
    return { globalState };
  }
  const folder = path.resolve(workspaceFolder);
  const hash = crypto.createHash('sha256').update(folder).digest('hex').slice(0, 12);
  const name = (path.basename(folder) || 'root').replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 40);
  return { globalState, workspaceState: path.join(stateDir, 'workspaces', `${name}-${hash}`) };
}
