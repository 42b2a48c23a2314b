// The library-docs tools (resolve_library_id → get_library_docs) with the real WASM core and the real
// Node bridge, on real files in a temporary folder (a node_modules with a pnpm-style link, a fake cargo
// registry under CARGO_HOME, a .venv, the bundled docs of the repository) and a real Context7 stand-in:
// a Node HTTP server on 127.0.0.1 (random port) implementing /api/v2/libs/search and /api/v2/context.
// Also the timeout and connection-refused paths, the pending-fetch replay, the settings' environment
// variables, and the `secretary call` command line.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { after, before, test } from 'node:test';

import { WasmCore } from '../../src/core/wasm';
import { HostError } from '../../src/host/bridge';
import { HttpExchange, describeFetchError, type HttpOutcome, type HttpRequest } from '../../src/host/http';
import { libraryDocsEnv, settingsFromEnv } from '../../src/host/libraryDocsEnv';
import { NodeHost } from '../../src/host/nodeHost';
import { bundledDocsDir } from '../../src/host/roots';
import { standaloneHost } from '../../src/host/standalone';
import { silentLogger } from '../../src/log';
import { ROOT, SAMPLES, WASM_DIR, tempDir } from './helpers';

const CLI = path.join(ROOT, 'dist', 'cli.js');
const TOOLS = ['resolve_library_id', 'get_library_docs'];
const REGISTRY = 'index.crates.io-1949cf8c6b5b557f';

const PLAYWRIGHT_README = `# Playwright

Playwright automates Chromium, Firefox and WebKit.

## Installation

\`\`\`sh
## not a heading
npm init playwright@latest
\`\`\`

## Locators

Locators find elements: page.getByRole('button'). A locator waits and retries.

## Trace viewer

Record a trace and open it with npx playwright show-trace.
`;

interface Seen {
  path: string;
  query: Record<string, string>;
  authorization?: string;
}

/** The Context7 stand-in: records every request; `slow` waits 2 s before answering. */
class FakeContext7 {
  readonly seen: Seen[] = [];
  private server!: http.Server;
  base = '';

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const query = Object.fromEntries(url.searchParams);
      this.seen.push({ path: url.pathname, query, authorization: req.headers.authorization });
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (url.pathname === '/api/v2/libs/search') {
        if (!query.libraryName || !query.query) {
          return json(400, { error: 'bad_request', message: 'libraryName and query are required' });
        }
        if (query.libraryName === 'slow') {
          setTimeout(() => json(200, { results: [] }), 2000).unref();
          return;
        }
        if (query.libraryName === 'limited') {
          return json(429, { error: 'rate_limited', message: 'Rate limited or quota exceeded.' });
        }
        return json(200, {
          results: [
            {
              id: '/vercel/next.js',
              title: 'Next.js',
              description: 'The React Framework',
              branch: 'canary',
              state: 'finalized',
              totalTokens: 800000,
              totalSnippets: 3200,
              trustScore: 10,
              benchmarkScore: 91.2,
              versions: ['v15.1.8'],
            },
            { id: '/websites/nextjs_org', title: 'nextjs.org' },
          ],
        });
      }
      if (url.pathname === '/api/v2/context') {
        if (query.type !== 'txt') {
          return json(400, { error: 'bad_request', message: 'this stand-in only serves type=txt' });
        }
        if (query.libraryId !== '/vercel/next.js') {
          return json(404, { error: 'not_found', message: 'Library not found' });
        }
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(`### App Router (${query.query})\n\nThe App Router lives in the app directory.\n\n`.repeat(40));
        return;
      }
      json(404, { error: 'not_found', message: `no route ${url.pathname}` });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The workspace, the cargo home and a state folder. */
function fixture(): { workspace: string; cargoHome: string; state: string; cleanup(): void } {
  const temp = tempDir('secretary-libdocs-');
  const root = fs.realpathSync(temp.dir);
  const workspace = path.join(root, 'app');
  const cargoHome = path.join(root, 'cargo-home');
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  };
  const nm = path.join(workspace, 'node_modules');
  write(
    path.join(nm, 'playwright', 'package.json'),
    JSON.stringify({ name: 'playwright', version: '1.48.0', description: 'Browser automation', repository: 'github:microsoft/playwright' }),
  );
  write(path.join(nm, 'playwright', 'README.md'), PLAYWRIGHT_README);
  write(path.join(nm, 'playwright', 'docs', 'api', 'page.md'), '# Page\n\n## page.goto(url)\n\nNavigates the page to a URL.\n');
  write(path.join(nm, '@playwright', 'test', 'package.json'), JSON.stringify({ name: '@playwright/test', version: '1.48.0' }));
  write(path.join(nm, '@playwright', 'test', 'README.md'), '# @playwright/test\n\n## Fixtures\n\nTest fixtures.\n');
  // pnpm: node_modules/<name> links into node_modules/.pnpm.
  const store = path.join(nm, '.pnpm', 'zod@3.23.8', 'node_modules', 'zod');
  write(path.join(store, 'package.json'), JSON.stringify({ name: 'zod', version: '3.23.8' }));
  write(path.join(store, 'README.md'), '# Zod\n\n## Basic usage\n\nz.string().parse(x)\n');
  fs.symlinkSync(store, path.join(nm, 'zod'), 'dir');
  // A link that leads out of the workspace is never followed.
  write(path.join(root, 'outside', 'evil', 'package.json'), JSON.stringify({ name: 'evil', version: '6.6.6' }));
  fs.symlinkSync(path.join(root, 'outside', 'evil'), path.join(nm, 'evil'), 'dir');
  write(
    path.join(workspace, 'Cargo.lock'),
    'version = 4\n\n[[package]]\nname = "serde"\nversion = "1.0.219"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\n',
  );
  const crate = path.join(cargoHome, 'registry', 'src', REGISTRY, 'serde-1.0.219');
  write(path.join(crate, 'Cargo.toml'), '[package]\nname = "serde"\nversion = "1.0.219"\ndescription = "A serialization framework"\n');
  write(path.join(crate, 'README.md'), '# Serde\n\n## Derive\n\nUse #[derive(Serialize, Deserialize)].\n');
  write(
    path.join(workspace, '.venv', 'lib', 'python3.12', 'site-packages', 'requests-2.32.3.dist-info', 'METADATA'),
    'Metadata-Version: 2.1\nName: requests\nVersion: 2.32.3\nSummary: Python HTTP for Humans.\n\n# Requests\n\n## Sessions\n\nA Session keeps cookies.\n',
  );
  return { workspace, cargoHome, state: path.join(root, 'state'), cleanup: temp.cleanup };
}

