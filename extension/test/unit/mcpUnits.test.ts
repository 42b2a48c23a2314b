// Unit tests of the MCP server's parts: names, the tool registry (registration, list_changed),
// results, and the JSON-RPC guard in front of the SDK's stdio transport.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';

import { silentLogger } from '../../src/log';
import { JsonRpcGuard, judgeLine, type GuardReply } from '../../src/mcp/guard';
import { mcpToolName, prefixProblem, toolNamePrefix } from '../../src/mcp/names';
import { ToolRegistry, UnknownToolsError } from '../../src/mcp/registry';
import { thrownResult, toolResult } from '../../src/mcp/results';
import { workspaceKeyOf } from '../../src/sessions/standalone';
import type { ToolListing } from '../../src/tools/coreTool';
import { toolListing } from './helpers';

function listing(name: string, deferred = false, destructive = false): ToolListing {
  return toolListing(name, { deferred, destructive });
}

test('MCP_TOOL_PREFIX: default secretary_, an existing value kept, empty disables, one underscore', () => {
  assert.equal(toolNamePrefix({}), 'secretary_');
  assert.equal(toolNamePrefix({ MCP_TOOL_PREFIX: '' }), '');
  assert.equal(toolNamePrefix({ MCP_TOOL_PREFIX: '  ' }), '');
  assert.equal(toolNamePrefix({ MCP_TOOL_PREFIX: 'acme' }), 'acme_');
  assert.equal(toolNamePrefix({ MCP_TOOL_PREFIX: 'acme_' }), 'acme_');
  assert.equal(mcpToolName('get_request', 'secretary_'), 'secretary_get_request');
  assert.equal(mcpToolName('get_request', ''), 'get_request');
  assert.equal(prefixProblem('secretary_'), undefined);
  assert.equal(prefixProblem(''), undefined);
  assert.match(prefixProblem('my tools_') ?? '', /characters MCP does not allow/);
});

test('registry: deferred tools are not active until activated; activation is idempotent and all or nothing', () => {
  const registry = new ToolRegistry([listing('get_request'), listing('memory', true), listing('notes', true)], 'secretary_');
  const changes: string[][] = [];
  registry.onDidChange((added) => changes.push(added));
  assert.deepEqual(registry.active().map((t) => t.name), ['secretary_get_request']);
  assert.equal(registry.activeTool('secretary_memory'), undefined);
  assert.equal(registry.activeTool('get_request'), undefined, 'only MCP names are registered');

  assert.throws(() => registry.activate(['secretary_memory', 'nope']), (err: unknown) => {
    assert.ok(err instanceof UnknownToolsError);
    assert.deepEqual(err.names, ['nope']);
    return true;
  });
  assert.deepEqual(registry.active().map((t) => t.plain), ['get_request'], 'nothing activated on failure');
  assert.deepEqual(changes, []);

  assert.deepEqual(registry.activate(['secretary_memory', 'get_request']), ['memory']);
  assert.deepEqual(registry.active().map((t) => t.name), ['secretary_get_request', 'secretary_memory']);
  assert.deepEqual(changes, [['memory']]);
  assert.deepEqual(registry.activate(['memory', 'secretary_memory']), [], 'loading twice changes nothing');
  assert.deepEqual(changes, [['memory']], 'and announces nothing');
  assert.deepEqual(registry.loadedDeferred().map((t) => t.plain), ['memory']);
  assert.equal(registry.activeTool('secretary_memory')?.plain, 'memory');
});

test('registry: MCP tools carry the core schema, title and annotations', () => {
  const tool = ToolRegistry.toMcpTool({ plain: 'forget', name: 'forget', listing: listing('forget', false, true) });
  assert.equal(tool.name, 'forget');
  assert.equal(tool.inputSchema.type, 'object');
  assert.deepEqual(tool.inputSchema.required, []);
  assert.deepEqual(tool.annotations, { title: 'forget', readOnlyHint: false, destructiveHint: true, openWorldHint: false });
  const plain = new ToolRegistry([listing('get_request')], '');
  assert.deepEqual(plain.active().map((t) => t.name), ['get_request']);
});

test('results: the JSON text unchanged; failures set isError', () => {
  assert.deepEqual(toolResult('{"success":true,"index":1}'), { content: [{ type: 'text', text: '{"success":true,"index":1}' }] });
  assert.equal(toolResult('{"success":false,"error":"No active dialog found"}').isError, true);
  assert.equal(toolResult('{"isError":true,"message":"boom"}').isError, true);
  assert.equal(toolResult('not json').isError, true);
  const thrown = thrownResult(new Error('The Secretary core failed and was restarted: unreachable'));
  assert.equal(thrown.isError, true);
  assert.deepEqual(JSON.parse(thrown.content[0].text), {
    isError: true,
    message: 'The Secretary core failed and was restarted: unreachable',
  });
});

