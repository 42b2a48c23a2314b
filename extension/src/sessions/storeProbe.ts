// Which of the window machine's user folders may hold this window's chats (`windowStore.ts`), as
// plain functions: no folder another account can write, and no guess between two accounts.

/** Home folders every account can write (`/Users/Shared` on macOS, `C:\Users\Public` on Windows):
 * another account could plant a `workspaceStorage/<id>` there for a window whose id it can compute
 * (a hash of the remote folder's URI). Never probed. */
const SHARED_HOMES = new Set(['shared', 'public', 'default', 'all users', 'default user']);

/** The home folders under `root` worth probing: `names` as listed, shared ones left out. */
export function probedHomes(root: string, names: string[]): string[] {
  return names.filter((name) => !SHARED_HOMES.has(name.toLowerCase())).map((name) => `${root}/${name}`);
}

/**
 * The one match of a probe, or why there is none: matches in one home (two VS Code builds of the
 * same person) are that person's, the first kept; matches in two homes are two accounts' folders
 * of the same window id, and which is the window's own cannot be told, so neither is taken.
 */
export function oneHome<T extends { home: string }>(matches: T[]): { match: T } | { ambiguous: string[] } | undefined {
  if (matches.length === 0) {
    return undefined;
  }
  const homes = [...new Set(matches.map((m) => m.home))];
  return homes.length === 1 ? { match: matches[0] } : { ambiguous: homes };
}
