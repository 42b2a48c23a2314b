// The MCP server in process: the SDK's own Client over an in-memory transport, against a fake
// backend (to drive deferred tools and tool_load before the core has deferred tools) and against
// the real WASM core on the sample sessions (including a trapped core).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { LoggingMessageNotificationSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

import { WasmCore } from '../../src/core/wasm';
import { silentLogger } from '../../src/log';
import { coreBackend } from '../../src/mcp/backend';
import { createSecretaryServer, type ToolBackend } from '../../src/mcp/server';
import { openSessions } from '../../src/sessions/standalone';
import type { ToolListing } from '../../src/tools/coreTool';
import { SAMPLES, toolListing, WASM_DIR } from './helpers';

type Text = { type: string; text: string }[];

function listing(name: string, deferred = false): ToolListing {
  const inputSchema = { type: 'object', properties: {}, required: [] };
  return toolListing(name, { deferred, displayName: name, summary: name, inputSchema });
}

async function connect(backend: ToolBackend, prefix = 'secretary_') {
  const secretary = createSecretaryServer({ backend, prefix, log: silentLogger, version: '0.0.0-test' });
  const client = new Client({ name: 'unit', version: '1.0.0' });
  const changes: number[] = [];
  const logs: { level: string; data: unknown }[] = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    changes.push(Date.now());
  });
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    logs.push({ level: n.params.level, data: n.params.data });
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await secretary.server.connect(serverSide);
  await client.connect(clientSide);
  return { secretary, client, changes, logs, close: () => client.close() };
}

/** A backend whose `tool_load` answers like the core's: `loaded` lists the newly active tools. */
function fakeBackend() {
  const active = new Set(['get_request', 'tool_load']);
  const calls: { name: string; args: Record<string, unknown> }[] = [];
  const resets = new Set<() => void>();
  const backend: ToolBackend & { calls: typeof calls; reset(): void } = {
    calls,
    listings: [listing('get_request'), listing('tool_load'), listing('memory', true)],
    invoke: async (name, args) => {
      calls.push({ name, args });
      if (name === 'tool_load') {
        const names = (args.names as string[]).map((n) => n.replace(/^secretary_/, ''));
        if (names.some((n) => !['get_request', 'tool_load', 'memory'].includes(n))) {
          return JSON.stringify({ success: false, error: 'Unknown tools: x. Nothing was loaded.' });
        }
        const loaded = names.filter((n) => !active.has(n));
        loaded.forEach((n) => active.add(n));
        return JSON.stringify({ success: true, loaded: loaded.map((n) => `secretary_${n}`), alreadyActive: [] });
      }
      if (name === 'explode') {
        throw new Error('disk on fire');
      }
      if (!active.has(name)) {
        return JSON.stringify({ success: false, error: `Tool ${name} is not loaded.` });
      }
      return JSON.stringify({ success: true, tool: name });
    },
    onDidReset: (listener) => {
      resets.add(listener);
      return { dispose: () => resets.delete(listener) };
    },
    reset: () => resets.forEach((listener) => listener()),
  };
  return backend;
}

