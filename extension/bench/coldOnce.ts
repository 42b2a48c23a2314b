// Cold scans in a fresh process (profiling aid): `node out/bench/coldOnce.js <user-data dir> [async]`:
// three in a row, each on a fresh core (the module compiled once).
import * as path from 'path';

import { WasmCore } from '../src/core/wasm';
import { silentLogger } from '../src/log';
import { sessionsUnder } from '../src/sessions/discovery';
import { DialogSessionsService } from '../src/sessions/dialogSessionsService';

async function main(): Promise<void> {
  const times: string[] = [];
  for (let i = 0; i < 3; i += 1) {
    const core = new WasmCore(path.join(__dirname, '..', '..', 'dist', 'wasm'), silentLogger);
    await core.warmUp();
    const service = new DialogSessionsService(core, { files: () => sessionsUnder(process.argv[2]), watchDirs: () => [] }, silentLogger, {
      workspace: undefined,
      syncReadLimit: process.argv[3] === 'async' ? 0 : undefined,
    });
    const t = performance.now();
    const report = await service.start(false);
    times.push(`${report.read} files in ${(performance.now() - t).toFixed(1)} ms`);
  }
  process.stdout.write(`${times.join(', then ')}\n`);
}

void main();