let fake: FakeContext7;
let files: ReturnType<typeof fixture>;

before(async () => {
  fake = new FakeContext7();
  await fake.start();
  files = fixture();
});

after(async () => {
  await fake.stop();
  files.cleanup();
});

/** A core over the fixture with the library-docs environment variables `env` (Context7 at the stand-in by default). */
function coreWith(env: Record<string, string> = {}): {
  core: WasmCore;
  call: (name: string, args: unknown) => Promise<Record<string, any>>;
} {
  const core = new WasmCore(WASM_DIR, silentLogger);
  core.setHost(
    standaloneHost({
      workspaceFolder: files.workspace,
      stateDir: files.state,
      bundledDocs: bundledDocsDir(ROOT),
      env: { CARGO_HOME: files.cargoHome, SECRETARY_CONTEXT7_BASE_URL: fake.base, CONTEXT7_API_KEY: 'ctx7sk-test', ...env },
    }),
  );
  assert.equal(JSON.parse(core.invoke('tool_load', { names: TOOLS }, undefined)).success, true);
  return { core, call: async (name, args) => JSON.parse(await core.invokeAsync(name, args, undefined)) };
}

/** resolve_library_id for `libraryName`, asserted to succeed with libraries from `source`. */
async function resolvedFrom(call: ReturnType<typeof coreWith>['call'], libraryName: string, source: 'local' | 'context7') {
  const found = await call('resolve_library_id', { libraryName });
  assert.equal(found.success, true, JSON.stringify(found));
  assert.equal(found.source, source);
  return found;
}

test('the tools are deferred until loaded', () => {
  const core = new WasmCore(WASM_DIR, silentLogger);
  core.setHost(standaloneHost({ workspaceFolder: files.workspace, stateDir: files.state, env: {} }));
  assert.equal(JSON.parse(core.invoke('resolve_library_id', { libraryName: 'pw' }, undefined)).error_type, 'not_loaded');
});

