// Tool-search benchmark: the WASM core's TF-IDF index against MiniSearch (npm `minisearch`,
// BM25) in the same Node process, on the same 10,000-tool catalog and the same queries; plus
// both rankers' quality on the MetaTool dev queries.
//
//   node scripts/bench-tools.mjs <metatool-catalog.json> <metatool-dev-queries.csv> [<baseline-wasm-dir>]
//
// With a baseline module (a build to compare with, e.g. main's `dist/wasm` copied aside), only
// the two cores' hybrid search is timed: both index the same catalog in the same process and the
// queries alternate between them, five rounds, so that the machine's noise falls on both alike;
// it also counts the queries both answered alike (a speed-up must not change them).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';

const require = createRequire(import.meta.url);
const ROOT = resolve(new URL('..', import.meta.url).pathname);
const wasm = require(join(ROOT, 'dist', 'wasm', 'secretary_wasm.js'));
wasm.__instantiate(); // the glue instantiates on demand (scripts/wasm-glue.mjs)
const MiniSearch = require('minisearch');

const [catalogFile, queriesFile, baselineDir] = process.argv.slice(2);
if (!catalogFile || !queriesFile) {
  process.stderr.write('usage: node scripts/bench-tools.mjs <catalog.json> <queries.csv> [<baseline-wasm-dir>]\n');
  process.exit(2);
}
const base = JSON.parse(readFileSync(catalogFile, 'utf8'));
const labelled = parseCsv(readFileSync(queriesFile, 'utf8')).slice(1).map(([query, tool]) => ({ query, tool }));

