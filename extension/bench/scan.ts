// Times a cold scan (every file read and parsed) and a warm one (nothing changed: one stat per
// file) of a user-data folder through the same service the extension uses. Prints markdown.
import * as path from 'path';

import { WasmCore } from '../src/core/wasm';
import { silentLogger } from '../src/log';
import { sessionsUnder } from '../src/sessions/discovery';
import { DialogSessionsService } from '../src/sessions/DialogSessionsService';

async function main(): Promise<void> {
  const root = process.argv[2];
  const core = new WasmCore(path.join(__dirname, '..', '..', 'dist', 'wasm'), silentLogger);
  const service = new DialogSessionsService(core, { files: () => sessionsUnder(root), watchDirs: () => [] }, silentLogger, {
    workspace: undefined,
  });
  const t0 = performance.now();
  const cold = await service.start(false);
  const coldMs = performance.now() - t0;
  const warm: number[] = [];
  for (let i = 0; i < 9; i += 1) {
    const t = performance.now();
    await service.refresh();
    warm.push(performance.now() - t);
  }
  warm.sort((a, b) => a - b);
  process.stdout.write(`\n| scan of ${cold.files} session files | cold ms | warm ms (nothing changed, median of 9) |\n|---|---:|---:|\n`);
  process.stdout.write(`| ${cold.read} read, ${cold.failed} failed | ${coldMs.toFixed(1)} | ${warm[4].toFixed(1)} |\n`);
}

void main();
