// Issue 27 replayed: what a hostile repository, a huge session or a full disk did to the built CLI
// (`node dist/cli.js`) and MCP server (`node dist/cli.js mcp`), each against the real process, real
// files, FIFOs, devices and git. `scripts/replay-hostile` runs this file with hostile.test.ts.
// Large inputs are made in a temporary folder at test time (sparse where the size alone matters).
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';

import { WasmCore } from '../../src/core/wasm';
import { readBounded } from '../../src/host/boundedRead';
import { NodeHost } from '../../src/host/nodeHost';
import type { Logger } from '../../src/log';
import { ResetBackoff } from '../../src/sessions/quarantine';
import { SessionSync } from '../../src/sessions/sessionSync';
import { copySamples, linesOf, ROOT, SAMPLES, tempDir, WASM_DIR, withTempDir } from './helpers';

const CLI = path.join(ROOT, 'dist', 'cli.js');
const CLEAN_ENV = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !key.startsWith('SECRETARY_') && key !== 'CONTEXT7_API_KEY'),
) as Record<string, string>;
const POSIX = process.platform !== 'win32';
const quiet: Logger = { trace() {}, debug() {}, info() {}, warn() {}, error() {} } as unknown as Logger;

/** Prints the process's peak resident memory (bytes) to stderr when it exits: `node -r` it. */
function peakRssProbe(dir: string): string {
  const probe = path.join(dir, 'peak-rss.js');
  fs.writeFileSync(probe, "process.on('exit', () => process.stderr.write(`\\npeak-rss=${process.resourceUsage().maxRSS * 1024}\\n`));\n");
  return probe;
}

function peakRss(stderr: string): number {
  const found = /peak-rss=(\d+)/.exec(stderr);
  assert.ok(found, `no peak-rss line in ${stderr.slice(-500)}`);
  return Number(found[1]);
}

/** `secretary <args>` run to its end (killed after `timeout`). */
function cli(args: string[], options: { cwd?: string; env?: Record<string, string>; timeout?: number; node?: string[]; input?: string } = {}) {
  const started = Date.now();
  const result = spawnSync(process.execPath, [...(options.node ?? []), CLI, ...args], {
    cwd: options.cwd,
    env: { ...CLEAN_ENV, ...options.env },
    encoding: 'utf8',
    timeout: options.timeout ?? 20_000,
    maxBuffer: 256 * 1024 * 1024,
    input: options.input,
  });
  return { status: result.status, signal: result.signal, stdout: result.stdout, stderr: result.stderr, ms: Date.now() - started };
}

type Message = { id?: unknown; method?: string; error?: { code: number; message: string }; result?: Record<string, unknown> };

/** `secretary mcp` as a plain process: raw lines in, parsed lines out. */
function mcp(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) {
  const child = spawn(process.execPath, [CLI, 'mcp', ...args], {
    cwd: options.cwd,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...CLEAN_ENV, MCP_TOOL_PREFIX: 'secretary', ...options.env },
  }) as ChildProcessWithoutNullStreams;
  const lines = linesOf(child.stdout);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; at: number }>((resolve) => child.on('exit', (code) => resolve({ code, at: Date.now() })));
  const reply = async (id: unknown, waitMs = 10_000): Promise<Message> => {
    const until = Date.now() + waitMs;
    while (Date.now() < until) {
      const found = lines.map((line) => JSON.parse(line) as Message).find((m) => m.id === id && !m.method);
      if (found) {
        return found;
      }
      await sleep(10);
    }
    throw new Error(`no reply to ${JSON.stringify(id)}; stdout: ${lines.join('\n').slice(0, 2000)}; stderr: ${stderr.slice(0, 2000)}`);
  };
  const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
  const initialize = async () => {
    send({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'hostile', version: '1' } } });
    await reply('init');
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  };
  return { child, reply, send, initialize, exited, stderr: () => stderr };
}

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A user-data folder holding one workspace storage with these `chatSessions` files. */
function userData(files: Record<string, string | Buffer>): { dir: string; chats: string; cleanup(): void } {
  const temp = tempDir();
  const storage = path.join(temp.dir, 'User', 'workspaceStorage', 'abc');
  const chats = path.join(storage, 'chatSessions');
  fs.mkdirSync(chats, { recursive: true });
  fs.writeFileSync(path.join(storage, 'workspace.json'), JSON.stringify({ folder: 'file:///home/dev/hostile' }));
  for (const [name, body] of Object.entries(files)) {
    fs.writeFileSync(path.join(chats, name), body);
  }
  return { dir: temp.dir, chats, cleanup: temp.cleanup };
}

