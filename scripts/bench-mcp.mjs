// MCP server benchmark: how long `secretary mcp` takes from spawn to its first `tools/list`
// answer, and the latency of `get_request` calls over stdio, measured with the SDK's own Client
// (what MCP clients use) against the built server (node dist/cli.js mcp).
//
//   node scripts/bench-mcp.mjs [--storage <user-data dir>] [--workspace <folder>] [--starts N] [--calls N]
//                              [--baseline-cli <another build's dist/cli.js>]
//
// --baseline-cli: also start that build's server in each round (bare node, baseline, this build,
// alternating), and run its warm calls beside this build's (alternating blocks of 100), for a
// same-run comparison of two builds.
//
// Defaults: samples/user-data and its todo-app workspace, 15 starts, 1000 calls (after 50 warm-up
// calls). Prints a markdown table to stdout. Figures are medians and percentiles over the runs.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const ROOT = resolve(new URL('..', import.meta.url).pathname);
const CLI = join(ROOT, 'dist', 'cli.js');
const { values } = parseArgs({
  options: {
    storage: { type: 'string', default: join(ROOT, 'samples', 'user-data') },
    workspace: { type: 'string', default: '/home/dev/projects/todo-app' },
    starts: { type: 'string', default: '15' },
    calls: { type: 'string', default: '1000' },
    'baseline-cli': { type: 'string' },
  },
});
if (!existsSync(CLI)) {
  console.error('bench-mcp: dist/cli.js is missing: run scripts/build first');
  process.exit(2);
}
const serverArgs = (cli) => [cli, 'mcp', '--storage', values.storage, '--workspace', values.workspace];

function connect(cli = CLI) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: serverArgs(cli),
    env: { ...getDefaultEnvironment(), MCP_TOOL_PREFIX: 'secretary' },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench-mcp', version: '1.0.0' });
  return { client, connected: client.connect(transport) };
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const ms = (value) => `${value.toFixed(value < 10 ? 2 : 1)} ms`;

// 1. Spawn → initialize → first tools/list answer, each in a fresh process; alternating with a
// bare `node -e 0` (spawn to exit), the floor any Node server starts from, on the same machine load.
const starts = [];
const bare = [];
const baselineStarts = [];
let toolCount = 0;
async function timeStart(cli) {
  const started = performance.now();
  const { client, connected } = connect(cli);
  await connected;
  const { tools } = await client.listTools();
  const elapsed = performance.now() - started;
  toolCount = tools.length;
  await client.close();
  return elapsed;
}
for (let i = 0; i < Number(values.starts); i++) {
  const t = performance.now();
  spawnSync(process.execPath, ['-e', '0']);
  bare.push(performance.now() - t);
  if (values['baseline-cli']) {
    baselineStarts.push(await timeStart(values['baseline-cli']));
  }
  starts.push(await timeStart(CLI));
}

// 2. get_request over stdio on a running server: the first call (waits for the first scan of
// the sessions), then warm calls one after another. With --baseline-cli, the baseline build's
// server runs beside it and the warm calls alternate between the two in blocks of 100, so both
// see the same machine load.
async function call(client) {
  const started = performance.now();
  const result = await client.callTool({ name: 'secretary_get_request', arguments: { index: 1 } });
  const elapsed = performance.now() - started;
  if (result.isError) {
    console.error(`bench-mcp: get_request failed: ${result.content?.[0]?.text}`);
    process.exit(1);
  }
  return elapsed;
}
async function server(cli) {
  const { client, connected } = connect(cli);
  await connected;
  const first = await call(client);
  for (let i = 0; i < 50; i++) {
    await call(client);
  }
  return { client, first, calls: [] };
}
const mine = await server(CLI);
const base = values['baseline-cli'] ? await server(values['baseline-cli']) : undefined;
const firstCall = mine.first;
for (let done = 0; done < Number(values.calls); done += 100) {
  for (const s of base ? [base, mine] : [mine]) {
    for (let i = done; i < Math.min(done + 100, Number(values.calls)); i++) {
      s.calls.push(await call(s.client));
    }
  }
}
const calls = mine.calls;
await mine.client.close();
await base?.client.close();

console.log(`MCP server (\`node dist/cli.js mcp\`, Node ${process.versions.node}, ${toolCount} tools, sessions: ${values.storage})\n`);
console.log('| measure | runs | p50 | p90 | min | max |');
console.log('|---|---|---|---|---|---|');
console.log(
  `| spawn → first \`tools/list\` answer | ${starts.length} | ${ms(percentile(starts, 50))} | ${ms(percentile(starts, 90))} | ${ms(Math.min(...starts))} | ${ms(Math.max(...starts))} |`,
);
console.log(
  `| bare \`node -e 0\`, spawn → exit (same run, alternating) | ${bare.length} | ${ms(percentile(bare, 50))} | ${ms(percentile(bare, 90))} | ${ms(Math.min(...bare))} | ${ms(Math.max(...bare))} |`,
);
console.log(`| ratio of the p50s, server / bare node | | ${(percentile(starts, 50) / percentile(bare, 50)).toFixed(2)}× | | | |`);
if (baselineStarts.length > 0) {
  console.log(
    `| baseline build (${values['baseline-cli']}): spawn → first \`tools/list\` | ${baselineStarts.length} | ${ms(percentile(baselineStarts, 50))} | ${ms(percentile(baselineStarts, 90))} | ${ms(Math.min(...baselineStarts))} | ${ms(Math.max(...baselineStarts))} |`,
  );
  console.log(`| ratio of the p50s, baseline build / bare node | | ${(percentile(baselineStarts, 50) / percentile(bare, 50)).toFixed(2)}× | | | |`);
}
console.log(`| first \`get_request\` (waits for the first scan) | 1 | ${ms(firstCall)} | | | |`);
console.log(
  `| \`get_request\` over stdio, warm | ${calls.length} | ${ms(percentile(calls, 50))} | ${ms(percentile(calls, 90))} | ${ms(Math.min(...calls))} | ${ms(Math.max(...calls))} |`,
);
if (base) {
  const b = base.calls;
  console.log(
    `| baseline build: \`get_request\` over stdio, warm (alternating blocks of 100) | ${b.length} | ${ms(percentile(b, 50))} | ${ms(percentile(b, 90))} | ${ms(Math.min(...b))} | ${ms(Math.max(...b))} |`,
  );
  console.log(`| ratio of the warm p50s, this build / baseline build | | ${(percentile(calls, 50) / percentile(b, 50)).toFixed(2)}× | | | |`);
}
console.log(`\np99 of warm calls: ${ms(percentile(calls, 99))}; throughput ${(calls.length / (calls.reduce((a, b) => a + b, 0) / 1000)).toFixed(0)} calls/s one at a time.`);
