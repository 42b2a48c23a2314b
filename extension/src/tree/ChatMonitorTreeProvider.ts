import * as vscode from 'vscode';

import type { DialogSessionsService } from '../sessions/DialogSessionsService';
import type { ChatRequest, StoredDialog } from '../sessions/types';

/** A node of the sidebar: a dialog, one of its requests, or a line of facts. */
export type SecretaryNode =
  | { kind: 'dialog'; entry: StoredDialog }
  | { kind: 'request'; entry: StoredDialog; request: ChatRequest }
  | { kind: 'fact'; label: string; description?: string; icon?: string; tooltip?: string };

/** Which of the two views a provider feeds. */
export type MonitorView = 'monitor' | 'dialogs';

const PREVIEW = 70;

/**
 * The sidebar. The "Chat Monitor" view shows the current dialog (title, status, request count,
 * last activity); the "Dialogs" view lists this workspace's dialogs, newest first, each expandable
 * to its requests with time and model. Both redraw when the sessions service reports a change.
 */
export class ChatMonitorTreeProvider implements vscode.TreeDataProvider<SecretaryNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<SecretaryNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscription: { dispose(): void };

  constructor(
    private readonly sessions: DialogSessionsService,
    readonly view: MonitorView,
  ) {
    this.subscription = sessions.onDidChange(() => this.refresh());
  }

  refresh(): void {
    this.changed.fire(undefined);
  }

  getTreeItem(node: SecretaryNode): vscode.TreeItem {
    switch (node.kind) {
      case 'dialog':
        return dialogItem(node.entry, this.view === 'dialogs');
      case 'request':
        return requestItem(node.request);
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
      return this.view === 'monitor' ? this.monitorRoot() : this.dialogsRoot();
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

  private monitorRoot(): SecretaryNode[] {
    if (!this.sessions.isReady) {
      return [{ kind: 'fact', label: 'Reading chat sessions…', icon: 'loading~spin' }];
    }
    const current = this.sessions.getCurrentDialog();
    if (!current) {
      return [{ kind: 'fact', label: 'No active dialog', icon: 'comment-discussion' }];
    }
    const { dialog } = current;
    return [
      { kind: 'dialog', entry: current },
      { kind: 'fact', label: 'Status', description: dialog.status, icon: 'pulse' },
      { kind: 'fact', label: 'Requests', description: String(dialog.requests.length), icon: 'list-ordered' },
      { kind: 'fact', label: 'Last activity', description: formatTime(dialog.lastActivity), icon: 'clock' },
      { kind: 'fact', label: 'Session', description: dialog.sessionId, icon: 'key', tooltip: current.path },
    ];
  }

  private dialogsRoot(): SecretaryNode[] {
    if (!this.sessions.isReady) {
      return [{ kind: 'fact', label: 'Reading chat sessions…', icon: 'loading~spin' }];
    }
    const dialogs = this.sessions.getDialogs().filter((entry) => entry.available);
    if (dialogs.length === 0) {
      return [{ kind: 'fact', label: 'No dialogs in this workspace yet', icon: 'comment-discussion' }];
    }
    return dialogs.map((entry) => ({ kind: 'dialog', entry }));
  }
}

function dialogItem(entry: StoredDialog, expandable: boolean): vscode.TreeItem {
  const { dialog } = entry;
  const item = new vscode.TreeItem(
    dialog.title,
    expandable && dialog.requests.length > 0
      ? vscode.TreeItemCollapsibleState.Collapsed
      : vscode.TreeItemCollapsibleState.None,
  );
  item.id = `dialog:${dialog.sessionId}`;
  item.description = `${dialog.requests.length} request${dialog.requests.length === 1 ? '' : 's'} · ${formatTime(dialog.lastActivity)}`;
  item.tooltip = new vscode.MarkdownString(
    `**${escapeMarkdown(dialog.title)}**\n\n${dialog.status} · ${dialog.requests.length} requests\n\n\`${dialog.sessionId}\``,
  );
  item.iconPath = new vscode.ThemeIcon(dialog.status === 'active' ? 'comment-discussion' : 'comment');
  item.contextValue = 'dialog';
  item.resourceUri = vscode.Uri.file(entry.path);
  return item;
}

function requestItem(request: ChatRequest): vscode.TreeItem {
  const oneLine = request.text.replace(/\s+/g, ' ').trim();
  const label = `#${request.index} ${oneLine.length > PREVIEW ? oneLine.slice(0, PREVIEW - 1) + '…' : oneLine}`;
  const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
  item.description = [formatTime(request.timestamp), request.modelId].filter(Boolean).join(' · ');
  item.tooltip = new vscode.MarkdownString().appendText(request.text);
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

function formatTime(ms: number | undefined): string {
  return ms === undefined ? 'unknown time' : new Date(ms).toLocaleString();
}

function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|]/g, '\\$&');
}