const initial = (id: string) => JSON.stringify({ kind: 0, v: { version: 3, sessionId: id, creationDate: 1000, requests: [] } });
const push = (text: string) => `{"kind":2,"k":["requests"],"v":[{"requestId":"r","timestamp":2000,"message":{"text":"${text}","parts":[]}}]}`;

// ---------------------------------------------------------------- 1. one bounded reader

test('1: a settings file linked to /dev/zero, or a FIFO, is refused at once by call and mcp', { skip: !POSIX }, async () => {
  await withTempDir('secretary-test-', async (ws) => {
    fs.mkdirSync(path.join(ws, '.vscode'));
    const settings = path.join(ws, '.vscode', 'settings.json');
    fs.symlinkSync('/dev/zero', settings);
    const run = cli(['call', 'tool_find', '{"query": "remember a note"}', '--storage', SAMPLES], { cwd: ws, timeout: 15_000 });
    assert.equal(run.signal, null, `killed after ${run.ms} ms: the settings were read without end`);
    assert.equal(run.status, 0, run.stderr);
    assert.ok(run.ms < 10_000, `${run.ms} ms`);

    fs.unlinkSync(settings);
    execFileSync('mkfifo', [settings]);
    const server = mcp(['--storage', SAMPLES, '--workspace', ws, '--verbose']);
    try {
      await server.initialize();
      server.send({ jsonrpc: '2.0', id: 'ping', method: 'ping' });
      await server.reply('ping');
      server.send({ jsonrpc: '2.0', id: 'find', method: 'tools/call', params: { name: 'secretary_tool_find', arguments: { query: 'note' } } });
      const found = (await server.reply('find', 15_000)) as { result?: { isError?: boolean } };
      assert.ok(found.result && found.result.isError !== true, JSON.stringify(found));
      assert.match(server.stderr(), /settings\.json is not a regular file \(a FIFO\)/);
    } finally {
      server.child.kill('SIGKILL');
    }
  });
});

test('1: mcp with its settings linked to /dev/stdin still answers its own JSON-RPC input', { skip: process.platform !== 'linux' }, async () => {
  await withTempDir('secretary-test-', async (ws) => {
    fs.mkdirSync(path.join(ws, '.vscode'));
    fs.symlinkSync('/dev/stdin', path.join(ws, '.vscode', 'settings.json'));
    const server = mcp(['--storage', SAMPLES, '--workspace', ws]);
    try {
      await server.initialize();
      server.send({ jsonrpc: '2.0', id: 'list', method: 'tools/list' });
      const list = await server.reply('list');
      assert.ok(Array.isArray(list.result?.tools), JSON.stringify(list));
      server.send({ jsonrpc: '2.0', id: 'find', method: 'tools/call', params: { name: 'secretary_tool_find', arguments: { query: 'note' } } });
      await server.reply('find', 15_000);
    } finally {
      server.child.kill('SIGKILL');
    }
  });
});

