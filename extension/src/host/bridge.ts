/**
 * The I/O bridge the WASM core calls synchronously while a tool runs (crates/secretary-wasm/src/host.rs,
 * the core's `host::Host` trait). The core keeps every rule (names, formats, merging, caps); a bridge only
 * resolves an area to a folder and does the file system work, strictly inside that folder.
 *
 * Errors are thrown; their `code` tells the core what failed: `SECRETARY_NO_AREA` (this host has no
 * folder for the area), `SECRETARY_PATH_REFUSED` (the path would leave the area, or writes a read-only
 * area), `SECRETARY_FETCH_PENDING` / `SECRETARY_NETWORK` (`httpGet`), anything else I/O.
 */

/** Named roots the host resolves: the workspace folder, this workspace's state, the global state, and
 * two read-only ones: the cargo registry sources (`$CARGO_HOME/registry/src`) and the bundled library docs. */
export type AreaName = 'workspace' | 'workspaceState' | 'globalState' | 'cargoRegistry' | 'bundled';

/** Areas the core only reads: writes and removals there are refused. */
export const READ_ONLY_AREAS: ReadonlySet<AreaName> = new Set<AreaName>(['cargoRegistry', 'bundled']);

export interface HostBridge {
  /** A file's bytes, `null` when it does not exist. */
  read(area: AreaName, path: string): Uint8Array | null;
  /** Replaces a file atomically (temporary file in the same folder, flushed, renamed). */
  writeAtomic(area: AreaName, path: string, bytes: Uint8Array): void;
  /** Removes a file; `false` when it did not exist. */
  remove(area: AreaName, path: string): boolean;
  /** Files under `dir` ('' for the root) as `/`-separated paths relative to it. */
  list(area: AreaName, dir: string, recursive: boolean): string[];
  /** A setting's value (`copilotChatSecretary.content.categories`), `undefined` when unset. */
  setting(key: string): unknown;
  /** Optional: a file's size and modification time, `null` when it does not exist (memory's `list`). */
  stat?(area: AreaName, path: string): { size: number; mtimeMs: number } | null;
  /** Optional: the absolute folder of an area (the core turns absolute paths agents send into relative ones). */
  rootOf?(area: AreaName): string | undefined;
  /** Optional: `git status --porcelain=v1 -z --untracked-files=all` of a workspace folder (get_changed_files). */
  gitStatus?(repo: string): Uint8Array;
  /** Optional: the names of the folders directly under `dir` (library docs: `node_modules/*`, venvs, registries). */
  listDirs?(area: AreaName, dir: string): string[];
  /**
   * Optional: an HTTP GET, synchronous for the core. Hosts answer from the current call's cache
   * (`host/http.ts`): a miss throws `SECRETARY_FETCH_PENDING`, the adapter fetches and runs the tool
   * again; a failed fetch throws `SECRETARY_NETWORK`. Any HTTP status is an answer.
   */
  httpGet?(url: string, headers: Record<string, string>, timeoutMs: number): { status: number; body: string };
  /**
   * Optional: takes the exclusive lock of `path` (a file or folder of `area`) for a read-modify-write
   * shared with other processes (flags, memory), waiting a bounded time; throws when it stays taken.
   */
  lock?(area: AreaName, path: string): void;
  /** Optional: releases a lock `lock` took. */
  unlock?(area: AreaName, path: string): void;
}

export type HostErrorCode = 'SECRETARY_NO_AREA' | 'SECRETARY_PATH_REFUSED' | 'SECRETARY_FETCH_PENDING' | 'SECRETARY_NETWORK';

/** An error the bridge throws on purpose (its `code` reaches the core). */
export class HostError extends Error {
  constructor(
    readonly code: HostErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'HostError';
  }
}
