import * as fs from 'fs';
import * as path from 'path';

import type { CallContext } from '../chat/caller';
import type { Logger } from '../log';
import type { AgentCall } from '../mcp/caller';
import { agentRoots, type AgentRoots } from './agents';
import { isDir } from './discovery';
import type { DialogSessionsService } from './dialogSessionsService';

/** How long a call waits for the calling agent's log to record the turn running now. The agents
 * flush their logs about every 100 ms (Copilot CLI, Claude Code; Codex writes at once). */
export const TURN_WAIT_MS = 1_000;

/** The most a turn check reads of a log's end to find the running call's id (Claude Code writes
 * ~190 KB lines of request bodies; the running `tool_use` line is among the last). */
const TAIL_BYTES = 1024 * 1024;

/** Whether the caller's log, as the store read it, holds the turn that is running now. */
export type TurnState = 'recorded' | 'behind' | 'missing';

/**
 * The calling agent session's context for one tool call: the core answers from its log once the
 * log holds the running turn; until then the core asks (`live_pending`) and `live()` waits,
 * watcher-driven and at most `TURN_WAIT_MS`, re-reading what changed at each event. What the core
 * gets after the wait says why the log may be behind (or missing): never another session's words.
 */
export function agentCallContext(
  sessions: DialogSessionsService,
  call: AgentCall,
  log: Logger,
  roots: AgentRoots = agentRoots(),
  waitMs = TURN_WAIT_MS,
): CallContext {
  const context: CallContext = {
    // Not known yet: the store is read again just before the call runs. A dialog tool then asks
    // (`live_pending`) and `live()` checks the fresh store first; other tools never ask.
    caller: { ...call.caller, recorded: false },
    live: async () => {
      const started = performance.now();
      const state = await waitForTurn(sessions, call, roots, waitMs);
      const ms = Math.round(performance.now() - started);
      context.caller = { ...call.caller, recorded: state === 'recorded' };
      if (state === 'recorded') {
        log.debug(`the ${call.caller.source} log recorded the running turn after ${ms} ms`);
        return { error: 'recorded' };
      }
      log.info(`the ${call.caller.source} log of session ${call.caller.sessionId} is ${state} after ${ms} ms`);
      return {
        error:
          state === 'missing'
            ? `no log of that session appeared within ${ms} ms`
            : `the log did not record the running turn within ${ms} ms`,
      };
    },
  };
  return context;
}

/** Where the caller's log is, as the store knows it, and whether it holds the running turn: the
 * call's own id when the agent sends one (Claude Code's `tool_use` id, Codex's `call_id`), else
 * (Copilot CLI) a last request still in progress. */
export function turnState(sessions: DialogSessionsService, call: AgentCall): TurnState {
  const dialog = sessions.findDialog(call.caller.source, call.caller.sessionId);
  if (!dialog) {
    return 'missing';
  }
  if (call.callId !== undefined) {
    return tailHolds(dialog.path, JSON.stringify(call.callId)) ? 'recorded' : 'behind';
  }
  if (call.caller.source !== 'copilot-cli') {
    // No call id and no turn marks to go by (Qwen Code): the log as it is.
    return 'recorded';
  }
  const last = dialog.dialog.requests[dialog.dialog.requests.length - 1];
  return last?.status === 'inProgress' ? 'recorded' : 'behind';
}

/** Waits until the caller's log holds the running turn, or `waitMs` passed. Each change the
 * watchers report reads what changed (the sync's own `stat`s); nothing polls. */
async function waitForTurn(sessions: DialogSessionsService, call: AgentCall, roots: AgentRoots, waitMs: number): Promise<TurnState> {
  const deadline = performance.now() + waitMs;
  let state = turnState(sessions, call);
  while (state !== 'recorded') {
    const left = deadline - performance.now();
    if (left <= 0) {
      break;
    }
    // Watch first, then read: a write that lands while the store reads still ends the next wait
    // (watching only after the read missed it, and the call waited for the deadline).
    const change = changeIn(watchDirs(call, roots, sessions), left);
    await sessions.refresh();
    state = turnState(sessions, call);
    if (state !== 'recorded') {
      await change.done;
    }
    change.stop();
  }
  if (state === 'recorded' && call.callId !== undefined) {
    // The call's id was read from the file itself, maybe after the store last read it: read what
    // was written up to it (the person's prompt comes before it in the log).
    await sessions.refresh();
  }
  return state;
}

/** The folders where the caller's log is or will appear. */
function watchDirs(call: AgentCall, roots: AgentRoots, sessions: DialogSessionsService): string[] {
  const { source, sessionId } = call.caller;
  const dirs: string[] = [];
  const known = sessions.findDialog(source, sessionId);
  if (known) {
    dirs.push(path.dirname(known.path));
  }
  const root =
    source === 'copilot-cli' ? roots.copilot : source === 'claude-code' ? roots.claude : source === 'codex' ? roots.codex : source === 'gemini-cli' ? roots.gemini : roots.qwen;
  dirs.push(root, path.dirname(root));
  if (source === 'copilot-cli' && /^[A-Za-z0-9-]+$/.test(sessionId)) {
    dirs.push(path.join(root, sessionId));
  } else if (source === 'claude-code') {
    // Claude Code's project folder: the working folder with every other character a `-`.
    const slug = (folder: string) => folder.replace(/[^A-Za-z0-9]/g, '-');
    for (const folder of new Set([process.env.CLAUDE_PROJECT_DIR, process.cwd()])) {
      if (folder) {
        dirs.push(path.join(root, slug(folder)));
      }
    }
  } else if (source === 'codex') {
    const now = new Date();
    const two = (n: number) => String(n).padStart(2, '0');
    for (const [y, m, d] of [
      [now.getFullYear(), now.getMonth() + 1, now.getDate()],
      [now.getUTCFullYear(), now.getUTCMonth() + 1, now.getUTCDate()],
    ]) {
      dirs.push(path.join(root, String(y), two(m), two(d)), path.join(root, String(y), two(m)));
    }
  }
  return [...new Set(dirs)].filter(isDir);
}

/** `done` resolves at the first change in any of `dirs`, or after `ms`; `stop` ends the watch. */
function changeIn(dirs: string[], ms: number): { done: Promise<void>; stop(): void } {
  const watchers: fs.FSWatcher[] = [];
  let resolveDone: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    resolveDone = resolve;
  });
  const stop = () => {
    clearTimeout(timer);
    watchers.forEach((w) => w.close());
    resolveDone();
  };
  // `stop` runs only later (a watcher event, the timer, the caller): `timer` is set by then.
  const timer = setTimeout(stop, ms);
  for (const dir of dirs) {
    try {
      const watcher = fs.watch(dir, { persistent: false }, stop);
      watcher.on('error', () => undefined);
      watchers.push(watcher);
    } catch {
      // gone since it was listed: the other folders and the deadline still end the wait
    }
  }
  return { done, stop };
}

/** Whether the last `TAIL_BYTES` of a regular file hold `needle`. A file that cannot be read
 * holds nothing. */
function tailHolds(file: string, needle: string): boolean {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0));
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) {
      return false;
    }
    const length = Math.min(stat.size, TAIL_BYTES);
    const buffer = Buffer.alloc(length);
    const read = fs.readSync(fd, buffer, 0, length, stat.size - length);
    return buffer.subarray(0, read).includes(needle);
  } catch {
    return false;
  } finally {
    if (fd !== undefined) {
      fs.closeSync(fd);
    }
  }
}
