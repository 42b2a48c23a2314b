import * as vscode from 'vscode';

import { callContext } from '../chat/liveChat';
import type { Logger } from '../log';
import type { DialogSessionsService } from '../sessions/dialogSessionsService';
import type { ToolCatalogSync } from './catalogSync';
import { Tool } from './tool';
import type { ToolListing } from '../core/generated/ToolListing';
import { confirmationFor } from './toolLogging';

/** A tool's entry in the core's listing (`Secretary.tools()`), generated from the Rust type. */
export type { ToolListing } from '../core/generated/ToolListing';

/**
 * A tool whose logic lives entirely in the WASM core: the host adds only freshness (changed
 * session files are read first; discovery tools see the current `vscode.lm.tools`) and the
 * VS Code result wrapping of `Tool`.
 */
export class CoreTool extends Tool {
  constructor(
    protected readonly listing: ToolListing,
    sessions: DialogSessionsService,
    log: Logger,
    protected readonly catalog: ToolCatalogSync,
    /** Where live copies of the calling chat are written for a moment (global storage). */
    private readonly scratch: vscode.Uri,
  ) {
    super(listing.vscodeName, sessions, log);
  }

  protected override async call(
    input: Record<string, unknown>,
    token: vscode.CancellationToken,
    options?: vscode.LanguageModelToolInvocationOptions<Record<string, unknown>>,
  ): Promise<string | vscode.LanguageModelToolResult> {
    if (token.isCancellationRequested) {
      throw new Error('Canceled');
    }
    this.catalog.refresh();
    // The chat that called: dialog tools answer for it, not for the most recent dialog.
    const call = callContext(options?.toolInvocationToken, this.scratch, this.log);
    return this.sessions.invokeTool(this.listing.name, input, call);
  }

  /** Destructive tools also ask the user (`confirmationMessages`), on top of the core's literal. */
  override prepareInvocation(
    options: vscode.LanguageModelToolInvocationPrepareOptions<Record<string, unknown>>,
  ): vscode.PreparedToolInvocation {
    const prepared = super.prepareInvocation(options);
    const confirmation = confirmationFor(this.listing, options.input);
    return confirmation
      ? { ...prepared, confirmationMessages: { title: confirmation.title, message: new vscode.MarkdownString(confirmation.message) } }
      : prepared;
  }

  protected override invocationMessage(input: Record<string, unknown>): string {
    const index = typeof input?.index === 'number' ? ` #${input.index}` : '';
    return `${this.listing.invocationMessage}${index}`;
  }
}

/**
 * `tool_call`: the core validates the call (the tool must be known, external and loaded); this
 * host then runs it with `vscode.lm.invokeTool` and the caller's invocation token, so the tool's
 * own confirmation is shown, and passes its result through unchanged.
 */
export class ToolCallTool extends CoreTool {
  protected override async call(
    input: Record<string, unknown>,
    token: vscode.CancellationToken,
    options: vscode.LanguageModelToolInvocationOptions<Record<string, unknown>>,
  ): Promise<string | vscode.LanguageModelToolResult> {
    const text = await super.call(input, token, options);
    if (typeof text !== 'string') {
      return text;
    }
    const verdict = JSON.parse(text) as { success: boolean; call?: { name: string; input: object } };
    if (!verdict.success || !verdict.call) {
      return text;
    }
    this.log.trace(`Tool ${this.name} calls ${verdict.call.name}`);
    return vscode.lm.invokeTool(
      verdict.call.name,
      { input: verdict.call.input, toolInvocationToken: options.toolInvocationToken },
      token,
    );
  }
}