test('installed libraries resolve offline with exact versions (npm, pnpm links, crates, pypi, bundled)', async () => {
  const { call } = coreWith();
  const before = fake.seen.length;
  const pw = await resolvedFrom(call, 'pw', 'local');
  assert.equal(pw.libraries[0].libraryId, '/npm/playwright@1.48.0');
  assert.equal(pw.libraries[0].match, 'alias');
  const repo = await call('resolve_library_id', { libraryName: 'microsoft/playwright' });
  assert.equal(repo.libraries[0].libraryId, '/npm/playwright@1.48.0', JSON.stringify(repo));
  const scoped = await call('resolve_library_id', { libraryName: 'playwright' });
  assert.deepEqual(
    scoped.libraries.map((l: { libraryId: string }) => l.libraryId),
    ['/npm/playwright@1.48.0', '/npm/@playwright/test@1.48.0'],
  );
  assert.equal((await call('resolve_library_id', { libraryName: 'zod' })).libraries[0].libraryId, '/npm/zod@3.23.8');
  const evil = await call('resolve_library_id', { libraryName: 'evil' });
  assert.notEqual(evil.source, 'local', 'a link out of the workspace is not a library');
  const serde = await call('resolve_library_id', { libraryName: 'serde' });
  assert.equal(serde.libraries[0].libraryId, '/crates/serde@1.0.219', 'CARGO_HOME is honoured');
  assert.equal(serde.libraries[0].description, 'A serialization framework');
  assert.equal((await call('resolve_library_id', { libraryName: 'requests' })).libraries[0].libraryId, '/pypi/requests@2.32.3');
  const secretary = await call('resolve_library_id', { libraryName: 'secretary' });
  assert.equal(secretary.libraries[0].libraryId, '/bundled/copilot-chat-secretary@0.1.0');
  // Only `evil` went to Context7: nothing installed matched it.
  assert.deepEqual(
    fake.seen.slice(before).map((s) => s.query.libraryName),
    ['evil'],
  );
});

