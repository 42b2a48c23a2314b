// Issue #14 replayed: the hostile and careless inputs that broke the built CLI (`node dist/cli.js`)
// and MCP server (`node dist/cli.js mcp`), each against the real process, real files, real git and a
// real HTTP server on 127.0.0.1. `scripts/replay-hostile` runs this file alone.
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';

import { fetchOnce, MAX_BODY_BYTES } from '../../src/host/http';
import { NodeHost } from '../../src/host/nodeHost';
import { linesOf, listenLocal, ROOT, SAMPLES, tempDir, withTempDir } from './helpers';

const CLI = path.join(ROOT, 'dist', 'cli.js');
const TODO_APP = '/home/dev/projects/todo-app';
const CLEAN_ENV = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !key.startsWith('SECRETARY_') && key !== 'CONTEXT7_API_KEY'),
) as Record<string, string>;

type Message = { id?: unknown; method?: string; error?: { code: number; message: string }; result?: Record<string, unknown> };

/** `secretary mcp` as a plain process: raw lines in, parsed lines out. */
function mcp(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [CLI, 'mcp', '--storage', SAMPLES, '--workspace', TODO_APP, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...CLEAN_ENV, MCP_TOOL_PREFIX: 'secretary', ...env },
  }) as ChildProcessWithoutNullStreams;
  const lines = linesOf(child.stdout);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, at: Date.now() })),
  );
  const messages = () => lines.map((line) => JSON.parse(line) as Message);
  const reply = async (id: unknown, waitMs = 10_000): Promise<Message> => {
    const until = Date.now() + waitMs;
    while (Date.now() < until) {
      const found = messages().find((m) => m.id === id && !m.method);
      if (found) {
        return found;
      }
      await sleep(10);
    }
    throw new Error(`no reply to ${JSON.stringify(id)}; stdout: ${lines.join('\n').slice(0, 2000)}; stderr: ${stderr.slice(0, 2000)}`);
  };
  const send = (message: unknown) => child.stdin.write(`${typeof message === 'string' ? message : JSON.stringify(message)}\n`);
  const initialize = async () => {
    send({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'hostile', version: '1' } } });
    await reply('init');
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  };
  const call = async (id: string, name: string, args: unknown) => {
    send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
    const answer = (await reply(id)) as { result?: { content: { text: string }[]; isError?: boolean } };
    const text = answer.result?.content[0]?.text ?? '';
    return { isError: answer.result?.isError === true, text };
  };
  return { child, lines, messages, reply, send, initialize, call, exited, stderr: () => stderr };
}

/** When the process exited, or Infinity when it is still running 5 s later. */
async function exitTime(exited: Promise<{ at: number }>): Promise<number> {
  return Promise.race([exited.then((e) => e.at), sleep(5000).then(() => Infinity)]);
}

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** `secretary <args>` run to its end. */
function cli(args: string[], options: { cwd?: string; env?: Record<string, string>; timeout?: number } = {}) {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd: options.cwd,
    env: { ...CLEAN_ENV, ...options.env },
    encoding: 'utf8',
    timeout: options.timeout ?? 60_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: result.status, signal: result.signal, stdout: result.stdout, stderr: result.stderr };
}

/** `secretary <args>` run to its end without blocking this process (whose HTTP servers must answer it). */
function cliAsync(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) {
  return new Promise<{ status: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: options.cwd, env: { ...CLEAN_ENV, ...options.env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('exit', (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, stdout, stderr });
    });
  });
}

/** An HTTP server on 127.0.0.1 that records what reached it. */
async function server(handler: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const requests: { url: string; authorization?: string }[] = [];
  const srv = http.createServer((req, res) => {
    requests.push({ url: req.url ?? '', authorization: req.headers.authorization });
    handler(req, res);
  });
  const { url: base, close } = await listenLocal(srv);
  return { base, requests, close };
}

// ---------------------------------------------------------------- 1. wire names

