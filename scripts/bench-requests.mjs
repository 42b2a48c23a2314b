// Past-request search in the WASM core: `search_requests` over every request of a folder of VS
// Code session files, timed query by query. With a second module (a baseline build, e.g. main's
// `dist/wasm` copied aside), both serve the same sessions in the same Node process and the
// queries alternate between them, so that the machine's noise falls on both alike.
//
//   node scripts/bench-requests.mjs <sessions-dir> <questions.json> [<baseline-wasm-dir>]
//
// `<sessions-dir>`: the `.json` session files `scripts/bench-requests/to_sessions.py` writes;
// `<questions.json>`: a bench file of `scripts/bench-requests/` (its `questions[].question` are
// the queries). Prints a markdown table: index build (the first call) and query p50 / p99; with a
// baseline, also how many queries both modules answered alike (a speed-up must not change them).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';

const require = createRequire(import.meta.url);
const ROOT = resolve(new URL('..', import.meta.url).pathname);
const [dir, questionsFile, baselineDir] = process.argv.slice(2);
if (!dir || !questionsFile) {
  process.stderr.write('usage: node scripts/bench-requests.mjs <sessions-dir> <questions.json> [<baseline-wasm-dir>]\n');
  process.exit(2);
}

/** A core of the module in `wasmDir`, fed every session file of `dir`. */
function core(wasmDir) {
  const wasm = require(join(resolve(wasmDir), 'secretary_wasm.js'));
  wasm.__instantiate();
  const secretary = new wasm.Secretary();
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.json'))) {
    const path = join(dir, name);
    const bytes = readFileSync(path);
    const { size, mtimeMs } = statSync(path);
    secretary.apply(path, undefined, size, mtimeMs, 0, bytes);
  }
  secretary.setReady(true);
  return secretary;
}

function search(secretary, query) {
  const out = JSON.parse(secretary.invoke('search_requests', JSON.stringify({ query }), undefined, undefined, undefined, undefined, undefined));
  if (!out.success) throw new Error(`search_requests failed: ${JSON.stringify(out).slice(0, 300)}`);
  return out;
}

const queries = JSON.parse(readFileSync(questionsFile, 'utf8')).questions.map((q) => q.question);
const modules = [['this build', join(ROOT, 'dist', 'wasm')]];
if (baselineDir) modules.push(['baseline', baselineDir]);
const cores = modules.map(([label, wasmDir]) => {
  const secretary = core(wasmDir);
  const t0 = performance.now();
  search(secretary, queries[0]);
  return { label, secretary, build: performance.now() - t0, times: [] };
});
// Warm-up, then every query on each core in turn.
for (const c of cores) for (const q of queries.slice(0, 50)) search(c.secretary, q);
let alike = 0;
for (const q of queries) {
  const answers = cores.map((c) => {
    const t = performance.now();
    const out = search(c.secretary, q);
    c.times.push(performance.now() - t);
    return JSON.stringify(out);
  });
  if (answers.every((a) => a === answers[0])) alike += 1;
}
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
};
console.log(`| search_requests, ${queries.length} queries | first call ms (builds the index) | query p50 ms | p99 ms |`);
console.log('|---|---:|---:|---:|');
for (const c of cores) {
  console.log(`| ${c.label} | ${c.build.toFixed(1)} | ${pct(c.times, 0.5).toFixed(3)} | ${pct(c.times, 0.99).toFixed(3)} |`);
}
if (cores.length > 1) console.log(`\nanswers alike in both modules: ${alike} of ${queries.length} queries`);
