// Test-only extension (see README.md): a scripted model and an agent-like participant.
import * as vscode from 'vscode';
import { startWindowStore, type WindowStoreApi } from './windowStore';

/** One tool call the participant ran, as tests read it back. */
export interface LoopCall {
  prompt: string;
  /** The prompts of the chat's earlier requests, as VS Code hands them to the participant: what the
   * calling chat shows. */
  history: string[];
  /** The chat the request came from: `String(token.sessionResource)` (or the token's keys). */
  session: string;
  tool: string;
  input: unknown;
  answer: string;
  /** The same call without a token, as other extensions (and the Secretary before it knew the caller)
   * see it: the baseline the tests compare with. */
  answerWithoutToken: string;
  /** How long the tool call took with the token, and without. */
  ms: number;
  msWithoutToken: number;
  /** `#bench`: more calls of the same tool, with the token and without, timed one by one. */
  bench?: { withToken: number[]; withoutToken: number[]; answers: string[] };
  at: number;
}

export interface LoopApi {
  calls: LoopCall[];
  /** Set while a request marked `#hold` waits before running its tool call (tests move the focus
   * elsewhere meanwhile); `release()` lets it go on. */
  holding: boolean;
  release(): void;
  /** Set while a request marked `#linger` waits after its tool calls, still running (a second new
   * chat stays busy while another calls); `releaseLinger()` lets it finish. */
  lingering: boolean;
  releaseLinger(): void;
  /** The chat store served under `secretary-store:` (the remote-window run only). */
  windowStore?: WindowStoreApi;
}

