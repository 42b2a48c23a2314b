import * as fs from 'fs';
import * as path from 'path';
import { fileURLToPath } from 'url';

import type { WasmCore } from '../core/wasm';
import type { Logger } from '../log';
import { canonicalKey, defaultUserDataDirs, EMPTY_WINDOW, folderKey, sessionsUnder, type FolderProblems, type SessionFile } from './discovery';
import { DialogSessionsService } from './dialogSessionsService';
import { agentRootList, agentRoots, agentSessionFiles, parseSources } from './agents';

/** Where the command line and `secretary mcp` read sessions: `--storage`, `--workspace`, `--all`. */
export interface McpScopeOptions {
  storage?: string[];
  /** A folder, a workspace URI as `workspace.json` records it (`vscode-remote://...`), or
   * `empty-window`. */
  workspace?: string;
  all?: boolean;
  /** A `--workspace` without sessions is an error (the one-shot CLI) rather than a warning (the
   * long-running MCP server, whose first dialog may come later). */
  strict?: boolean;
  /** `--source`: serve only these sources' dialogs (the core's names: `vscode`, `copilot-cli`...,
   * `listing.sources`; repeated or comma-separated). Default: every source. */
  source?: string[];
  /** `--current-from`: the agent whose own latest session of the folder is the current dialog
   * (default for `mcp`: detected from the client). */
  'current-from'?: string;
}

/**
 * The sessions service of the hosts outside VS Code (the CLI and the MCP server), over the
 * `--storage` folders, else every VS Code user-data folder of this machine. The first scan is not
 * started here: the MCP server answers `initialize` and `tools/list` at once and tool calls wait
 * for the scan. Each call reads what changed on disk first, so nothing is watched.
 */
export function openSessions(core: WasmCore, log: Logger, options: McpScopeOptions): DialogSessionsService {
  const explicit = Boolean(options.storage?.length);
  const roots = explicit ? (options.storage ?? []) : defaultUserDataDirs();
  for (const root of roots) {
    if (!fs.existsSync(root)) {
      throw new Error(`--storage ${root}: no such folder`);
    }
  }
  // Agent logs (Copilot CLI, Claude Code, Codex) are read unless --storage names the folders.
  const agents = explicit ? undefined : agentRoots();
  // Aider keeps its history in the folder it ran in: the workspace's (a folder), else this one.
  if (agents) {
    const folder = options.workspace !== undefined && !/^[A-Za-z][A-Za-z0-9+.-]+:\/\//.test(options.workspace) ? options.workspace : process.cwd();
    agents.aider.push(path.resolve(folder));
  }
  const problems: FolderProblems = new Map();
  const files = (): SessionFile[] => {
    problems.clear();
    return [...roots.flatMap((root) => sessionsUnder(root, problems)), ...(agents ? agentSessionFiles(agents, problems) : [])];
  };
  const sources = parseSources(options.source, core.listing.sources);
  const currentFrom = options['current-from'] ? parseSources([options['current-from']], core.listing.sources)[0] : undefined;
  core.configure((h) => {
    h.setSources(sources);
    h.setCurrentSource(currentFrom);
  });
  let workspace: string | undefined;
  let resolveWorkspace: (() => string | undefined) | undefined;
  if (!options.all) {
    const found = new Set(files().map((file) => file.workspace).filter((key): key is string => key !== undefined));
    if (options.workspace !== undefined) {
      workspace = workspaceKeyOf(options.workspace, found);
      if (!found.has(workspace) && !agents) {
        if (options.strict) {
          throw new Error(`no chat sessions for workspace ${options.workspace} under ${roots.join(', ')}`);
        }
        log.warn(`no chat sessions for workspace ${options.workspace} under ${roots.join(', ')} yet`);
      }
    } else {
      const here = folderKey(process.cwd());
      workspace = found.has(here) ? here : undefined;
      // Agent logs name their folder inside: decided after the first scan.
      resolveWorkspace = () => {
        const known = JSON.parse(core.run((h) => h.dialogWorkspaces())) as string[];
        return known.includes(here) ? here : undefined;
      };
    }
  }
  const where = [...roots, ...(agents ? agentRootList(agents) : [])];
  log.info(`reading chat sessions under ${where.join(', ') || '(nothing)'} (workspace: ${workspace ?? 'all'})`);
  return new DialogSessionsService(core, { files, watchDirs: () => [], unreadableDirs: () => problems }, log, { workspace, resolveWorkspace });
}

/**
 * The workspace key for `--workspace`: URIs and `empty-window` as given; a folder as the key of
 * the sessions found for it (`workspace.json` may encode its URI otherwise than Node does, e.g.
 * `file:///c%3A/...` on Windows), else its `file://` URI.
 */
export function workspaceKeyOf(value: string, known: Iterable<string> = []): string {
  if (value === EMPTY_WINDOW) {
    return value;
  }
  if (/^[A-Za-z][A-Za-z0-9+.-]+:\/\//.test(value)) {
    return canonicalKey(value);
  }
  const keys = [...known];
  if (keys.includes(value)) {
    return value;
  }
  const folder = comparable(path.resolve(value));
  for (const key of keys) {
    if (key.startsWith('file:')) {
      try {
        if (comparable(fileURLToPath(key)) === folder) {
          return key;
        }
      } catch {
        // not a local file URI
      }
    }
  }
  return folderKey(value);
}

function comparable(folder: string): string {
  const trimmed = folder.length > 1 ? folder.replace(/[\\/]+$/, '') : folder;
  return process.platform === 'win32' || process.platform === 'darwin' ? trimmed.toLowerCase() : trimmed;
}

/**
 * `SECRETARY_SEMANTIC_SEARCH=0` (or `false`, `off`, `no`) ranks `tool_find` and `search_requests`
 * by TF-IDF alone, like the VS Code setting `copilotChatSecretary.search.semantic: false`.
 */
export function semanticSearchFromEnv(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.SECRETARY_SEMANTIC_SEARCH?.trim().toLowerCase();
  return !(value === '0' || value === 'false' || value === 'off' || value === 'no');
}
