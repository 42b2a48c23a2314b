// Bundles the TypeScript entries with esbuild. The WASM glue stays outside the bundles (it is
// loaded at run time from dist/wasm so that a trapped instance can be replaced by a fresh one).
import { build } from 'esbuild';
import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['vscode'],
  sourcemap: true,
  logLevel: 'warning',
  // jsonc-parser's `main` is a UMD wrapper whose inner requires esbuild cannot follow; its ES module
  // build bundles as any other.
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
};

const agentsDir = 'extension/test/agents';
const agentTests = existsSync(agentsDir)
  ? readdirSync(agentsDir).filter((f) => f.endsWith('.test.ts')).map((f) => join(agentsDir, f))
  : [];
const unitDir = 'extension/test/unit';
const unitTests = existsSync(unitDir)
  ? readdirSync(unitDir).filter((f) => f.endsWith('.test.ts')).map((f) => join(unitDir, f))
  : [];

await Promise.all([
  build({ ...common, entryPoints: ['extension/src/extension.ts'], outfile: 'dist/extension.js', minify: true }),
  // `secretary` is a small launcher (dist/cli.js) that loads the command line (dist/cli-main.js)
  // through V8's code cache (see extension/src/cli/launch.ts).
  build({ ...common, entryPoints: ['extension/src/cli/main.ts'], outfile: 'dist/cli-main.js', minify: true }),
  build({
    ...common,
    entryPoints: ['extension/src/cli/launch.ts'],
    outfile: 'dist/cli.js',
    minify: true,
    sourcemap: false,
    banner: { js: '#!/usr/bin/env node' },
  }),
  existsSync('extension/test/e2e/index.ts') &&
    build({ ...common, entryPoints: ['extension/test/e2e/index.ts'], outfile: 'out/e2e/index.js' }),
  unitTests.length > 0 && build({ ...common, entryPoints: unitTests, outdir: 'out/unit' }),
  // The real agent CLIs driven offline (scripts/agents-test).
  agentTests.length > 0 && build({ ...common, entryPoints: agentTests, outdir: 'out/agents' }),
  build({ ...common, entryPoints: ['extension/bench/scan.ts'], outfile: 'out/bench/scan.js' }),
  build({ ...common, entryPoints: ['extension/bench/coldOnce.ts'], outfile: 'out/bench/coldOnce.js' }),
  build({ ...common, entryPoints: ['extension/bench/agents.ts'], outfile: 'out/bench/agents.js' }),
  build({ ...common, entryPoints: ['extension/bench/agentsScan.ts'], outfile: 'out/bench/agentsScan.js' }),
  // The test-only chat loop extension (a scripted model and participant) that e2e loads beside ours.
  existsSync('extension/test/chat-loop/src/extension.ts') &&
    build({ ...common, entryPoints: ['extension/test/chat-loop/src/extension.ts'], outfile: 'extension/test/chat-loop/dist/extension.js' }),
]);
