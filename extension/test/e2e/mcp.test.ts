// The MCP server definition the extension offers VS Code, checked in the real host: what the
// provider returns, that the definition really starts a working server (driven by the SDK's own
// Client), that the setting withdraws it, and that VS Code's own MCP client runs it.
import * as assert from 'assert/strict';
import * as path from 'path';
import * as vscode from 'vscode';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

import { recordMetric, test } from './harness';
import { secretary } from './support';

const token = () => new vscode.CancellationTokenSource().token;

async function definitions(): Promise<vscode.McpStdioServerDefinition[]> {
  const { api } = await secretary();
  assert.ok(api.mcpProvider, 'the extension registered no MCP server definition provider');
  return ((await api.mcpProvider.provideMcpServerDefinitions(token())) ?? []) as vscode.McpStdioServerDefinition[];
}

test('MCP: the provider offers the bundled server, run with this Node.js', async () => {
  const { ext, api } = await secretary();
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
  assert.equal(server.args[server.args.indexOf('--workspace') + 1], api.sessions.currentWorkspace);
  const resolved = await api.mcpProvider?.resolveMcpServerDefinition?.(server, token());
  assert.equal(resolved, server);
});

test('MCP: the offered definition starts a server the SDK client can use', async () => {
  const [server] = await definitions();
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries({ ...process.env, ...server.env })) {
    if (typeof value === 'string') {
      env[key] = value;
    }
  }
  const started = performance.now();
  const client = new Client({ name: 'e2e', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: server.command, args: server.args, env, stderr: 'pipe' }));
  try {
    const { tools } = await client.listTools();
    recordMetric('mcp.startToToolsList.ms', Math.round((performance.now() - started) * 10) / 10);
    const names = tools.map((t) => t.name);
    assert.ok(names.includes('secretary_get_request'), names.join(', '));
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
  const listener = api.mcpProvider?.onDidChangeMcpServerDefinitions?.(() => (fired += 1));
  try {
    await config.update('mcp.enabled', false, vscode.ConfigurationTarget.Global);
    assert.deepEqual(await definitions(), []);
    assert.ok(fired >= 1, 'VS Code is told the definitions changed');
  } finally {
    await config.update('mcp.enabled', undefined, vscode.ConfigurationTarget.Global);
    listener?.dispose();
  }
  assert.equal((await definitions()).length, 1);
});

test(
  "MCP: VS Code's own MCP client starts the server and its tools reach vscode.lm.tools",
  async () => {
    await secretary();
    const commands = await vscode.commands.getCommands(true);
    assert.ok(commands.includes('workbench.mcp.startServer'), 'this VS Code has no workbench.mcp.startServer command');
    const started = performance.now();
    await vscode.commands.executeCommand('workbench.mcp.startServer', '*', { waitForLiveTools: true });
    // VS Code names MCP tools `mcp_<server>_<tool>`; chat_secretary_get_request is the built-in one.
    const ours = () => vscode.lm.tools.filter((tool) => tool.name.startsWith('mcp_') && tool.name.endsWith('secretary_get_request'));
    for (let i = 0; i < 200 && ours().length === 0; i++) {
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
  },
  { timeoutMs: 60_000 },
);
