import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';

import type { Logger } from '../log';
import { callerOf, type CallContext, type LiveOutcome } from './caller';
import { errorMessage } from '../log';

/** VS Code's command that writes the last focused chat's model to a file (no dialog). */
export const EXPORT_COMMAND = 'workbench.action.chat.export';
/** How long a live copy may take: measured 24-128 ms; past this the answer comes from disk. */
export const LIVE_TIMEOUT_MS = 2_000;
/** The largest live copy read (the core refuses more anyway). */
const MAX_LIVE_BYTES = 64 * 1024 * 1024;

/**
 * Takes a live copy of the last focused chat with VS Code's own export, into a private temporary
 * file under `dir` (the extension's global storage, never VS Code's chat storage), reads it back and
 * deletes it. Bounded in time and size; never throws. Runs only when a tool asked for it (the core's
 * `live_pending`): no timers, nothing in the background.
 */
export async function exportLiveChat(dir: vscode.Uri, log: Logger, timeoutMs = LIVE_TIMEOUT_MS): Promise<LiveOutcome> {
  const started = performance.now();
  const target = vscode.Uri.joinPath(dir, 'live', `chat-${crypto.randomUUID()}.json`);
  const file = target.fsPath;
  try {
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
  } catch (err) {
    return { error: `no folder for the live copy (${message(err)})` };
  }
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const exported = Promise.resolve(vscode.commands.executeCommand(EXPORT_COMMAND, target)).then(
    () => 'done' as const,
    (err: unknown) => ({ failed: message(err) }),
  );
  const outcome = await Promise.race([exported, timeout]);
  clearTimeout(timer);
  try {
    if (outcome === 'timeout') {
      // It may still write later: remove it then.
      void exported.finally(() => fs.promises.rm(file, { force: true }).catch(() => undefined));
      return { error: `VS Code wrote no live copy within ${timeoutMs} ms` };
    }
    if (typeof outcome === 'object') {
      return { error: `VS Code could not export the chat (${outcome.failed})` };
    }
    const read = await readBounded(file);
    if ('bytes' in read) {
      log.debug(`live chat copy: ${read.bytes.length} bytes in ${(performance.now() - started).toFixed(0)} ms`);
    }
    return read;
  } finally {
    if (outcome !== 'timeout') {
      await fs.promises.rm(file, { force: true }).catch(() => undefined);
    }
  }
}

/** The calling chat of a tool call or chat request, from its invocation token, with the live copy
 * taken on demand; `undefined` when there is no token (a call from another extension). */
export function callContext(token: unknown, storage: vscode.Uri, log: Logger): CallContext | undefined {
  const caller = callerOf(token);
  if (!caller) {
    return undefined;
  }
  if (caller.kind !== 'local') {
    log.info(`tool called from a chat the Secretary cannot read: ${JSON.stringify(caller)}`);
  }
  return { caller, live: () => exportLiveChat(storage, log) };
}

async function readBounded(file: string): Promise<LiveOutcome> {
  let handle: fs.promises.FileHandle | undefined;
  try {
    handle = await fs.promises.open(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
    const stat = await handle.stat();
    if (!stat.isFile()) {
      return { error: 'the live copy is not a regular file' };
    }
    if (stat.size > MAX_LIVE_BYTES) {
      return { error: `the live copy is too large (${stat.size} bytes)` };
    }
    const buffer = Buffer.alloc(stat.size);
    let read = 0;
    while (read < stat.size) {
      const { bytesRead } = await handle.read(buffer, read, stat.size - read, read);
      if (bytesRead === 0) {
        break;
      }
      read += bytesRead;
    }
    return { bytes: buffer.subarray(0, read) };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      // What VS Code does when the last focused chat is an editor hidden behind another one.
      return { error: 'VS Code wrote no live copy (the calling chat may not be the last focused one)' };
    }
    return { error: `the live copy could not be read (${message(err)})` };
  } finally {
    await handle?.close();
  }
}

function message(err: unknown): string {
  return errorMessage(err);
}
