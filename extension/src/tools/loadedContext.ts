// What `tool_load` means for VS Code's context keys, without `vscode` (unit-tested in Node).
import type { ToolListing } from './coreTool';

/** `vscodeName → loadedContextKey` of the deferred tools in a listing. */
export function contextKeysOf(tools: readonly Pick<ToolListing, 'vscodeName' | 'loadedContextKey'>[]): Map<string, string> {
  return new Map(
    tools.filter((tool) => typeof tool.loadedContextKey === 'string').map((tool) => [tool.vscodeName, tool.loadedContextKey as string]),
  );
}

/** The context keys to set for a `tool_load` answer: its `loaded` and `alreadyActive` tools that
 * are our deferred ones. Anything else in the answer (external tools, a failure) sets nothing. */
export function loadedKeys(answer: string, keys: ReadonlyMap<string, string>): string[] {
  let parsed: { success?: unknown; loaded?: unknown; alreadyActive?: unknown };
  try {
    parsed = JSON.parse(answer) as typeof parsed;
  } catch {
    return [];
  }
  if (parsed?.success !== true) {
    return [];
  }
  const names = [parsed.loaded, parsed.alreadyActive].flatMap((list) => (Array.isArray(list) ? list : []));
  return names.flatMap((name) => (typeof name === 'string' && keys.has(name) ? [keys.get(name) as string] : []));
}
