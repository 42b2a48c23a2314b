/**
 * Tool names over MCP. The core's tools have plain names (`get_request`); an MCP server shows them
 * with a prefix so that they stand out among the tools of every other server a client runs:
 * `MCP_TOOL_PREFIX` joined with `_` (default `secretary`, so `secretary_get_request`). A value
 * set in the environment is never overridden, and an empty one means no prefix at all.
 */

/** The prefix used when `MCP_TOOL_PREFIX` is not set. */
export const DEFAULT_MCP_TOOL_PREFIX = 'secretary';

/** Characters MCP allows in a tool name (the 2025-11-25 specification: 1 to 128 of these). */
const VALID_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * The string put before every plain name: `secretary_` by default, `''` when `MCP_TOOL_PREFIX`
 * is set to the empty string. A prefix already ending in `_` is not given a second one. The core's
 * rule (`registry::mcp_prefix`, the facade's `toolPrefix`), here because `secretary mcp` answers
 * `tools/list` before it loads the module; a unit test (core.test.ts) holds the two to one answer.
 */
export function toolNamePrefix(env: NodeJS.ProcessEnv = process.env): string {
  const value = env.MCP_TOOL_PREFIX ?? DEFAULT_MCP_TOOL_PREFIX;
  const prefix = value.trim();
  if (prefix === '') {
    return '';
  }
  return prefix.endsWith('_') ? prefix : `${prefix}_`;
}

/** The MCP name of a plain tool name under `prefix` (from `toolNamePrefix`). */
export function mcpToolName(plain: string, prefix: string): string {
  return `${prefix}${plain}`;
}

/** Why `prefix` cannot make valid MCP tool names, or `undefined` when it can. */
export function prefixProblem(prefix: string): string | undefined {
  if (prefix === '' || VALID_NAME.test(prefix)) {
    return undefined;
  }
  return `MCP_TOOL_PREFIX makes tool names with characters MCP does not allow (only A-Z, a-z, 0-9, _, - and .): ${JSON.stringify(prefix)}`;
}
