import * as vscode from 'vscode';

import type { Logger } from '../log';
import type { DialogSessionsService } from '../sessions/dialogSessionsService';
import { runLogged } from './toolLogging';

/**
 * Base of every Secretary tool in VS Code. `invoke` calls the subclass's `call`, wraps the JSON
 * text it returns in a `LanguageModelToolResult`, and turns any exception into
 * `{"isError": true, "message": ...}` so that nothing is ever thrown into VS Code's agent loop.
 */
export abstract class Tool<TInput = Record<string, unknown>> implements vscode.LanguageModelTool<TInput> {
  constructor(
    readonly name: string,
    protected readonly sessions: DialogSessionsService,
    protected readonly log: Logger,
  ) {}

  /** The tool's answer as JSON text, or a finished result (e.g. another tool's, passed through). */
  protected abstract call(
    input: TInput,
    token: vscode.CancellationToken,
    options: vscode.LanguageModelToolInvocationOptions<TInput>,
  ): Promise<string | vscode.LanguageModelToolResult>;

  /** The short message VS Code shows while the tool runs. */
  protected abstract invocationMessage(input: TInput): string;

  async invoke(
    options: vscode.LanguageModelToolInvocationOptions<TInput>,
    token: vscode.CancellationToken,
  ): Promise<vscode.LanguageModelToolResult> {
    // Logged as toolLogging.ts describes: called, completed successfully, or failed.
    const outcome = await runLogged(
      this.log,
      this.name,
      () => this.call(options.input, token, options),
      (answer) => (typeof answer === 'string' ? answer : undefined),
    );
    if (outcome.ok && typeof outcome.value !== 'string') {
      return outcome.value;
    }
    const text = outcome.ok ? (outcome.value as string) : JSON.stringify({ isError: true, message: outcome.message });
    return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
  }

  prepareInvocation(
    options: vscode.LanguageModelToolInvocationPrepareOptions<TInput>,
  ): vscode.PreparedToolInvocation {
    return { invocationMessage: this.invocationMessage(options.input) };
  }
}
