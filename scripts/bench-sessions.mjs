// Session benchmark: the WASM core's dialog extraction against the plain-TypeScript baseline
// (JSON.parse + walking `requests`), in one Node process on the same bytes; peak memory of each
// in its own child process; incremental append on a large .jsonl; a 1,000-file folder scan.
//
//   node scripts/bench-sessions.mjs <data dir> [file ...]
//
// Prints a markdown table to stdout. Machines are noisy: every figure is the median of several
// runs, and the baseline runs alternately with the core so both see the same noise.
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync, appendFileSync, copyFileSync, writeFileSync, mkdirSync, rmSync, openSync, readSync, closeSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const ROOT = resolve(new URL('..', import.meta.url).pathname);
const glue = join(ROOT, 'dist', 'wasm', 'secretary_wasm.js');
/** The glue instantiates on demand (scripts/wasm-glue.mjs). */
const loadCore = () => {
  const core = require(glue);
  core.__instantiate();
  return core;
};

/** The baseline a TypeScript extension would write: parse everything, walk the requests. */
function baseline(bytes) {
  const session = JSON.parse(bytes.toString('utf8'));
  const requests = [];
  for (const [i, request] of (session.requests ?? []).entries()) {
    const message = request.message;
    const text =
      typeof message === 'string'
        ? message
        : (message?.text ?? (message?.parts ?? []).map((p) => p.text ?? '').join(''));
    requests.push({ index: i + 1, text, timestamp: request.timestamp, modelId: request.modelId });
  }
  return { sessionId: session.sessionId, requests };
}

