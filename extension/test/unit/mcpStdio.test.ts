// End to end over stdio: the SDK's own Client (and raw JSON-RPC lines) against the built server,
// `node dist/cli.js mcp`, reading sessions from samples/user-data and from a temporary user-data
// folder seeded with the real sessions of ../shared/fixtures/sessions.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

import { sharedFixturesOrSkip } from '../sharedFixtures';
import { linesOf, ROOT, SAMPLES, tempDir } from './helpers';

const CLI = path.join(ROOT, 'dist', 'cli.js');
const TODO_APP = '/home/dev/projects/todo-app';
const DIALOG_TOOLS = ['get_first_request', 'get_request', 'list_dialogs', 'search_requests'];

type Content = { type: string; text: string }[];

interface Started {
  client: Client;
  changes: number;
  stderr: () => string;
  close(): Promise<void>;
}

async function start(args: string[], env: Record<string, string> = {}): Promise<Started> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', ...args],
    env: { ...getDefaultEnvironment(), ...env },
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const client = new Client({ name: 'mcp-stdio-test', version: '1.0.0' });
  const started: Started = { client, changes: 0, stderr: () => err, close: () => client.close() };
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    started.changes += 1;
  });
  await client.connect(transport);
  return started;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as Content)[0]?.text ?? '';
  return { isError: result.isError === true, text, json: JSON.parse(text) as Record<string, unknown> & { success?: boolean } };
}

test('samples: tools/list and every dialog tool over stdio', async () => {
  const server = await start(['--storage', SAMPLES, '--workspace', TODO_APP]);
  try {
    const { tools } = await server.client.listTools();
    const names = tools.map((t) => t.name);
    for (const plain of DIALOG_TOOLS) {
      const tool = tools.find((t) => t.name === `secretary_${plain}`);
      assert.ok(tool, `secretary_${plain} is listed: ${names.join(', ')}`);
      assert.equal(tool.inputSchema.type, 'object');
      assert.ok(tool.description && tool.description.length > 40);
    }
    assert.ok(names.every((n) => n.startsWith('secretary_')), names.join(', '));
    assert.equal(server.client.getServerVersion()?.name, 'copilot-chat-secretary');
    assert.deepEqual(server.client.getServerCapabilities()?.tools, { listChanged: true });

    const first = await call(server.client, 'secretary_get_first_request');
    assert.equal(first.isError, false, first.text);
    assert.equal(first.json.sessionId, 'c3d9e8f1-2a4b-4c6d-8e0f-1a2b3c4d5e6f');
    assert.equal(first.json.requestsCount, 2);

    const second = await call(server.client, 'secretary_get_request', { index: 2 });
    assert.equal(second.isError, false, second.text);
    assert.equal(second.json.index, 2);
    assert.equal(typeof second.json.request, 'string');

    const other = await call(server.client, 'secretary_get_request', { index: 3, sessionId: 'a1f4c2e0-7b3d-4d9a-9c51-2e8f6b0d3a71' });
    assert.equal(other.isError, false, other.text);

    const dialogs = await call(server.client, 'secretary_list_dialogs', { limit: 10 });
    assert.equal(dialogs.isError, false, dialogs.text);
    assert.deepEqual(
      (dialogs.json.dialogs as { sessionId: string }[]).map((d) => d.sessionId),
      ['c3d9e8f1-2a4b-4c6d-8e0f-1a2b3c4d5e6f', 'a1f4c2e0-7b3d-4d9a-9c51-2e8f6b0d3a71'],
    );

    const search = await call(server.client, 'secretary_search_requests', { query: 'todo list slow render' });
    assert.equal(search.isError, false, search.text);
    const results = search.json.results as { sessionId: string; index: number }[];
    assert.ok(results.length > 0);
    assert.equal(results[0].sessionId, 'c3d9e8f1-2a4b-4c6d-8e0f-1a2b3c4d5e6f');

    const failure = await call(server.client, 'secretary_get_request', { index: 0 });
    assert.equal(failure.isError, true);
    assert.deepEqual(failure.json, { success: false, error: 'Index must be 1 or greater' });
  } finally {
    await server.close();
  }
});

