import { Transform, type TransformCallback } from 'stream';

import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  InitializeRequestSchema,
  JSONRPCMessageSchema,
  JSONRPCRequestSchema,
  ListPromptsRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  SetLevelRequestSchema,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';

import type { Logger } from '../log';
import { errorMessage } from '../log';

/** A JSON-RPC error response for a message that never reaches the server. */
export interface GuardReply {
  jsonrpc: '2.0';
  id: string | number | null;
  error: { code: number; message: string };
}

/** What to do with one line from the client. */
export type Verdict = { kind: 'pass' } | { kind: 'reply'; reply: GuardReply } | { kind: 'drop'; reason: string };

/** The requests this server handles, with the SDK's schema of each, to answer bad parameters
 * as "Invalid params" (-32602) rather than the SDK's "Internal error". A `Map`, never a plain
 * object: a method from the wire such as `constructor` or `__proto__` must find nothing (on an
 * object literal it finds `Object.prototype`'s members, and calling one stopped the server). */
const REQUEST_SCHEMAS: ReadonlyMap<string, { safeParse(value: unknown): { success: boolean; error?: unknown } }> = new Map<
  string,
  { safeParse(value: unknown): { success: boolean; error?: unknown } }
>([
  ['initialize', InitializeRequestSchema],
  ['ping', PingRequestSchema],
  ['tools/list', ListToolsRequestSchema],
  ['tools/call', CallToolRequestSchema],
  // A prompt's arguments are strings: `{"limit": 5}` is a client's mistake (-32602), not ours (-32603).
  ['prompts/list', ListPromptsRequestSchema],
  ['prompts/get', GetPromptRequestSchema],
  ['logging/setLevel', SetLevelRequestSchema],
]);

/** Lines longer than this are answered "too large" and skipped. */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;

/**
 * Judges one line of the stdio stream as JSON-RPC 2.0 would: not JSON → Parse error (-32700, id
 * null); JSON but not a JSON-RPC message (or a batch, which MCP does not use) → Invalid Request
 * (-32600, with the request's id when it has a usable one); a known request with bad parameters →
 * Invalid params (-32602). Malformed notifications and responses are dropped (JSON-RPC never
 * answers them). Everything else passes to the SDK.
 */
export function judgeLine(line: string): Verdict {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    return reply(null, ErrorCode.ParseError, `Parse error: ${errorMessage(err)}`);
  }
  if (Array.isArray(value)) {
    return reply(null, ErrorCode.InvalidRequest, 'Invalid Request: batches are not supported');
  }
  if (value === null || typeof value !== 'object') {
    return reply(null, ErrorCode.InvalidRequest, 'Invalid Request: a message must be a JSON object');
  }
  const message = value as Record<string, unknown>;
  const id = usableId(message.id);
  const parsed = JSONRPCMessageSchema.safeParse(message);
  if (!parsed.success) {
    if (!('id' in message) && typeof message.method === 'string') {
      return { kind: 'drop', reason: `malformed notification ${message.method}` };
    }
    if (!('method' in message) && ('result' in message || 'error' in message)) {
      return { kind: 'drop', reason: 'malformed response' };
    }
    // A union's failure says little; the request schema says which field is wrong.
    const asRequest = 'method' in message ? JSONRPCRequestSchema.safeParse(message) : undefined;
    const error = asRequest && !asRequest.success ? asRequest.error : parsed.error;
    return reply(id, ErrorCode.InvalidRequest, `Invalid Request: ${describe(error, message)}`);
  }
  const rpc = parsed.data as JSONRPCMessage;
  if ('method' in rpc && 'id' in rpc) {
    const schema = REQUEST_SCHEMAS.get(rpc.method);
    const checked = schema?.safeParse(rpc);
    if (checked && !checked.success) {
      return reply(id, ErrorCode.InvalidParams, `Invalid params for ${rpc.method}: ${describe(checked.error, message)}`);
    }
  }
  return { kind: 'pass' };
}

/**
 * A stream between the process's stdin and the SDK's stdio transport that lets only well-formed
 * JSON-RPC lines through and answers the others itself, so that garbage on stdin gets a proper
 * JSON-RPC error and never stops the server (the SDK would only report it to `onerror`).
 */
export class JsonRpcGuard extends Transform {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private skipping = false;

  constructor(
    private readonly answer: (reply: GuardReply) => void,
    private readonly log: Logger,
    private readonly maxLineBytes = MAX_LINE_BYTES,
  ) {
    super();
  }

  override _transform(chunk: Buffer | string, _encoding: BufferEncoding, callback: TransformCallback): void {
    const data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let start = 0;
    for (let newline = data.indexOf(10, start); newline !== -1; newline = data.indexOf(10, start)) {
      this.endLine(data.subarray(start, newline));
      start = newline + 1;
    }
    if (start < data.length) {
      this.append(data.subarray(start));
    }
    callback();
  }

  override _flush(callback: TransformCallback): void {
    if (this.pendingBytes > 0 && !this.skipping) {
      this.endLine(Buffer.alloc(0));
    }
    callback();
  }

  private append(part: Buffer): void {
    if (this.skipping) {
      return;
    }
    this.pendingBytes += part.length;
    if (this.pendingBytes > this.maxLineBytes) {
      this.tooLarge();
      this.skipping = true;
      return;
    }
    this.pending.push(part);
  }

  private endLine(part: Buffer): void {
    if (this.skipping) {
      this.reset();
      return;
    }
    if (this.pendingBytes + part.length > this.maxLineBytes) {
      this.reset();
      this.tooLarge();
      return;
    }
    const line = (this.pending.length ? Buffer.concat([...this.pending, part]) : part).toString('utf8').replace(/\r$/, '');
    this.reset();
    if (line.trim() === '') {
      return;
    }
    const verdict = judgeLine(line);
    if (verdict.kind === 'pass') {
      this.push(`${line}\n`);
    } else if (verdict.kind === 'reply') {
      this.log.warn(`rejected a message from the client: ${verdict.reply.error.message}`);
      this.answer(verdict.reply);
    } else {
      this.log.warn(`ignored a message from the client: ${verdict.reason}`);
    }
  }

  private tooLarge(): void {
    this.pending = [];
    this.pendingBytes = 0;
    this.log.warn(`rejected a message from the client: longer than ${this.maxLineBytes} bytes`);
    this.answer({
      jsonrpc: '2.0',
      id: null,
      error: { code: ErrorCode.InvalidRequest, message: `Invalid Request: a message longer than ${this.maxLineBytes} bytes` },
    });
  }

  private reset(): void {
    this.pending = [];
    this.pendingBytes = 0;
    this.skipping = false;
  }
}

function reply(id: string | number | null, code: number, message: string): Verdict {
  return { kind: 'reply', reply: { jsonrpc: '2.0', id, error: { code, message } } };
}

function usableId(id: unknown): string | number | null {
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

/** A short account of a schema failure: the first problems with their paths. */
function describe(error: unknown, message: Record<string, unknown>): string {
  const issues = (error as { issues?: { path?: PropertyKey[]; message?: string }[] } | undefined)?.issues ?? [];
  if (message.jsonrpc !== '2.0') {
    return '"jsonrpc" must be "2.0"';
  }
  const parts = issues.slice(0, 3).map((issue) => {
    const where = (issue.path ?? []).map(String).join('.');
    return where ? `${where}: ${issue.message ?? 'invalid'}` : (issue.message ?? 'invalid');
  });
  return parts.length ? parts.join('; ') : 'not a JSON-RPC 2.0 message';
}
