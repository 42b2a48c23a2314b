import assert from 'node:assert/strict';
import { test } from 'node:test';

import { CoreTrapError, WasmCore } from '../../src/core/wasm';
import { silentLogger } from '../../src/log';
import { WASM_DIR } from './helpers';

test('the facade lists every tool with a generated description and schema', () => {
  const core = new WasmCore(WASM_DIR, silentLogger);
  const tools = JSON.parse(core.run((h) => h.tools())) as { name: string; vscodeName: string; description: string; inputSchema: { required: unknown } }[];
  const names = tools.map((t) => t.name);
  for (const name of ['get_first_request', 'get_request', 'list_dialogs', 'search_requests']) {
    assert.ok(names.includes(name), `${name} missing from ${names.join(', ')}`);
  }
  for (const tool of tools) {
    assert.equal(tool.vscodeName, `chat_secretary_${tool.name}`);
    assert.ok(tool.description.includes('Use this tool when:'));
    assert.ok(Array.isArray(tool.inputSchema.required));
  }
});

test('the build-time listing is what the live core lists, with and without the example tools', () => {
  for (const examples of [false, true]) {
    const core = new WasmCore(WASM_DIR, silentLogger);
    core.setIncludeExamples(examples);
    const listed = core.tools();
    const prompts = core.listing.prompts;
    const sources = core.listing.sources;
    assert.equal(core.isLoaded, false, 'reading the listing loaded the module');
    assert.deepEqual(sources, JSON.parse(core.run((_h, m) => m.dialogSources())));
    assert.ok(sources.includes('vscode') && sources.includes('codex'), sources.join(', '));
    assert.deepEqual(listed, JSON.parse(core.run((h) => h.tools())));
    assert.deepEqual(prompts, JSON.parse(core.run((h) => h.prompts())));
    assert.equal(core.version, core.run((_h, m) => m.version()));
    assert.equal(listed.some((tool) => tool.example), examples);
  }
});

test('the module loads on first use, settings recorded by configure apply to it and to a fresh one after a trap', async () => {
  const core = new WasmCore(WASM_DIR, silentLogger);
  const configured: string[] = [];
  core.configure((h) => {
    h.setReady(true);
    configured.push('ready');
  });
  assert.equal(core.isLoaded, false);
  assert.deepEqual(configured, []);
  await core.warmUp();
  assert.equal(core.isLoaded, true);
  assert.deepEqual(configured, ['ready']);
  // Configured: the dialog tools answer as after a scan, not "Service temporarily unavailable".
  assert.deepEqual(JSON.parse(core.invoke('get_first_request', {}, undefined)), { success: false, error: 'No active dialog found' });
  assert.throws(() => core.run((_h, m) => m.debugTrap()), CoreTrapError);
  assert.deepEqual(configured, ['ready', 'ready']);
  assert.deepEqual(JSON.parse(core.invoke('get_first_request', {}, undefined)), { success: false, error: 'No active dialog found' });
  // Configured after loading: applied at once.
  core.configure((h) => h.setReady(false));
  assert.deepEqual(JSON.parse(core.invoke('get_first_request', {}, undefined)), { success: false, error: 'Service temporarily unavailable' });
  // A second core of the process instantiates the module compiled once, synchronously on first use.
  const second = new WasmCore(WASM_DIR, silentLogger);
  assert.equal(second.run((_h, m) => m.version()), core.version);
});

test('dialog tools answer "Service temporarily unavailable" until the sessions are read', () => {
  const core = new WasmCore(WASM_DIR, silentLogger);
  assert.deepEqual(JSON.parse(core.invoke('get_first_request', {}, undefined)), {
    success: false,
    error: 'Service temporarily unavailable',
  });
  core.run((h) => h.setReady(true));
  assert.deepEqual(JSON.parse(core.invoke('get_first_request', {}, undefined)), {
    success: false,
    error: 'No active dialog found',
  });
});

test('a trap inside the module is caught, reported, and followed by a fresh instance', () => {
  const core = new WasmCore(WASM_DIR, silentLogger);
  let resets = 0;
  core.onDidReset(() => {
    resets += 1;
  });
  assert.throws(() => core.run((_h, m) => m.debugTrap()), CoreTrapError);
  assert.equal(resets, 1);
  assert.equal(core.resetCount, 1);
  // The fresh instance works (and starts not ready, like any new instance).
  assert.deepEqual(JSON.parse(core.invoke('get_request', { index: 0 }, undefined)), {
    success: false,
    error: 'Index must be 1 or greater',
  });
});

test('malformed argument JSON and unknown tools are answered, not thrown', () => {
  const core = new WasmCore(WASM_DIR, silentLogger);
  const bad = JSON.parse(core.run((h) => h.invoke('get_request', '{index: 1', undefined)));
  assert.equal(bad.success, false);
  assert.match(bad.error, /not JSON/);
  assert.deepEqual(JSON.parse(core.invoke('no_such_tool', {}, undefined)), {
    success: false,
    error: 'Tool not found: no_such_tool',
    error_type: 'not_found',
  });
  const renamed = JSON.parse(core.invoke('copilot_chat_secretary_get_request', { index: 1 }, undefined));
  assert.equal(renamed.error, 'Tool not found: copilot_chat_secretary_get_request. It was renamed to chat_secretary_get_request.');
});

test('a hostile session file gets a clear error, never a trap', () => {
  const core = new WasmCore(WASM_DIR, silentLogger);
  const deep = Buffer.from('['.repeat(200_000));
  assert.throws(() => core.run((_h, m) => m.parseSession('x.json', deep)), (err: Error) => !(err instanceof CoreTrapError));
  const notUtf8 = Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]);
  assert.throws(() => core.run((_h, m) => m.parseSession('x.json', notUtf8)), (err: Error) => !(err instanceof CoreTrapError));
  assert.equal(core.resetCount, 0);
});

test("the MCP server's start-up prefix rule (mcp/names.ts, used before the module loads) is the core's", async () => {
  const { toolNamePrefix } = await import('../../src/mcp/names');
  const core = new WasmCore(WASM_DIR, silentLogger);
  for (const value of [undefined, '', '   ', 'acme', 'acme_', ' acme ', 'a_b', '__']) {
    const env = value === undefined ? {} : { MCP_TOOL_PREFIX: value };
    assert.equal(toolNamePrefix(env), core.run((_h, m) => m.toolPrefix(value)), JSON.stringify(value));
  }
});