/** RFC 4180 CSV (quoted fields with commas and doubled quotes). */
function parseCsv(text) {
  const rows = [];
  let row = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c === '"') {
      quoted = true;
    } else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i += 1;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else {
      field += c;
    }
  }
  if (field || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/** 10,000 tools: each MetaTool tool, then variants that mix two tools' descriptions. */
function bigCatalog(n) {
  const tools = [...base];
  for (let i = tools.length; i < n; i += 1) {
    const a = base[i % base.length];
    const b = base[(i * 7 + 3) % base.length];
    const half = b.description.split(/(?<=\.)\s/)[0] ?? '';
    tools.push({ name: `${a.name}_v${i}`, description: `${a.description} ${half}` });
  }
  return tools;
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
const us = (ms) => (ms * 1000).toFixed(1);

function timeQueries(search, queries) {
  const times = [];
  for (const q of queries) {
    const t = performance.now();
    search(q);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { p50: pct(times, 0.5), p99: pct(times, 0.99) };
}

function miniSearch(tools) {
  const index = new MiniSearch({ fields: ['name', 'description'], idField: 'name', storeFields: [] });
  index.addAll(tools);
  return index;
}

// Speed on 10,000 tools.
const catalog = bigCatalog(10_000);
const queries = labelled.slice(0, 2000).map((l) => l.query);
const catalogJson = JSON.stringify(catalog);
if (baselineDir) {
  compareWithBaseline(require(join(resolve(baselineDir), 'secretary_wasm.js')));
  process.exit(0);
}
const builds = { core: [], lex: [], mini: [] };
let core;
let lex;
let mini;
// The core builds its index on the first search: a build is timed up to the first answer.
for (let i = 0; i < 5; i += 1) {
  let t = performance.now();
  core?.free();
  core = new wasm.Catalog(catalogJson, true);
  core.search(queries[0], 10);
  builds.core.push(performance.now() - t);
  t = performance.now();
  lex?.free();
  lex = new wasm.Catalog(catalogJson, false);
  lex.search(queries[0], 10);
  builds.lex.push(performance.now() - t);
  t = performance.now();
  mini = miniSearch(catalog);
  builds.mini.push(performance.now() - t);
}
for (const list of Object.values(builds)) list.sort((a, b) => a - b);
// Warm up, then measure each in turn on the same queries.
timeQueries((q) => core.search(q, 10), queries.slice(0, 200));
timeQueries((q) => lex.search(q, 10), queries.slice(0, 200));
timeQueries((q) => mini.search(q).slice(0, 10), queries.slice(0, 200));
const coreTimes = timeQueries((q) => JSON.parse(core.search(q, 10)), queries);
const lexTimes = timeQueries((q) => JSON.parse(lex.search(q, 10)), queries);
const miniTimes = timeQueries((q) => mini.search(q).slice(0, 10), queries);

console.log(`| 10,000 tools, ${queries.length} queries | index build + first query ms (median of 5) | query p50 µs | query p99 µs |`);
console.log('|---|---:|---:|---:|');
console.log(`| Secretary core (WASM, hybrid: TF-IDF + embeddings; the default) | ${builds.core[2].toFixed(1)} | ${us(coreTimes.p50)} | ${us(coreTimes.p99)} |`);
console.log(`| Secretary core (WASM, TF-IDF alone) | ${builds.lex[2].toFixed(1)} | ${us(lexTimes.p50)} | ${us(lexTimes.p99)} |`);
console.log(`| MiniSearch 7 (BM25, same process) | ${builds.mini[2].toFixed(1)} | ${us(miniTimes.p50)} | ${us(miniTimes.p99)} |`);
console.log(`| ratio MiniSearch / hybrid | ${(builds.mini[2] / builds.core[2]).toFixed(1)}× | ${(miniTimes.p50 / coreTimes.p50).toFixed(1)}× | ${(miniTimes.p99 / coreTimes.p99).toFixed(1)}× |`);

// Quality on the MetaTool dev queries (199 tools).
function quality(rank) {
  let r1 = 0;
  let r5 = 0;
  let mrr = 0;
  for (const { query, tool } of labelled) {
    const names = rank(query);
    const at = names.indexOf(tool);
    if (at === 0) r1 += 1;
    if (at >= 0 && at < 5) r5 += 1;
    if (at >= 0 && at < 10) mrr += 1 / (at + 1);
  }
  const n = labelled.length;
  return { r1: r1 / n, r5: r5 / n, mrr: mrr / n };
}
const small = new wasm.Catalog(JSON.stringify(base), true);
const smallLex = new wasm.Catalog(JSON.stringify(base), false);
const smallMini = miniSearch(base);
const q1 = quality((q) => JSON.parse(small.search(q, 10)).map((h) => h.name));
const q1l = quality((q) => JSON.parse(smallLex.search(q, 10)).map((h) => h.name));
const q2 = quality((q) => smallMini.search(q).slice(0, 10).map((h) => h.id));
console.log(`\n| MetaTool dev (${labelled.length} queries, 199 tools) | recall@1 | recall@5 | MRR@10 |`);
console.log('|---|---:|---:|---:|');
console.log(`| Secretary core (WASM, hybrid; the default) | ${q1.r1.toFixed(3)} | ${q1.r5.toFixed(3)} | ${q1.mrr.toFixed(3)} |`);
console.log(`| Secretary core (WASM, TF-IDF alone) | ${q1l.r1.toFixed(3)} | ${q1l.r5.toFixed(3)} | ${q1l.mrr.toFixed(3)} |`);
console.log(`| MiniSearch 7 defaults | ${q2.r1.toFixed(3)} | ${q2.r5.toFixed(3)} | ${q2.mrr.toFixed(3)} |`);
console.log('| reference TF-IDF (fixtures README) | 0.309 | 0.464 | 0.375 |');
console.log('| reference BM25 (fixtures README) | 0.320 | 0.468 | 0.383 |');

/** This module's hybrid search against `other`'s on the 10,000 tools, queries alternating. */
function compareWithBaseline(other) {
  other.__instantiate();
  const cores = { this: new wasm.Catalog(catalogJson, true), baseline: new (other.Catalog ?? other.ToolIndex)(catalogJson, true) }; // a build before the rename exports `ToolIndex`
  const build = {};
  for (const [name, index] of Object.entries(cores)) {
    const t = performance.now();
    index.search(queries[0], 10);
    build[name] = performance.now() - t;
  }
  for (const index of Object.values(cores)) for (const q of queries.slice(0, 200)) index.search(q, 10);
  const times = { this: [], baseline: [] };
  let alike = 0;
  for (let round = 0; round < 5; round += 1) {
    for (const [i, q] of queries.entries()) {
      const answers = {};
      // Who goes first alternates too.
      const order = (round + i) % 2 === 0 ? ['this', 'baseline'] : ['baseline', 'this'];
      for (const name of order) {
        const t = performance.now();
        answers[name] = cores[name].search(q, 10);
        JSON.parse(answers[name]);
        times[name].push(performance.now() - t);
      }
      if (round === 0 && answers.this === answers.baseline) alike += 1;
    }
  }
  console.log(`| 10,000 tools, ${queries.length} queries x 5 rounds, alternating | first query (builds) ms | query p50 µs | query p90 µs | query p99 µs |`);
  console.log('|---|---:|---:|---:|---:|');
  for (const name of ['this', 'baseline']) {
    const sorted = times[name].sort((a, b) => a - b);
    console.log(`| ${name === 'this' ? 'this module' : `baseline (${baselineDir})`} | ${build[name].toFixed(1)} | ${us(pct(sorted, 0.5))} | ${us(pct(sorted, 0.9))} | ${us(pct(sorted, 0.99))} |`);
  }
  console.log(`\nanswered alike (names and scores): ${alike} of ${queries.length}`);
}