test('1: methods, tools and prompts named like Object.prototype members are unknown, and the server keeps answering', async () => {
  const server = mcp([]);
  try {
    await server.initialize();
    const members = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'isPrototypeOf'];
    for (const method of members) {
      server.send({ jsonrpc: '2.0', id: `m-${method}`, method });
      server.send({ jsonrpc: '2.0', method }); // the same as a notification: ignored
    }
    for (const method of members) {
      const answer = await server.reply(`m-${method}`);
      assert.equal(answer.error?.code, -32601, `${method}: ${JSON.stringify(answer)}`);
    }
    for (const name of members) {
      const tool = await server.call(`t-${name}`, name, {});
      assert.equal(tool.isError, true, `${name}: ${tool.text}`);
      server.send({ jsonrpc: '2.0', id: `p-${name}`, method: 'prompts/get', params: { name } });
      assert.equal((await server.reply(`p-${name}`)).error?.code, -32602, name);
    }
    // Prompt arguments named like members are arguments like any other.
    server.send({ jsonrpc: '2.0', id: 'p-args', method: 'prompts/get', params: { name: 'recall_first_request', arguments: { __proto__: 'x', constructor: 'y' } } });
    assert.ok(await server.reply('p-args'));
    const ok = await server.call('after', 'secretary_get_request', { index: 1 });
    assert.equal(ok.isError, false, ok.text);
    assert.match(JSON.parse(ok.text).request, /^The todo list is slow/);
    assert.doesNotMatch(server.stderr(), /is not a function/);
  } finally {
    server.child.kill('SIGKILL');
  }
});

// ---------------------------------------------------------------- 4, 8. numbers and sizes from the wire

test('4, 8: index 4294967297 is refused, 1e400 is not stored as null, arguments too deep are refused as such, errors do not echo megabytes', async () => {
  const state = tempDir();
  const server = mcp(['--state-dir', state.dir]);
  try {
    await server.initialize();
    const far = await server.call('far', 'secretary_get_request', { index: 4294967297 });
    assert.equal(far.isError, true, far.text);
    assert.equal(JSON.parse(far.text).error, 'Index 4294967297 exceeds total requests (2)');

    const load = await server.call('load', 'secretary_tool_load', { names: ['set_feature_flag', 'get_feature_flag'] });
    assert.equal(load.isError, false, load.text);
    server.send('{"jsonrpc":"2.0","id":"big","method":"tools/call","params":{"name":"secretary_set_feature_flag","arguments":{"name":"big","value":1e400}}}');
    const big = (await server.reply('big')) as { result: { content: { text: string }[]; isError?: boolean } };
    assert.equal(big.result.isError, true, big.result.content[0].text);
    assert.match(big.result.content[0].text, /out of range/);
    const after = await server.call('get', 'secretary_get_feature_flag', { name: 'big' });
    assert.equal(JSON.parse(after.text).source, 'unset', after.text);

    // Arguments nested past what JSON.stringify's stack holds get the core's answer to arguments
    // too deep, as 150 levels do, not "Maximum call stack size exceeded".
    for (const depth of [150, 20_000]) {
      const id = `deep-${depth}`;
      server.send(`{"jsonrpc":"2.0","id":"${id}","method":"tools/call","params":{"name":"secretary_get_request","arguments":{"index":1,"x":${'['.repeat(depth)}${']'.repeat(depth)}}}}`);
      const deep = (await server.reply(id)) as { result: { content: { text: string }[]; isError?: boolean } };
      assert.equal(deep.result.isError, true, deep.result.content[0].text);
      const answer = JSON.parse(deep.result.content[0].text);
      assert.equal(answer.error_type, 'invalid_arguments', `${depth}: ${deep.result.content[0].text}`);
      assert.match(answer.error, /recursion limit exceeded/);
    }

    const huge = 'x'.repeat(3_000_000);
    const echoed = await server.call('echo', 'secretary_set_feature_flag', { name: huge, value: 1 });
    assert.equal(echoed.isError, true);
    assert.ok(echoed.text.length < 3_000, `error of ${echoed.text.length} characters`);
    assert.match(JSON.parse(echoed.text).error, /characters cut/);
    server.send({ jsonrpc: '2.0', id: 'prompt-huge', method: 'prompts/get', params: { name: huge } });
    assert.ok(JSON.stringify(await server.reply('prompt-huge')).length < 3_000);
  } finally {
    server.child.kill('SIGKILL');
    state.cleanup();
  }
});

