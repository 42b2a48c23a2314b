import type { ToolListing } from '../tools/coreTool';
import { mcpToolName } from './names';

/** A tool as `tools/list` shows it (the MCP `Tool` shape). */
export interface McpTool {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object'; [key: string]: unknown };
  annotations: { title: string; readOnlyHint: boolean; destructiveHint: boolean; openWorldHint: boolean };
}

/** One of the core's tools with its MCP name. */
export interface RegisteredTool {
  plain: string;
  name: string;
  listing: ToolListing;
}

/** Thrown by `activate` when a name is not one of the core's tools; nothing was activated. */
export class UnknownToolsError extends Error {
  constructor(readonly names: string[]) {
    super(`Unknown tools: ${names.join(', ')}`);
    this.name = 'UnknownToolsError';
  }
}

/**
 * Which of the core's tools this server offers. Tools that are not deferred are active from the
 * start; deferred ones become active when `activate` registers them (after the core's `tool_load`
 * succeeded). Activation is idempotent and all or nothing, and every change is announced to the
 * listeners, which send `notifications/tools/list_changed`.
 */
export class ToolRegistry {
  private readonly tools: RegisteredTool[];
  private readonly byName = new Map<string, RegisteredTool>();
  private readonly byPlain = new Map<string, RegisteredTool>();
  private readonly activeSet = new Set<string>();
  private readonly listeners = new Set<(added: string[]) => void>();

  constructor(
    listings: readonly ToolListing[],
    readonly prefix: string,
  ) {
    this.tools = listings.map((listing) => ({ plain: listing.name, name: mcpToolName(listing.name, prefix), listing }));
    for (const tool of this.tools) {
      this.byName.set(tool.name, tool);
      this.byPlain.set(tool.plain, tool);
      if (!tool.listing.deferred) {
        this.activeSet.add(tool.plain);
      }
    }
  }

  /** Every tool of the core, active or not, in the core's order. */
  get all(): readonly RegisteredTool[] {
    return this.tools;
  }

  /** The active tools, in the core's order. */
  active(): RegisteredTool[] {
    return this.tools.filter((tool) => this.activeSet.has(tool.plain));
  }

  /** The active tool called `name` over MCP, if any. */
  activeTool(name: string): RegisteredTool | undefined {
    const tool = this.byName.get(name);
    return tool && this.activeSet.has(tool.plain) ? tool : undefined;
  }

  isActive(plain: string): boolean {
    return this.activeSet.has(plain);
  }

  /** Deferred tools that were loaded (what a fresh core must be told again after a restart). */
  loadedDeferred(): RegisteredTool[] {
    return this.tools.filter((tool) => tool.listing.deferred && this.activeSet.has(tool.plain));
  }

  /** The tool a name the core reports refers to: its MCP name or its plain name. */
  find(name: string): RegisteredTool | undefined {
    return this.byName.get(name) ?? this.byPlain.get(name);
  }

  /**
   * Activates tools given by MCP or plain names. All or nothing: when any name is unknown nothing
   * changes and `UnknownToolsError` is thrown. Returns the plain names that were not active
   * before (none when all were: loading twice changes nothing and announces nothing).
   */
  activate(names: readonly string[]): string[] {
    const found = names.map((name) => ({ name, tool: this.find(name) }));
    const unknown = found.filter((entry) => !entry.tool).map((entry) => entry.name);
    if (unknown.length > 0) {
      throw new UnknownToolsError(unknown);
    }
    const added: string[] = [];
    for (const { tool } of found) {
      if (tool && !this.activeSet.has(tool.plain)) {
        this.activeSet.add(tool.plain);
        added.push(tool.plain);
      }
    }
    if (added.length > 0) {
      for (const listener of [...this.listeners]) {
        listener(added);
      }
    }
    return added;
  }

  /** Called with the newly active plain names after each change. */
  onDidChange(listener: (added: string[]) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** The MCP `Tool` of a registered tool. */
  static toMcpTool(tool: RegisteredTool): McpTool {
    const { listing } = tool;
    const schema = (listing.inputSchema && typeof listing.inputSchema === 'object' ? listing.inputSchema : {}) as Record<
      string,
      unknown
    >;
    return {
      name: tool.name,
      title: listing.displayName,
      description: listing.description,
      inputSchema: { ...schema, type: 'object' },
      annotations: {
        title: listing.displayName,
        readOnlyHint: !listing.destructive,
        destructiveHint: listing.destructive,
        openWorldHint: false,
      },
    };
  }
}