const VENDOR = 'secretary-test';
/** How many more calls a `#bench` request times. */
const BENCH_CALLS = 15;
/** `call <tool> <json>`, optionally followed by `# marker` (tests put a unique word there). */
const CALL = /^call\s+(\S+)\s*(\{[^#]*\})?\s*(#.*)?$/s;

export function activate(context: vscode.ExtensionContext): LoopApi {
  let resume: (() => void) | undefined;
  let finish: (() => void) | undefined;
  const api: LoopApi = {
    calls: [],
    holding: false,
    release: () => resume?.(),
    lingering: false,
    releaseLinger: () => finish?.(),
  };
  const seed = process.env.SECRETARY_E2E_STORE_SEED;
  if (seed) {
    api.windowStore = startWindowStore(context, seed);
  }
  context.subscriptions.push(
    vscode.lm.registerLanguageModelChatProvider(VENDOR, {
      provideLanguageModelChatInformation: async () => [
        {
          id: 'loop-model',
          name: 'Loop Model',
          family: 'loop',
          version: '1',
          maxInputTokens: 1_000_000,
          maxOutputTokens: 100_000,
          capabilities: { toolCalling: true },
          // Offered in the chat's model picker, so a chat request can run on it.
          ...{ isUserSelectable: true },
        },
      ],
      provideLanguageModelChatResponse: async (_model, messages, _options, progress) => {
        const last = messages[messages.length - 1];
        const results = last.content.filter((p): p is vscode.LanguageModelToolResultPart => p instanceof vscode.LanguageModelToolResultPart);
        if (results.length > 0) {
          for (const result of results) {
            const text = result.content
              .filter((p): p is vscode.LanguageModelTextPart => p instanceof vscode.LanguageModelTextPart)
              .map((p) => p.value)
              .join('');
            progress.report(new vscode.LanguageModelTextPart(`RESULT ${result.callId}: ${text}`));
          }
          return;
        }
        const text = last.content
          .filter((p): p is vscode.LanguageModelTextPart => p instanceof vscode.LanguageModelTextPart)
          .map((p) => p.value)
          .join('')
          .trim();
        const match = CALL.exec(text);
        if (!match) {
          progress.report(new vscode.LanguageModelTextPart(`ECHO ${text}`));
          return;
        }
        const input = match[2] ? (JSON.parse(match[2]) as object) : {};
        progress.report(new vscode.LanguageModelToolCallPart(`call-${Date.now()}`, match[1], input));
      },
      provideTokenCount: async (_model, text) => (typeof text === 'string' ? text.length : 1),
    }),
  );

  const participant = vscode.chat.createChatParticipant('secretary-test.loop', async (request, context, stream, token) => {
    const [model] = await vscode.lm.selectChatModels({ vendor: VENDOR });
    if (!model) {
      stream.markdown('no test model');
      return;
    }
    const tools = vscode.lm.tools.filter((tool) => tool.name.startsWith('chat_secretary_'));
    const messages: vscode.LanguageModelChatMessage[] = [vscode.LanguageModelChatMessage.User(request.prompt)];
    for (let round = 0; round < 4; round++) {
      const response = await model.sendRequest(messages, { tools }, token);
      const calls: vscode.LanguageModelToolCallPart[] = [];
      for await (const part of response.stream) {
        if (part instanceof vscode.LanguageModelTextPart) {
          stream.markdown(part.value);
        } else if (part instanceof vscode.LanguageModelToolCallPart) {
          calls.push(part);
        }
      }
      if (calls.length === 0) {
        return;
      }
      messages.push(vscode.LanguageModelChatMessage.Assistant(calls));
      if (/#hold\b/.test(request.prompt)) {
        api.holding = true;
        await new Promise<void>((resolve) => {
          resume = resolve;
        });
        api.holding = false;
      }
      for (const call of calls) {
        const started = performance.now();
        const result = await vscode.lm.invokeTool(call.name, { input: call.input, toolInvocationToken: request.toolInvocationToken }, token);
        const ms = performance.now() - started;
        const answer = textOf(result);
        const baselineStarted = performance.now();
        const baseline = textOf(await vscode.lm.invokeTool(call.name, { input: call.input, toolInvocationToken: undefined }, token));
        const msWithoutToken = performance.now() - baselineStarted;
        let bench: LoopCall['bench'];
        if (/#bench\b/.test(request.prompt)) {
          bench = { withToken: [], withoutToken: [], answers: [] };
          for (let i = 0; i < BENCH_CALLS; i++) {
            const t0 = performance.now();
            const again = await vscode.lm.invokeTool(call.name, { input: call.input, toolInvocationToken: request.toolInvocationToken }, token);
            bench.withToken.push(performance.now() - t0);
            bench.answers.push(textOf(again));
            const t1 = performance.now();
            await vscode.lm.invokeTool(call.name, { input: call.input, toolInvocationToken: undefined }, token);
            bench.withoutToken.push(performance.now() - t1);
          }
        }
        api.calls.push({
          prompt: request.prompt,
          history: context.history.filter((turn): turn is vscode.ChatRequestTurn => turn instanceof vscode.ChatRequestTurn).map((turn) => turn.prompt),
          session: sessionOf(request.toolInvocationToken),
          tool: call.name,
          input: call.input,
          answer,
          answerWithoutToken: baseline,
          ms,
          msWithoutToken,
          bench,
          at: Date.now(),
        });
        messages.push(vscode.LanguageModelChatMessage.User([new vscode.LanguageModelToolResultPart(call.callId, result.content)]));
      }
      if (/#linger\b/.test(request.prompt)) {
        api.lingering = true;
        await new Promise<void>((resolve) => {
          finish = resolve;
        });
        api.lingering = false;
      }
    }
  });
  context.subscriptions.push(participant);
  return api;
}

function textOf(result: vscode.LanguageModelToolResult): string {
  return result.content
    .filter((p): p is vscode.LanguageModelTextPart => p instanceof vscode.LanguageModelTextPart)
    .map((p) => p.value)
    .join('');
}

function sessionOf(token: unknown): string {
  const resource = (token as { sessionResource?: unknown } | undefined)?.sessionResource;
  if (resource !== undefined) {
    return String(resource);
  }
  return token && typeof token === 'object' ? `keys:${Object.keys(token).join(',')}` : String(token);
}
