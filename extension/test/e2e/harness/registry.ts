// A tiny test registry for the in-host end-to-end tests (no Mocha: nothing to download, nothing to configure).
// Test files call `test(name, fn)` at import time; the runner (./runner.ts) runs them in registration order.

export type TestFn = () => unknown | Promise<unknown>;

export interface TestOptions {
  /** Per-test timeout in ms; default SECRETARY_E2E_TEST_TIMEOUT_MS or 30000. */
  timeoutMs?: number;
}

export interface RegisteredTest {
  name: string;
  fn: TestFn;
  options: TestOptions;
  /** For a test across a window reload: what runs in the new extension host, given what `fn` returned. */
  afterReload?: (saved: unknown) => unknown | Promise<unknown>;
}

export interface ActivationRecord {
  extensionId: string;
  ms: number;
  /** true when the extension was already active before the test called activate() (ms is then ~0). */
  alreadyActive: boolean;
}

const tests: RegisteredTest[] = [];
const metrics: Record<string, number> = {};
let activation: ActivationRecord | undefined;

export function test(name: string, fn: TestFn, options: TestOptions = {}): void {
  if (tests.some((t) => t.name === name)) {
    throw new Error(`e2e: duplicate test name: ${name}`);
  }
  tests.push({ name, fn, options });
}

/**
 * A test across a window reload: `before` runs, the runner keeps its result (JSON) and the results so far,
 * reloads the window, and in the new extension host (VS Code calls the tests entry again) runs
 * `after(saved)`, then the tests registered after this one. Register it last in a file; module state
 * of the first host is gone after the reload.
 */
export function testAcrossReload<T>(
  name: string,
  before: () => Promise<T>,
  after: (saved: T) => unknown | Promise<unknown>,
  options: TestOptions = {},
): void {
  test(name, before, options);
  tests[tests.length - 1].afterReload = after as (saved: unknown) => unknown;
}

/** Record how long the extension took to activate; scripts/e2e prints it. */
export function recordActivation(record: ActivationRecord): void {
  activation = record;
}

/** Record any other number worth printing (e.g. `invokeTool.ms`). */
export function recordMetric(name: string, value: number): void {
  metrics[name] = value;
}

export function registeredTests(): readonly RegisteredTest[] {
  return tests;
}

export function collectedActivation(): ActivationRecord | undefined {
  return activation;
}

/** The first host's activation, kept across a reload. */
export function restoreActivation(record: ActivationRecord | undefined): void {
  activation ??= record;
}

export function collectedMetrics(): Record<string, number> {
  return { ...metrics };
}
