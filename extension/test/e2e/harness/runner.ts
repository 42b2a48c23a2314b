// Runs the registered tests inside the VS Code extension host and writes the results file.
import * as fs from 'fs';
import * as vscode from 'vscode';
import { collectedActivation, collectedMetrics, recordMetric, registeredTests, RegisteredTest, restoreActivation } from './registry';
import { progress, resultsPath, ResultsFile, TestResult, writeJsonAtomic } from './results';

/** What the runner keeps across a window reload (`testAcrossReload`). */
interface ResumeState {
  results: TestResult[];
  metrics: Record<string, number>;
  activation?: ResultsFile['activation'];
  started: number;
  pending: { name: string; saved: unknown; ms: number };
}

const resumeFile = (file: string): string => `${file}.resume.json`;

/** The state the previous extension host left before it reloaded the window, if any (read once). */
function takeResumeState(file: string): ResumeState | undefined {
  try {
    const state = JSON.parse(fs.readFileSync(resumeFile(file), 'utf8')) as ResumeState;
    fs.rmSync(resumeFile(file), { force: true });
    return state;
  } catch {
    return undefined;
  }
}

const DEFAULT_TEST_TIMEOUT_MS = 30_000;

function defaultTimeoutMs(): number {
  const n = Number(process.env.SECRETARY_E2E_TEST_TIMEOUT_MS);
  return Number.isFinite(n) && n > 0 ? n : DEFAULT_TEST_TIMEOUT_MS;
}

class TestTimeout extends Error {}

function describeError(err: unknown): string {
  if (err instanceof TestTimeout) return err.message;
  if (err instanceof Error) {
    // assert/strict errors carry a readable diff in .message; keep the first stack frames for location
    const frames = (err.stack ?? '').split('\n').filter((l) => /^\s+at /.test(l)).slice(0, 4);
    return [err.message, ...frames].join('\n');
  }
  return String(err);
}

/** Runs `fn` within the test's timeout; its value, or the error in words. */
async function timed(t: RegisteredTest, fn: () => unknown): Promise<{ ok: true; value: unknown; ms: number } | { ok: false; error: string; ms: number }> {
  const timeoutMs = t.options.timeoutMs ?? defaultTimeoutMs();
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    const value = await Promise.race([
      Promise.resolve().then(fn),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new TestTimeout(`timed out after ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return { ok: true, value, ms: Date.now() - started };
  } catch (err) {
    return { ok: false, error: describeError(err), ms: Date.now() - started };
  } finally {
    if (timer) clearTimeout(timer);
  }
}

async function runOne(t: RegisteredTest): Promise<TestResult> {
  const r = await timed(t, t.fn);
  return r.ok ? { name: t.name, ok: true, ms: r.ms } : { name: t.name, ok: false, error: r.error, ms: r.ms };
}

function grepFilter(): RegExp | undefined {
  const g = process.env.SECRETARY_E2E_GREP;
  return g ? new RegExp(g) : undefined;
}

export async function runAll(): Promise<ResultsFile> {
  const { file, channel } = resultsPath();
  const resumed = takeResumeState(file);
  const started = resumed?.started ?? Date.now();
  progress(file, `${resumed ? 'resume' : 'start'} vscode=${vscode.version} channel=${channel} pid=${process.pid}`);
  for (const [name, value] of Object.entries(resumed?.metrics ?? {})) recordMetric(name, value);
  restoreActivation(resumed?.activation);
  const grep = grepFilter();
  const selected = registeredTests().filter((t) => !grep || grep.test(t.name));
  const results: TestResult[] = resumed?.results ?? [];
  const done = new Set(results.map((r) => r.name));
  for (const t of selected) {
    if (done.has(t.name)) continue;
    if (resumed?.pending.name === t.name && t.afterReload) {
      const after = t.afterReload;
      const r = await timed(t, () => after(resumed.pending.saved));
      const ms = resumed.pending.ms + r.ms;
      results.push(r.ok ? { name: t.name, ok: true, ms } : { name: t.name, ok: false, error: `after the reload: ${r.error}`, ms });
      progress(file, `test-end ${r.ok ? 'ok' : 'FAIL'} ${ms}ms ${t.name}`);
      continue;
    }
    progress(file, `test-start ${t.name}`);
    if (t.afterReload) {
      const before = await timed(t, t.fn);
      if (before.ok) {
        const state: ResumeState = {
          results,
          metrics: collectedMetrics(),
          activation: collectedActivation(),
          started,
          pending: { name: t.name, saved: before.value, ms: before.ms },
        };
        writeJsonAtomic(resumeFile(file), state);
        // scripts/e2e counts these lines to tell a reload from a crashed extension host.
        progress(file, `reload ${t.name}`);
        await vscode.commands.executeCommand('workbench.action.reloadWindow');
        // This host ends with the window; the next one goes on.
        return new Promise<never>(() => undefined);
      }
      results.push({ name: t.name, ok: false, error: before.error, ms: before.ms });
      progress(file, `test-end FAIL ${before.ms}ms ${t.name}`);
      continue;
    }
    const r = await runOne(t);
    results.push(r);
    progress(file, `test-end ${r.ok ? 'ok' : 'FAIL'} ${r.ms}ms ${t.name}`);
  }
  const out: ResultsFile = {
    passed: results.filter((r) => r.ok).length,
    failed: results.filter((r) => !r.ok).length,
    tests: results,
    activation: collectedActivation(),
    metrics: collectedMetrics(),
    channel,
    vscodeVersion: vscode.version,
    totalMs: Date.now() - started,
  };
  if (selected.length === 0) {
    // an empty run is a broken run (bad filter, test files not imported)
    out.failed = 1;
    out.tests.push({ name: '(no tests selected)', ok: false, error: `no tests matched (grep=${grep ?? 'none'})`, ms: 0 });
  }
  writeJsonAtomic(file, out);
  progress(file, `done passed=${out.passed} failed=${out.failed}`);
  return out;
}
