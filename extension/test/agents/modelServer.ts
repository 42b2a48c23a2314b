import * as http from 'http';
import type { AddressInfo } from 'net';

/**
 * A scripted language model on 127.0.0.1 for driving real agent CLIs offline. It speaks the three
 * wire formats the agents use:
 * - OpenAI chat completions (`POST /v1/chat/completions`, SSE): GitHub Copilot CLI's
 *   bring-your-own-model provider;
 * - Anthropic Messages (`POST /v1/messages`, SSE): Claude Code through `ANTHROPIC_BASE_URL`;
 * - OpenAI Responses (`POST /v1/responses`, SSE): Codex through a model provider in `config.toml`;
 * - Gemini (`POST /v1beta/models/<model>:streamGenerateContent?alt=sse`, or `:generateContent`):
 *   Gemini CLI through `GOOGLE_GEMINI_BASE_URL`.
 *
 * Each request is turned into one `Exchange` (the last user text, whether the last message is a
 * tool result and its text, the tools offered, the whole body) and handed to the test's `script`,
 * which answers with text or one tool call. Every exchange is kept, so tests assert on what the
 * model really received: the tool results, the instructions, the compacted history.
 */

export type Api = 'chat' | 'messages' | 'responses' | 'gemini';

export interface Exchange {
  api: Api;
  /** `x-interaction-type` (Copilot CLI: `conversation-compaction` for a summary request). */
  interaction: string | undefined;
  /** The text of the last message the person (or the agent's harness) sent as the user. */
  lastUser: string;
  /** The text of the tool result the request ends with, when it ends with one. */
  toolResult: string | undefined;
  /** The names of the tools offered in this request. */
  tools: string[];
  /** The raw request body. */
  body: string;
  /** The body without its tool results: what the model sees of the conversation itself. */
  history: string;
}

/** An answer: text or one tool call, and optionally the prompt size to report in `usage` (what
 * Codex's automatic compaction reads; 100 tokens otherwise). */
export type Reply = ({ text: string } | { tool: string; args: Record<string, unknown> }) & { tokens?: number };

export type Script = (exchange: Exchange) => Reply;

export interface ModelServer {
  url: string;
  port: number;
  exchanges: Exchange[];
  script: Script;
  close(): Promise<void>;
}