test('1: the bounded reader refuses devices, FIFOs, links where none is expected, and growth past the cap', { skip: !POSIX }, () => {
  withTempDir('secretary-test-', (temp) => {
    const fifo = path.join(temp, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const link = path.join(temp, 'link');
    fs.symlinkSync('/dev/zero', link);
    const big = path.join(temp, 'big');
    fs.writeFileSync(big, Buffer.alloc(2048));
    const started = Date.now();
    assert.throws(() => readBounded(link, { maxBytes: 1024 }), /not a regular file \(a device\)/);
    assert.throws(() => readBounded(fifo, { maxBytes: 1024 }), /not a regular file \(a FIFO\)/);
    assert.throws(() => readBounded(big, { maxBytes: 1024 }), /larger than 1024 bytes \(2048 bytes\)/);
    const target = path.join(temp, 'target');
    fs.writeFileSync(target, 'x');
    fs.symlinkSync(target, path.join(temp, 'to-target'));
    assert.equal(readBounded(path.join(temp, 'to-target'), { maxBytes: 8 }).toString(), 'x');
    assert.throws(() => readBounded(path.join(temp, 'to-target'), { maxBytes: 8, noFollow: true }), /is a symbolic link/);
    // /proc files say 0 bytes and then stream: with statSizeOnly they read as empty, at once.
    if (fs.existsSync('/proc/self/pagemap')) {
      assert.equal(readBounded('/proc/self/pagemap', { maxBytes: 1 << 20, statSizeOnly: true }).length, 0);
    }
    assert.ok(Date.now() - started < 2000);

    // The host bridge reads workspace files through it: a FIFO in the workspace is refused at once.
    const host = new NodeHost({ roots: { workspace: temp } });
    assert.throws(() => host.read('workspace', 'fifo'), /workspace\/fifo is not a regular file \(a FIFO\)/);
  });
});

// ---------------------------------------------------------------- 2. traps, caps, quarantine

test('2: a file that traps the core is quarantined and not read again until it changes; the sync ends', async (t) => {
  const data = userData({
    'good.jsonl': `${initial('good')}\n${push('kept')}\n`,
    'bad.jsonl': `${initial('bad')}\n${push('traps')}\n`,
  });
  const core = new WasmCore(WASM_DIR, quiet);
  try {
    const bad = path.join(data.chats, 'bad.jsonl');
    let badReads = 0;
    // The module's own trap (`unreachable`) while it applies `bad.jsonl`, on every instance.
    core.configure((handle) => {
      const apply = handle.apply.bind(handle);
      handle.apply = (file, ...rest) => {
        if (file === bad) {
          badReads += 1;
          core.run((_h, m) => m.debugTrap());
        }
        return apply(file, ...rest);
      };
    });
    const files = () => fs.readdirSync(data.chats).map((name) => ({ path: path.join(data.chats, name), workspace: 'ws', kind: 'native' as const }));
    const sync = new SessionSync(core, { files, watchDirs: () => [] }, quiet);
    t.after(() => sync.stopWatching());
    const first = await Promise.race([sync.sync(), sleep(10_000).then(() => 'timeout' as const)]);
    assert.notEqual(first, 'timeout', 'the sync never ended');
    await sleep(100);
    assert.equal(core.resetCount, 1);
    assert.equal(badReads, 1);
    assert.match(sync.failures.get(bad) ?? '', /made the Secretary core fail .*not read again until it changes/);
    const served = JSON.parse(core.run((h) => h.dialogs())) as { path: string; available: boolean }[];
    assert.ok(served.some((d) => d.path.endsWith('good.jsonl') && d.available), JSON.stringify(served));
    // Again: still held, nothing trapped.
    await sync.sync();
    assert.equal(core.resetCount, 1);
    assert.equal(badReads, 1);
    // Changed: read again (and held again, since it still traps).
    fs.appendFileSync(bad, `${push('more')}\n`);
    await sync.sync();
    await sleep(100);
    assert.equal(badReads, 2);
    assert.equal(core.resetCount, 2);
    sync.stopWatching();
  } finally {
    data.cleanup();
  }
});

test('2: resets back off: at once, then 1 s, 2 s, 4 s... up to 60 s, and at once again after a quiet minute', () => {
  let now = 0;
  const backoff = new ResetBackoff(() => now);
  const waits = [];
  for (let i = 0; i < 9; i++) {
    waits.push(backoff.next());
    now += 1000;
  }
  assert.deepEqual(waits, [0, 1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000]);
  now += 61_000;
  assert.equal(backoff.next(), 0);
});

test('2: a log of more than 100,000 tiny requests is cut at the cap, and the CLI ends', async () => {
  const lines = [initial('many')];
  for (let i = 0; i < 120_000; i++) {
    lines.push(`{"kind":2,"k":["requests"],"v":[{"message":{"text":"r${i}"}}]}`);
  }
  const data = userData({ 'many.jsonl': `${lines.join('\n')}\n` });
  try {
    const run = cli(['sessions', '--storage', data.dir, '--json']);
    assert.equal(run.status, 0, run.stderr);
    const listed = JSON.parse(run.stdout) as { dialogs: { requestsCount: number }[] };
    assert.equal(listed.dialogs[0].requestsCount, 100_000);
    const shown = cli(['show', path.join(data.chats, 'many.jsonl'), '--json']);
    assert.match(shown.stdout, /the session reached the cap of 100000 requests/);
  } finally {
    data.cleanup();
  }
});

// ---------------------------------------------------------------- 3. git

test('3: get_changed_files does not follow core.worktree out of the workspace', () => {
  withTempDir('secretary-test-', (ws) => withTempDir('secretary-test-', (outside) => {
    fs.writeFileSync(path.join(outside, 'outside-secret.txt'), 'x');
    execFileSync('git', ['init', '-q', ws]);
    execFileSync('git', ['-C', ws, 'config', 'core.worktree', outside]);
    fs.writeFileSync(path.join(ws, 'inside.txt'), 'x');
    const run = cli(['call', 'get_changed_files', '{}', '--storage', SAMPLES], { cwd: ws });
    const answer = JSON.parse(run.stdout) as { success: boolean; text: string };
    assert.equal(answer.success, true, run.stdout);
    assert.doesNotMatch(answer.text, /outside-secret/);
    assert.match(answer.text, /inside\.txt/);
  }));
});

// ---------------------------------------------------------------- 4. size and type before reading

test('4: a session file over the cap is listed as too large without being read; /proc/self/pagemap reads as empty', { skip: process.platform !== 'linux' }, () => {
  const data = userData({ 'small.jsonl': `${initial('small')}\n${push('hello')}\n` });
  try {
    // 600 MB, sparse: no disk used, but a reader that reads it whole holds 600 MB.
    const huge = path.join(data.chats, 'huge.jsonl');
    fs.writeFileSync(huge, '');
    fs.truncateSync(huge, 600 * 1024 * 1024);
    fs.symlinkSync('/proc/self/pagemap', path.join(data.chats, 'pagemap.json'));
    const run = cli(['sessions', '--storage', data.dir, '--json'], { node: ['-r', peakRssProbe(data.dir)], timeout: 20_000 });
    assert.equal(run.signal, null, `killed after ${run.ms} ms`);
    assert.equal(run.status, 0, run.stderr);
    const listed = JSON.parse(run.stdout) as { dialogs: { path: string }[]; unreadable: { path: string; error: string }[] };
    const why = (name: string) => listed.unreadable.find((u) => u.path.endsWith(name))?.error ?? '';
    assert.match(why('huge.jsonl'), /629145600 bytes, over the 536870912-byte limit/);
    assert.match(why('pagemap.json'), /empty/);
    assert.ok(listed.dialogs.some((d) => d.path.endsWith('small.jsonl')));
    const peak = peakRss(run.stderr);
    assert.ok(peak < 400 * 1024 * 1024, `peak RSS ${Math.round(peak / 1048576)} MB`);
  } finally {
    data.cleanup();
  }
});

// ---------------------------------------------------------------- 5. lone surrogates

test('5: a lone surrogate keeps every request and its number; request 2 answers request 2', () => {
  const log = [initial('cut'), push('one'), push('cut \\ud83d'), push('three')].join('\n');
  const data = userData({ 'cut.jsonl': `${log}\n`, 'cut2.json': `{"version":3,"sessionId":"cut2","requests":[{"message":{"text":"\\ude00 alone"}}]}` });
  try {
    const second = cli(['request', '2', '--session', 'cut', '--storage', data.dir, '--all', '--json']);
    assert.equal(JSON.parse(second.stdout).request, 'cut \ufffd', second.stdout);
    const third = cli(['request', '3', '--session', 'cut', '--storage', data.dir, '--all', '--json']);
    assert.equal(JSON.parse(third.stdout).request, 'three', third.stdout);
    const json = cli(['request', '1', '--session', 'cut2', '--storage', data.dir, '--all', '--json']);
    assert.equal(JSON.parse(json.stdout).request, '\ufffd alone', json.stdout);
  } finally {
    data.cleanup();
  }
});

// ---------------------------------------------------------------- 6. Node 20's loader

test(`6: find-tools --stdin answers each line (Node ${process.versions.node})`, () => {
  withTempDir('secretary-test-', (temp) => {
    const catalog = path.join(temp, 'catalog.json');
    fs.writeFileSync(catalog, JSON.stringify([{ name: 'convert', description: 'convert currency amounts' }, { name: 'weather', description: 'the forecast' }]));
    const run = cli(['find-tools', '--stdin', '--catalog', catalog], { input: 'convert money\nforecast\n', env: { XDG_CACHE_HOME: temp } });
    assert.equal(run.status, 0, run.stderr);
    const answers = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as { query: string; results: { name: string }[] });
    assert.deepEqual(answers.map((a) => [a.query, a.results[0]?.name]), [['convert money', 'convert'], ['forecast', 'weather']]);
  });
});