test('8: 10,000 pipelined requests to a slow reader are all answered without a listener-leak warning', async () => {
  const server = mcp([]);
  try {
    await server.initialize();
    server.child.stdout.pause();
    const batch = Array.from({ length: 10_000 }, (_, i) => JSON.stringify({ jsonrpc: '2.0', id: i, method: 'ping' })).join('\n');
    server.child.stdin.write(`${batch}\n`);
    await sleep(1500);
    server.child.stdout.resume();
    await server.reply(9_999, 30_000);
    assert.equal(server.messages().filter((m) => typeof m.id === 'number').length, 10_000);
    assert.doesNotMatch(server.stderr(), /MaxListenersExceededWarning/);
  } finally {
    server.child.kill('SIGKILL');
  }
});

// ---------------------------------------------------------------- 2. the Context7 key and host

test('2: a workspace settings file cannot choose the Context7 host or key', async () => {
  const evil = await server((_req, res) => res.end('{"results": []}'));
  const workspace = tempDir();
  try {
    fs.mkdirSync(path.join(workspace.dir, '.vscode'));
    fs.writeFileSync(
      path.join(workspace.dir, '.vscode', 'settings.json'),
      JSON.stringify({
        'copilotChatSecretary.libraryDocs.context7.baseUrl': evil.base,
        'copilotChatSecretary.libraryDocs.context7.apiKey': 'planted-key',
      }),
    );
    // The user's key in the environment, no host of their own: the default host is used (it may
    // be unreachable here; the short timeout bounds that), never the workspace's.
    const run = await cliAsync(['call', 'resolve_library_id', '{"libraryName": "zz-no-such-library"}', '--storage', SAMPLES], {
      cwd: workspace.dir,
      env: { CONTEXT7_API_KEY: 'user-secret', SECRETARY_CONTEXT7_TIMEOUT_MS: '300' },
    });
    assert.equal(run.signal, null, run.stderr);
    assert.equal(JSON.parse(run.stdout).success, false, run.stdout);
    assert.deepEqual(evil.requests, [], 'nothing reached the host the workspace named');
    assert.doesNotMatch(run.stdout, new RegExp(evil.base.replace(/[.:/]/g, '\\$&')));
  } finally {
    await evil.close();
    workspace.cleanup();
  }
});

