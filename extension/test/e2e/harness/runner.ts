// Runs the registered tests inside the VS Code extension host and writes the results file.
import * as vscode from 'vscode';
import { collectedActivation, collectedMetrics, registeredTests, RegisteredTest } from './registry';
import { progress, resultsPath, ResultsFile, TestResult, writeJsonAtomic } from './results';

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

async function runOne(t: RegisteredTest): Promise<TestResult> {
  const timeoutMs = t.options.timeoutMs ?? defaultTimeoutMs();
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      Promise.resolve().then(() => t.fn()),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new TestTimeout(`timed out after ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return { name: t.name, ok: true, ms: Date.now() - started };
  } catch (err) {
    return { name: t.name, ok: false, error: describeError(err), ms: Date.now() - started };
  } finally {
    if (timer) clearTimeout(timer);
  }
}

function grepFilter(): RegExp | undefined {
  const g = process.env.SECRETARY_E2E_GREP;
  return g ? new RegExp(g) : undefined;
}

export async function runAll(): Promise<ResultsFile> {
  const { file, channel } = resultsPath();
  const started = Date.now();
  progress(file, `start vscode=${vscode.version} channel=${channel} pid=${process.pid}`);
  const grep = grepFilter();
  const selected = registeredTests().filter((t) => !grep || grep.test(t.name));
  const results: TestResult[] = [];
  for (const t of selected) {
    progress(file, `test-start ${t.name}`);
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
