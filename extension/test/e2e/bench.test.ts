// Benchmarks inside the real extension host, registered only when scripts/bench passes
// SECRETARY_BENCH_DATA (a folder with session-100mb.json): warm get_request over 1,000 calls on
// a 100 MB session, through the service (our code) and through vscode.lm.invokeTool (with
// VS Code's own round trip), and the extension host's CPU while nothing changes.
import * as fs from 'fs';
import * as path from 'path';

import { recordMetric, test } from './harness';
import { chatSessionsDir, invoke, secretary } from './support';

const data = process.env.SECRETARY_BENCH_DATA;

function percentiles(times: number[]): { p50: number; p99: number } {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (p: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] * 1000) / 1000;
  return { p50: at(0.5), p99: at(0.99) };
}

if (data && !process.env.SECRETARY_BENCH_IDLE) {
  test('bench: warm get_request on a 100 MB session', async () => {
    const { api } = await secretary();
    const source = path.join(data, 'session-100mb.json');
    const target = path.join(chatSessionsDir(api), path.basename(source));
    fs.copyFileSync(source, target);
    const started = performance.now();
    await api.sessions.refresh();
    recordMetric('bench.read100mb.ms', Math.round(performance.now() - started));
    const id = api.sessions.getDialogs().find((d) => d.path === target)?.dialog.sessionId;
    if (!id) {
      throw new Error('the 100 MB session was not read');
    }
    const total = api.sessions.getSession(id)?.dialog.requests.length ?? 0;
    const service: number[] = [];
    for (let i = 0; i < 1000; i += 1) {
      const t = performance.now();
      await api.sessions.invokeTool('get_request', { index: (i % total) + 1, sessionId: id });
      service.push(performance.now() - t);
    }
    const host: number[] = [];
    for (let i = 0; i < 1000; i += 1) {
      const t = performance.now();
      await invoke('chat_secretary_get_request', { index: (i % total) + 1, sessionId: id });
      host.push(performance.now() - t);
    }
    const s = percentiles(service);
    const h = percentiles(host);
    recordMetric('bench.get_request.service.p50.ms', s.p50);
    recordMetric('bench.get_request.service.p99.ms', s.p99);
    recordMetric('bench.get_request.invokeTool.p50.ms', h.p50);
    recordMetric('bench.get_request.invokeTool.p99.ms', h.p99);
  }, { timeoutMs: 300_000 });
}

if (data) {
  // Idle CPU, in a run of its own: SECRETARY_BENCH_IDLE=baseline measures the host without
  // activating the Secretary (the comparison), =active with it activated and watching sessions.
  const idle = process.env.SECRETARY_BENCH_IDLE;
  if (idle) {
    test(`bench: extension host CPU over a minute with nothing changing (${idle})`, async () => {
      if (idle === 'active') {
        const { ext, api } = await secretary();
        const dir = chatSessionsDir(api);
        const samples = path.join(ext.extensionPath, 'samples', 'user-data', 'User', 'workspaceStorage', '5f2a9c0e1b7d4e3f8a6b2c1d0e9f8a7b', 'chatSessions');
        for (const name of fs.readdirSync(samples)) {
          fs.copyFileSync(path.join(samples, name), path.join(dir, name));
        }
        await api.sessions.refresh();
      }
      // Let start-up work settle before measuring.
      await new Promise((resolve) => setTimeout(resolve, 5000));
      const seconds = Number(process.env.SECRETARY_BENCH_IDLE_SECONDS ?? 60);
      const before = process.cpuUsage();
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
      const used = process.cpuUsage(before);
      recordMetric(`bench.idle.${idle}.seconds`, seconds);
      recordMetric(`bench.idle.${idle}.cpu.ms`, Math.round((used.user + used.system) / 1000));
    }, { timeoutMs: 200_000 });
  }
}
