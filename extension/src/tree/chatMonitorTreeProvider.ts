import * as vscode from 'vscode';

import type { DialogSessionsService } from '../sessions/dialogSessionsService';
import type { ChatRequest, StoredDialog } from '../sessions/types';
import { absoluteTime, DATE_GROUPS, dateGroup, relativeTime, shortTitle, type DateGroup } from './dialogTime';

/** A node of the sidebar: a date section, a dialog, one of its requests, or a line of facts. */
export type SecretaryNode =
  | { kind: 'group'; group: DateGroup; entries: StoredDialog[] }
  | { kind: 'dialog'; entry: StoredDialog; current?: boolean }
  | { kind: 'request'; entry: StoredDialog; request: ChatRequest }
  | { kind: 'fact'; label: string; description?: string; icon?: string; tooltip?: string };

/** The command a click on a dialog runs: open it in VS Code's own chat. */
export const OPEN_IN_CHAT_COMMAND = 'copilotChatSecretary.openInChat';

const PREVIEW = 60;

/**
 * The sidebar's "Dialogs" view. Its first row is a compact header of the current dialog (the one
 * the tools answer for, from the sessions service), expandable to its requests; below it this
 * workspace's other dialogs under Today / Yesterday / This week / Older, newest first, with
 * relative times. Dialogs without a request (VS Code writes one whenever a chat view opens) are
 * hidden, except the current one. A click opens a dialog in VS Code's chat. An empty view shows
 * the `viewsWelcome` text of package.json, which says where dialogs come from. The view redraws
 * when the sessions service reports a change.
 */
export class ChatMonitorTreeProvider implements vscode.TreeDataProvider<SecretaryNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<SecretaryNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscription: { dispose(): void };

  constructor(
    private readonly sessions: DialogSessionsService,
    /** The clock of relative times and date groups (tests pin it). */
    private readonly now: () => number = Date.now,
  ) {
    this.subscription = sessions.onDidChange(() => this.refresh());
  }

  refresh(): void {
    this.changed.fire(undefined);
  }

  getTreeItem(node: SecretaryNode): vscode.TreeItem {
    switch (node.kind) {
      case 'group': {
        const item = new vscode.TreeItem(node.group, vscode.TreeItemCollapsibleState.Expanded);
        item.id = `group:${node.group}`;
        item.description = String(node.entries.length);
        item.contextValue = 'group';
        return item;
      }
      case 'dialog':
        return node.current ? headerItem(node.entry) : dialogItem(node.entry, this.now());
      case 'request':
        return requestItem(node.request, this.now());
      case 'fact': {
        const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
        item.description = node.description;
        item.tooltip = node.tooltip;
        item.iconPath = node.icon ? new vscode.ThemeIcon(node.icon) : undefined;
        item.contextValue = 'fact';
        return item;
      }
    }
  }

  getChildren(node?: SecretaryNode): SecretaryNode[] {
    if (!node) {
      return this.root();
    }
    if (node.kind === 'group') {
      return node.entries.map((entry) => ({ kind: 'dialog', entry }));
    }
    if (node.kind === 'dialog') {
      return node.entry.dialog.requests.map((request) => ({ kind: 'request', entry: node.entry, request }));
    }
    return [];
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }

  /** The current dialog's header, then the date sections of the others that have requests;
   * nothing (the welcome text) when no dialog has a request and there is no current one. */
  private root(): SecretaryNode[] {
    if (!this.sessions.isReady) {
      return [{ kind: 'fact', label: 'Reading chat sessions…', icon: 'loading~spin' }];
    }
    const current = this.sessions.getCurrentDialog();
    const currentId = current?.dialog.sessionId;
    const others = this.sessions
      .getDialogs()
      .filter((entry) => entry.available && entry.dialog.requests.length > 0 && entry.dialog.sessionId !== currentId);
    const now = this.now();
    const groups = new Map<DateGroup, StoredDialog[]>();
    for (const entry of others) {
      const group = dateGroup(entry.dialog.lastActivity ?? entry.dialog.creationDate, now);
      groups.set(group, [...(groups.get(group) ?? []), entry]);
    }
    const sections = DATE_GROUPS.flatMap((group) => {
      const entries = groups.get(group);
      return entries ? [{ kind: 'group' as const, group, entries }] : [];
    });
    if (!current && sections.length === 0) {
      return [];
    }
    return [...(current ? [{ kind: 'dialog' as const, entry: current, current: true }] : []), ...sections];
  }
}

function requestCount(n: number): string {
  return n === 0 ? 'no requests yet' : `${n} request${n === 1 ? '' : 's'}`;
}

