import * as path from 'path';

import type { WasmCore } from '../core/wasm';
import type { Logger } from '../log';
import { EMPTY_WINDOW } from '../sessions/discovery';
import { openSessions, type McpScopeOptions } from '../sessions/standalone';
import { CopilotLsClient, serverCommand } from './client';
import { ClientTools } from './tools';

export interface CopilotLsOptions extends McpScopeOptions {
  /** `--server`: the language server to start (else `COPILOT_LS_PATH`, else npx). */
  server?: string;
}

/**
 * `secretary copilot-ls`: starts `@github/copilot-language-server`, registers the Secretary's tools
 * as its client tools and answers their calls until the server exits (or SIGINT/SIGTERM, which
 * shut it down). Logs go to stderr. Resolves with the exit code: 0 when the server ended cleanly,
 * 1 when it could not start, refused the tools, or failed.
 */
export async function runCopilotLs(core: WasmCore, log: Logger, options: CopilotLsOptions): Promise<number> {
  const sessions = openSessions(core, log, options);
  const tools = new ClientTools(core, sessions, log);
  const client = new CopilotLsClient({
    server: serverCommand(options.server),
    workspaceFolder: workspaceFolder(options.workspace),
    version: core.version,
    tools,
    log,
  });
  sessions.start(false).catch((err) => log.error(`initial session scan failed: ${String(err)}`));
  let stopping = false;
  const stop = () => {
    if (!stopping) {
      stopping = true;
      void client.dispose();
    }
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    await client.start();
    const code = await client.whenExited();
    return stopping || code === 0 ? 0 : 1;
  } catch (err) {
    log.error(err instanceof Error ? err.message : String(err));
    await client.dispose();
    return 1;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    sessions.dispose();
  }
}

/** The folder the language server is told about: `--workspace` when it is a folder (not a URI or
 * `empty-window`), else the current folder. */
function workspaceFolder(workspace: string | undefined): string {
  if (!workspace || workspace === EMPTY_WINDOW || /^[A-Za-z][A-Za-z0-9+.-]+:\/\//.test(workspace)) {
    return process.cwd();
  }
  return path.resolve(workspace);
}
