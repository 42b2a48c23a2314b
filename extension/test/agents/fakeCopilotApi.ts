// A fake Copilot API on 127.0.0.1 for driving the real @github/copilot-language-server offline
// (extension/test/agents/copilotLsTurns.test.ts). It answers what the server 1.539.0 asks for (issue
// #16 lists the measured facts): the token exchange, the model list, the experiments endpoint,
// 404s for the endpoints the server can do without, and `POST /chat/completions` as OpenAI-style
// SSE. The model is scripted: the last user message names a scenario; the number of `role: "tool"`
// messages after it picks the step (a tool call, or the final text and `[DONE]`). Every chat
// request is recorded so tests can assert on what the model received.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

import { errorMessage } from '../../src/log';
import { listenLocal } from '../unit/helpers';

export const FAKE_MODEL = 'fake-model';

/** One step of the scripted model: call a tool, or answer with text made from the tool results. */
export type Step =
  | { call: string; args: Record<string, unknown> }
  | { text: (toolResults: string[]) => string }
  /** Answer with this HTTP status and error body instead of a stream. */
  | { fail: number };

export interface ChatMessage {
  role: string;
  content?: unknown;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

/** One `POST /chat/completions` as the fake received it. */
export interface ChatRequest {
  scenario: string | undefined;
  messages: ChatMessage[];
  tools: string[];
  /** The `role: "tool"` messages after the last user message, in order. */
  toolResults: string[];
}

export interface FakeCopilotApi {
  url: string;
  /** Every request line (`GET /models`), in order. */
  requests: string[];
  chats: ChatRequest[];
  close(): Promise<void>;
}

/** Starts the fake with `scenarios` (name → steps); a user message containing `name` selects one. */
export async function startFakeCopilotApi(scenarios: Record<string, Step[]>): Promise<FakeCopilotApi> {
  const requests: string[] = [];
  const chats: ChatRequest[] = [];
  let calls = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = req.url ?? '/';
      const pathname = url.split('?')[0];
      requests.push(`${req.method} ${pathname}`);
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'x-github-request-id': `fake-${requests.length}` });
        res.end(JSON.stringify(body));
      };
      if (req.method === 'GET' && pathname === '/copilot_internal/v2/token') {
        const now = Math.floor(Date.now() / 1000);
        json(200, {
          token: `tid=fake;exp=${now + 3600};sku=free_limited_copilot;chat=1`,
          expires_at: now + 3600,
          refresh_in: 1500,
          endpoints: { api: base, telemetry: base, proxy: base, 'origin-tracker': base },
        });
      } else if (req.method === 'GET' && pathname === '/models') {
        json(200, { data: [MODEL] });
      } else if (req.method === 'POST' && pathname === '/chat/completions') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { messages?: ChatMessage[]; tools?: { function?: { name?: string } }[] };
        const messages = body.messages ?? [];
        const lastUser = messages.map((m) => m.role).lastIndexOf('user');
        const userText = lastUser >= 0 ? textOf(messages[lastUser].content) : '';
        const scenario = Object.keys(scenarios).find((name) => userText.includes(name));
        const toolResults = messages.slice(lastUser + 1).filter((m) => m.role === 'tool').map((m) => textOf(m.content));
        chats.push({ scenario, messages, tools: (body.tools ?? []).map((t) => t.function?.name ?? ''), toolResults });
        const steps = scenario ? scenarios[scenario] : [];
        const step = steps[toolResults.length] ?? { text: () => `no step ${toolResults.length} in scenario ${String(scenario)}` };
        if ('fail' in step) {
          json(step.fail, { error: { message: `fake failure ${step.fail}`, code: 'fake_failure' } });
          return;
        }
        res.writeHead(200, { 'content-type': 'text/event-stream', 'x-github-request-id': `fake-chat-${chats.length}` });
        const send = (choice: Record<string, unknown>) =>
          res.write(`data: ${JSON.stringify({ id: `chatcmpl-${chats.length}`, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: FAKE_MODEL, choices: [{ index: 0, ...choice }] })}\n\n`);
        if ('call' in step) {
          const id = `call_${++calls}`;
          send({ delta: { role: 'assistant', content: null, tool_calls: [{ index: 0, id, type: 'function', function: { name: step.call, arguments: '' } }] } });
          send({ delta: { tool_calls: [{ index: 0, function: { arguments: JSON.stringify(step.args) } }] } });
          send({ delta: {}, finish_reason: 'tool_calls' });
        } else {
          let text: string;
          try {
            text = step.text(toolResults);
          } catch (err) {
            // A test's expectation failed inside the script: answer it, so the turn ends and the
            // test sees the message in the reply rather than a hung request.
            text = `fake model script failed: ${errorMessage(err)}`;
          }
          // In two pieces, so that the client has to join streamed text.
          const half = Math.floor(text.length / 2);
          send({ delta: { role: 'assistant', content: text.slice(0, half) } });
          send({ delta: { content: text.slice(half) } });
          send({ delta: {}, finish_reason: 'stop' });
        }
        res.write('data: [DONE]\n\n');
        res.end();
      } else {
        // The experiments (`/telemetry`), `/agents`, `/embeddings/models`, `/copilot_internal/user`:
        // the server does without them.
        json(404, { message: 'Not Found' });
      }
    });
  });
  const { url, close } = await listenLocal(server);
  return { url, requests, chats, close };
}

/** The one model, in the shape the server requires of `/models` (measured with 1.539.0). */
const MODEL = {
  id: FAKE_MODEL,
  name: 'Fake Model',
  version: `${FAKE_MODEL}-1`,
  object: 'model',
  vendor: 'Fake',
  model_picker_enabled: true,
  is_chat_default: true,
  is_chat_fallback: true,
  capabilities: {
    type: 'chat',
    family: 'fake',
    object: 'model_capabilities',
    tokenizer: 'o200k_base',
    limits: { max_prompt_tokens: 100_000, max_output_tokens: 4_000, max_context_window_tokens: 128_000 },
    supports: { tool_calls: true, streaming: true, parallel_tool_calls: true },
  },
};

/** A message's text: a string, or the text parts of a content list. */
function textOf(content: unknown): string {
  if (typeof content === 'string') {
    return content;
  }
  if (Array.isArray(content)) {
    return content.map((part: { text?: unknown }) => (typeof part?.text === 'string' ? part.text : '')).join('');
  }
  return '';
}