// ---------------------------------------------------------------- 7, 8. lock files

test('7: a FIFO or a link to /dev/zero where a lock file goes fails at once with a clear message', { skip: !POSIX }, () => {
  withTempDir('secretary-test-', (state) => {
    const host = new NodeHost({ roots: { globalState: state } });
    const lock = path.join(state, 'flags.json.lock');
    for (const make of [() => execFileSync('mkfifo', [lock]), () => fs.symlinkSync('/dev/zero', lock)]) {
      make();
      const started = Date.now();
      assert.throws(() => host.lock('globalState', 'flags.json'), /flags\.json\.lock is not a lock file \((a FIFO|a symbolic link)\); remove it/);
      assert.ok(Date.now() - started < 1000, `${Date.now() - started} ms`);
      fs.unlinkSync(lock);
    }
    host.lock('globalState', 'flags.json');
    host.unlock('globalState', 'flags.json');
  });
});

test('8: an empty lock file left by a full disk does not hold changes off', () => {
  withTempDir('secretary-test-', (state) => {
    const host = new NodeHost({ roots: { globalState: state } });
    const lock = path.join(state, 'flags.json.lock');
    fs.writeFileSync(lock, '');
    const past = new Date(Date.now() - 3000);
    fs.utimesSync(lock, past, past);
    const started = Date.now();
    host.lock('globalState', 'flags.json');
    assert.ok(Date.now() - started < 1000, `${Date.now() - started} ms`);
    assert.match(fs.readFileSync(lock, 'utf8'), /"token"/);
    host.unlock('globalState', 'flags.json');
  });
});

