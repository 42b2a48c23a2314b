import * as vscode from 'vscode';

import type { WasmCore } from '../core/wasm';
import type { Logger } from '../log';

/** The Secretary's own prefix in VS Code (package.json names are static). */
export const OWN_PREFIX = 'chat_secretary_';

/**
 * Keeps the core's tool catalog in step with `vscode.lm.tools` (built-in tools, other extensions',
 * MCP servers'). VS Code has no stable "tools changed" event, so the catalog is compared by a
 * cheap signature of the names before each discovery call and rebuilt only when it differs.
 */
export class ToolCatalogSync {
  private signature = '';

  constructor(
    private readonly core: WasmCore,
    private readonly log: Logger,
    private readonly ownPlainNames: readonly string[],
  ) {}

  refresh(): void {
    const tools = vscode.lm.tools.filter((tool) => !isOwn(tool.name, this.ownPlainNames));
    const signature = tools.map((tool) => tool.name).join('\n');
    if (signature === this.signature) {
      return;
    }
    const external = tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema ?? undefined,
      tags: [...tool.tags],
      source: sourceOf(tool.name, tool.tags),
    }));
    this.core.run((h) => h.setExternalTools(JSON.stringify(external)));
    this.signature = signature;
    this.log.debug(`tool catalog: ${external.length} external tools`);
  }

  /** Forget the signature (after the core was re-instantiated). */
  invalidate(): void {
    this.signature = '';
  }
}

/** Our tools: contributed (`chat_secretary_<plain>`) or served by our own MCP server, which
 * VS Code lists as `mcp_<server>_secretary_<plain>` while the provider's server runs. */
export function isOwn(name: string, ownPlainNames: readonly string[]): boolean {
  return (
    name.startsWith(OWN_PREFIX) ||
    (name.startsWith('mcp_') && ownPlainNames.some((plain) => name.endsWith(`_secretary_${plain}`)))
  );
}

/** A best guess at who provides a tool, from VS Code's naming conventions. */
function sourceOf(name: string, tags: readonly string[]): string {
  if (name.startsWith('mcp_')) {
    return `mcp:${name.split('_')[1] ?? 'server'}`;
  }
  if (name.startsWith('copilot_') || name.startsWith('vscode_') || tags.includes('vscode_editing')) {
    return 'built-in';
  }
  return 'extension';
}
