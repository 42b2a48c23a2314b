import * as vscode from 'vscode';

import type { Logger } from '../log';
import type { DialogSessionsService } from '../sessions/dialogSessionsService';
import type { StoredDialog } from '../sessions/types';
import { agentName, OPEN_IN_CHAT_COMMAND, type SecretaryNode } from './chatMonitorTreeProvider';
import { chatSessionUri, relativeTime } from './dialogTime';
import { errorMessage } from '../log';

export const SEARCH_COMMAND = 'copilotChatSecretary.searchRequests';

/** One hit of the core's `search_requests`, as the quick pick shows it. */
interface SearchHit {
  sessionId: string;
  title: string;
  index: number;
  /** Milliseconds since the Unix epoch (null when the session recorded no time). */
  timestamp: number | null;
  snippet: string;
}

/**
 * Opens a dialog in VS Code's own chat: its local session resource
 * (`vscode-chat-session://local/<base64url id>`) opened as an editor, which VS Code's chat
 * resolves to a chat editor on that session. Returns the resource opened.
 */
export async function openInChat(sessionId: string, log: Logger): Promise<vscode.Uri> {
  const resource = vscode.Uri.parse(chatSessionUri(sessionId));
  log.info(`opening dialog ${sessionId} in chat: ${resource.toString()}`);
  await vscode.commands.executeCommand('vscode.open', resource, { preview: false });
  return resource;
}

/**
 * Opens a dialog where it lives: a VS Code chat in VS Code's chat; another agent's session
 * (Copilot CLI, Claude Code, Codex) as its log file, the text the Secretary read (VS Code's chat
 * shows such sessions only when that agent's extension is installed). Returns the resource opened.
 */
export async function openDialog(entry: StoredDialog, log: Logger): Promise<vscode.Uri> {
  const agent = agentName(entry.dialog);
  if (!agent) {
    return openInChat(entry.dialog.sessionId, log);
  }
  if (entry.dialog.source === 'cursor') {
    // A conversation in Cursor's SQLite database: no file to open; its requests as the Secretary read them.
    const requests = entry.dialog.requests.map((r) => `## Request ${r.index}\n\n${r.text}`).join('\n\n');
    const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: `# ${entry.dialog.title}\n\n${requests}\n` });
    log.info(`showing the Cursor conversation ${entry.dialog.sessionId} of ${entry.path}`);
    await vscode.window.showTextDocument(doc, { preview: false });
    return doc.uri;
  }
  const file = vscode.Uri.file(entry.path);
  log.info(`opening the ${agent} log of dialog ${entry.dialog.sessionId}: ${file.fsPath}`);
  await vscode.window.showTextDocument(file, { preview: false });
  return file;
}

/** Opens the dialog `sessionId` where it lives (`openDialog`); one the Secretary has not read yet
 * as a VS Code chat. */
async function openById(sessions: DialogSessionsService, sessionId: string, log: Logger): Promise<vscode.Uri> {
  const entry = sessions.getSession(sessionId);
  return entry ? openDialog(entry, log) : openInChat(sessionId, log);
}

/** The sidebar's commands: open a dialog, and search past requests in a quick pick. */
export function registerDialogCommands(sessions: DialogSessionsService, log: Logger): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(OPEN_IN_CHAT_COMMAND, async (target?: SecretaryNode | string) => {
      const entry = target && typeof target !== 'string' && 'entry' in target ? target.entry : undefined;
      const sessionId = typeof target === 'string' ? target : entry?.dialog.sessionId;
      if (!sessionId) {
        return undefined;
      }
      try {
        return await (entry ? openDialog(entry, log) : openById(sessions, sessionId, log));
      } catch (err) {
        const message = errorMessage(err);
        log.error(`could not open dialog ${sessionId}: ${message}`);
        void vscode.window.showErrorMessage(`Cannot open the dialog: ${message}`);
        return undefined;
      }
    }),
    vscode.commands.registerCommand(SEARCH_COMMAND, (query?: string) => searchRequests(sessions, log, query)),
  ];
}

/**
 * A quick pick over past requests: each keystroke (debounced) asks the core's `search_requests`;
 * picking a hit opens its dialog in chat. Resolves with the picked hit (tests pass `query`).
 */
async function searchRequests(sessions: DialogSessionsService, log: Logger, query?: string): Promise<SearchHit | undefined> {
  const pick = vscode.window.createQuickPick<vscode.QuickPickItem & { hit?: SearchHit }>();
  pick.title = 'Search past requests';
  pick.placeholder = 'Words from a request you made (names, files, technologies)';
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  let timer: NodeJS.Timeout | undefined;
  let generation = 0;
  const run = async (text: string) => {
    const mine = ++generation;
    if (!text.trim()) {
      pick.items = [];
      pick.busy = false;
      return;
    }
    pick.busy = true;
    const answer = JSON.parse(await sessions.invokeTool('search_requests', { query: text, limit: 20 })) as {
      success: boolean;
      results?: SearchHit[];
      error?: string;
    };
    if (mine !== generation) {
      return;
    }
    pick.busy = false;
    if (!answer.success) {
      pick.items = [{ label: `$(error) ${answer.error ?? 'search failed'}`, alwaysShow: true }];
      return;
    }
    const now = Date.now();
    pick.items = (answer.results ?? []).map((hit) => ({
      label: `#${hit.index} ${hit.snippet.replace(/\s+/g, ' ').trim()}`,
      description: hit.timestamp !== null ? relativeTime(hit.timestamp, now) : undefined,
      detail: hit.title,
      alwaysShow: true,
      hit,
    }));
    if (pick.items.length === 0) {
      pick.items = [{ label: 'No matching requests', alwaysShow: true }];
    }
  };
  pick.onDidChangeValue((text) => {
    clearTimeout(timer);
    timer = setTimeout(() => void run(text).catch((err) => log.error(`search failed: ${String(err)}`)), 150);
  });
  const picked = new Promise<SearchHit | undefined>((resolve) => {
    pick.onDidAccept(() => {
      const hit = pick.selectedItems[0]?.hit;
      if (hit) {
        resolve(hit);
        pick.hide();
      }
    });
    pick.onDidHide(() => resolve(undefined));
  });
  pick.show();
  if (query) {
    pick.value = query;
    await run(query);
  }
  const hit = await picked;
  clearTimeout(timer);
  pick.dispose();
  if (hit) {
    await openById(sessions, hit.sessionId, log);
  }
  return hit;
}

/** The dialog of a tree node, if it has one. */
export function dialogOf(node: SecretaryNode | undefined): StoredDialog | undefined {
  return node && 'entry' in node ? node.entry : undefined;
}
