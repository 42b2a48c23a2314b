// Where and how the runner reports to scripts/e2e.
// Channel: the absolute path in SECRETARY_E2E_RESULTS (scripts/e2e exports it to the VS Code server, whose
// extension host inherits it). Fallback when that variable is absent (e.g. someone runs the host by hand):
// `e2e-results.json` next to the compiled tests entry.
import * as fs from 'fs';
import * as path from 'path';

export interface TestResult {
  name: string;
  ok: boolean;
  error?: string;
  ms: number;
}

export interface ResultsFile {
  passed: number;
  failed: number;
  tests: TestResult[];
  activation?: { extensionId: string; ms: number; alreadyActive: boolean };
  metrics: Record<string, number>;
  /** Where the results path came from: "env" (SECRETARY_E2E_RESULTS) or "fallback". */
  channel: 'env' | 'fallback';
  vscodeVersion: string;
  totalMs: number;
}

export function resultsPath(): { file: string; channel: 'env' | 'fallback' } {
  const fromEnv = process.env.SECRETARY_E2E_RESULTS;
  if (fromEnv && path.isAbsolute(fromEnv)) return { file: fromEnv, channel: 'env' };
  return { file: path.join(__dirname, 'e2e-results.json'), channel: 'fallback' };
}

/** Write JSON atomically (temp file + rename) so the script never reads half a file. */
export function writeJsonAtomic(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(value, null, 2) + '\n');
  fs.renameSync(tmp, file);
}

/** One line per event in `<results>.progress`, so on a timeout the script can tell where the tests were. */
export function progress(file: string, line: string): void {
  try {
    fs.appendFileSync(`${file}.progress`, `${new Date().toISOString()} ${line}\n`);
  } catch {
    // progress is best effort
  }
}
