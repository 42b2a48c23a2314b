import * as fs from 'fs';
import type * as http from 'http';
import type { AddressInfo } from 'net';
import * as os from 'os';
import * as path from 'path';

import type { ToolListing } from '../../src/core/generated/ToolListing';

/** The repository root (tests run from out/unit/ after bundling). */
export const ROOT = process.env.SECRETARY_ROOT ?? path.resolve(__dirname, '..', '..');
export const WASM_DIR = path.join(ROOT, 'dist', 'wasm');
export const SAMPLES = path.join(ROOT, 'samples', 'user-data');
export const SAMPLE_WORKSPACE = 'file:///home/dev/projects/todo-app';
export const SAMPLE_STORAGE = path.join(SAMPLES, 'User', 'workspaceStorage', '5f2a9c0e1b7d4e3f8a6b2c1d0e9f8a7b');

/** A fresh temporary folder, removed by the returned cleanup. */
export function tempDir(prefix = 'secretary-test-'): { dir: string; cleanup(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** Copies the sample user-data folder into a temporary one tests may change. */
export function copySamples(): { dir: string; storage: string; cleanup(): void } {
  const temp = tempDir();
  fs.cpSync(SAMPLES, temp.dir, { recursive: true });
  return {
    dir: temp.dir,
    storage: path.join(temp.dir, 'User', 'workspaceStorage', path.basename(SAMPLE_STORAGE)),
    cleanup: temp.cleanup,
  };
}

/** Runs `run`, then `cleanup` whatever happens: at once for a plain result, when it settles for a promise. */
function cleaningUp<T>(cleanup: () => void, run: () => T): T {
  let result: T;
  try {
    result = run();
  } catch (error) {
    cleanup();
    throw error;
  }
  if (result instanceof Promise) {
    return result.finally(cleanup) as T;
  }
  cleanup();
  return result;
}

/** Runs `fn` on a fresh copy of the sample user-data folder, removed afterwards (see copySamples). */
export function withSamples<T>(fn: (samples: { dir: string; storage: string }) => T): T {
  const samples = copySamples();
  return cleaningUp(samples.cleanup, () => fn(samples));
}

/** Runs `fn` in a fresh temporary folder, removed afterwards (see tempDir). */
export function withTempDir<T>(prefix: string, fn: (dir: string) => T): T {
  const temp = tempDir(prefix);
  return cleaningUp(temp.cleanup, () => fn(temp.dir));
}

/** Starts `server` on a free port of 127.0.0.1: its URL, and a close that drops open connections
 * first (a test's server must not keep the run alive). */
export async function listenLocal(server: http.Server): Promise<{ url: string; close(): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The lines a stream writes, as they complete (a raw JSON-RPC peer's view of a server's stdout). */
export function linesOf(stream: NodeJS.ReadableStream): string[] {
  const lines: string[] = [];
  let buffer = '';
  stream.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    let newline;
    while ((newline = buffer.indexOf('\n')) !== -1) {
      lines.push(buffer.slice(0, newline));
      buffer = buffer.slice(newline + 1);
    }
  });
  return lines;
}

/** A tool's listing entry as the core lists an ordinary tool (no context key, example, consent or
 * confirmation), with `fields` replaced: for tests of the hosts' registries without the module. */
export function toolListing(name: string, fields: Partial<ToolListing> = {}): ToolListing {
  return {
    name,
    vscodeName: `chat_secretary_${name}`,
    referenceName: name,
    displayName: name.replace(/_/g, ' '),
    summary: `${name} summary`,
    description: `${name} description`,
    inputSchema: { type: 'object', properties: {}, required: [], additionalProperties: false },
    tags: [],
    deferred: false,
    destructive: false,
    invocationMessage: name,
    loadedContextKey: null,
    example: false,
    consent: null,
    confirmation: null,
    ...fields,
  };
}
