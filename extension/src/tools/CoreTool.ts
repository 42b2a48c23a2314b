import * as vscode from 'vscode';

import type { Logger } from '../log';
import type { DialogSessionsService } from '../sessions/DialogSessionsService';
import type { ChatMonitorTreeProvider } from '../tree/ChatMonitorTreeProvider';
import { Tool } from './Tool';

/** A tool's entry in the core's listing (`Secretary.tools()`). */
export interface ToolListing {
  name: string;
  vscodeName: string;
  referenceName: string;
  displayName: string;
  summary: string;
  description: string;
  inputSchema: unknown;
  tags: string[];
  deferred: boolean;
  destructive: boolean;
  invocationMessage: string;
}

/**
 * A tool whose logic lives entirely in the WASM core: the host adds only freshness (the sessions
 * service syncs changed files first) and the VS Code result wrapping of `Tool`.
 */
export class CoreTool extends Tool {
  constructor(
    private readonly listing: ToolListing,
    tree: ChatMonitorTreeProvider,
    sessions: DialogSessionsService,
    log: Logger,
  ) {
    super(listing.vscodeName, tree, sessions, log);
  }

  protected override async call(input: Record<string, unknown>, token: vscode.CancellationToken): Promise<string> {
    if (token.isCancellationRequested) {
      throw new Error('Canceled');
    }
    return this.sessions.invokeTool(this.listing.name, input);
  }

  protected override invocationMessage(input: Record<string, unknown>): string {
    const index = typeof input?.index === 'number' ? ` #${input.index}` : '';
    return `${this.listing.invocationMessage}${index}`;
  }
}
