import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import type { HookInput } from '../core/wasm';
import { readBounded } from '../host/boundedRead';
import { defaultUserDataDirs, listSessionFiles, userDir, workspaceStorages } from '../sessions/discovery';

/**
 * The VS Code chat session a `UserPromptSubmit` hook of VS Code's own agent names (`secretary hook
 * user-prompt-submitted --agent vscode`). Copilot Chat runs the hooks VS Code collects and sends
 * `session_id`, its conversation's id, and `transcript_path`, its own transcript
 * `<workspaceStorage>/<hash>/GitHub.copilot-chat/transcripts/<session_id>.jsonl`
 * (src/extension/chat/vscode-node/chatHookService.ts and sessionTranscriptService.ts of
 * microsoft/vscode-copilot-chat@31acd00a86424e2ee6e980e54919cf31fbf88030). That id is VS Code's
 * chat session id for chats Copilot Chat started lately, and an id of its own in older chats,
 * kept in every response's `result.metadata.sessionId` (measured on the shared fixtures): a
 * session file is the one named by the id, else one whose text holds `"sessionId":"<id>"`.
 *
 * Only the session files of the VS Code user-data folders found on this machine are read (the
 * transcript path only says which workspace to look in first), each through the bounded reader.
 * The reads are synchronous, so the hook's deadline timer cannot stop them: past `until` (a time
 * in ms) no further file is read, and the search gives up with a sentence saying so.
 */
export function findVscodeSession(
  input: HookInput,
  maxBytes: number,
  env: NodeJS.ProcessEnv = process.env,
  home: string = os.homedir(),
  until: number = Number.POSITIVE_INFINITY,
): string | undefined {
  const id = input.sessionId;
  if (!id) {
    return undefined;
  }
  const users = defaultUserDataDirs(process.platform, env, home)
    .map((dir) => userDir(dir))
    .filter((dir): dir is string => dir !== undefined);
  const storages = users.flatMap((user) => workspaceStorages(user).map((s) => s.dir));
  const empty = users.map((user) => path.join(user, 'globalStorage', 'emptyWindowChatSessions'));
  const folders = [...storages.map((dir) => path.join(dir, 'chatSessions')), ...empty];
  // The id as a file name, anywhere (a `.jsonl` log shadows a `.json` of the same session).
  for (const ext of ['.jsonl', '.json']) {
    const named = folders.map((dir) => path.join(dir, `${id}${ext}`)).find(isRegularFile);
    if (named) {
      return named;
    }
  }
  // The id inside a session: first in the transcript's workspace, then in empty windows.
  const own = input.transcriptPath ? transcriptWorkspace(input.transcriptPath, storages) : undefined;
  const needle = Buffer.from(`"sessionId":"${id}"`, 'utf8');
  let read = 0;
  for (const dir of [...(own ? [path.join(own, 'chatSessions')] : []), ...empty]) {
    for (const file of listSessionFiles(dir).reverse()) {
      if (Date.now() > until) {
        throw new Error(`gave up looking for session ${id} after reading ${read} session files (the hook's time is up)`);
      }
      read++;
      try {
        if (readBounded(file, { maxBytes, statSizeOnly: true }).includes(needle)) {
          return file;
        }
      } catch {
        // A file too large or unreadable is not this session's.
      }
    }
  }
  return undefined;
}

/** The workspace storage folder of a Copilot Chat transcript, when it is one of `storages`. */
function transcriptWorkspace(transcript: string, storages: string[]): string | undefined {
  const transcripts = path.dirname(transcript);
  if (path.basename(transcripts) !== 'transcripts' || path.basename(path.dirname(transcripts)).toLowerCase() !== 'github.copilot-chat') {
    return undefined;
  }
  const storage = path.dirname(path.dirname(transcripts));
  return storages.find((dir) => path.resolve(dir) === path.resolve(storage));
}

function isRegularFile(file: string): boolean {
  try {
    return fs.lstatSync(file).isFile();
  } catch {
    return false;
  }
}
