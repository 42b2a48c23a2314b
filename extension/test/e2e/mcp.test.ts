// The MCP server definition the extension offers VS Code, checked in the real host: none by default
// (the extension's own tools would show twice), what the provider returns once the setting is on,
// that the definition really starts a working server (driven by the SDK's own Client), that the
// setting withdraws it, and that VS Code's own MCP client runs it.
import * as assert from 'assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

import { workspaceArg } from '../../src/mcp/provider';
import { recordMetric, test } from './harness';
import { chatSessionsDir, invoke, sampleSessions, secretary } from './support';

const token = () => new vscode.CancellationTokenSource().token;

async function definitions(): Promise<vscode.McpStdioServerDefinition[]> {
  const { api } = await secretary();
  assert.ok(api.mcpProvider, 'the extension registered no MCP server definition provider');
  return ((await api.mcpProvider.provideMcpServerDefinitions(token())) ?? []) as vscode.McpStdioServerDefinition[];
}

/** Turns `copilotChatSecretary.mcp.enabled` on for the tests that need the definition. */
async function enableMcp(on: boolean | undefined): Promise<void> {
  await vscode.workspace.getConfiguration('copilotChatSecretary').update('mcp.enabled', on, vscode.ConfigurationTarget.Global);
}

test('MCP: no server definition is offered to VS Code by default (no second tool group)', async () => {
  const { api } = await secretary();
  assert.equal(vscode.workspace.getConfiguration('copilotChatSecretary').get('mcp.enabled'), false);
  assert.deepEqual(await definitions(), []);
  let fired = 0;
  const listener = api.mcpProvider?.onDidChangeMcpServerDefinitions?.(() => (fired += 1));
  try {
    await enableMcp(true);
    assert.equal((await definitions()).length, 1, 'the setting turns the definition on');
    assert.ok(fired >= 1, 'VS Code is told the definitions changed');
  } finally {
    listener?.dispose();
  }
});

test('MCP: the provider offers the bundled server, run with this Node.js', async () => {
  const { ext, api } = await secretary();
  await enableMcp(true);
  const contributed = (ext.packageJSON?.contributes?.mcpServerDefinitionProviders ?? []) as { id: string }[];
  assert.deepEqual(contributed.map((p) => p.id), ['copilotChatSecretary.mcpServers']);
  const found = await definitions();
  assert.equal(found.length, 1);
  const [server] = found;
  assert.ok(server instanceof vscode.McpStdioServerDefinition, 'a stdio definition');
  assert.equal(server.label, 'Copilot Chat Secretary');
  assert.equal(server.command, process.execPath);
  assert.equal(server.args[0], path.join(ext.extensionPath, 'dist', 'cli.js'));
  assert.equal(server.args[1], 'mcp');
  assert.ok(api.workspaceStorageDir, 'the e2e workspace has a storage folder');
  assert.deepEqual(server.args.slice(2, 4), ['--storage', api.workspaceStorageDir]);
  const workspace = api.sessions.currentWorkspace;
  assert.ok(workspace, 'the e2e workspace has a workspace key');
  if (fs.existsSync(path.join(api.workspaceStorageDir, 'workspace.json'))) {
    assert.equal(server.args[server.args.indexOf('--workspace') + 1], workspaceArg(workspace));
  } else {
    // No workspace.json (code-server's web workspaces): the storage folder is this workspace's only.
    assert.equal(server.args.at(-1), '--all');
  }
  const resolved = await api.mcpProvider?.resolveMcpServerDefinition?.(server, token());
  assert.equal(resolved, server);
});

