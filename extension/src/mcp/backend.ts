import type { WasmCore } from '../core/wasm';
import type { DialogSessionsService } from '../sessions/DialogSessionsService';
import type { PromptListing } from '../chat/participant';
import type { ToolListing } from '../tools/CoreTool';
import type { ToolBackend } from './server';

/** Tools an MCP client cannot use through this server: `tool_call` runs the host's other tools
 * (VS Code's), and an MCP server has none; its client calls its tools itself. */
export const NOT_OVER_MCP: ReadonlySet<string> = new Set(['tool_call']);

/**
 * The server's way into the WASM core: the core is told the MCP names (so that its renames and
 * "not loaded" answers name `secretary_...` tools), and calls go through the sessions service,
 * which reads what changed on disk first. After a trap the fresh core is told the names again.
 */
export function coreBackend(core: WasmCore, sessions: DialogSessionsService, prefix: string): ToolBackend {
  // Tools this server does not offer stay out of discovery too (and are refused by the core).
  // (SECRETARY_SEMANTIC_SEARCH is applied to the core by the CLI, for every command.)
  const configure = () => core.run((handle) => handle.configureTools(prefix, [], [...NOT_OVER_MCP]));
  configure();
  core.onDidReset(configure);
  return {
    listings: (JSON.parse(core.run((handle) => handle.tools())) as ToolListing[]).filter((tool) => !NOT_OVER_MCP.has(tool.name)),
    invoke: (name, args) => sessions.invokeTool(name, args),
    onDidReset: (listener) => core.onDidReset(listener),
    prompts: JSON.parse(core.run((handle) => handle.prompts())) as PromptListing[],
    prompt: (name, args) => sessions.renderPrompt(name, args),
  };
}