/** Starts the scripted model on an ephemeral loopback port. */
export async function startModelServer(script: Script): Promise<ModelServer> {
  const exchanges: Exchange[] = [];
  const state: { script: Script } = { script };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const url = req.url ?? '';
      const api: Api | undefined = url.includes('/chat/completions')
        ? 'chat'
        : url.includes('/messages') && !url.includes('count_tokens')
          ? 'messages'
          : url.includes('/responses')
            ? 'responses'
            : /:(stream)?[gG]enerateContent/.test(url)
              ? 'gemini'
              : undefined;
      if (/:countTokens/.test(url)) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"totalTokens": 100}');
        return;
      }
      if (req.method !== 'POST' || api === undefined) {
        // Claude Code's token counting and any other probe: answered small, never scripted.
        res.writeHead(url.includes('count_tokens') ? 200 : 404, { 'content-type': 'application/json' });
        res.end(url.includes('count_tokens') ? '{"input_tokens": 100}' : '{"error": "not scripted"}');
        return;
      }
      let parsed: Record<string, unknown>;
      try {
        parsed = JSON.parse(body) as Record<string, unknown>;
      } catch {
        res.writeHead(400).end();
        return;
      }
      const exchange = readExchange(api, parsed, body, header(req.headers['x-interaction-type']));
      exchanges.push(exchange);
      let reply: Reply;
      try {
        reply = state.script(exchange);
      } catch (err) {
        reply = { text: `script failed: ${String(err)}` };
      }
      if ('tool' in reply) {
        const { tool, args } = reply;
        const offered = exchange.tools.find((name) => name === tool) ?? exchange.tools.find((name) => toolMatches(name, tool));
        reply = offered ? { tool: offered, args, tokens: reply.tokens } : { text: `no tool ${tool} among [${exchange.tools.join(', ')}]` };
      }
      const stream = api === 'gemini' ? url.includes(':streamGenerateContent') : parsed.stream !== false;
      write(api, res, reply, stream, exchanges.length, reply.tokens ?? 100);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    exchanges,
    get script() {
      return state.script;
    },
    set script(next: Script) {
      state.script = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Whether an offered tool name is the wanted tool under an agent's MCP naming
 * (`secretary-get_request`, `mcp__secretary__get_request`, `secretary_get_request`). */
export function toolMatches(offered: string, wanted: string): boolean {
  return offered === wanted || new RegExp(`(^|[-_])${wanted}$`).test(offered) && /secretary/.test(offered);
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

type Json = Record<string, unknown>;

function textOf(content: unknown): string {
  if (typeof content === 'string') {
    return content;
  }
  if (Array.isArray(content)) {
    return content
      .map((part) => {
        if (typeof part === 'string') {
          return part;
        }
        const p = part as Json;
        if (typeof p.text === 'string') {
          return p.text;
        }
        if (p.type === 'tool_result') {
          return textOf(p.content);
        }
        return '';
      })
      .join('\n');
  }
  return '';
}

/** A chat message's content without the `<environment_details>` part Kilo Code's CLI (7.7.7) adds
 * after the person's words (the time, the working folder): the prompt is what the person typed. */
function withoutEnvironmentDetails(content: unknown): unknown {
  return Array.isArray(content) ? content.filter((part) => !String((part as Json).text ?? '').trimStart().startsWith('<environment_details>')) : content;
}

function readExchange(api: Api, body: Json, raw: string, interaction: string | undefined): Exchange {
  let lastUser = '';
  let toolResult: string | undefined;
  let tools: string[];
  if (api === 'chat') {
    const messages = (body.messages as Json[] | undefined) ?? [];
    for (const m of messages) {
      if (m.role === 'user') {
        lastUser = textOf(withoutEnvironmentDetails(m.content));
      }
    }
    const last = messages[messages.length - 1];
    toolResult = last?.role === 'tool' ? textOf(last.content) : undefined;
    tools = ((body.tools as Json[] | undefined) ?? []).map((t) => String((t.function as Json | undefined)?.name ?? t.name ?? ''));
  } else if (api === 'messages') {
    const messages = (body.messages as Json[] | undefined) ?? [];
    for (const m of messages) {
      if (m.role !== 'user') {
        continue;
      }
      const parts = Array.isArray(m.content) ? (m.content as Json[]) : [{ type: 'text', text: m.content }];
      const results = parts.filter((p) => p.type === 'tool_result');
      const texts = parts.filter((p) => p.type === 'text').map((p) => String(p.text ?? ''));
      if (results.length > 0) {
        toolResult = results.map((r) => textOf(r.content)).join('\n');
      } else {
        toolResult = undefined;
      }
      // The person's prompt is the last text part (Claude Code puts reminders before it).
      const prompt = texts.filter((t) => !t.startsWith('<system-reminder>')).pop();
      if (results.length === 0 && prompt !== undefined) {
        lastUser = prompt;
      }
    }
    const last = messages[messages.length - 1];
    if (last?.role !== 'user' || !Array.isArray(last.content) || !(last.content as Json[]).some((p) => p.type === 'tool_result')) {
      toolResult = undefined;
    }
    tools = ((body.tools as Json[] | undefined) ?? []).map((t) => String(t.name ?? ''));
  } else if (api === 'gemini') {
    const contents = (body.contents as Json[] | undefined) ?? [];
    for (const c of contents) {
      const parts = (c.parts as Json[] | undefined) ?? [];
      if (c.role === 'user' && parts.some((p) => typeof p.text === 'string')) {
        lastUser = parts.map((p) => (typeof p.text === 'string' ? p.text : '')).join('\n');
      }
    }
    const lastParts = ((contents[contents.length - 1]?.parts as Json[] | undefined) ?? []);
    const response = lastParts.find((p) => p.functionResponse !== undefined)?.functionResponse as Json | undefined;
    toolResult = response === undefined ? undefined : JSON.stringify(response.response ?? response);
    tools = ((body.tools as Json[] | undefined) ?? []).flatMap((t) => ((t.functionDeclarations as Json[] | undefined) ?? []).map((f) => String(f.name ?? '')));
  } else {
    const input = Array.isArray(body.input) ? (body.input as Json[]) : [{ role: 'user', content: body.input }];
    for (const item of input) {
      if (item.role === 'user' && (item.type === undefined || item.type === 'message')) {
        const text = textOf(item.content);
        if (!text.startsWith('<environment_context>') && !text.startsWith('# AGENTS.md') && !text.startsWith('<user_instructions>')) {
          lastUser = text;
        }
      }
    }
    const last = input[input.length - 1];
    toolResult = last?.type === 'function_call_output' ? outputText(last.output) : undefined;
    tools = flattenResponseTools((body.tools as Json[] | undefined) ?? []);
  }
  return { api, interaction, lastUser, toolResult, tools, body: raw, history: JSON.stringify(withoutToolResults(api, body)) };
}

function withoutToolResults(api: Api, body: Json): unknown {
  if (api === 'chat') {
    return ((body.messages as Json[] | undefined) ?? []).filter((m) => m.role !== 'tool');
  }
  if (api === 'gemini') {
    return ((body.contents as Json[] | undefined) ?? []).map((c) => ({ ...c, parts: ((c.parts as Json[] | undefined) ?? []).filter((p) => p.functionResponse === undefined) }));
  }
  if (api === 'messages') {
    return ((body.messages as Json[] | undefined) ?? []).map((m) =>
      Array.isArray(m.content) ? { ...m, content: (m.content as Json[]).filter((p) => p.type !== 'tool_result') } : m,
    );
  }
  return (Array.isArray(body.input) ? (body.input as Json[]) : []).filter((item) => item.type !== 'function_call_output');
}

function outputText(output: unknown): string {
  if (typeof output === 'string') {
    return output;
  }
  if (output && typeof output === 'object' && 'content' in (output as Json)) {
    return textOf((output as Json).content);
  }
  return textOf(output);
}

/** Responses API tools, with Codex's MCP namespaces flattened to `<namespace>__<tool>`... as the
 * names its function calls use. */
function flattenResponseTools(tools: Json[]): string[] {
  const names: string[] = [];
  for (const tool of tools) {
    if (typeof tool.name === 'string') {
      names.push(tool.name);
    }
    const inner = (tool.tools as Json[] | undefined) ?? [];
    for (const t of inner) {
      if (typeof t.name === 'string') {
        names.push(typeof tool.name === 'string' ? `${tool.name}__${t.name}` : t.name);
      }
    }
  }
  return names;
}

function write(api: Api, res: http.ServerResponse, reply: Reply, stream: boolean, serial: number, tokens: number): void {
  const id = `scripted-${serial}`;
  if (api === 'chat') {
    return writeChat(res, reply, stream, id, tokens);
  }
  if (api === 'messages') {
    return writeMessages(res, reply, stream, id, tokens);
  }
  if (api === 'gemini') {
    return writeGemini(res, reply, stream, tokens);
  }
  return writeResponses(res, reply, id, tokens);
}

function sse(res: http.ServerResponse, events: [string | undefined, unknown][]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'close' });
  for (const [event, data] of events) {
    res.write(`${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
  }
  res.end();
}

function writeChat(res: http.ServerResponse, reply: Reply, stream: boolean, id: string, tokens: number): void {
  const USAGE_CHAT = { prompt_tokens: tokens, completion_tokens: 10, total_tokens: tokens + 10 };
  const created = Math.floor(Date.now() / 1000);
  const base = { id, object: 'chat.completion.chunk', created, model: 'scripted' };
  if (!stream) {
    const message =
      'tool' in reply
        ? { role: 'assistant', content: null, tool_calls: [{ id: `call_${id}`, type: 'function', function: { name: reply.tool, arguments: JSON.stringify(reply.args) } }] }
        : { role: 'assistant', content: reply.text };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id, object: 'chat.completion', created, model: 'scripted', choices: [{ index: 0, message, finish_reason: 'tool' in reply ? 'tool_calls' : 'stop' }], usage: USAGE_CHAT }));
    return;
  }
  const events: [undefined, unknown][] = [];
  if ('tool' in reply) {
    events.push([undefined, { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: null, tool_calls: [{ index: 0, id: `call_${id}`, type: 'function', function: { name: reply.tool, arguments: JSON.stringify(reply.args) } }] }, finish_reason: null }] }]);
    events.push([undefined, { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }], usage: USAGE_CHAT }]);
  } else {
    events.push([undefined, { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: reply.text }, finish_reason: null }] }]);
    events.push([undefined, { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage: USAGE_CHAT }]);
  }
  events.push([undefined, '[DONE]']);
  sse(res, events);
}

function writeMessages(res: http.ServerResponse, reply: Reply, stream: boolean, id: string, tokens: number): void {
  const usage = { input_tokens: tokens, output_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const block = 'tool' in reply ? { type: 'tool_use', id: `toolu_${id}`, name: reply.tool, input: reply.args } : { type: 'text', text: reply.text };
  const stop = 'tool' in reply ? 'tool_use' : 'end_turn';
  if (!stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id: `msg_${id}`, type: 'message', role: 'assistant', model: 'scripted', content: [block], stop_reason: stop, stop_sequence: null, usage }));
    return;
  }
  const start = 'tool' in reply ? { ...block, input: {} } : { type: 'text', text: '' };
  const delta = 'tool' in reply ? { type: 'input_json_delta', partial_json: JSON.stringify(reply.args) } : { type: 'text_delta', text: reply.text };
  sse(res, [
    ['message_start', { type: 'message_start', message: { id: `msg_${id}`, type: 'message', role: 'assistant', model: 'scripted', content: [], stop_reason: null, stop_sequence: null, usage } }],
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: start }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta }],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    ['message_delta', { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 10 } }],
    ['message_stop', { type: 'message_stop' }],
  ]);
}

function writeResponses(res: http.ServerResponse, reply: Reply, id: string, tokens: number): void {
  let item: Json;
  if ('tool' in reply) {
    // Codex offers an MCP server's tools as one `namespace` entry (`mcp__<server>`): a call names
    // the namespace and the tool apart.
    const spaced = /^(mcp__[^_]+(?:_[^_]+)*?)__(.+)$/.exec(reply.tool);
    const names = spaced ? { namespace: spaced[1], name: spaced[2] } : { name: reply.tool };
    item = { type: 'function_call', id: `fc_${id}`, call_id: `call_${id}`, ...names, arguments: JSON.stringify(reply.args), status: 'completed' };
  } else {
    item = { type: 'message', id: `msg_${id}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: reply.text, annotations: [] }] };
  }
  const usage = { input_tokens: tokens, input_tokens_details: { cached_tokens: 0 }, output_tokens: 10, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: tokens + 10 };
  sse(res, [
    ['response.created', { type: 'response.created', response: { id: `resp_${id}`, object: 'response', status: 'in_progress', output: [] } }],
    ['response.output_item.done', { type: 'response.output_item.done', output_index: 0, item }],
    ['response.completed', { type: 'response.completed', response: { id: `resp_${id}`, object: 'response', status: 'completed', output: [item], usage } }],
  ]);
}

function writeGemini(res: http.ServerResponse, reply: Reply, stream: boolean, tokens: number): void {
  const part = 'tool' in reply ? { functionCall: { name: reply.tool, args: reply.args } } : { text: reply.text };
  const chunk = {
    candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: tokens, candidatesTokenCount: 10, totalTokenCount: tokens + 10 },
    modelVersion: 'scripted',
  };
  if (!stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(chunk));
    return;
  }
  sse(res, [[undefined, chunk]]);
}