/** What a dialog row shows on hover: title, times, requests, status and id. */
function dialogTooltip(entry: StoredDialog, current: boolean): vscode.MarkdownString {
  const { dialog } = entry;
  const tooltip = new vscode.MarkdownString();
  tooltip.appendMarkdown(`**${escapeMarkdown(dialog.title)}**${current ? ' (current)' : ''}\n\n`);
  tooltip.appendMarkdown(`Last activity: ${escapeMarkdown(absoluteTime(dialog.lastActivity))}  \n`);
  if (dialog.creationDate !== undefined) {
    tooltip.appendMarkdown(`Started: ${escapeMarkdown(absoluteTime(dialog.creationDate))}  \n`);
  }
  tooltip.appendMarkdown(`${requestCount(dialog.requests.length)} · ${dialog.status}\n\n`);
  const agent = agentName(dialog);
  tooltip.appendMarkdown(
    agent
      ? `${agent} session \`${dialog.sessionId}\`\n\n${dialog.source === 'cursor' ? 'Click to see its requests.' : 'Click to open its log.'}`
      : `\`${dialog.sessionId}\`\n\nClick to open it in the Chat view.`,
  );
  return tooltip;
}

/** What people call the agent that wrote a dialog, for dialogs of another agent than VS Code. */
const AGENT_NAMES: Readonly<Record<string, string>> = {
  'copilot-cli': 'Copilot CLI',
  'claude-code': 'Claude Code',
  codex: 'Codex',
  'gemini-cli': 'Gemini CLI',
  'qwen-code': 'Qwen Code',
  cline: 'Cline',
  'roo-code': 'Roo Code',
  'kilo-code': 'Kilo Code',
  continue: 'Continue',
  opencode: 'OpenCode',
  aider: 'Aider',
  cursor: 'Cursor',
};

export function agentName(dialog: { source?: string }): string | undefined {
  const source = dialog.source;
  return source !== undefined && Object.prototype.hasOwnProperty.call(AGENT_NAMES, source) ? AGENT_NAMES[source] : undefined;
}

/** A row's description: which agent wrote it (when not VS Code's chat), then `rest`. */
function describe(dialog: { source?: string }, rest: string): string {
  return [agentName(dialog), rest].filter(Boolean).join(' · ');
}

/** The open command of a dialog row: in VS Code's chat, or an agent's log. */
function openCommand(entry: StoredDialog): vscode.Command {
  const title = entry.dialog.source === 'cursor' ? 'Show Requests' : agentName(entry.dialog) ? 'Open Log' : 'Open in Chat';
  return { command: OPEN_IN_CHAT_COMMAND, title, arguments: [{ kind: 'dialog', entry }] };
}

function dialogItem(entry: StoredDialog, now: number): vscode.TreeItem {
  const { dialog } = entry;
  const item = new vscode.TreeItem(
    shortTitle(dialog.title, 22),
    dialog.requests.length > 0 ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
  );
  item.id = `dialog:${dialog.sessionId}`;
  item.description = describe(dialog, relativeTime(dialog.lastActivity, now));
  item.tooltip = dialogTooltip(entry, false);
  item.iconPath = new vscode.ThemeIcon(agentName(dialog) ? 'terminal' : 'comment');
  item.contextValue = 'dialog';
  item.command = openCommand(entry);
  return item;
}

/** The compact header of the current dialog: its title, marked "current", in one row above the
 * date sections (request count and times in the tooltip, the requests one click away). */
function headerItem(entry: StoredDialog): vscode.TreeItem {
  const { dialog } = entry;
  const item = new vscode.TreeItem(
    shortTitle(dialog.title, 22),
    dialog.requests.length > 0 ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
  );
  item.id = `current:${dialog.sessionId}`;
  item.description = describe(dialog, 'current');
  item.tooltip = dialogTooltip(entry, true);
  item.iconPath = new vscode.ThemeIcon('comment-discussion');
  item.contextValue = 'dialog';
  item.command = openCommand(entry);
  return item;
}

function requestItem(request: ChatRequest, now: number): vscode.TreeItem {
  const oneLine = request.text.replace(/\s+/g, ' ').trim();
  const label = `#${request.index} ${oneLine.length > PREVIEW ? oneLine.slice(0, PREVIEW - 1) + '…' : oneLine}`;
  const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
  item.description = [relativeTime(request.timestamp, now), request.modelId].filter(Boolean).join(' · ');
  item.tooltip = new vscode.MarkdownString()
    .appendText(request.text)
    .appendMarkdown(`\n\n---\n\n${escapeMarkdown(absoluteTime(request.timestamp))}${request.modelId ? ` · ${escapeMarkdown(request.modelId)}` : ''}`);
  item.iconPath = new vscode.ThemeIcon(request.status === 'complete' ? 'account' : statusIcon(request.status));
  item.contextValue = 'request';
  return item;
}

function statusIcon(status: ChatRequest['status']): string {
  switch (status) {
    case 'inProgress':
      return 'sync';
    case 'canceled':
      return 'circle-slash';
    case 'failed':
      return 'error';
    case 'needsInput':
      return 'question';
    default:
      return 'account';
  }
}

function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|]/g, '\\$&');
}
