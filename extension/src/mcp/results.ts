/** An MCP `tools/call` result with the tool's JSON as its one text content. */
export interface McpToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  isError?: boolean;
}

/**
 * The MCP result of a core tool answer: the JSON text unchanged, and `isError: true` when the
 * answer is a failure (`"success": false` or `"isError": true`) or, which the core never gives,
 * not JSON at all.
 */
export function toolResult(text: string): McpToolResult {
  const result: McpToolResult = { content: [{ type: 'text', text }] };
  if (isFailure(text)) {
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
  try {
    const value = JSON.parse(text) as { error?: unknown; message?: unknown };
    if (typeof value.error === 'string') {
      return value.error;
    }
    if (typeof value.message === 'string') {
      return value.message;
    }
  } catch {
    // fall through: not JSON
  }
  return text;
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function isFailure(text: string): boolean {
  try {
    const value = JSON.parse(text) as unknown;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      return true;
    }
    const fields = value as { success?: unknown; isError?: unknown };
    return fields.success === false || fields.isError === true;
  } catch {
    return true;
  }
}
