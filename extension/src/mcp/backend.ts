import type { WasmCore } from '../core/wasm';
import type { Logger } from '../log';
import { agentCallContext } from '../sessions/agentTurn';
import type { DialogSessionsService } from '../sessions/dialogSessionsService';
import type { AgentCall } from './caller';
import type { ToolBackend } from './server';

/** Tools an MCP client cannot use through this server: `tool_call` runs the host's other tools
 * (VS Code's), and an MCP server has none; its client calls its tools itself. */
export const NOT_OVER_MCP: ReadonlySet<string> = new Set(['tool_call']);

/**
 * The server's way into the WASM core: the core is told the MCP names (so that its renames and
 * "not loaded" answers name `secretary_...` tools), and calls go through the sessions service,
 * which reads what changed on disk first. Every instance (the first, one after a trap) is told the names.
 */
export function coreBackend(
  core: WasmCore,
  sessions: DialogSessionsService,
  prefix: string,
  /** The agent session a call comes from, from the call's `_meta` (`mcp/caller.ts`). */
  callerOf: (meta: unknown) => AgentCall | undefined = () => undefined,
  log?: Logger,
): ToolBackend {
  // Tools this server does not offer stay out of discovery too (and are refused by the core).
  // (SECRETARY_SEMANTIC_SEARCH is applied to the core by the CLI, for every command.)
  core.configure((handle) => handle.configureTools(prefix, [], [...NOT_OVER_MCP]));
  // The listings come from the core's build-time listing: `initialize` and `tools/list` are
  // answered without waiting for the module.
  return {
    listings: core.tools().filter((tool) => !NOT_OVER_MCP.has(tool.name)),
    invoke: (name, args, meta) => {
      const call = callerOf(meta);
      return sessions.invokeTool(name, args, call && log ? agentCallContext(sessions, call, log) : undefined);
    },
    // No `onDidReset`: after a trap the sessions service loads the deferred tools again before the
    // next call (`DialogSessionsService.reloadTools`), the one place that does it for every host.
    prompts: core.listing.prompts,
    prompt: (name, args) => sessions.renderPrompt(name, args),
  };
}

