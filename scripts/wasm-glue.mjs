// Post-processes wasm-pack's `nodejs` glue (build/wasm/secretary_wasm.js) and writes the core's
// static listing beside it. Run by scripts/build after wasm-opt.
//
// 1. The glue as generated compiles and instantiates the module while it is being `require`d,
//    synchronously (5 MB: ~100 ms of compile plus the data segments copied at instantiate). The
//    hosts want neither on their start-up path: the extension compiles it in the background after
//    activation, the MCP server answers `tools/list` first, and a trapped instance is replaced by
//    instantiating the module already compiled. So the glue's last lines become an
//    `__instantiate(module?)` export: the host passes a compiled `WebAssembly.Module` (or nothing:
//    compiled here from the file beside, synchronously, as before).
// 2. `listing.json`: what a host shows before it loads the module (the tools with their schemas
//    and descriptions, the prompts, the version), produced by this very module, so the core stays
//    the single source of truth. `extension/test/unit/core.test.ts` checks it against a live core.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

const dir = resolve(process.argv[2] ?? 'build/wasm');
const gluePath = join(dir, 'secretary_wasm.js');
const glue = readFileSync(gluePath, 'utf8');

const GENERATED = [
  'const wasmPath = `${__dirname}/secretary_wasm_bg.wasm`;',
  "const wasmBytes = require('fs').readFileSync(wasmPath);",
  'const wasmModule = new WebAssembly.Module(wasmBytes);',
  'let wasmInstance = new WebAssembly.Instance(wasmModule, __wbg_get_imports());',
  'let wasm = wasmInstance.exports;',
  'wasm.__wbindgen_start();',
].join('\n');

const DEFERRED = `const wasmPath = \`\${__dirname}/secretary_wasm_bg.wasm\`;
let wasm;
/** Instantiates the module (patched in by scripts/wasm-glue.mjs): \`module\` is a compiled
 * WebAssembly.Module of secretary_wasm_bg.wasm; without it the file is compiled here. Once per
 * load of this file: a fresh instance needs a fresh \`require\` of it. */
exports.__instantiate = function __instantiate(module) {
    if (wasm !== undefined) {
        throw new Error('secretary_wasm: already instantiated');
    }
    const compiled = module ?? new WebAssembly.Module(require('fs').readFileSync(wasmPath));
    const instance = new WebAssembly.Instance(compiled, __wbg_get_imports());
    wasm = instance.exports;
    wasm.__wbindgen_start();
};
exports.__wasmPath = wasmPath;
`;

if (glue.includes('exports.__instantiate')) {
  console.error(`${gluePath}: already patched`);
} else {
  if (!glue.trimEnd().endsWith(GENERATED)) {
    console.error(`${gluePath}: the glue's last lines are not the ones expected (wasm-bindgen changed its nodejs output?)`);
    process.exit(1);
  }
  writeFileSync(gluePath, `${glue.trimEnd().slice(0, -GENERATED.length)}${DEFERRED}`);
}

const require = createRequire(import.meta.url);
const core = require(gluePath);
core.__instantiate();
const secretary = new core.Secretary();
secretary.setIncludeExamples(true);
const listing = {
  version: core.version(),
  // Every tool, the example tools included (`example: true`): a host that does not include them
  // leaves them out, as the core's own `tools()` does.
  tools: JSON.parse(secretary.tools()),
  prompts: JSON.parse(secretary.prompts()),
  // Every agent the core reads (`vscode`, `copilot-cli`...): what `--source` may name.
  sources: JSON.parse(core.dialogSources()),
};
writeFileSync(join(dir, 'listing.json'), `${JSON.stringify(listing)}\n`);
console.error(`wasm glue: __instantiate patched in; listing.json: ${listing.tools.length} tools, ${listing.prompts.length} prompts`);
