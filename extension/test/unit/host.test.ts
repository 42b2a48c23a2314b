// The Node host bridge (extension/src/host/nodeHost.ts) on real temporary folders, and the core
// calling it through the WASM facade.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';

import { WasmCore } from '../../src/core/wasm';
import { HostError } from '../../src/host/bridge';
import { NodeHost } from '../../src/host/nodeHost';
import { checkRelative } from '../../src/host/paths';
import { defaultStateDir, stateRoots } from '../../src/host/roots';
import { readSettings } from '../../src/host/settingsFile';
import { standaloneHost } from '../../src/host/standalone';
import { silentLogger } from '../../src/log';
import { mcpToolName } from '../../src/mcp/names';
import { WASM_DIR, tempDir } from './helpers';

function setup() {
  const temp = tempDir('secretary-host-');
  const roots = {
    workspace: path.join(temp.dir, 'ws'),
    workspaceState: path.join(temp.dir, 'state', 'ws'),
    globalState: path.join(temp.dir, 'state', 'global'),
  };
  fs.mkdirSync(roots.workspace, { recursive: true });
  return { ...temp, roots, host: new NodeHost({ roots }) };
}

function refused(fn: () => unknown, code = 'SECRETARY_PATH_REFUSED'): void {
  assert.throws(fn, (err: unknown) => err instanceof HostError && err.code === code, 'expected a refusal');
}

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (data: Uint8Array | null) => (data === null ? null : Buffer.from(data).toString('utf8'));

test('traversal, absolute and malformed paths are refused before any file is touched', () => {
  const { host, cleanup, dir } = setup();
  try {
    fs.writeFileSync(path.join(dir, 'secret.txt'), 'outside');
    for (const bad of ['../secret.txt', '../../secret.txt', 'a/../../secret.txt', '/etc/passwd', 'C:/x', 'a\\..\\b', '', '.', 'a//b', 'a/./b', 'x\u0000y', '~/x']) {
      refused(() => host.read('workspace', bad));
      refused(() => host.writeAtomic('globalState', bad, bytes('x')));
      refused(() => host.remove('workspace', bad));
    }
    refused(() => host.list('workspace', '../', true));
    assert.deepEqual(checkRelative('', true), []);
    assert.deepEqual(checkRelative('a/b.md'), ['a', 'b.md']);
    assert.equal(fs.readFileSync(path.join(dir, 'secret.txt'), 'utf8'), 'outside');
  } finally {
    cleanup();
  }
});

test('symlinks cannot lead out of an area', () => {
  const { host, roots, cleanup, dir } = setup();
  try {
    const outside = path.join(dir, 'outside');
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, 'secret.md'), 'secret');
    fs.symlinkSync(outside, path.join(roots.workspace, 'linked-dir'));
    fs.symlinkSync(path.join(outside, 'secret.md'), path.join(roots.workspace, 'linked-file.md'));
    fs.writeFileSync(path.join(roots.workspace, 'inside.md'), 'inside');
    fs.symlinkSync(path.join(roots.workspace, 'inside.md'), path.join(roots.workspace, 'alias.md'));

    refused(() => host.read('workspace', 'linked-dir/secret.md'));
    refused(() => host.read('workspace', 'linked-file.md'));
    refused(() => host.writeAtomic('workspace', 'linked-dir/new.md', bytes('x')));
    assert.equal(fs.existsSync(path.join(outside, 'new.md')), false);
    // Listing skips what leads out, and never follows symlinked folders.
    assert.deepEqual(host.list('workspace', '', true), ['alias.md', 'inside.md']);
    assert.equal(text(host.read('workspace', 'alias.md')), 'inside');
  } finally {
    cleanup();
  }
});

test('atomic writes replace the whole file and leave no partial or temporary file behind', () => {
  const { host, roots, cleanup } = setup();
  try {
    host.writeAtomic('globalState', 'flags.json', bytes('{"v":1}'));
    assert.equal(text(host.read('globalState', 'flags.json')), '{"v":1}');
    // A failure between the temporary write and the rename keeps the old file whole.
    const failing = new NodeHost({
      roots,
      beforeRename: () => {
        throw new Error('simulated crash before rename');
      },
    });
    assert.throws(() => failing.writeAtomic('globalState', 'flags.json', bytes('{"v":2, "long": "' + 'x'.repeat(100_000) + '"}')), /simulated crash/);
    assert.equal(text(host.read('globalState', 'flags.json')), '{"v":1}');
    assert.deepEqual(fs.readdirSync(roots.globalState), ['flags.json'], 'the temporary file was removed');
    // A rename that fails (the target is a folder) leaves nothing behind either.
    fs.mkdirSync(path.join(roots.globalState, 'taken', 'x'), { recursive: true });
    assert.throws(() => host.writeAtomic('globalState', 'taken', bytes('data')));
    assert.deepEqual(fs.readdirSync(roots.globalState).sort(), ['flags.json', 'taken']);
    // Parent folders are created inside the area.
    host.writeAtomic('workspaceState', 'deep/er/file.json', bytes('1'));
    assert.equal(fs.readFileSync(path.join(roots.workspaceState, 'deep', 'er', 'file.json'), 'utf8'), '1');
  } finally {
    cleanup();
  }
});

