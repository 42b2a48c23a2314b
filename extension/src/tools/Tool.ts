import * as vscode from 'vscode';

import type { Logger } from '../log';
import type { DialogSessionsService } from '../sessions/DialogSessionsService';
import type { ChatMonitorTreeProvider } from '../tree/ChatMonitorTreeProvider';

/**
 * Base of every Secretary tool in VS Code. `invoke` calls the subclass's `call`, wraps the JSON
 * text it returns in a `LanguageModelToolResult`, and turns any exception into
 * `{"isError": true, "message": ...}` so that nothing is ever thrown into VS Code's agent loop.
 */
export abstract class Tool<TInput = Record<string, unknown>> implements vscode.LanguageModelTool<TInput> {
  constructor(
    readonly name: string,
    protected readonly tree: ChatMonitorTreeProvider,
    protected readonly sessions: DialogSessionsService,
    protected readonly log: Logger,
  ) {}

  /** The tool's answer as JSON text. */
  protected abstract call(input: TInput, token: vscode.CancellationToken): Promise<string>;

  /** The short message VS Code shows while the tool runs. */
  protected abstract invocationMessage(input: TInput): string;

  async invoke(
    options: vscode.LanguageModelToolInvocationOptions<TInput>,
    token: vscode.CancellationToken,
  ): Promise<vscode.LanguageModelToolResult> {
    const started = Date.now();
    this.log.trace(`Tool called: ${this.name}`);
    let text: string;
    try {
      text = await this.call(options.input, token);
      this.log.trace(`Tool ${this.name} completed successfully in ${Date.now() - started} ms`);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      this.log.error(`Tool ${this.name} failed: ${message}`);
      text = JSON.stringify({ isError: true, message });
    }
    return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
  }

  prepareInvocation(
    options: vscode.LanguageModelToolInvocationPrepareOptions<TInput>,
  ): vscode.PreparedToolInvocation {
    return { invocationMessage: this.invocationMessage(options.input) };
  }
}