// ---------------------------------------------------------------- 9. EPIPE

test('9: output cut by `head -1` ends the CLI quietly', { skip: !POSIX }, () => {
  const lines = [initial('long')];
  for (let i = 0; i < 2000; i++) {
    lines.push(push(`request ${i} ${'x'.repeat(200)}`));
  }
  const data = userData({ 'long.jsonl': `${lines.join('\n')}\n` });
  try {
    const file = path.join(data.chats, 'long.jsonl');
    const run = spawnSync('bash', ['-c', `set -o pipefail; "${process.execPath}" "${CLI}" show "${file}" | head -1`], { encoding: 'utf8', env: CLEAN_ENV, timeout: 20_000 });
    assert.doesNotMatch(run.stderr, /EPIPE|Error/, run.stderr);
    assert.equal(run.status, 0, run.stderr);
  } finally {
    data.cleanup();
  }
});

// ---------------------------------------------------------------- 10. unreadable folders

test('10: a chatSessions folder that cannot be listed is listed as unreadable', { skip: !POSIX }, () => {
  const data = copySamples();
  try {
    const storage = path.join(data.dir, 'User', 'workspaceStorage', 'loop');
    fs.mkdirSync(storage, { recursive: true });
    // A link to itself: listing it fails (ELOOP), as a folder without permission does for anyone but root.
    fs.symlinkSync('chatSessions', path.join(storage, 'chatSessions'));
    const run = cli(['sessions', '--storage', data.dir, '--json']);
    assert.equal(run.status, 0, run.stderr);
    const listed = JSON.parse(run.stdout) as { unreadable: { path: string; error: string }[] };
    const entry = listed.unreadable.find((u) => u.path === path.join(storage, 'chatSessions'));
    assert.ok(entry, JSON.stringify(listed.unreadable));
    assert.match(entry.error, /cannot be listed \(ELOOP\)/);
  } finally {
    data.cleanup();
  }
});

// ---------------------------------------------------------------- 12. drain

test('12: after stdin closes, a library-docs call slower than 5 s is still answered, then the process ends', async () => {
  const slow = http.createServer((_req, res) => {
    setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"results": []}'), 6500);
  });
  await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
  const server = mcp(['--storage', SAMPLES], { cwd: os.tmpdir(), env: { SECRETARY_CONTEXT7_BASE_URL: base, SECRETARY_CONTEXT7_TIMEOUT_MS: '20000' } });
  try {
    await server.initialize();
    server.send({ jsonrpc: '2.0', id: 'load', method: 'tools/call', params: { name: 'secretary_tool_load', arguments: { names: ['resolve_library_id'] } } });
    await server.reply('load');
    server.send({ jsonrpc: '2.0', id: 'slow', method: 'tools/call', params: { name: 'secretary_resolve_library_id', arguments: { libraryName: 'zz-no-such-library' } } });
    await sleep(300);
    server.child.stdin.end();
    const answer = await server.reply('slow', 15_000);
    assert.ok(answer.result, JSON.stringify(answer));
    const exit = await Promise.race([server.exited, sleep(5000).then(() => undefined)]);
    assert.ok(exit, 'the process lives on after its last answer');
  } finally {
    server.child.kill('SIGKILL');
    slow.closeAllConnections();
    await new Promise<void>((resolve) => slow.close(() => resolve()));
  }
});

// ---------------------------------------------------------------- nits

