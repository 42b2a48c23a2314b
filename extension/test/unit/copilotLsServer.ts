// The real @github/copilot-language-server for the tests that talk to it (copilotLs.test.ts,
// copilotLsTurns.test.ts): `COPILOT_LS_PATH` when set, else the pinned copy scripts/copilot-ls-setup
// installs into .tools (it prints the binary's path, installing it first when needed).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { CI } from '../sharedFixtures';
import { ROOT } from './helpers';

const SETUP = path.join(ROOT, 'scripts', 'copilot-ls-setup');

/** The installed server's binary, or why there is none. */
export function findServer(): { path?: string; why?: string } {
  if (process.env.COPILOT_LS_PATH) {
    return { path: process.env.COPILOT_LS_PATH };
  }
  const run = spawnSync(SETUP, [], { encoding: 'utf8', timeout: 180_000 });
  const printed = run.stdout?.trim().split('\n').pop();
  if (run.status === 0 && printed && fs.existsSync(printed)) {
    return { path: printed };
  }
  return { why: `scripts/copilot-ls-setup failed (${run.error?.message ?? `exit ${run.status}`}): ${run.stderr?.trim()}` };
}

/** node:test's `skip` option for tests that need the server: a reason without it, except under
 * `CI=true`, where the test runs (and fails on its `assert.ok(server.path)`). */
export function skipWithoutServer(server: { path?: string; why?: string }): string | false {
  return !server.path && !CI ? `the Copilot language server is not installed: ${server.why}` : false;
}