test('2: no redirect to another host is followed, and a huge answer is cut while it streams', async () => {
  const evil = await server((_req, res) => res.end('{"results": []}'));
  let written = 0;
  let closed = false;
  const good = await server((req, res) => {
    if (req.url?.startsWith('/redirect/')) {
      res.writeHead(302, { location: `${evil.base}/steal` }).end();
      return;
    }
    if (req.url?.startsWith('/same/')) {
      res.writeHead(301, { location: '/api/v2/libs/search?libraryName=x' }).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.on('close', () => (closed = true));
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    const pump = () => {
      while (!closed && written < 1024 * 1024 * 1024) {
        written += chunk.length;
        if (!res.write(chunk)) {
          res.once('drain', pump);
          return;
        }
      }
      res.end();
    };
    pump();
  });
  try {
    const redirected = await fetchOnce({ url: `${good.base}/redirect/`, headers: { Authorization: 'Bearer user-secret' }, timeoutMs: 5000 });
    assert.deepEqual(redirected, { error: `redirected to another host (${evil.base}); not followed` });
    assert.deepEqual(evil.requests, []);
    const huge = await fetchOnce({ url: `${good.base}/same/`, headers: {}, timeoutMs: 20_000 });
    assert.ok('body' in huge, JSON.stringify(huge).slice(0, 200));
    assert.equal(huge.body.length, MAX_BODY_BYTES, 'cut at the cap, after following a same-origin redirect');
    await sleep(200);
    assert.ok(written < 64 * 1024 * 1024, `the server wrote ${written} bytes before the reader stopped`);

    // The same through the built CLI: nothing reaches the other host, the call ends.
    written = 0;
    closed = false;
    const before = good.requests.length;
    const answers: string[] = [];
    for (const base of [`${good.base}/redirect`, good.base]) {
      const run = await cliAsync(['call', 'resolve_library_id', '{"libraryName": "zz-no-such-library"}', '--storage', SAMPLES], {
        cwd: os.tmpdir(),
        env: { CONTEXT7_API_KEY: 'user-secret', SECRETARY_CONTEXT7_BASE_URL: base },
      });
      assert.equal(run.signal, null, run.stderr);
      answers.push(run.stdout);
    }
    assert.deepEqual(evil.requests, []);
    assert.match(answers[0], /redirected to another host/);
    const cliRequests = good.requests.slice(before);
    assert.ok(cliRequests.length >= 2 && cliRequests.every((r) => r.authorization === 'Bearer user-secret'), JSON.stringify(cliRequests));
    await sleep(200);
    assert.ok(written < 64 * 1024 * 1024, `the server wrote ${written} bytes to the CLI`);
  } finally {
    await good.close();
    await evil.close();
  }
});

// ---------------------------------------------------------------- 3. concurrent writes

test('3: 20 processes setting 20 project flags at once keep all 20; old temporary files are cleaned', async () => {
  await withTempDir('secretary-test-', async (workspace) => withTempDir('secretary-test-', async (state) => {
    const area = path.join(state, 'workspaces');
    // A first flag creates the state folder; then plant an orphan, a fresh temp file and a stale lock.
    const first = cli(['call', 'set_project_flag', '{"name": "f0", "value": 0}', '--state-dir', state, '--storage', SAMPLES], { cwd: workspace });
    assert.equal(first.status, 0, first.stderr + first.stdout);
    const dir = path.join(area, fs.readdirSync(area)[0]);
    const orphan = path.join(dir, '.flags.json.4242.aaaaaaaaaaaa.tmp');
    const fresh = path.join(dir, '.flags.json.4243.bbbbbbbbbbbb.tmp');
    fs.writeFileSync(orphan, '{');
    fs.writeFileSync(fresh, '{');
    const old = new Date(Date.now() - 5 * 60_000);
    fs.utimesSync(orphan, old, old);
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    fs.writeFileSync(path.join(dir, 'flags.json.lock'), JSON.stringify({ pid: dead, host: os.hostname() }));

    const runs = Array.from({ length: 20 }, (_, i) =>
      new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn(process.execPath, [CLI, 'call', 'set_project_flag', JSON.stringify({ name: `f${i + 1}`, value: i + 1 }), '--state-dir', state, '--storage', SAMPLES], {
          cwd: workspace,
          env: CLEAN_ENV,
        });
        let out = '';
        child.stdout.on('data', (c: Buffer) => (out += c.toString()));
        child.stderr.on('data', (c: Buffer) => (out += c.toString()));
        child.on('exit', (code) => resolve({ code, out }));
      }),
    );
    const results = await Promise.all(runs);
    results.forEach((r, i) => assert.equal(r.code, 0, `f${i + 1}: ${r.out}`));
    const flags = JSON.parse(fs.readFileSync(path.join(dir, 'flags.json'), 'utf8')).flags as Record<string, number>;
    assert.equal(Object.keys(flags).length, 21, JSON.stringify(flags));
    for (let i = 0; i <= 20; i++) {
      assert.equal(flags[`f${i}`], i);
    }
    assert.equal(fs.existsSync(orphan), false, 'the orphan older than a minute is removed');
    assert.equal(fs.existsSync(fresh), true, 'a recent temporary file may still be in use');
    assert.equal(fs.existsSync(path.join(dir, 'flags.json.lock')), false, 'no lock is left behind');
  }));
});

