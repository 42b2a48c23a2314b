import { failureOf } from '../core/failure';
import { errorMessage } from '../log';

/** An MCP `tools/call` result with the tool's JSON as its one text content. */
export interface McpToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  isError?: boolean;
}

/**
 * The MCP result of a core tool answer: the JSON text unchanged, and `isError: true` when the
 * answer is a failure (`failureOf`, the one rule every host asks).
 */
export function toolResult(text: string): McpToolResult {
  const result: McpToolResult = { content: [{ type: 'text', text }] };
  if (failureOf(text) !== undefined) {
    result.isError = true;
  }
  return result;
}

/** The result of a call that threw (a trapped core, a file system error): the same
 * `{"isError": true, "message": ...}` the VS Code tools answer. */
export function thrownResult(err: unknown): McpToolResult {
  return toolResult(JSON.stringify({ isError: true, message: errorMessage(err) }));
}

/** The `error` or `message` of a failed answer, for the log. */
export function failureText(text: string): string {
  return failureOf(text) ?? text;
}