test('--workspace picks the current dialog; --all reads every workspace', async () => {
  const empty = await start(['--storage', SAMPLES, '--workspace', 'empty-window']);
  try {
    assert.equal((await call(empty.client, 'secretary_get_first_request')).json.sessionId, 'e7f6a5b4-c3d2-4e1f-9a8b-7c6d5e4f3a2b');
  } finally {
    await empty.close();
  }
  const all = await start(['--storage', SAMPLES, '--all']);
  try {
    assert.equal(((await call(all.client, 'secretary_list_dialogs')).json.dialogs as unknown[]).length, 3);
  } finally {
    await all.close();
  }
});

test('real sessions of ../shared/fixtures in a temporary user-data folder', async (t) => {
  const fixtures = sharedFixturesOrSkip(ROOT, 'sessions', (why) => t.skip(why));
  if (!fixtures) {
    return;
  }
  const temp = tempDir('secretary-mcp-fixtures-');
  try {
    const storage = path.join(temp.dir, 'User', 'workspaceStorage', '0f1e2d3c4b5a69788796a5b4c3d2e1f0');
    fs.mkdirSync(path.join(storage, 'chatSessions'), { recursive: true });
    const folder = path.join(temp.dir, 'project');
    fs.writeFileSync(path.join(storage, 'workspace.json'), JSON.stringify({ folder: `file://${folder}` }));
    const files = fs.readdirSync(fixtures).filter((f) => f.endsWith('.json') || f.endsWith('.jsonl'));
    for (const file of files) {
      fs.copyFileSync(path.join(fixtures, file), path.join(storage, 'chatSessions', file));
    }
    // What each file holds, parsed by the CLI (for .jsonl, the replayed log).
    const expected = files.map((file) => {
      const shown = spawnSync(process.execPath, [CLI, 'show', path.join(storage, 'chatSessions', file), '--json'], { encoding: 'utf8' });
      assert.equal(shown.status, 0, shown.stderr);
      return { file, dialog: JSON.parse(shown.stdout) as { sessionId: string; requests: { text: string }[] } };
    });

    const server = await start(['--storage', temp.dir, '--workspace', folder]);
    try {
      const listed = await call(server.client, 'secretary_list_dialogs', { limit: 50 });
      assert.equal(listed.isError, false, listed.text);
      assert.equal(listed.json.total, files.length);
      for (const { file, dialog } of expected) {
        const first = await call(server.client, 'secretary_get_first_request', { sessionId: dialog.sessionId });
        assert.equal(first.isError, false, `${file}: ${first.text}`);
        assert.equal(first.json.requestsCount, dialog.requests.length, file);
        // Native .json and exports: the full texts are the file's requests[i].message.text.
        const raw: { message: { text: string } }[] | undefined = file.endsWith('.json')
          ? (JSON.parse(fs.readFileSync(path.join(fixtures, file), 'utf8')) as { requests: { message: { text: string } }[] }).requests
          : undefined;
        for (let i = 0; i < dialog.requests.length; i++) {
          const request = await call(server.client, 'secretary_get_request', { sessionId: dialog.sessionId, index: i + 1 });
          assert.equal(request.isError, false, `${file} #${i + 1}: ${request.text}`);
          assert.equal(request.json.request, dialog.requests[i].text, `${file} #${i + 1}`);
          if (raw) {
            assert.equal(request.json.request, raw[i].message.text, `${file} #${i + 1} against the file`);
          }
        }
      }
      const current = await call(server.client, 'secretary_get_first_request');
      assert.equal(current.isError, false, current.text);
      const search = await call(server.client, 'secretary_search_requests', { query: 'Bonjour World', limit: 3 });
      assert.equal(search.isError, false, search.text);
      assert.equal((search.json.results as { sessionId: string }[])[0].sessionId, '331fed7f-cfd6-409c-8502-06a56322b636');
    } finally {
      await server.close();
    }
  } finally {
    temp.cleanup();
  }
});