test('get_library_docs returns the scored sections of the installed version within maxChars', async () => {
  const { call } = coreWith();
  const docs = await call('get_library_docs', { libraryId: '/npm/playwright@1.48.0', query: 'locator', maxChars: 4000 });
  assert.equal(docs.success, true, JSON.stringify(docs));
  assert.equal(docs.mode, 'search');
  assert.deepEqual(docs.sections[0], { file: 'README.md', heading: 'Locators', score: 5 });
  assert.match(docs.text, /^## Locators\n\nLocators find elements/);
  const goto = await call('get_library_docs', { libraryId: '/npm/playwright@1.48.0', query: 'goto' });
  assert.deepEqual(goto.sections[0], { file: 'docs/api/page.md', heading: 'page.goto(url)', score: 3 });
  const small = await call('get_library_docs', { libraryId: '/npm/playwright@1.48.0', query: 'locator', maxChars: 40 });
  assert.ok(small.text.length <= 40, small.text);
  assert.equal(small.truncated, true);
  const overview = await call('get_library_docs', { libraryId: '/npm/playwright@1.48.0', query: 'kubernetes' });
  assert.equal(overview.mode, 'overview');
  assert.deepEqual(
    overview.sections.map((s: { heading: string }) => s.heading),
    ['Playwright', 'Installation', 'Locators', 'Trace viewer', 'page.goto(url)'],
  );
  const wrong = await call('get_library_docs', { libraryId: '/npm/playwright@1.40.0' });
  assert.equal(wrong.error_type, 'version_mismatch');
  assert.match(wrong.error, /this workspace has \/npm\/playwright@1\.48\.0/);
  const serde = await call('get_library_docs', { libraryId: '/crates/serde@1.0.219', query: 'derive' });
  assert.equal(serde.sections[0].heading, 'Derive', JSON.stringify(serde));
  const requests = await call('get_library_docs', { libraryId: '/pypi/requests@2.32.3', query: 'session' });
  assert.equal(requests.sections[0].heading, 'Sessions', JSON.stringify(requests));
  const zod = await call('get_library_docs', { libraryId: '/npm/zod', query: 'usage' });
  assert.equal(zod.libraryId, '/npm/zod@3.23.8');
  const bundled = await call('get_library_docs', { libraryId: '/bundled/copilot-chat-secretary@0.1.0', query: 'library docs' });
  assert.equal(bundled.sections[0].heading, 'Library docs', JSON.stringify(bundled));
  const missing = await call('get_library_docs', { libraryId: '/npm/lodash@4.17.21' });
  assert.equal(missing.error_type, 'not_found');
  assert.match(missing.error, /^Library not found: \/npm\/lodash@4\.17\.21\. Local libraries: \/npm\/@playwright\/test@1\.48\.0, /);
});

test('Context7 fallback over real HTTP: libs/search then context, with the key and the query strings', async () => {
  const { call } = coreWith();
  const before = fake.seen.length;
  const found = await resolvedFrom(call, 'next.js', 'context7');
  assert.deepEqual(found.libraries[0], {
    libraryId: '/vercel/next.js',
    name: 'Next.js',
    description: 'The React Framework',
    totalSnippets: 3200,
    trustScore: 10,
    benchmarkScore: 91.2,
    versions: ['v15.1.8'],
  });
  assert.deepEqual(found.libraries[1], { libraryId: '/websites/nextjs_org', name: 'nextjs.org' });
  assert.deepEqual(fake.seen.slice(before), [
    { path: '/api/v2/libs/search', query: { libraryName: 'next.js', query: 'next.js' }, authorization: 'Bearer ctx7sk-test' },
  ]);

  const docs = await call('get_library_docs', { libraryId: '/vercel/next.js', query: 'app router', maxChars: 500 });
  assert.equal(docs.success, true, JSON.stringify(docs));
  assert.equal(docs.source, 'context7');
  assert.equal(docs.truncated, true);
  assert.ok(docs.text.length <= 500);
  assert.match(docs.text, /^### App Router \(app router\)/);
  assert.deepEqual(fake.seen.at(-1), {
    path: '/api/v2/context',
    query: { libraryId: '/vercel/next.js', query: 'app router', type: 'txt', tokens: '167' },
    authorization: 'Bearer ctx7sk-test',
  });
  const unknown = await call('get_library_docs', { libraryId: '/nobody/nothing' });
  assert.equal(unknown.error_type, 'not_found');
  assert.match(unknown.error, /^Could not get the docs of \/nobody\/nothing: Context7 answered HTTP 404: Library not found\. Local libraries: /);
  const limited = await call('resolve_library_id', { libraryName: 'limited' });
  assert.equal(limited.error_type, 'context7_error');
  assert.match(limited.error, /Context7 answered HTTP 429: Rate limited or quota exceeded\. Local libraries: \/npm\//);
});

test('the pending fetch: the first run asks, the adapter fetches once, the second run answers', async () => {
  const { core } = coreWith();
  const fetched: HttpRequest[] = [];
  const fetcher = async (request: HttpRequest): Promise<HttpOutcome> => {
    fetched.push(request);
    return { status: 200, body: JSON.stringify({ results: [{ id: '/tanstack/query', title: 'TanStack Query' }] }) };
  };
  const result = JSON.parse(await core.invokeAsync('resolve_library_id', { libraryName: 'react-query' }, undefined, fetcher));
  assert.equal(result.success, true, JSON.stringify(result));
  assert.equal(result.libraries[0].libraryId, '/tanstack/query');
  assert.equal(fetched.length, 1);
  assert.equal(fetched[0].url, `${fake.base}/api/v2/libs/search?libraryName=react-query&query=react-query`);
  assert.equal(fetched[0].timeoutMs, 10000);
  assert.equal(fetched[0].headers.Authorization, 'Bearer ctx7sk-test');
  // The synchronous path has no exchange: the core is told this host cannot make HTTP requests.
  const sync = JSON.parse(core.invoke('resolve_library_id', { libraryName: 'react-query' }, undefined));
  assert.equal(sync.error_type, 'network_error');
  assert.match(sync.error, /could not be reached: This host cannot make HTTP requests\. Local libraries: /);
});

test('a timeout is a network error answered with the local libraries', async () => {
  const { call } = coreWith({ SECRETARY_CONTEXT7_TIMEOUT_MS: '300' });
  const started = Date.now();
  const slow = await call('resolve_library_id', { libraryName: 'slow' });
  assert.ok(Date.now() - started < 1500, `gave up after ${Date.now() - started} ms`);
  assert.equal(slow.success, false);
  assert.equal(slow.error_type, 'network_error');
  assert.match(
    slow.error,
    /^No local library matches "slow", and Context7 \(http:\/\/127\.0\.0\.1:\d+\) could not be reached: timed out after 300 ms\. Local libraries: \/npm\/@playwright\/test@1\.48\.0, \/npm\/playwright@1\.48\.0, \/npm\/zod@3\.23\.8, \/crates\/serde@1\.0\.219, \/pypi\/requests@2\.32\.3, \/bundled\/copilot-chat-secretary@0\.1\.0\.$/,
  );
});

test('a refused connection is a network error answered with the local libraries', async () => {
  const closed = http.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  const { call } = coreWith({ SECRETARY_CONTEXT7_BASE_URL: `http://127.0.0.1:${port}` });
  const refused = await call('get_library_docs', { libraryId: '/vercel/next.js', query: 'routing' });
  assert.equal(refused.error_type, 'network_error', JSON.stringify(refused));
  assert.match(refused.error, new RegExp(`could not be reached: connect ECONNREFUSED 127\\.0\\.0\\.1:${port}\\. Local libraries: /npm/`));
});

test('the off switch keeps everything offline', async () => {
  const { call } = coreWith({ SECRETARY_CONTEXT7_ENABLED: 'false' });
  const before = fake.seen.length;
  const off = await call('resolve_library_id', { libraryName: 'next.js' });
  assert.equal(off.error_type, 'not_found');
  assert.match(off.error, /the Context7 fallback is off \(setting copilotChatSecretary\.libraryDocs\.context7\.enabled\)/);
  assert.equal((await call('resolve_library_id', { libraryName: 'pw' })).success, true);
  assert.equal(fake.seen.length, before, 'no request reached the server');
});

test('settings from the environment, and back for the MCP server process', () => {
  assert.deepEqual(
    settingsFromEnv({
      SECRETARY_CONTEXT7_ENABLED: 'off',
      SECRETARY_CONTEXT7_BASE_URL: 'http://127.0.0.1:1',
      SECRETARY_CONTEXT7_TIMEOUT_MS: 'soon',
      CONTEXT7_API_KEY: ' k ',
    }),
    {
      'copilotChatSecretary.libraryDocs.context7.enabled': false,
      'copilotChatSecretary.libraryDocs.context7.baseUrl': 'http://127.0.0.1:1',
      'copilotChatSecretary.libraryDocs.context7.apiKey': 'k',
    },
  );
  assert.deepEqual(settingsFromEnv({ SECRETARY_CONTEXT7_ENABLED: '1', SECRETARY_CONTEXT7_TIMEOUT_MS: '2500' }), {
    'copilotChatSecretary.libraryDocs.context7.enabled': true,
    'copilotChatSecretary.libraryDocs.context7.timeoutMs': 2500,
  });
  const settings: Record<string, unknown> = {
    'copilotChatSecretary.libraryDocs.context7.enabled': false,
    'copilotChatSecretary.libraryDocs.context7.baseUrl': 'https://c7.example',
    'copilotChatSecretary.libraryDocs.context7.timeoutMs': 5000,
    'copilotChatSecretary.libraryDocs.context7.apiKey': '',
  };
  const env = libraryDocsEnv((key) => settings[key]);
  assert.deepEqual(env, {
    SECRETARY_CONTEXT7_ENABLED: 'false',
    SECRETARY_CONTEXT7_BASE_URL: 'https://c7.example',
    SECRETARY_CONTEXT7_TIMEOUT_MS: '5000',
  });
  // The round trip gives the settings back (the empty key stays unset).
  assert.deepEqual(settingsFromEnv(env), {
    'copilotChatSecretary.libraryDocs.context7.enabled': false,
    'copilotChatSecretary.libraryDocs.context7.baseUrl': 'https://c7.example',
    'copilotChatSecretary.libraryDocs.context7.timeoutMs': 5000,
  });
});

test('NodeHost.listDirs and the read-only areas', () => {
  const host = new NodeHost({ roots: { workspace: files.workspace, cargoRegistry: path.join(files.cargoHome, 'registry', 'src') } });
  assert.deepEqual(host.listDirs('workspace', 'node_modules'), ['.pnpm', '@playwright', 'playwright', 'zod']);
  assert.deepEqual(host.listDirs('workspace', 'node_modules/missing'), []);
  assert.deepEqual(host.listDirs('cargoRegistry', ''), [REGISTRY]);
  assert.throws(() => host.listDirs('workspace', '../outside'), /refused/);
  assert.throws(
    () => host.writeAtomic('cargoRegistry', `${REGISTRY}/serde-1.0.219/README.md`, new Uint8Array()),
    (err: unknown) => err instanceof HostError && err.code === 'SECRETARY_PATH_REFUSED' && /read-only/.test(err.message),
  );
  assert.throws(() => host.remove('cargoRegistry', `${REGISTRY}/serde-1.0.219/README.md`), /read-only/);
  assert.ok(fs.existsSync(path.join(files.cargoHome, 'registry', 'src', REGISTRY, 'serde-1.0.219', 'README.md')));
});

test('HttpExchange: a miss is pending, a fetched answer or network error is served', async () => {
  const exchange = new HttpExchange(async (request) =>
    request.url.endsWith('/down') ? { error: 'connect ECONNREFUSED 127.0.0.1:9' } : { status: 200, body: `body of ${request.url}` },
  );
  const ask = (url: string) => exchange.answer({ url, headers: {}, timeoutMs: 100 });
  assert.throws(() => ask('http://x/a'), (err: unknown) => err instanceof HostError && err.code === 'SECRETARY_FETCH_PENDING');
  assert.throws(() => ask('http://x/down'), (err: unknown) => err instanceof HostError && err.code === 'SECRETARY_FETCH_PENDING');
  assert.equal(exchange.hasPending, true);
  assert.deepEqual(await exchange.fetchPending(), ['http://x/a', 'http://x/down']);
  assert.equal(exchange.hasPending, false);
  assert.deepEqual(ask('http://x/a'), { status: 200, body: 'body of http://x/a' });
  assert.throws(() => ask('http://x/down'), (err: unknown) => err instanceof HostError && err.code === 'SECRETARY_NETWORK' && /ECONNREFUSED/.test(err.message));
  assert.equal(describeFetchError(Object.assign(new Error('x'), { name: 'TimeoutError' }), 250), 'timed out after 250 ms');
  assert.equal(
    describeFetchError(Object.assign(new TypeError('fetch failed'), { cause: { code: 'ENOTFOUND', message: 'getaddrinfo ENOTFOUND nowhere.invalid' } }), 1),
    'getaddrinfo ENOTFOUND nowhere.invalid',
  );
});

/** `secretary <args>` as a real process, asynchronously (the stand-in server answers in this process). */
function secretary(args: string[], cwd: string, env: Record<string, string>): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, ...env }, timeout: 30_000 }, (error, out, err) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, out, err });
    });
  });
}

