/**
 * Whether a tool's answer is a failure, and what it says: one rule for every host, the core's
 * (`registry::copilot_ls::result_status`, which the Copilot language server's answers use). A
 * failure says `"success": false` (its `error`) or `"isError": true` (its `message`: a host's answer
 * when something broke), or is not a JSON object at all (the core always answers one). The VS Code
 * tools' log and the MCP results both ask this function; `undefined` is a success.
 *
 * A copy of the core's rule on purpose: it also judges the hosts' own answers when the core failed
 * (a trap, a module that does not load), so it must not need the module. A unit test
 * (toolLogging.test.ts) holds it to the core's `copilotLsResult` status on every kind of text.
 */
export function failureOf(text: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text.length > 0 ? text.slice(0, 1_000) : 'an empty answer';
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return 'not a JSON object';
  }
  const result = parsed as { success?: unknown; error?: unknown; isError?: unknown; message?: unknown };
  if (result.success === false) {
    return typeof result.error === 'string' ? result.error : 'unknown error';
  }
  if (result.isError === true) {
    return typeof result.message === 'string' ? result.message : 'unknown error';
  }
  return undefined;
}