test('tool_find and tool_load over MCP; a loaded deferred tool is announced, listed and works', async () => {
  const state = tempDir('secretary-mcp-state-');
  const server = await start(['--storage', SAMPLES, '--workspace', TODO_APP], { SECRETARY_STATE_DIR: state.dir });
  try {
    const names = (await server.client.listTools()).tools.map((tool) => tool.name);
    assert.ok(names.includes('secretary_tool_find') && names.includes('secretary_tool_load'), names.join(', '));
    const found = await call(server.client, 'secretary_tool_find', { query: 'recall the first request of a dialog', limit: 5 });
    assert.equal(found.isError, false, found.text);
    const hits = found.json.tools as { name: string; active: boolean }[];
    assert.ok(hits.some((hit) => hit.name === 'secretary_get_first_request'), found.text);

    const again = await call(server.client, 'secretary_tool_load', { names: ['secretary_get_request'] });
    assert.equal(again.isError, false, again.text);
    assert.deepEqual(again.json.loaded, []);
    const unknown = await call(server.client, 'secretary_tool_load', { names: ['secretary_get_request', 'no_such_tool'] });
    assert.equal(unknown.isError, true);
    assert.match(String(unknown.json.error), /no_such_tool/);

    const listing = spawnSync(process.execPath, [CLI, 'tools', '--json'], { encoding: 'utf8' });
    const listed = JSON.parse(listing.stdout) as { name: string; deferred: boolean }[];
    const deferred = listed.find((tool) => tool.name === 'memory' && tool.deferred) ?? listed.find((tool) => tool.deferred && tool.name !== 'tool_call');
    assert.ok(deferred, `the core lists a deferred tool: ${listing.stdout}`);
    assert.equal(server.changes, 0, 'nothing loaded yet, nothing announced');
    const name = `secretary_${deferred.name}`;
    assert.ok(!names.includes(name), `${name} is deferred: not listed before tool_load`);
    const search = await call(server.client, 'secretary_tool_find', { query: deferred.name.replace(/_/g, ' ') });
    assert.ok((search.json.tools as { name: string }[]).some((hit) => hit.name === name), search.text);
    const loaded = await call(server.client, 'secretary_tool_load', { names: [name] });
    assert.equal(loaded.isError, false, loaded.text);
    for (let i = 0; i < 100 && server.changes === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.equal(server.changes, 1, 'notifications/tools/list_changed');
    assert.ok((await server.client.listTools()).tools.some((tool) => tool.name === name));
    const active = await call(server.client, 'secretary_tool_active');
    assert.ok((active.json.tools as { name: string }[]).some((tool) => tool.name === name), active.text);
    if (deferred.name === 'memory') {
      const saved = await call(server.client, name, { command: 'save', path: 'mcp note', content: 'over stdio' });
      assert.equal(saved.isError, false, saved.text);
      assert.equal(fs.readFileSync(path.join(state.dir, 'global', 'memory', 'mcp note.md'), 'utf8'), 'over stdio');
      const read = await call(server.client, name, { command: 'read', path: 'mcp note' });
      assert.equal(read.json.content, 'over stdio');
      const refused = await call(server.client, name, { command: 'delete', path: 'mcp note' });
      assert.equal(refused.isError, true);
      assert.equal(refused.json.error_type, 'consent_required');
    }
  } finally {
    await server.close();
    state.cleanup();
  }
});

test('unknown tools, renamed names and bad arguments are answered as tool errors', async () => {
  const server = await start(['--storage', SAMPLES, '--workspace', TODO_APP]);
  try {
    const unknown = await call(server.client, 'secretary_no_such_tool');
    assert.equal(unknown.isError, true);
    assert.match(String(unknown.json.error), /^Tool not found: secretary_no_such_tool/);

    const legacy = await call(server.client, 'copilot_chat_secretary_get_request', { index: 1 });
    assert.equal(legacy.isError, true);
    assert.equal(legacy.json.error, 'Tool not found: copilot_chat_secretary_get_request. It was renamed to secretary_get_request.');

    const word = await call(server.client, 'secretary_get_request', { index: 'two' });
    assert.equal(word.isError, true);
    assert.match(String(word.json.error), /^Index must be a whole number/);
    const extra = await call(server.client, 'secretary_get_request', { index: 1, bogus: true });
    assert.equal(extra.isError, true);
    assert.match(String(extra.json.error), /bogus/);
    const missing = await call(server.client, 'secretary_search_requests', {});
    assert.equal(missing.isError, true);
    assert.match(String(missing.json.error), /query/);

    assert.equal((await call(server.client, 'secretary_get_request', { index: 1 })).isError, false, 'still serving');
  } finally {
    await server.close();
  }
});

test('MCP_TOOL_PREFIX renames the tools: empty for plain names, any other value as given', async () => {
  const plain = await start(['--storage', SAMPLES, '--workspace', TODO_APP], { MCP_TOOL_PREFIX: '' });
  try {
    const names = (await plain.client.listTools()).tools.map((tool) => tool.name);
    assert.ok(names.includes('get_request') && !names.some((n) => n.startsWith('secretary_')), names.join(', '));
    assert.equal((await call(plain.client, 'get_request', { index: 1 })).isError, false);
  } finally {
    await plain.close();
  }
  const acme = await start(['--storage', SAMPLES, '--workspace', TODO_APP], { MCP_TOOL_PREFIX: 'acme' });
  try {
    const names = (await acme.client.listTools()).tools.map((tool) => tool.name);
    assert.ok(names.includes('acme_get_request'), names.join(', '));
    const legacy = await call(acme.client, 'copilot_chat_secretary_get_first_request');
    assert.equal(legacy.json.error, 'Tool not found: copilot_chat_secretary_get_first_request. It was renamed to acme_get_first_request.');
  } finally {
    await acme.close();
  }
});

/** The server as a plain process: raw lines in, parsed lines out. */
function rawServer(args: string[]) {
  const child = spawn(process.execPath, [CLI, 'mcp', ...args], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, MCP_TOOL_PREFIX: 'secretary' } });
  const lines = linesOf(child.stdout);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const messages = () => lines.map((line) => JSON.parse(line) as { id?: unknown; method?: string; error?: { code: number; message: string }; result?: unknown });
  const reply = async (id: unknown) => {
    for (let i = 0; i < 300; i++) {
      const found = messages().find((m) => m.id === id && !m.method);
      if (found) {
        return found;
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`no reply to ${JSON.stringify(id)}; got: ${lines.join('\n')}`);
  };
  return { child, lines, messages, reply, exited, send: (text: string) => child.stdin.write(text) };
}

