import * as path from 'path';

import type { WasmCore } from '../core/wasm';
import type { Logger } from '../log';
import { EMPTY_WINDOW } from '../sessions/discovery';
import { openSessions, type McpScopeOptions } from '../sessions/standalone';
import { CopilotLsClient, serverCommand } from './client';
import { ClientTools } from './tools';
import { terminalSink } from './turn';
import { announcingHost } from './workspaceWrites';
import { errorMessage } from '../log';

export interface CopilotLsOptions extends McpScopeOptions {
  /** `--server`: the language server to start (else `COPILOT_LS_PATH`, else npx). */
  server?: string;
  /** `--prompt`, repeatable: run these turns (the first starts a conversation, the others follow
   * up in it), print the replies and exit, instead of serving until the server exits. */
  prompt?: string[];
  /** `--model`: the model id of the turns (default: the server's). */
  model?: string;
  /** `--mode`: `agent` (default) or `ask`. */
  mode?: string;
}

/**
 * `secretary copilot-ls`: starts `@github/copilot-language-server`, registers the Secretary's tools
 * as its client tools and answers their calls until the server exits (or SIGINT/SIGTERM, which
 * shut it down). Logs go to stderr. Resolves with the exit code: 0 when the server ended cleanly,
 * 1 when it could not start, refused the tools, or failed.
 */
export async function runCopilotLs(core: WasmCore, log: Logger, options: CopilotLsOptions): Promise<number> {
  const mode = options.mode ?? 'agent';
  if (mode !== 'agent' && mode !== 'ask') {
    log.error(`--mode takes agent or ask, got ${JSON.stringify(mode)}`);
    return 2;
  }
  const prompts = (options.prompt ?? []).filter((prompt) => prompt.trim());
  if (options.prompt?.length && prompts.length === 0) {
    log.error('--prompt needs a text');
    return 2;
  }
  const sessions = openSessions(core, log, options);
  const tools = new ClientTools(core, sessions, log);
  const folder = workspaceFolder(options.workspace);
  const client = new CopilotLsClient({
    server: serverCommand(options.server),
    workspaceFolder: folder,
    version: core.version,
    tools,
    log,
  });
  const host = core.getHost();
  if (host) {
    core.setHost(
      announcingHost(host, folder, (file, text) => {
        client.announceWrite(file, text).catch((err) => log.warn(`cannot announce ${file} to the language server: ${String(err)}`));
      }),
    );
  }
  const scanned = sessions.start(false).catch((err) => log.error(`initial session scan failed: ${String(err)}`));
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
    if (prompts.length > 0) {
      await scanned; // the turn's tools answer from every session found
      const code = await converse(client, prompts, mode, options.model, log);
      await client.dispose();
      return code;
    }
    const code = await client.whenExited();
    return stopping || code === 0 ? 0 : 1;
  } catch (err) {
    log.error(errorMessage(err));
    await client.dispose();
    return 1;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    sessions.dispose();
  }
}

/** Runs the turns one after the other in one conversation: tool calls on stderr as they run, the
 * reply on stdout. 0 when every turn ended without an error; 1 at the first failed turn. */
async function converse(client: CopilotLsClient, prompts: string[], mode: 'agent' | 'ask', model: string | undefined, log: Logger): Promise<number> {
  const sink = terminalSink(process.stdout, process.stderr);
  let conversationId: string | undefined;
  for (const prompt of prompts) {
    const outcome = await client.converse({ prompt, mode, model, conversationId }, sink);
    sink.endReply();
    if (outcome.error) {
      log.error(`the turn failed: ${outcome.error}`);
      return 1;
    }
    conversationId = outcome.conversationId;
    if (!conversationId && prompts.length > 1) {
      log.error('the language server named no conversation to continue');
      return 1;
    }
  }
  return 0;
}

/** The folder the language server is told about: `--workspace` when it is a folder (not a URI or
 * `empty-window`), else the current folder. */
function workspaceFolder(workspace: string | undefined): string {
  if (!workspace || workspace === EMPTY_WINDOW || /^[A-Za-z][A-Za-z0-9+.-]+:\/\//.test(workspace)) {
    return process.cwd();
  }
  return path.resolve(workspace);
}
