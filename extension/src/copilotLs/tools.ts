import type { ClientTool } from '../core/generated/ClientTool';
import type { ClientToolEntry } from '../core/generated/ClientToolEntry';
import type { WasmCore } from '../core/wasm';
import { errorMessage, type Logger } from '../log';
import { coreBackend } from '../mcp/backend';
import { ToolRegistry } from '../mcp/registry';
import { failureText } from '../mcp/results';
import { registerLoaded, reloadAfterReset, type ToolBackend } from '../mcp/server';
import type { DialogSessionsService } from '../sessions/dialogSessionsService';

/** One tool as `conversation/registerTools` takes it, and the core's registration entry (the tool
 * to send, the core's name for it, whether it waits for `tool_load`): generated from the Rust types. */
export type { ClientTool };

/** `conversation/invokeClientTool` params as the language server sends them. */
export interface InvokeClientToolParams {
  name: string;
  input?: unknown;
  conversationId?: string;
  turnId?: string;
  roundId?: number;
  toolCallId?: string;
}

/** The answer: the server unpacks `[result, error]`. */
export type InvokeClientToolAnswer = [{ content: { value: string }[]; status: 'success' | 'error' }, null];

/**
 * The Secretary's tools as client tools of the Copilot language server. Names, descriptions,
 * schemas and the result format come from the core; this class keeps which tools are registered
 * (the MCP server's `ToolRegistry`: deferred tools once `tool_load` loaded them) and runs calls
 * through the sessions service, which reads what changed on disk first, as `secretary mcp` does.
 */
export class ClientTools {
  private readonly backend: ToolBackend;
  private readonly registry: ToolRegistry;
  private readonly byPlain = new Map<string, ClientToolEntry>();
  private readonly byName = new Map<string, ClientToolEntry>();

  constructor(
    private readonly core: WasmCore,
    sessions: DialogSessionsService,
    private readonly log: Logger,
  ) {
    // Plain names (the core's answers name tools as registered), and no `tool_call`: it runs
    // VS Code's tools, which this host does not have.
    this.backend = coreBackend(core, sessions, '');
    this.registry = new ToolRegistry(this.backend.listings, '');
    const entries = JSON.parse(core.run((handle) => handle.copilotLsTools())) as ClientToolEntry[];
    for (const entry of entries) {
      this.byPlain.set(entry.plain, entry);
      this.byName.set(entry.tool.name, entry);
    }
    // A restarted core has forgotten which deferred tools were loaded: load them again.
    this.backend.onDidReset?.(() => void reloadAfterReset(this.backend, this.registry, log));
  }

  /** The tools to register now: every active one. */
  active(): ClientTool[] {
    return this.registry.active().flatMap((tool) => this.toolOf(tool.plain));
  }

  /** Called with the tools to register after a `tool_load` activated them. */
  onDidLoad(listener: (tools: ClientTool[]) => void): { dispose(): void } {
    return this.registry.onDidChange((added) => listener(added.flatMap((plain) => this.toolOf(plain))));
  }

  /**
   * Runs `conversation/invokeClientTool`. A registered, active tool runs under its plain name; any
   * other name goes to the core as given and is answered there (`Tool not found: ...`). Failures
   * are results with status `error`, never JSON-RPC errors.
   */
  async invoke(params: InvokeClientToolParams): Promise<InvokeClientToolAnswer> {
    const name = typeof params.name === 'string' ? params.name : String(params.name);
    const entry = this.byName.get(name);
    const plain = entry && this.registry.isActive(entry.plain) ? entry.plain : name;
    const input = params.input === undefined || params.input === null ? {} : params.input;
    this.log.debug(`Tool called: ${name}${params.toolCallId ? ` (${params.toolCallId})` : ''}`);
    let text: string;
    try {
      text = await this.backend.invoke(plain, input as Record<string, unknown>);
      text = registerLoaded(text, this.registry);
    } catch (err) {
      text = JSON.stringify({ isError: true, message: errorMessage(err) });
    }
    const answer = JSON.parse(this.core.run((_handle, exports) => exports.copilotLsResult(text))) as InvokeClientToolAnswer;
    if (answer[0].status === 'error') {
      this.log.warn(`Tool ${name} failed: ${failureText(text)}`);
    } else {
      this.log.debug(`Tool ${name} completed successfully`);
    }
    return answer;
  }

  private toolOf(plain: string): ClientTool[] {
    const entry = this.byPlain.get(plain);
    return entry ? [entry.tool] : [];
  }
}