test('nits: --limit "" is a usage error; request 9007199254740993 is refused, not read as ...992', () => {
  const empty = cli(['dialogs', '--limit', '', '--storage', SAMPLES]);
  assert.equal(empty.status, 2, empty.stderr);
  assert.match(empty.stderr, /--limit takes a whole number/);
  const far = cli(['request', '9007199254740993', '--storage', SAMPLES, '--all', '--json']);
  assert.equal(far.status, 1, far.stdout);
  assert.match(JSON.parse(far.stdout).error, /past 2\^53 - 1/);
});

test('nits: a numeric MCP prompt argument is Invalid params (-32602), not an internal error', async () => {
  const server = mcp(['--storage', SAMPLES]);
  try {
    await server.initialize();
    server.send({ jsonrpc: '2.0', id: 'p', method: 'prompts/get', params: { name: 'recall_request', arguments: { index: 2 } } });
    const answer = await server.reply('p');
    assert.equal(answer.error?.code, -32602, JSON.stringify(answer));
  } finally {
    server.child.kill('SIGKILL');
  }
});

test('nits: copilot-ls gives up on a server that never answers initialize', async () => {
  await withTempDir('secretary-test-', async (temp) => {
    const silent = path.join(temp, 'silent-server.js');
    fs.writeFileSync(silent, 'process.stdin.resume();\nsetInterval(() => {}, 1000);\n');
    const child = spawn(process.execPath, [CLI, 'copilot-ls', '--server', silent, '--storage', SAMPLES], {
      env: { ...CLEAN_ENV, SECRETARY_COPILOT_LS_START_MS: '1500' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await Promise.race([new Promise<number | null>((resolve) => child.once('exit', resolve)), sleep(15_000).then(() => 'hung' as const)]);
    child.kill('SIGKILL');
    assert.equal(code, 1, stderr);
    assert.match(stderr, /did not complete the start-up handshake within 1500 ms/);
  });
});

// ---------------------------------------------------------------- 13. no string of everything

test('13: two sessions whose requests together pass V8\'s string limit: sessions and first still answer', { timeout: 60_000 }, () => {
  const data = userData({});
  try {
    // 2 x 260 MiB of request text: more than the 2^29 - 24 characters of V8's longest string.
    const chunk = Buffer.alloc(1024 * 1024, 'x');
    for (const name of ['a', 'b']) {
      const fd = fs.openSync(path.join(data.chats, `${name}.json`), 'w');
      fs.writeSync(fd, `{"version":3,"sessionId":"big-${name}","creationDate":1000,"requests":[{"requestId":"r","timestamp":2000,"message":{"text":"`);
      for (let i = 0; i < 260; i++) {
        fs.writeSync(fd, chunk);
      }
      fs.writeSync(fd, '","parts":[]}}]}');
      fs.closeSync(fd);
    }
    const listed = cli(['sessions', '--storage', data.dir, '--json'], { timeout: 40_000 });
    assert.equal(listed.status, 0, listed.stderr.slice(0, 500));
    assert.deepEqual((JSON.parse(listed.stdout) as { dialogs: { requestsCount: number }[] }).dialogs.map((d) => d.requestsCount), [1, 1]);
    const first = cli(['first', '--storage', data.dir, '--json'], { timeout: 40_000 });
    assert.equal(first.status, 0, first.stderr.slice(0, 500));
    assert.equal((JSON.parse(first.stdout) as { success: boolean }).success, true);
  } finally {
    data.cleanup();
  }
});

// ---------------------------------------------------------------- 11. one spelling per name

test('11: a memory name written composed (NFC) or decomposed (NFD) is one note', () => {
  withTempDir('secretary-test-', (state) => {
    const memory = (args: unknown) => {
      const run = cli(['call', 'memory', JSON.stringify(args), '--state-dir', state, '--storage', SAMPLES]);
      return JSON.parse(run.stdout) as { success: boolean; notes?: { path: string }[]; content?: string };
    };
    const name = '메모 한글 Straße';
    assert.notEqual(name.normalize('NFD'), name);
    assert.equal(memory({ command: 'save', path: name, content: 'one' }).success, true);
    assert.equal(memory({ command: 'save', path: name.normalize('NFD'), content: 'two' }).success, true);
    const listed = memory({ command: 'list' });
    assert.deepEqual(listed.notes?.map((n) => n.path), [`${name}.md`]);
    assert.equal(memory({ command: 'read', path: name.normalize('NFD') }).content, 'two');
  });
});
