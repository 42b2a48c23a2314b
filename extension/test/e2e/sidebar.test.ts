// The sidebar as a user sees it in a real VS Code: dialogs without requests hidden (except the
// current one), date sections with relative times, the compact current-dialog header, a click
// that opens the dialog in VS Code's own chat, the search quick pick, and screenshots of it all
// in the run's log folder (<logs>/screenshots).
import * as assert from 'assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';

import type { SecretaryNode } from '../../src/tree/chatMonitorTreeProvider';
import { canScreenshot, recordMetric, screenshot, test } from './harness';
import { chatSessionsDir, eventually, secretaryWithSamples } from './support';

/** The sample dialog "Dark mode for the todo app" (samples/user-data), as VS Code writes sessions. */
const SAMPLE = 'a1f4c2e0-7b3d-4d9a-9c51-2e8f6b0d3a71';

const HOUR = 3_600_000;
const stamp = Date.now();
const ids = {
  empty: `e2e-empty-${stamp}`,
  today: `e2e-today-${stamp}`,
  yesterday: `e2e-yesterday-${stamp}`,
  older: `e2e-older-${stamp}`,
};

function midnight(ms: number): number {
  const date = new Date(ms);
  date.setHours(0, 0, 0, 0);
  return date.getTime();
}

/** A native session file (v3) as VS Code writes it, with one request per text. */
function session(sessionId: string, at: number, texts: string[]): string {
  return JSON.stringify({
    version: 3,
    sessionId,
    creationDate: at,
    lastMessageDate: at,
    customTitle: texts.length ? `Sidebar e2e ${sessionId.split('-')[1]}` : undefined,
    requests: texts.map((text, i) => ({ requestId: `r${i}`, timestamp: at, message: { text, parts: [] }, response: [] })),
  });
}

async function seeded(): ReturnType<typeof secretaryWithSamples> {
  const found = await secretaryWithSamples();
  const { api } = found;
  const dir = chatSessionsDir(api);
  const now = Date.now();
  const files: [string, number, string[]][] = [
    [ids.empty, now - 3 * 24 * HOUR, []],
    [ids.today, now - 2 * 60_000, ['Sidebar today: make the rows short']],
    [ids.yesterday, midnight(now) - HOUR, ['Sidebar yesterday: group the dialogs by date']],
    [ids.older, now - 40 * 24 * HOUR, ['Sidebar older: a request from last month']],
  ];
  for (const [id, at, texts] of files) {
    const file = path.join(dir, `${id}.json`);
    if (!fs.existsSync(file)) {
      fs.writeFileSync(file, session(id, at, texts));
    }
  }
  const known = () => new Set(api.sessions.getDialogs().map((entry) => entry.dialog.sessionId));
  await eventually(() => [...Object.values(ids), SAMPLE].every((id) => known().has(id)), 10_000, 'the watcher to read the seeded sessions');
  return found;
}

function dialogIds(nodes: SecretaryNode[]): string[] {
  return nodes.flatMap((node) => (node.kind === 'dialog' ? [node.entry.dialog.sessionId] : []));
}

test('sidebar: dialogs without requests are hidden (except the current one), in date sections', async () => {
  const { api } = await seeded();
  const tree = api.trees.dialogs;
  const roots = tree.getChildren();
  const current = api.sessions.getCurrentDialog();
  assert.ok(current, 'there is a current dialog');
  // First the current dialog's one-row header, then the date sections.
  assert.ok(roots[0].kind === 'dialog' && roots[0].current && roots[0].entry.dialog.sessionId === current.dialog.sessionId);
  const header = tree.getTreeItem(roots[0]);
  assert.equal(header.description, 'current');
  assert.equal(header.contextValue, 'dialog', 'open-raw and open-in-chat actions');
  const groups = roots.slice(1);
  assert.ok(groups.length > 0 && groups.every((node) => node.kind === 'group'), 'then date sections');
  const labels = groups.map((node) => String(tree.getTreeItem(node).label));
  assert.deepEqual(labels, ['Today', 'Yesterday', 'This week', 'Older'].filter((label) => labels.includes(label)), 'in order');
  const section = (label: string) => groups.find((node) => tree.getTreeItem(node).label === label);
  const inSection = (label: string) => {
    const node = section(label);
    return node ? dialogIds(tree.getChildren(node)) : [];
  };
  const where = (id: string) => (id === current.dialog.sessionId ? 'header' : labels.find((label) => inSection(label).includes(id)));
  assert.ok(['header', 'Today'].includes(where(ids.today) ?? ''), `today: ${where(ids.today)}`);
  assert.ok(['header', 'Yesterday'].includes(where(ids.yesterday) ?? ''), `yesterday: ${where(ids.yesterday)}`);
  assert.equal(where(ids.older), 'Older');
  const shown = [current.dialog.sessionId, ...groups.flatMap((node) => dialogIds(tree.getChildren(node)))];
  assert.ok(!shown.includes(ids.empty), 'a dialog without requests is hidden');
  assert.equal(new Set(shown).size, shown.length, 'the current dialog is not listed twice');
  for (const id of shown.slice(1)) {
    assert.ok((api.sessions.getSession(id)?.dialog.requests.length ?? 0) > 0, `${id} has no request`);
  }
  // A short row: the title and a relative time; the absolute time in the tooltip.
  const older = tree.getChildren(section('Older')).find((node) => node.kind === 'dialog' && node.entry.dialog.sessionId === ids.older);
  assert.ok(older);
  const item = tree.getTreeItem(older);
  assert.equal(item.label, 'Sidebar e2e older');
  assert.match(String(item.description), /^[A-Z][a-z]{2} (\d{1,2}|\d{4})$/, 'a date after a week');
  assert.match((item.tooltip as vscode.MarkdownString).value, /Last activity: /);
  assert.equal(item.command?.command, 'copilotChatSecretary.openInChat');
  if (!labels.includes('Today') || where(ids.today) === 'header') {
    return;
  }
  const today = tree.getTreeItem(tree.getChildren(section('Today')).find((node) => node.kind === 'dialog' && node.entry.dialog.sessionId === ids.today)!);
  assert.match(String(today.description), /^(just now|\d+ min ago)$/);
});