const names = (tools: { name: string }[]) => tools.map((t) => t.name);
const waitFor = async (condition: () => boolean) => {
  for (let i = 0; i < 100 && !condition(); i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.ok(condition(), 'condition not met in time');
};

test('tool_load success registers the loaded tools, sends list_changed once, and the tool then works', async () => {
  const backend = fakeBackend();
  const { client, changes, logs, close } = await connect(backend);
  try {
    assert.deepEqual(names((await client.listTools()).tools), ['secretary_get_request', 'secretary_tool_load']);

    const before = await client.callTool({ name: 'secretary_memory', arguments: {} });
    assert.equal(before.isError, true, 'a deferred tool answers until it is loaded');
    assert.equal(backend.calls.at(-1)?.name, 'secretary_memory', 'an unregistered name goes to the core as given');

    const failed = await client.callTool({ name: 'secretary_tool_load', arguments: { names: ['secretary_memory', 'x'] } });
    assert.equal(failed.isError, true);
    assert.deepEqual(names((await client.listTools()).tools), ['secretary_get_request', 'secretary_tool_load'], 'all or nothing');

    const loaded = await client.callTool({ name: 'secretary_tool_load', arguments: { names: ['secretary_memory'] } });
    assert.equal(loaded.isError, undefined);
    assert.deepEqual(JSON.parse((loaded.content as Text)[0].text).loaded, ['secretary_memory']);
    await waitFor(() => changes.length === 1);
    assert.deepEqual(names((await client.listTools()).tools), ['secretary_get_request', 'secretary_tool_load', 'secretary_memory']);

    const again = await client.callTool({ name: 'secretary_tool_load', arguments: { names: ['secretary_memory'] } });
    assert.equal(again.isError, undefined);
    const works = await client.callTool({ name: 'secretary_memory', arguments: {} });
    assert.deepEqual(JSON.parse((works.content as Text)[0].text), { success: true, tool: 'memory' });
    assert.equal(backend.calls.at(-1)?.name, 'memory', 'a registered tool runs under its plain name');
    await new Promise((resolve) => setTimeout(resolve, 30));
    assert.equal(changes.length, 1, 'loading again sends no second list_changed');

    assert.ok(logs.some((l) => l.level === 'debug' && l.data === 'Tool called: secretary_memory'));
    assert.ok(logs.some((l) => l.level === 'debug' && /^Tool secretary_memory completed successfully/.test(String(l.data))));
    assert.ok(logs.some((l) => l.level === 'error' && /^Tool secretary_tool_load failed: Unknown tools: x/.test(String(l.data))));
  } finally {
    await close();
  }
});

test('a restarted core is told again which tools were loaded', async () => {
  const backend = fakeBackend();
  const { client, close } = await connect(backend);
  try {
    await client.callTool({ name: 'secretary_tool_load', arguments: { names: ['secretary_memory'] } });
    backend.calls.length = 0;
    backend.reset();
    await waitFor(() => backend.calls.length === 1);
    assert.deepEqual(backend.calls[0], { name: 'tool_load', args: { names: ['memory'] } });
  } finally {
    await close();
  }
});

test('a thrown error is an isError result, logged, and the server goes on', async () => {
  const backend = fakeBackend();
  const { client, logs, close } = await connect(backend);
  try {
    const result = await client.callTool({ name: 'explode', arguments: {} });
    assert.equal(result.isError, true);
    assert.deepEqual(JSON.parse((result.content as Text)[0].text), { isError: true, message: 'disk on fire' });
    assert.ok(logs.some((l) => l.level === 'error' && l.data === 'Tool explode failed: disk on fire'));
    assert.equal((await client.callTool({ name: 'secretary_get_request', arguments: {} })).isError, undefined);
  } finally {
    await close();
  }
});

test('real core: tools, results, renames and a trapped core', async () => {
  const core = new WasmCore(WASM_DIR, silentLogger);
  const sessions = openSessions(core, silentLogger, { storage: [SAMPLES], workspace: '/home/dev/projects/todo-app' });
  const base = coreBackend(core, sessions, 'secretary_');
  // `trap` makes the core panic, as a bug in a tool would.
  const backend: ToolBackend = {
    ...base,
    invoke: (name, args) => (name === 'trap' ? Promise.resolve(core.run((_h, m) => (m.debugTrap(), ''))) : base.invoke(name, args)),
  };
  const { client, close } = await connect(backend);
  try {
    const tools = names((await client.listTools()).tools);
    for (const name of ['secretary_get_first_request', 'secretary_get_request', 'secretary_list_dialogs', 'secretary_search_requests']) {
      assert.ok(tools.includes(name), `${name} is listed: ${tools.join(', ')}`);
    }
    assert.ok(!tools.includes('secretary_tool_call'), 'tool_call runs VS Code tools: not offered over MCP');
    const first = await client.callTool({ name: 'secretary_get_request', arguments: { index: 1 } });
    assert.equal(first.isError, undefined);
    assert.match(JSON.parse((first.content as Text)[0].text).request, /^The todo list is slow with 5,000 items/);

    const tooFar = await client.callTool({ name: 'secretary_get_request', arguments: { index: 9 } });
    assert.equal(tooFar.isError, true);
    assert.deepEqual(JSON.parse((tooFar.content as Text)[0].text), { success: false, error: 'Index 9 exceeds total requests (2)' });

    const trapped = await client.callTool({ name: 'trap', arguments: {} });
    assert.equal(trapped.isError, true);
    assert.match(JSON.parse((trapped.content as Text)[0].text).message, /core failed and was restarted/);
    assert.equal(core.resetCount, 1);
    const after = await client.callTool({ name: 'secretary_get_first_request', arguments: {} });
    assert.equal(after.isError, undefined, (after.content as Text)[0].text);
    assert.equal(JSON.parse((after.content as Text)[0].text).sessionId, 'c3d9e8f1-2a4b-4c6d-8e0f-1a2b3c4d5e6f');
  } finally {
    await close();
    sessions.dispose();
  }
});
