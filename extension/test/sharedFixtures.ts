// Where the real fixtures of `shared/` are, for the unit and end-to-end tests that read them.
//
// `shared/` lives beside the checkout (CI clones the repository next to it) or one level further up
// (a worktree under `wt/`); `SECRETARY_SHARED_DIR` names it explicitly. A developer without it gets
// the test skipped with the reason; under `CI=true` a missing folder fails the test instead, so CI
// never goes green on tests that did nothing. (The Rust tests do the same: crates/secretary-core/tests/common.)
import * as fs from 'fs';
import * as path from 'path';

/** Whether `CI` is set to a true value, as CI systems do. */
export const CI = /^(1|true|yes)$/i.test(process.env.CI ?? '');

/** The `shared/` folders to look in for the checkout at `root`. */
function sharedCandidates(root: string): string[] {
  const explicit = process.env.SECRETARY_SHARED_DIR;
  return explicit ? [explicit] : [path.join(root, '..', 'shared'), path.join(root, '..', '..', 'shared')];
}

/** `shared/fixtures/<sub>` for the checkout at `root`, or why it is not there. */
export function findSharedFixtures(root: string, sub: string): { dir: string } | { dir: undefined; why: string } {
  const candidates = sharedCandidates(root);
  const dir = candidates.map((shared) => path.join(shared, 'fixtures', sub)).find((d) => fs.existsSync(d) && fs.statSync(d).isDirectory());
  if (dir) {
    return { dir };
  }
  return {
    dir: undefined,
    why: `shared/fixtures/${sub} not found (looked in ${candidates.join(', ')}; set SECRETARY_SHARED_DIR to the shared folder)`,
  };
}

/**
 * `shared/fixtures/<sub>`, or `undefined` after passing the reason to `skip` (the test then returns).
 * Under `CI=true` a missing folder throws instead: the test fails, saying where it looked.
 */
export function sharedFixturesOrSkip(root: string, sub: string, skip: (why: string) => void): string | undefined {
  const found = findSharedFixtures(root, sub);
  if (found.dir === undefined) {
    if (CI) {
      throw new Error(`CI=true: ${found.why}; this test cannot run`);
    }
    skip(`SKIPPED: ${found.why}`);
  }
  return found.dir;
}