test('MCP: the offered definition starts a server the SDK client can use, on this window\'s dialogs', async () => {
  const { ext, api } = await secretary();
  await api.sessions.start();
  if (api.sessions.getDialogs().length === 0) {
    // Give this workspace a dialog (earlier tests may have left none).
    const sample = sampleSessions(ext).find((file) => file.endsWith('.jsonl'));
    assert.ok(sample, 'no sample session');
    fs.copyFileSync(sample, path.join(chatSessionsDir(api), path.basename(sample)));
    const id = path.basename(sample, '.jsonl');
    for (let i = 0; i < 100 && !api.sessions.getDialogs().some((entry) => entry.dialog.sessionId === id); i++) {
      await api.sessions.refresh();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  // Read what changed on disk up to now (earlier tests open chats, and VS Code writes their files),
  // as the MCP server's first scan will.
  await api.sessions.refresh();
  const dialogs = api.sessions
    .getDialogs()
    .map((entry) => entry.dialog.sessionId)
    .sort();
  assert.ok(dialogs.length > 0, 'the extension sees a dialog');
  await enableMcp(true);
  const [server] = await definitions();
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries({ ...process.env, ...server.env })) {
    if (typeof value === 'string') {
      env[key] = value;
    }
  }
  const started = performance.now();
  const client = new Client({ name: 'e2e', version: '1.0.0' });
  const transport = new StdioClientTransport({ command: server.command, args: server.args, env, stderr: 'pipe', cwd: server.cwd?.fsPath });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    recordMetric('mcp.startToToolsList.ms', Math.round((performance.now() - started) * 10) / 10);
    const names = tools.map((t) => t.name);
    assert.ok(names.includes('secretary_get_request'), names.join(', '));
    const listed = await client.callTool({ name: 'secretary_list_dialogs', arguments: { limit: 200 } });
    assert.equal(listed.isError, undefined, (listed.content as { text: string }[])[0].text);
    const seen = (JSON.parse((listed.content as { text: string }[])[0].text) as { dialogs: { sessionId: string }[] }).dialogs
      .map((dialog) => dialog.sessionId)
      .sort();
    assert.deepEqual(seen, dialogs, `the MCP server reads the dialogs the extension reads (${server.args.slice(1).join(' ')}); stderr: ${stderr}`);
    // The same current dialog: the MCP server and the VS Code tool (no token, so the most recent
    // dialog) answer alike, with the same session or the same error (VS Code may have just written
    // an empty chat, the newest).
    const current = await client.callTool({ name: 'secretary_get_first_request', arguments: {} });
    const viaMcp = JSON.parse((current.content as { text: string }[])[0].text) as Record<string, unknown>;
    const viaVsCode = await invoke('chat_secretary_get_first_request', {});
    assert.deepEqual(
      { sessionId: viaMcp.sessionId, error: viaMcp.error },
      { sessionId: viaVsCode.sessionId, error: viaVsCode.error },
      'the same current dialog',
    );
    const result = await client.callTool({ name: 'secretary_get_request', arguments: { index: 0 } });
    assert.equal(result.isError, true);
    assert.deepEqual(JSON.parse((result.content as { text: string }[])[0].text), {
      success: false,
      error: 'Index must be 1 or greater',
    });
  } finally {
    await client.close();
  }
});

test('MCP: copilotChatSecretary.mcp.enabled = false withdraws the server', async () => {
  const { api } = await secretary();
  const config = vscode.workspace.getConfiguration('copilotChatSecretary');
  let fired = 0;
  await enableMcp(true);
  assert.equal((await definitions()).length, 1);
  const listener = api.mcpProvider?.onDidChangeMcpServerDefinitions?.(() => (fired += 1));
  try {
    await config.update('mcp.enabled', false, vscode.ConfigurationTarget.Global);
    assert.deepEqual(await definitions(), []);
    assert.ok(fired >= 1, 'VS Code is told the definitions changed');
  } finally {
    await enableMcp(undefined);
    listener?.dispose();
  }
  assert.deepEqual(await definitions(), [], 'back to the default: none');
});

test(
  "MCP: VS Code's own MCP client starts the server and its tools reach vscode.lm.tools",
  async () => {
    await secretary();
    await enableMcp(true);
    const commands = await vscode.commands.getCommands(true);
    assert.ok(commands.includes('workbench.mcp.startServer'), 'this VS Code has no workbench.mcp.startServer command');
    const started = performance.now();
    // VS Code names MCP tools `mcp_<server>_<tool>`; chat_secretary_get_request is the built-in one.
    const ours = () => vscode.lm.tools.filter((tool) => tool.name.startsWith('mcp_') && tool.name.endsWith('secretary_get_request'));
    // The setting reaches VS Code's MCP registry asynchronously (the provider fires a change, the
    // workbench asks again), so a `startServer('*')` sent at once can find no server yet: ask again
    // every 2 s until the server's tools are live.
    for (let i = 0; i < 400 && ours().length === 0; i++) {
      if (i % 20 === 0) {
        await vscode.commands.executeCommand('workbench.mcp.startServer', '*', { waitForLiveTools: true });
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(ours().length, 1, `no MCP tool ending in secretary_get_request; tools: ${vscode.lm.tools.map((t) => t.name).join(', ')}`);
    recordMetric('mcp.vscodeStartToLiveTools.ms', Math.round(performance.now() - started));
    const result = await vscode.lm.invokeTool(ours()[0].name, { input: { index: 0 }, toolInvocationToken: undefined });
    const text = result.content
      .filter((part): part is vscode.LanguageModelTextPart => part instanceof vscode.LanguageModelTextPart)
      .map((part) => part.value)
      .join('');
    assert.match(text, /Index must be 1 or greater/);
    await enableMcp(undefined);
  },
  { timeoutMs: 90_000 },
);