test('invalid JSON-RPC on stdin is answered with JSON-RPC errors and the server keeps running', async () => {
  const server = rawServer(['--storage', SAMPLES, '--workspace', TODO_APP]);
  try {
    server.send('this is not json\n');
    server.send('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}\n');
    assert.ok((await server.reply(1)).result, 'initialized after garbage');
    server.send('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    server.send('[{"jsonrpc":"2.0","id":2,"method":"ping"}]\n');
    server.send('{"jsonrpc":"1.0","id":3,"method":"ping"}\n');
    server.send('{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":42}}\n');
    server.send('{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"secretary_get_request","arguments":"index=1"}}\n');
    server.send('{"jsonrpc":"2.0","id":6,"method":"no/such/method"}\n');
    server.send('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"secretary_get_request","arguments":{"index":1}}}\r\n');
    server.send('{"jsonrpc":"2.0","id":8,"meth');
    server.send('od":"tools/list"}\n');

    const garbage = server.messages().find((m) => m.id === null);
    assert.equal(garbage?.error?.code, -32700);
    assert.equal((await server.reply(3)).error?.code, -32600);
    assert.equal((await server.reply(4)).error?.code, -32602);
    assert.match((await server.reply(4)).error?.message ?? '', /name/);
    assert.equal((await server.reply(5)).error?.code, -32602);
    assert.equal((await server.reply(6)).error?.code, -32601);
    const ok = (await server.reply(7)) as { result: { content: Content; isError?: boolean } };
    assert.equal(ok.result.isError, undefined);
    assert.match(JSON.parse(ok.result.content[0].text).request, /^The todo list is slow/);
    assert.ok(((await server.reply(8)) as { result: { tools: unknown[] } }).result.tools.length >= 4);
    assert.equal(server.messages().filter((m) => m.id === null && m.error?.code === -32600).length, 1, 'the batch');
    assert.equal(server.child.exitCode, null, 'still running');
    // Everything on stdout was a JSON-RPC message (messages() parsed every line).
    assert.ok(server.messages().every((m) => (m as { jsonrpc?: string }).jsonrpc === '2.0'));
    server.child.stdin.end();
    assert.equal(await server.exited, 0, 'exits 0 when the client closes stdin');
  } finally {
    server.child.kill();
  }
});

test('calls read before stdin closes are still answered, then the server exits 0', async () => {
  const server = rawServer(['--storage', SAMPLES, '--workspace', TODO_APP]);
  try {
    server.send(
      [
        '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"pipe","version":"1"}}}',
        '{"jsonrpc":"2.0","method":"notifications/initialized"}',
        '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"secretary_get_first_request","arguments":{}}}',
        '',
      ].join('\n'),
    );
    server.child.stdin.end();
    assert.equal(await server.exited, 0);
    const answer = server.messages().find((m) => m.id === 2) as { result: { content: Content } } | undefined;
    assert.ok(answer, `no answer to the call; got: ${server.lines.join('\n')}`);
    assert.equal(JSON.parse(answer.result.content[0].text).sessionId, 'c3d9e8f1-2a4b-4c6d-8e0f-1a2b3c4d5e6f');
  } finally {
    server.child.kill();
  }
});

test('a missing --storage folder fails at start with one line on stderr and nothing on stdout', () => {
  const run = spawnSync(process.execPath, [CLI, 'mcp', '--storage', '/no/such/dir'], { encoding: 'utf8', input: '', timeout: 30_000 });
  assert.equal(run.status, 1);
  assert.equal(run.stdout, '');
  assert.match(run.stderr, /--storage \/no\/such\/dir: no such folder/);
});

test('search_requests finds a paraphrase; SECRETARY_SEMANTIC_SEARCH=0 turns that off', async () => {
  const query = { query: 'night theme switch' }; // no word of it occurs in the samples
  const semantic = await start(['--storage', SAMPLES, '--all']);
  try {
    const found = await call(semantic.client, 'secretary_search_requests', query);
    assert.equal(found.isError, false, found.text);
    const results = found.json.results as { snippet: string; signals: string[] }[];
    assert.ok(results.length > 0, found.text);
    assert.match(results[0].snippet, /dark mode toggle/, found.text);
    assert.deepEqual(results[0].signals, ['semantic']);
  } finally {
    await semantic.close();
  }
  const lexical = await start(['--storage', SAMPLES, '--all'], { SECRETARY_SEMANTIC_SEARCH: '0' });
  try {
    const none = await call(lexical.client, 'secretary_search_requests', query);
    assert.equal(none.json.total, 0, none.text);
    const words = await call(lexical.client, 'secretary_search_requests', { query: 'dark mode' });
    assert.deepEqual((words.json.results as { signals: string[] }[])[0].signals, ['lexical']);
  } finally {
    await lexical.close();
  }
});