test('3: a lock held by a live process makes a change wait, then fail with a clear message', () => {
  withTempDir('secretary-test-', (state) => {
    const host = new NodeHost({ roots: { globalState: state }, lockWaitMs: 300 });
    fs.writeFileSync(path.join(state, 'flags.json.lock'), JSON.stringify({ pid: process.pid, host: os.hostname() }));
    const started = Date.now();
    assert.throws(() => host.lock('globalState', 'flags.json'), /globalState\/flags.json is locked by another process/);
    assert.ok(Date.now() - started >= 300);
    fs.unlinkSync(path.join(state, 'flags.json.lock'));
    host.lock('globalState', 'flags.json');
    assert.ok(fs.existsSync(path.join(state, 'flags.json.lock')));
    host.unlock('globalState', 'flags.json');
    assert.ok(!fs.existsSync(path.join(state, 'flags.json.lock')));
  });
});

// ---------------------------------------------------------------- 5. git

test('5: get_changed_files runs no fsmonitor hook or filter the repository configures; no git when untrusted', () => {
  withTempDir('secretary-test-', (repo) => withTempDir('secretary-test-', (marks) => {
    const git = (...args: string[]) => execFileSync('git', ['-C', repo, ...args], { stdio: 'pipe' });
    git('init', '-q', '.');
    git('config', 'user.email', 'a@example.com');
    git('config', 'user.name', 'a');
    fs.writeFileSync(path.join(repo, 'a.txt'), 'hi\n');
    fs.writeFileSync(path.join(repo, '.gitattributes'), '* filter=evil\n');
    git('add', '.');
    git('commit', '-qm', 'init');
    const mark = (name: string) => path.join(marks, name);
    git('config', 'core.fsmonitor', `touch '${mark('fsmonitor')}'; false`);
    git('config', 'filter.evil.clean', `touch '${mark('clean')}'; cat`);
    git('config', 'filter.evil.process', `touch '${mark('process')}'`);
    const later = new Date(Date.now() + 5_000);
    fs.utimesSync(path.join(repo, 'a.txt'), later, later);
    fs.writeFileSync(path.join(repo, 'new.txt'), 'new\n');

    const run = cli(['call', 'get_changed_files', '{}', '--storage', SAMPLES], { cwd: repo });
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /new\.txt/);
    assert.deepEqual(fs.readdirSync(marks), [], 'nothing the repository configured ran');

    const untrusted = new NodeHost({ roots: { workspace: repo }, gitAllowed: () => false });
    assert.throws(() => untrusted.gitStatus(''), /untrusted workspace/);
    assert.deepEqual(fs.readdirSync(marks), []);
  }));
});

// ---------------------------------------------------------------- 6. show

test('6: show refuses a link to /dev/zero, a FIFO and a file over the cap, at once', { skip: process.platform === 'win32' }, () => {
  withTempDir('secretary-test-', (temp) => {
    const zero = path.join(temp, 'zero.json');
    fs.symlinkSync('/dev/zero', zero);
    const fifo = path.join(temp, 'fifo.json');
    execFileSync('mkfifo', [fifo]);
    const sparse = path.join(temp, 'huge.json');
    fs.writeFileSync(sparse, '');
    fs.truncateSync(sparse, 600 * 1024 * 1024);
    for (const [file, why] of [
      [zero, /not a regular file \(a device\)/],
      [fifo, /not a regular file \(a FIFO\)/],
      [sparse, /larger than 536870912 bytes/],
    ] as const) {
      const started = Date.now();
      const run = cli(['show', file], { timeout: 15_000 });
      assert.equal(run.signal, null, `${file} did not end`);
      assert.equal(run.status, 1, run.stderr);
      assert.match(run.stderr, why);
      assert.ok(Date.now() - started < 10_000);
    }
    // A link to a real session still works.
    const link = path.join(temp, 'linked.json');
    const sample = fs
      .readdirSync(SAMPLES, { recursive: true, encoding: 'utf8' })
      .find((f) => f.includes('chatSessions') && f.endsWith('.json'));
    assert.ok(sample);
    fs.symlinkSync(path.join(SAMPLES, sample), link);
    assert.equal(cli(['show', link]).status, 0);
  });
});