function core(wasm, name, bytes) {
  return JSON.parse(wasm.parseSession(name, bytes));
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Child mode: run one implementation once on one file and print the peak RSS growth. */
if (process.argv[2] === '--child') {
  const [, , , which, file] = process.argv;
  const bytes = readFileSync(file);
  const wasm = which === 'core' ? loadCore() : undefined;
  const before = process.resourceUsage().maxRSS;
  const out = which === 'core' ? core(wasm, basename(file), bytes) : baseline(bytes);
  const after = process.resourceUsage().maxRSS;
  process.stdout.write(JSON.stringify({ peakKb: after - before, requests: out.requests.length }));
  process.exit(0);
}

const [dataDir, ...named] = process.argv.slice(2);
if (!dataDir) {
  process.stderr.write('usage: node scripts/bench-sessions.mjs <data dir> [file ...]\n');
  process.exit(2);
}
const wasm = loadCore();
const files = named.length
  ? named
  : readdirSync(dataDir)
      .filter((f) => /\.jsonl?$/.test(f))
      .map((f) => join(dataDir, f));

const rows = [];
for (const file of files) {
  const bytes = readFileSync(file);
  const mb = bytes.length / 1e6;
  const runs = mb > 50 ? 5 : mb > 5 ? 9 : 21;
  const tCore = [];
  const tBase = [];
  const isJsonl = file.endsWith('.jsonl');
  let countCore = 0;
  let countBase = 0;
  for (let i = 0; i < runs; i += 1) {
    let t = performance.now();
    countCore = core(wasm, basename(file), bytes).requests.length;
    tCore.push(performance.now() - t);
    if (!isJsonl) {
      t = performance.now();
      countBase = baseline(bytes).requests.length;
      tBase.push(performance.now() - t);
    }
  }
  const mem = (which) => {
    const run = spawnSync(process.execPath, ['--max-old-space-size=8192', new URL(import.meta.url).pathname, '--child', which, file], {
      encoding: 'utf8',
    });
    return JSON.parse(run.stdout || '{"peakKb":NaN}').peakKb / 1024;
  };
  const memCore = mem('core');
  const memBase = isJsonl ? NaN : mem('baseline');
  const msCore = median(tCore);
  const msBase = isJsonl ? NaN : median(tBase);
  if (!isJsonl && countCore !== countBase) {
    process.stderr.write(`warning: ${basename(file)}: core found ${countCore} requests, baseline ${countBase}\n`);
  }
  rows.push({ file: basename(file), mb, msCore, msBase, memCore, memBase, requests: countCore });
}

const fmt = (n, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');
console.log('| file | MB | requests | core ms | baseline ms | speed-up | core MB/s | core peak MB | baseline peak MB | memory ratio |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const r of rows) {
  console.log(
    `| ${r.file} | ${fmt(r.mb, 2)} | ${r.requests} | ${fmt(r.msCore, 2)} | ${fmt(r.msBase, 2)} | ${fmt(r.msBase / r.msCore)}× | ${fmt(r.mb / (r.msCore / 1000), 0)} | ${fmt(r.memCore)} | ${fmt(r.memBase)} | ${fmt(r.memBase / r.memCore)}× |`,
  );
}

// Incremental: append one line to each .jsonl and time plan + read-from-offset + apply, against a
// full re-parse of the same file.
const logs = files.filter((f) => f.endsWith('.jsonl'));
if (logs.length) {
  console.log('\n| log | MB | full parse ms | append one line: plan + read + apply ms | ratio |');
  console.log('|---|---:|---:|---:|---:|');
}
for (const original of logs) {
  const tmp = join(dataDir, `.append-${basename(original)}`);
  copyFileSync(original, tmp);
  const handle = new wasm.Secretary();
  let st = statSync(tmp);
  handle.apply(tmp, undefined, st.size, st.mtimeMs, 0, readFileSync(tmp));
  const tFull = [];
  for (let i = 0; i < 3; i += 1) {
    const t = performance.now();
    core(wasm, basename(tmp), readFileSync(tmp));
    tFull.push(performance.now() - t);
  }
  const tAppend = [];
  for (let i = 0; i < 21; i += 1) {
    const line = JSON.stringify({ kind: 2, k: ['requests'], v: [{ requestId: `bench-${i}`, timestamp: Date.now(), message: { text: `appended request ${i}` }, response: [] }] });
    appendFileSync(tmp, line + '\n');
    const t = performance.now();
    st = statSync(tmp);
    const plan = handle.plan(tmp, st.size, st.mtimeMs);
    const offset = plan.kind === 'from' ? plan.offset : 0;
    // Read only the tail, as the host does (extension/src/sessions/sessionSync.ts readFrom).
    const tail = Buffer.alloc(st.size - offset);
    const fd = openSync(tmp, 'r');
    readSync(fd, tail, 0, tail.length, offset);
    closeSync(fd);
    handle.apply(tmp, undefined, st.size, st.mtimeMs, offset, tail);
    tAppend.push(performance.now() - t);
    if (plan.kind !== 'from') {
      process.stderr.write(`warning: plan for an appended log was ${plan.kind}\n`);
    }
  }
  rmSync(tmp);
  const mb = statSync(original).size / 1e6;
  console.log(`| ${basename(original)} | ${fmt(mb, 2)} | ${fmt(median(tFull), 1)} | ${fmt(median(tAppend), 2)} | ${fmt(median(tFull) / median(tAppend), 0)}× |`);
}

// A user-data folder with 1,000 session files: cold (first) and warm (nothing changed) scans.
const scanRoot = join(dataDir, '.scan');
rmSync(scanRoot, { recursive: true, force: true });
const chat = join(scanRoot, 'User', 'workspaceStorage', 'bench', 'chatSessions');
mkdirSync(chat, { recursive: true });
writeFileSync(join(scanRoot, 'User', 'workspaceStorage', 'bench', 'workspace.json'), '{"folder":"file:///bench"}');
const sample = readFileSync(join(ROOT, 'samples/user-data/User/workspaceStorage/5f2a9c0e1b7d4e3f8a6b2c1d0e9f8a7b/chatSessions/a1f4c2e0-7b3d-4d9a-9c51-2e8f6b0d3a71.json'), 'utf8');
for (let i = 0; i < 1000; i += 1) {
  const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
  writeFileSync(join(chat, `${id}.json`), sample.replace('a1f4c2e0-7b3d-4d9a-9c51-2e8f6b0d3a71', id));
}
const scan = spawnSync(process.execPath, [join(ROOT, 'out', 'bench', 'scan.js'), scanRoot], { encoding: 'utf8' });
process.stdout.write(scan.stdout);
process.stderr.write(scan.stderr);
rmSync(scanRoot, { recursive: true, force: true });