test('sidebar: a click opens the dialog in VS Code\'s chat (vscode-chat-session://local/<base64url id>)', async () => {
  const { api } = await seeded();
  const tree = api.trees.dialogs;
  const node = tree
    .getChildren()
    .flatMap((group) => tree.getChildren(group))
    .find((n) => n.kind === 'dialog' && n.entry.dialog.sessionId === SAMPLE);
  assert.ok(node, 'the sample dialog is listed');
  const command = tree.getTreeItem(node).command;
  assert.ok(command);
  const tabs = () => vscode.window.tabGroups.all.flatMap((group) => group.tabs);
  const before = tabs().length;
  const started = performance.now();
  const resource = (await vscode.commands.executeCommand(command.command, ...(command.arguments ?? []))) as vscode.Uri | undefined;
  assert.ok(resource, 'the command opened a resource');
  assert.equal(resource.toString(), `vscode-chat-session://local/${Buffer.from(SAMPLE).toString('base64url')}`);
  assert.ok(!resource.toString().includes('='), 'no padding');
  await eventually(() => tabs().length > before, 5_000, 'a new editor tab');
  recordMetric('sidebar.openInChat.ms', Math.round(performance.now() - started));
  const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
  assert.ok(tab, 'an active tab');
  assert.ok(!(tab.input instanceof vscode.TabInputText), `a chat editor, not a text editor: ${tab.label}`);
  // VS Code's chat loaded the session from its storage: the tab carries the dialog's title.
  assert.match(tab.label, /dark mode/i, `the tab shows the dialog: ${tab.label}`);
  if (canScreenshot()) {
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await screenshot('dialog-opened-in-chat');
  }
  await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
});

test('sidebar: the search quick pick finds a past request through search_requests and opens its dialog', async () => {
  await seeded();
  const picked = vscode.commands.executeCommand('copilotChatSecretary.searchRequests', 'group dialogs by date') as Thenable<
    { sessionId: string; index: number } | undefined
  >;
  await new Promise((resolve) => setTimeout(resolve, 800));
  if (canScreenshot()) {
    await screenshot('search-quick-pick');
  }
  await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
  const hit = await picked;
  assert.ok(hit, 'a hit was picked');
  assert.deepEqual([hit.sessionId, hit.index], [ids.yesterday, 1]);
  await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
});

test("sidebar: another agent's session of this folder says which agent wrote it and opens its log", async () => {
  const { api } = await seeded();
  // scripts/e2e gives the run its own, empty agent folders (never the machine's).
  const claude = process.env.CLAUDE_CONFIG_DIR;
  assert.ok(claude, 'scripts/e2e sets CLAUDE_CONFIG_DIR');
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  assert.ok(folder, 'the e2e window has a folder');
  const id = `c1aude00-0000-4000-8000-${String(stamp).slice(-12).padStart(12, '0')}`;
  const file = path.join(claude, 'projects', '-e2e-sidebar', `${id}.jsonl`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const line = { type: 'user', message: { role: 'user', content: 'Sidebar agent: a prompt typed in Claude Code' }, uuid: 'u1', timestamp: new Date().toISOString(), sessionId: id, cwd: folder };
  fs.writeFileSync(file, JSON.stringify(line) + '\n');
  // Claude Code's `projects` folder did not exist when the window opened: its parent is watched
  // for that name (`agentWatchNames`), so the session is read without a Refresh.
  await eventually(() => api.sessions.getSession(id)?.dialog.source === 'claude-code', 10_000, 'the Claude Code session in the sidebar');
  const entry = api.sessions.getSession(id);
  assert.ok(entry);
  // It is one of this window's dialogs: its `cwd` is the window's folder (code-server's web
  // workspaces have no workspace.json; the window's folder gives the key there).
  assert.ok(
    api.sessions.getDialogs().some((d) => d.dialog.sessionId === id),
    `the Claude Code session joins the window's dialogs (workspace ${api.sessions.currentWorkspace})`,
  );
  // The row the sidebar shows for it.
  const tree = api.trees.dialogs;
  const node: SecretaryNode = { kind: 'dialog', entry, current: false };
  const item = tree.getTreeItem(node);
  assert.match(String(item.description), /^Claude Code · /);
  assert.equal((item.iconPath as vscode.ThemeIcon).id, 'terminal');
  assert.match((item.tooltip as vscode.MarkdownString).value, /Claude Code session .*Click to open its log/s);
  assert.ok(item.command, 'a click opens it');
  assert.equal(item.command.title, 'Open Log');
  const opened = (await vscode.commands.executeCommand(item.command.command, ...(item.command.arguments ?? []))) as vscode.Uri | undefined;
  assert.equal(opened?.fsPath, file, 'the log, not an empty chat of that id');
  assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, file);
  await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
});

test('sidebar: screenshots of the views', async () => {
  await seeded();
  if (!canScreenshot()) {
    return; // started by another launcher: no DevTools port
  }
  await vscode.commands.executeCommand('workbench.view.extension.copilotChatSecretary');
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const file = await screenshot('sidebar');
  assert.ok(file && fs.statSync(file).size > 10_000, 'a PNG of the window');
});