// ---------------------------------------------------------------- 7. signals

/** Sends `signal` to the server and asserts it ended within 2 s. */
async function endsWithin(server: ReturnType<typeof mcp>, signal: NodeJS.Signals, what: string): Promise<void> {
  const sent = Date.now();
  server.child.kill(signal);
  const at = await exitTime(server.exited);
  assert.ok(at - sent < 2000, `${what} server took ${at - sent} ms`);
}

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  test(`7: ${signal} ends secretary mcp within 2 s with stdin open and with a call in flight`, async () => {
    const idle = mcp([]);
    try {
      await idle.initialize();
      await endsWithin(idle, signal, 'idle');
    } finally {
      idle.child.kill('SIGKILL');
    }

    const hang = await server(() => undefined); // accepts, never answers
    const busy = mcp([], { SECRETARY_CONTEXT7_BASE_URL: hang.base, SECRETARY_CONTEXT7_TIMEOUT_MS: '60000' });
    try {
      await busy.initialize();
      const load = await busy.call('load', 'secretary_tool_load', { names: ['resolve_library_id'] });
      assert.equal(load.isError, false, load.text);
      busy.send({ jsonrpc: '2.0', id: 'slow', method: 'tools/call', params: { name: 'secretary_resolve_library_id', arguments: { libraryName: 'zz-no-such-library' } } });
      for (let i = 0; i < 500 && hang.requests.length === 0; i++) {
        await sleep(10);
      }
      assert.equal(hang.requests.length, 1, 'the call is waiting for the network');
      await endsWithin(busy, signal, 'busy');
    } finally {
      busy.child.kill('SIGKILL');
      await hang.close();
    }
  });
}

// ---------------------------------------------------------------- 8. names and sizes

test('8: memory refuses device names with superscripts and names with leading spaces', () => {
  withTempDir('secretary-test-', (state) => {
    for (const name of ['COM¹', 'lpt³.txt', '  notes']) {
      const run = cli(['call', 'memory', JSON.stringify({ command: 'save', path: name, content: 'x' }), '--state-dir', state, '--storage', SAMPLES], { cwd: state });
      assert.equal(run.status, 1, run.stdout);
      assert.match(JSON.parse(run.stdout).error, /^Invalid memory name/);
    }
    assert.equal(fs.existsSync(path.join(state, 'global', 'memory')), false, 'nothing was written');
  });
});

test('8: a README over the read cap is reported as too large, not as missing', () => {
  withTempDir('secretary-test-', (workspace) => {
    const lib = path.join(workspace, 'node_modules', 'bigdoc');
    fs.mkdirSync(lib, { recursive: true });
    fs.writeFileSync(path.join(workspace, 'package.json'), JSON.stringify({ dependencies: { bigdoc: '1.0.0' } }));
    fs.writeFileSync(path.join(lib, 'package.json'), JSON.stringify({ name: 'bigdoc', version: '1.0.0' }));
    fs.writeFileSync(path.join(lib, 'README.md'), `# bigdoc\n\n${'word '.repeat(2 * 1024 * 1024)}\n`);
    const run = cli(['call', 'get_library_docs', '{"libraryId": "/npm/bigdoc@1.0.0"}', '--storage', SAMPLES], {
      cwd: workspace,
      env: { SECRETARY_CONTEXT7_ENABLED: 'false' },
    });
    assert.equal(run.status, 1, run.stdout);
    const answer = JSON.parse(run.stdout) as { error: string; error_type: string };
    assert.equal(answer.error_type, 'too_large', answer.error);
    assert.match(answer.error, /README\.md \(\d+ bytes\)/);
  });
});
