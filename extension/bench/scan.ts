// Times a cold scan (every file read and parsed) and a warm one (nothing changed: one stat per
// file) of a user-data folder through the same service the extension uses. Prints markdown.
import * as fs from 'fs';
import * as path from 'path';

import { WasmCore } from '../src/core/wasm';
import { silentLogger } from '../src/log';
import { sessionsUnder } from '../src/sessions/discovery';
import { DialogSessionsService } from '../src/sessions/dialogSessionsService';

async function main(): Promise<void> {
  const root = process.argv[2];
  // `async`: the first (timed) cold scan reads every file asynchronously, as before issue 19.
  const firstMode = process.argv[3] === 'async' ? 'async' : 'sync';
  const core = new WasmCore(path.join(__dirname, '..', '..', 'dist', 'wasm'), silentLogger);
  const service = new DialogSessionsService(core, { files: () => sessionsUnder(root), watchDirs: () => [] }, silentLogger, {
    workspace: undefined,
    syncReadLimit: firstMode === 'async' ? 0 : undefined,
  });
  // Loading the module (compile + instantiate) is timed apart: the cold scan is the sessions' cost.
  const tLoad = performance.now();
  await core.warmUp();
  const loadMs = performance.now() - tLoad;
  const t0 = performance.now();
  const cold = await service.start(false);
  const coldMs = performance.now() - t0;
  // Cold scans, each on a fresh core, alternating: synchronous small reads (the default) against
  // every read asynchronous with read-ahead (before issue 19).
  const coldModes = { sync: [] as number[], async: [] as number[] };
  // CPU time of the process (main thread and libuv's pool) per scan: steadier than wall time on a
  // shared machine.
  const coldCpu = { sync: [] as number[], async: [] as number[] };
  for (let round = 0; round < 5; round += 1) {
    for (const mode of ['async', 'sync'] as const) {
      const fresh = new WasmCore(path.join(__dirname, '..', '..', 'dist', 'wasm'), silentLogger);
      await fresh.warmUp();
      const svc = new DialogSessionsService(fresh, { files: () => sessionsUnder(root), watchDirs: () => [] }, silentLogger, {
        workspace: undefined,
        syncReadLimit: mode === 'async' ? 0 : undefined,
      });
      const t = performance.now();
      const cpu = process.cpuUsage();
      const report = await svc.start(false);
      coldModes[mode].push(performance.now() - t);
      const used = process.cpuUsage(cpu);
      coldCpu[mode].push((used.user + used.system) / 1000);
      if (report.read !== cold.read) throw new Error(`cold scan (${mode}) read ${report.read} files, not ${cold.read}`);
      svc.dispose();
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const warm: number[] = [];
  for (let i = 0; i < 9; i += 1) {
    const t = performance.now();
    await service.refresh();
    warm.push(performance.now() - t);
  }
  warm.sort((a, b) => a - b);
  process.stdout.write(
    `\n| scan of ${cold.files} session files (first scan: ${firstMode} reads) | core load ms (compile + instantiate, apart) | cold ms | warm ms (nothing changed, median of 9) |\n|---|---:|---:|---:|\n`,
  );
  process.stdout.write(`| ${cold.read} read, ${cold.failed} failed | ${loadMs.toFixed(1)} | ${coldMs.toFixed(1)} | ${warm[4].toFixed(1)} |\n`);
  process.stdout.write(
    `\n| cold scan of ${cold.files} files, fresh core each, alternating (median of 5) | ms | CPU ms |\n|---|---:|---:|\n` +
      `| every read asynchronous, 16 ahead (before) | ${median(coldModes.async).toFixed(1)} | ${median(coldCpu.async).toFixed(1)} |\n` +
      `| small files read synchronously in 12 ms slices (now) | ${median(coldModes.sync).toFixed(1)} | ${median(coldCpu.sync).toFixed(1)} |\n` +
      `| ratio | ${(median(coldModes.async) / median(coldModes.sync)).toFixed(2)}× | ${(median(coldCpu.async) / median(coldCpu.sync)).toFixed(2)}× |\n`,
  );

  // search_requests over every request of those files, in the core (the first call builds the
  // request index: TF-IDF alone, then hybrid) and through the service (which first checks every
  // file for changes, as the CLI and MCP server do before each call).
  const queries = ['dark mode toggle', 'persist the theme choice', 'night theme switch', 'playwright tests for the toggle',
    'contrast of the colours', 'remember what the user picked', 'css custom properties', 'end-to-end browser checks'];
  const p = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];
  const rows: string[] = [];
  // The first call of any tool builds the tool catalog and parses the embedding table: not timed.
  core.invoke('list_dialogs', { limit: 1 }, undefined);
  for (const semantic of [false, true]) {
    core.run((handle) => handle.setSemanticSearch(semantic));
    const t = performance.now();
    const first = JSON.parse(core.invoke('search_requests', { query: queries[0] }, undefined)) as { success: boolean };
    const buildMs = performance.now() - t;
    if (!first.success) throw new Error('search_requests failed');
    const inCore: number[] = [];
    const inService: number[] = [];
    for (let i = 0; i < 400; i += 1) {
      const q = performance.now();
      core.invoke('search_requests', { query: queries[i % queries.length] }, undefined);
      inCore.push(performance.now() - q);
    }
    for (let i = 0; i < 50; i += 1) {
      const q = performance.now();
      await service.invokeTool('search_requests', { query: queries[i % queries.length] });
      inService.push(performance.now() - q);
    }
    inCore.sort((a, b) => a - b);
    inService.sort((a, b) => a - b);
    rows.push(
      `| ${semantic ? 'hybrid (default)' : 'TF-IDF alone'} | ${buildMs.toFixed(1)} | ${p(inCore, 0.5).toFixed(2)} | ${p(inCore, 0.99).toFixed(2)} | ${p(inService, 0.5).toFixed(1)} |`,
    );
  }
  // get_request through the service, as each host calls it: without watchers every call first
  // checks every file (the CLI's one-shot calls, and every host before the watchers told what changed);
  // with watchers (VS Code, the MCP server) only what they reported and the calling chat's file.
  const ids = (JSON.parse(core.run((h) => h.dialogs())) as { dialog: { sessionId: string } }[]).map((d) => d.dialog.sessionId);
  const storageDirs = fs
    .readdirSync(path.join(root, 'User', 'workspaceStorage'))
    .map((name) => path.join(root, 'User', 'workspaceStorage', name, 'chatSessions'));
  const watchedCore = new WasmCore(path.join(__dirname, '..', '..', 'dist', 'wasm'), silentLogger);
  const watched = new DialogSessionsService(watchedCore, { files: () => sessionsUnder(root), watchDirs: () => storageDirs }, silentLogger, {
    workspace: undefined,
  });
  await watched.start(true);
  const timeCalls = async (svc: DialogSessionsService, caller: boolean) => {
    const times: number[] = [];
    for (let i = 0; i < 200; i += 1) {
      const id = ids[i % ids.length];
      const call = caller
        ? { caller: { kind: 'local' as const, sessionId: id }, live: async () => ({ error: 'no live copy in this benchmark' }) }
        : undefined;
      const t = performance.now();
      const answer = JSON.parse(await svc.invokeTool('get_request', caller ? { index: 1 } : { index: 1, sessionId: id }, call)) as {
        success: boolean;
      };
      times.push(performance.now() - t);
      if (!answer.success) throw new Error('get_request failed');
    }
    return times.sort((a, b) => a - b);
  };
  const unwatched = await timeCalls(service, false);
  const watchedArg = await timeCalls(watched, false);
  const watchedCaller = await timeCalls(watched, true);
  watched.dispose();
  process.stdout.write(
    `\n| get_request through the service, ${cold.files} session files | p50 ms | p99 ms |\n|---|---:|---:|\n` +
      `| every file checked first (no watcher: the rule before) | ${p(unwatched, 0.5).toFixed(2)} | ${p(unwatched, 0.99).toFixed(2)} |\n` +
      `| watcher-reported files only, \`sessionId\` given | ${p(watchedArg, 0.5).toFixed(2)} | ${p(watchedArg, 0.99).toFixed(2)} |\n` +
      `| watcher-reported files + the calling chat's file | ${p(watchedCaller, 0.5).toFixed(2)} | ${p(watchedCaller, 0.99).toFixed(2)} |\n` +
      `| ratio, every file / the calling chat's file (p50) | ${(p(unwatched, 0.5) / p(watchedCaller, 0.5)).toFixed(0)}× | |\n`,
  );

  process.stdout.write(
    `\n| search_requests, requests of ${cold.files} files | first call ms (builds the index) | query p50 ms | p99 ms | p50 ms through the service (checks every file first) |\n|---|---:|---:|---:|---:|\n${rows.join('\n')}\n`,
  );
}

void main();
