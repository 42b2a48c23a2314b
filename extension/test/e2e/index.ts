// Entry of the end-to-end tests: VS Code's extension host loads the bundle of this file (extensionTestsPath)
// and awaits run(). Bundled to out/e2e/index.js by scripts/bundle.mjs and by scripts/e2e (see harness/README.md).
import { runAll } from './harness';

// Test files register their tests on import; add new ones here.
import './smoke.test';
import './toolGating.test';
import './dialogs.test';
import './discovery.test';
import './bench.test';
import './mcp.test';
import './infra.test';
import './memory.test';
import './participant.test';
import './libraryDocs.test';
import './gitExtension.test';
import './remoteWindow.test';
import './chatLoop.test';
import './sidebar.test';
import './settings.test';
import './instructions.test';
import './cursor.test';
import './restricted.test';
// Last: it reloads the window (the tests after it would run in a new extension host).
import './reload.test';

export async function run(): Promise<void> {
  const results = await runAll();
  // The results file is the contract with scripts/e2e; throwing as well keeps the usual extensionTestsPath
  // convention (a failed run rejects) for anyone running this entry with another launcher.
  if (results.failed > 0) {
    throw new Error(`${results.failed} e2e test(s) failed`);
  }
}