test('secretary call: library docs from the command line, local and through Context7', async () => {
  const env = { CARGO_HOME: files.cargoHome, SECRETARY_STATE_DIR: files.state, SECRETARY_CONTEXT7_BASE_URL: fake.base };
  const local = await secretary(['call', 'resolve_library_id', '{"libraryName": "serde"}', '--storage', SAMPLES], files.workspace, env);
  assert.equal(local.code, 0, local.err);
  assert.equal(JSON.parse(local.out).libraries[0].libraryId, '/crates/serde@1.0.219');
  const bundled = await secretary(
    ['call', 'get_library_docs', '{"libraryId": "/bundled/copilot-chat-secretary@0.1.0", "query": "memory"}', '--storage', SAMPLES],
    files.workspace,
    env,
  );
  assert.equal(bundled.code, 0, bundled.err);
  assert.equal(JSON.parse(bundled.out).sections[0].heading, 'Memory');
  const before = fake.seen.length;
  const remote = await secretary(
    ['call', 'get_library_docs', '{"libraryId": "/vercel/next.js", "query": "app router", "maxChars": 300}', '--storage', SAMPLES],
    files.workspace,
    env,
  );
  assert.equal(remote.code, 0, remote.err);
  const docs = JSON.parse(remote.out);
  assert.equal(docs.source, 'context7');
  assert.ok(docs.text.length <= 300);
  assert.equal(fake.seen.length, before + 1);
  assert.equal(fake.seen.at(-1)?.path, '/api/v2/context');
  const off = await secretary(
    ['call', 'resolve_library_id', '{"libraryName": "next.js"}', '--storage', SAMPLES],
    files.workspace,
    { ...env, SECRETARY_CONTEXT7_ENABLED: 'false' },
  );
  assert.equal(off.code, 1);
  assert.equal(JSON.parse(off.out).error_type, 'not_found');
});