test('guard: JSON-RPC errors for lines that are not well-formed requests', () => {
  const code = (line: string) => {
    const verdict = judgeLine(line);
    return verdict.kind === 'reply' ? [verdict.reply.id, verdict.reply.error.code] : verdict.kind;
  };
  assert.deepEqual(code('{"jsonrpc":"2.0","id":1,"method":"tools/list"}'), 'pass');
  assert.deepEqual(code('{"jsonrpc":"2.0","method":"notifications/initialized"}'), 'pass');
  assert.deepEqual(code('{"jsonrpc":"2.0","id":"x","method":"no/such/method"}'), 'pass', 'the SDK answers Method not found');
  assert.deepEqual(code('{not json'), [null, -32700]);
  assert.deepEqual(code('[{"jsonrpc":"2.0","id":1,"method":"ping"}]'), [null, -32600]);
  assert.deepEqual(code('42'), [null, -32600]);
  assert.deepEqual(code('{"jsonrpc":"1.0","id":5,"method":"ping"}'), [5, -32600]);
  assert.deepEqual(code('{"jsonrpc":"2.0","id":6,"method":7}'), [6, -32600]);
  assert.deepEqual(code('{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}'), [null, -32600]);
  assert.deepEqual(code('{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":5}}'), [8, -32602]);
  assert.deepEqual(code('{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"x","arguments":[1]}}'), [9, -32602]);
  assert.deepEqual(code('{"jsonrpc":"2.0","method":5}'), [null, -32600]);
  assert.equal(judgeLine('{"method":"notifications/x"}').kind, 'drop', 'a malformed notification is never answered');
  const invalid = judgeLine('{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":5}}');
  assert.ok(invalid.kind === 'reply' && /Invalid params for tools\/call: params\.name/.test(invalid.reply.error.message));
});

test('guard stream: passes good lines split across chunks, answers bad ones, survives oversized lines', async () => {
  const replies: GuardReply[] = [];
  const guard = new JsonRpcGuard((reply) => replies.push(reply), silentLogger, 64);
  const out: string[] = [];
  guard.on('data', (chunk: Buffer) => out.push(chunk.toString()));
  const input = new PassThrough();
  input.pipe(guard);
  input.write('{"jsonrpc":"2.0","id":1,');
  input.write('"method":"ping"}\r\n\n   \ngarbage\n');
  input.write(`{"jsonrpc":"2.0","id":2,"method":"ping","params":{"pad":"${'x'.repeat(80)}"}}\n`);
  input.write('{"jsonrpc":"2.0","id":3,"method":"ping"}\n');
  input.end('{"jsonrpc":"2.0","id":4,"method":"ping"}');
  await new Promise((resolve) => guard.on('end', resolve).resume());
  assert.equal(
    out.join(''),
    '{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0","id":3,"method":"ping"}\n{"jsonrpc":"2.0","id":4,"method":"ping"}\n',
  );
  assert.deepEqual(
    replies.map((r) => [r.id, r.error.code]),
    [
      [null, -32700],
      [null, -32600],
    ],
  );
  assert.match(replies[1].error.message, /longer than 64 bytes/);
});

test('--workspace: URIs and empty-window as given, a folder as the key its sessions are filed under', () => {
  assert.equal(workspaceKeyOf('vscode-remote://ssh-remote+box/home/me/app'), 'vscode-remote://ssh-remote+box/home/me/app');
  assert.equal(workspaceKeyOf('empty-window'), 'empty-window');
  assert.equal(workspaceKeyOf('/home/me/app'), 'file:///home/me/app');
  // VS Code encodes some characters otherwise than Node: the key found on disk wins.
  assert.equal(workspaceKeyOf('/home/me/my app/', ['file:///other', 'file:///home/me/my%20app']), 'file:///home/me/my%20app');
  assert.equal(workspaceKeyOf('/home/me/a+b', ['file:///home/me/a%2Bb']), 'file:///home/me/a%2Bb');
  // A storage folder without workspace.json files its sessions under its own path.
  assert.equal(workspaceKeyOf('/u/User/workspaceStorage/3c7d', ['/u/User/workspaceStorage/3c7d']), '/u/User/workspaceStorage/3c7d');
});
