// The `@secretary` chat participant: people reach their dialog history in one line
// (`@secretary /first`, `/request 3`, `/dialogs`, `/search <words>`, `/tools <words>`). Every
// answer is rendered by the core's prompts, which call the tools' logic directly (not the tool
// path, so no tool-call logging fires); this file only streams the markdown, the buttons and the
// followups.
import * as vscode from 'vscode';

import type { PromptAnswer } from '../core/generated/PromptAnswer';
import type { PromptListing } from '../core/generated/PromptListing';
import { errorMessage } from '../log';

export const PARTICIPANT_ID = 'copilot-chat-secretary.secretary';
export const COPY_TEXT_COMMAND = 'copilotChatSecretary.copyText';
export const INSERT_TEXT_COMMAND = 'copilotChatSecretary.insertIntoChat';

/** What the core's `prompt` answers, and a prompt of its listing (`prompts()`): generated from the Rust types. */
export type { PromptAnswer } from '../core/generated/PromptAnswer';
export type { PromptListing } from '../core/generated/PromptListing';

/** What the handler needs of the host: the core's prompts. */
export interface PromptBackend {
  /** Renders the prompt `name` (MCP name or slash command) on named arguments or words. */
  render(name: string, args: Record<string, unknown> | string, toolInvocationToken?: unknown): Promise<string>;
  listings(): readonly PromptListing[];
}

/** The part of a `vscode.ChatRequest` the handler reads. */
export interface ChatRequestLike {
  command?: string;
  prompt: string;
  /** The chat the request comes from (the answer is about that chat). */
  toolInvocationToken?: unknown;
}

/** The part of `vscode.ChatResponseStream` the handler writes to (a real stream has all of it). */
export type ChatStreamLike = Pick<vscode.ChatResponseStream, 'markdown' | 'button' | 'progress'>;

/** `ChatResult.metadata` of our answers: the followups come from the core with the answer. */
export interface SecretaryChatResult extends vscode.ChatResult {
  metadata: { command: string | undefined; followups: PromptAnswer['followups'] };
}

/**
 * Answers one `@secretary` request. Exported apart from the participant so that tests (and other
 * hosts) drive it with any stream: the participant API itself cannot run without a language model.
 */
export async function handleChatRequest(
  backend: PromptBackend,
  request: ChatRequestLike,
  stream: ChatStreamLike,
  token?: vscode.CancellationToken,
): Promise<SecretaryChatResult> {
  const command = request.command;
  const listings = backend.listings();
  const spec = command ? listings.find((p) => p.command === command) : undefined;
  if (!spec) {
    stream.markdown(help(listings, command));
    const followups = [{ command: 'first', prompt: '', label: 'Show the first request of this dialog' }];
    return { metadata: { command, followups } };
  }
  stream.progress(spec.summary);
  let answer: PromptAnswer;
  try {
    answer = JSON.parse(await backend.render(spec.command, request.prompt ?? '', request.toolInvocationToken)) as PromptAnswer;
  } catch (err) {
    const message = errorMessage(err);
    stream.markdown(`The Secretary could not answer: ${message}`);
    return { metadata: { command, followups: [] }, errorDetails: { message } };
  }
  if (token?.isCancellationRequested) {
    return { metadata: { command, followups: [] } };
  }
  stream.markdown(answer.markdown);
  if (answer.text !== undefined && !answer.error) {
    stream.button({ command: COPY_TEXT_COMMAND, arguments: [answer.text], title: 'Copy' });
    stream.button({ command: INSERT_TEXT_COMMAND, arguments: [answer.text], title: 'Insert into chat input' });
  }
  return {
    metadata: { command, followups: answer.followups ?? [] },
    ...(answer.error ? { errorDetails: { message: answer.error } } : {}),
  };
}

/** The followups of an answer, as the participant's `followupProvider` offers them. */
export function followupsOf(result: vscode.ChatResult): vscode.ChatFollowup[] {
  const followups = (result.metadata as SecretaryChatResult['metadata'] | undefined)?.followups ?? [];
  return followups.map((f) => ({ prompt: f.prompt, command: f.command, label: f.label, participant: PARTICIPANT_ID }));
}

/** The commands, generated from the core's specs. */
function help(listings: readonly PromptListing[], command: string | undefined): string {
  const lines = [
    command ? `Unknown command /${command}. ` : '',
    'Ask the Secretary about your dialog history:\n\n',
    ...listings.map((p) => `- \`@secretary /${p.command}${p.usage ? ` ${p.usage}` : ''}\`: ${p.summary}\n`),
  ];
  return lines.join('');
}

/** Registers the participant and the commands of its buttons. */
export function registerChatParticipant(context: vscode.ExtensionContext, backend: PromptBackend): vscode.Disposable[] {
  const disposables: vscode.Disposable[] = [
    vscode.commands.registerCommand(COPY_TEXT_COMMAND, async (text?: unknown) => {
      if (typeof text === 'string') {
        await vscode.env.clipboard.writeText(text);
        void vscode.window.setStatusBarMessage('Copied the request', 2000);
      }
    }),
    vscode.commands.registerCommand(INSERT_TEXT_COMMAND, async (text?: unknown) => {
      if (typeof text === 'string') {
        // Opens the chat view with the text in its input, not sent (`isPartialQuery`).
        await vscode.commands.executeCommand('workbench.action.chat.open', { query: text, isPartialQuery: true });
      }
    }),
  ];
  // Hosts without the chat API (older VS Code, code-server builds without chat) skip the participant.
  if (typeof vscode.chat?.createChatParticipant === 'function') {
    const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, (request, _context, stream, token) =>
      handleChatRequest(backend, request, stream, token),
    );
    participant.iconPath = vscode.Uri.joinPath(context.extensionUri, 'resources', 'secretary.svg');
    participant.followupProvider = { provideFollowups: (result) => followupsOf(result) };
    disposables.push(participant);
  }
  return disposables;
}
