import * as vscode from 'vscode';

import type { WasmCore } from '../core/wasm';
import type { Logger } from '../log';

/**
 * Keeps the core's tool catalog in step with `vscode.lm.tools` (built-in tools, other extensions',
 * MCP servers'). VS Code has no stable "tools changed" event, so the catalog is compared by a
 * cheap signature of the names before each discovery call and rebuilt only when it differs.
 */
export class ToolCatalogSync {
  private signature = '';
  private own: OwnNames | undefined;

  constructor(
    private readonly core: WasmCore,
    private readonly log: Logger,
    private readonly ownPlainNames: readonly string[],
    private readonly vscodePrefix: string,
  ) {}

  /** Our names, with the MCP prefix as the core spells it: asked on the first refresh, when a
   * discovery call runs the core anyway (activation does not load the module). */
  private ownNames(): OwnNames {
    this.own ??= {
      plain: this.ownPlainNames,
      vscodePrefix: this.vscodePrefix,
      mcpPrefix: this.core.run((_h, m) => m.toolPrefix(undefined)),
    };
    return this.own;
  }

  refresh(): void {
    const own = this.ownNames();
    const tools = vscode.lm.tools.filter((tool) => !isOwn(tool.name, own));
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

/** The prefix the core gives our tools in VS Code (`chat_secretary_`), read from its listing
 * (`vscodeName` is the prefix and the plain name). */
export function vscodePrefixOf(tools: readonly { name: string; vscodeName: string }[]): string {
  const first = tools.find((tool) => tool.vscodeName.endsWith(tool.name));
  return first ? first.vscodeName.slice(0, first.vscodeName.length - first.name.length) : '';
}

/** Our plain tool names and the core's prefixes for them in VS Code and over MCP. */
export interface OwnNames {
  plain: readonly string[];
  vscodePrefix: string;
  mcpPrefix: string;
}

/** Our tools: contributed (`chat_secretary_<plain>`) or served by our own MCP server, which
 * VS Code lists as `mcp_<server>_secretary_<plain>` while the provider's server runs. */
export function isOwn(name: string, own: OwnNames): boolean {
  return (
    name.startsWith(own.vscodePrefix) ||
    (name.startsWith('mcp_') && own.plain.some((plain) => name.endsWith(`_${own.mcpPrefix}${plain}`)))
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