test('read, remove and list: missing things are null, false and empty; areas without a root are unavailable', () => {
  const { host, roots, cleanup } = setup();
  try {
    assert.equal(host.read('globalState', 'flags.json'), null, 'the root does not exist yet');
    assert.deepEqual(host.list('globalState', '', true), []);
    assert.equal(host.remove('globalState', 'flags.json'), false);
    fs.mkdirSync(path.join(roots.workspace, 'docs', 'api'), { recursive: true });
    fs.mkdirSync(path.join(roots.workspace, 'node_modules', 'x'), { recursive: true });
    fs.writeFileSync(path.join(roots.workspace, 'docs', 'a.md'), 'a');
    fs.writeFileSync(path.join(roots.workspace, 'docs', 'api', 'v1.md'), 'v1');
    fs.writeFileSync(path.join(roots.workspace, 'node_modules', 'x', 'skip.md'), 'skip');
    assert.deepEqual(host.list('workspace', 'docs', false), ['a.md']);
    assert.deepEqual(host.list('workspace', 'docs', true), ['a.md', 'api/v1.md']);
    assert.deepEqual(host.list('workspace', '', true), ['docs/a.md', 'docs/api/v1.md']);
    assert.deepEqual(host.list('workspace', 'nope', true), []);
    assert.throws(() => host.read('workspace', 'docs'), /not a regular file \(a folder\)/);
    const bare = new NodeHost({ roots: { globalState: roots.globalState } });
    refused(() => bare.read('workspaceState', 'flags.json'), 'SECRETARY_NO_AREA');
  } finally {
    cleanup();
  }
});

test('standalone hosts keep state under SECRETARY_STATE_DIR and read .vscode/settings.json with comments', () => {
  const temp = tempDir('secretary-state-');
  try {
    assert.equal(defaultStateDir({ SECRETARY_STATE_DIR: temp.dir }), temp.dir);
    assert.equal(defaultStateDir({ XDG_STATE_HOME: '/x/state' }, 'linux'), path.join('/x/state', 'copilot-chat-secretary'));
    const a = stateRoots(temp.dir, '/home/u/proj');
    const b = stateRoots(temp.dir, '/home/v/proj');
    assert.equal(a.globalState, path.join(temp.dir, 'global'));
    assert.match(path.basename(a.workspaceState ?? ''), /^proj-[0-9a-f]{12}$/);
    assert.notEqual(a.workspaceState, b.workspaceState, 'two folders of the same name keep apart');
    const ws = path.join(temp.dir, 'ws');
    fs.mkdirSync(path.join(ws, '.vscode'), { recursive: true });
    fs.writeFileSync(
      path.join(ws, '.vscode', 'settings.json'),
      '{\n  // categories\n  "copilotChatSecretary.content.categories": {"x": {"folder": "d", "patterns": ["*.md",]},},\n  /* url */ "u": "http://a//b",\n}\n',
    );
    assert.deepEqual(readSettings(path.join(ws, '.vscode', 'settings.json')), {
      'copilotChatSecretary.content.categories': { x: { folder: 'd', patterns: ['*.md'] } },
      u: 'http://a//b',
    });
    const host = standaloneHost({ workspaceFolder: ws, stateDir: path.join(temp.dir, 'st') });
    assert.deepEqual(host.setting('copilotChatSecretary.content.categories'), { x: { folder: 'd', patterns: ['*.md'] } });
    assert.equal(host.rootOf('workspace'), ws);
  } finally {
    temp.cleanup();
  }
});

test('a hostile settings file gives {} or what JSON.parse gives, without throwing', () => {
  const temp = tempDir('secretary-settings-');
  try {
    const file = path.join(temp.dir, 'settings.json');
    const read = (text: string | Buffer) => {
      fs.writeFileSync(file, text);
      return readSettings(file);
    };
    assert.deepEqual(readSettings(path.join(temp.dir, 'missing.json')), {});
    for (const garbage of ['', 'null', '[1, 2]', '"text"', '42', '{"a": 1,,}', '{"a": 1} trailing', "{'a': 1}", '{"a": "\u0007"}', '{"a" 1}']) {
      assert.deepEqual(read(garbage), {}, JSON.stringify(garbage));
    }
    assert.deepEqual(read(Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0x01, 0x80, 0x22])), {});
    // `__proto__` is a key like any other (as with JSON.parse), never the object's prototype.
    const proto = read('{"__proto__": {"polluted": true}, "x": 1, "x": 2}');
    assert.equal(Object.getPrototypeOf(proto), Object.prototype);
    assert.ok(Object.hasOwn(proto, '__proto__'));
    assert.equal((proto as { polluted?: unknown }).polluted, undefined);
    assert.equal(proto.x, 2, 'the last of duplicate keys wins');
    assert.deepEqual(proto, JSON.parse('{"__proto__": {"polluted": true}, "x": 1, "x": 2}'));
    // Nesting too deep for a recursive parser: no stack overflow escapes.
    const deep = read(`{"a": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
    assert.equal(typeof deep, 'object');
    // A large file (about 8 MB) is read whole.
    const keys = 100_000;
    const large = read(`{${Array.from({ length: keys }, (_, i) => `"key${i}": {"x": [${i}, "${'v'.repeat(40)}"]}, // ${i}`).join('\n')}\n}`);
    assert.equal(Object.keys(large).length, keys);
    assert.deepEqual(large.key99999, { x: [99_999, 'v'.repeat(40)] });
  } finally {
    temp.cleanup();
  }
});

test('the core reads and writes flags and content through the bridge (WASM facade)', () => {
  const { roots, cleanup } = setup();
  try {
    const core = new WasmCore(WASM_DIR, silentLogger);
    const call = (name: string, args: unknown) => JSON.parse(core.invoke(name, args, undefined));
    // Flags and content are deferred: loaded first, as an agent does.
    const FLAG_TOOLS = ['set_feature_flag', 'set_project_flag', 'get_project_flag', 'get_content'];
    assert.equal(call('get_project_flag', { name: 'x' }).error_type, 'not_loaded');
    assert.equal(call('tool_load', { names: FLAG_TOOLS }).success, true);
    // No bridge: a clear failure.
    const bare = call('get_project_flag', { name: 'x' });
    assert.equal(bare.success, false);
    assert.equal(bare.error_type, 'host_unavailable');

    core.setHost(new NodeHost({ roots, settings: () => undefined }));
    assert.equal(call('set_feature_flag', { name: 'mode', value: 'fast' }).success, true);
    assert.equal(call('set_project_flag', { name: 'mode', value: 'safe' }).success, true);
    assert.deepEqual(call('get_project_flag', { name: 'mode' }), {
      success: true,
      name: 'mode',
      value: 'safe',
      source: 'project',
      globalValue: 'fast',
    });
    const onDisk = JSON.parse(fs.readFileSync(path.join(roots.workspaceState, 'flags.json'), 'utf8'));
    assert.deepEqual(onDisk, { version: 1, flags: { mode: 'safe' } });
    assert.deepEqual(fs.readdirSync(roots.workspaceState), ['flags.json'], 'no temporary file left');

    fs.mkdirSync(path.join(roots.workspace, '.github', 'instructions'), { recursive: true });
    fs.writeFileSync(path.join(roots.workspace, '.github', 'instructions', 'x.md'), '# X\nDo x.\n');
    const content = call('get_content', { expression: 'instructions/x' });
    assert.equal(content.success, true, JSON.stringify(content));
    assert.equal(content.content, '## .github/instructions/x.md\n\n# X\nDo x.');
    const escape = call('get_content', { expression: 'instructions/../../etc' });
    assert.match(escape.error, /escapes the category folder/);
  } finally {
    cleanup();
  }
});

test('example tools appear only when included, and survive a core restart', () => {
  const core = new WasmCore(WASM_DIR, silentLogger);
  const names = () => (JSON.parse(core.run((h) => h.tools())) as { name: string }[]).map((t) => t.name);
  assert.ok(!names().includes('example_echo'));
  assert.equal(JSON.parse(core.invoke('example_echo', { text: 'hi' }, undefined)).error, 'Tool not found: example_echo');
  core.setIncludeExamples(true);
  assert.ok(names().includes('example_echo') && names().includes('example_reset'));
  assert.equal(JSON.parse(core.invoke('example_echo', { text: 'hi' }, undefined)).echo, 'hi');
  assert.throws(() => core.run((_h, m) => m.debugTrap()));
  assert.ok(names().includes('example_echo'), 'still included after the re-instantiation');
  const refused = JSON.parse(core.invoke('example_reset', { confirm: 'yes' }, undefined));
  assert.equal(refused.error_type, 'consent_required');
});

test('MCP names through the facade follow MCP_TOOL_PREFIX semantics', () => {
  // The names `secretary mcp` gives: the core's prefix (`toolPrefix`) before the plain name. The
  // reverse (`registry::plain_name`) is the core's own and tested there (registry/names.rs).
  const core = new WasmCore(WASM_DIR, silentLogger);
  const name = (prefix: string | undefined, plain: string) => mcpToolName(plain, core.run((_h, m) => m.toolPrefix(prefix)));
  assert.equal(name(undefined, 'get_request'), 'secretary_get_request');
  assert.equal(name('', 'get_request'), 'get_request');
  assert.equal(name('x', 'list_dialogs'), 'x_list_dialogs');
});
