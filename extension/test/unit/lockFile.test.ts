// Lock files across real processes: many processes meet a lock left by a dead process at the same
// moment; each breaks it or waits, then does a read-modify-write of a counter under the lock. No
// increment may be lost (two waiters breaking the same stale lock must not both end up holding it).
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';

import { LockFiles } from '../../src/host/lockFile';
import { tempDir } from './helpers';

const CHILD = 'SECRETARY_LOCK_CHILD';

/** The child's part (this file run as a script): wait for the start, then increment under the lock. */
function child(): void {
  const [lockPath, counter, startAt, times] = JSON.parse(process.env[CHILD] ?? '[]') as [string, string, number, number];
  const locks = new LockFiles(20_000);
  // All children start together, to meet the stale lock at once: sleep, then spin the last moment.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.max(0, startAt - Date.now() - 30));
  while (Date.now() < startAt) {
    // spin
  }
  for (let i = 0; i < times; i++) {
    locks.acquire(lockPath, 'the counter');
    try {
      const value = Number(fs.readFileSync(counter, 'utf8'));
      fs.writeFileSync(counter, String(value + 1));
    } finally {
      locks.release(lockPath);
    }
  }
}

if (process.env[CHILD]) {
  child();
  process.exit(0);
}

function run(script: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; err: string }> {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, [script], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    proc.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    proc.on('exit', (code) => resolve({ code, err }));
  });
}

test('processes meeting a lock left by a dead process lose no update', async () => {
  const tmp = tempDir();
  try {
    const lockPath = path.join(tmp.dir, 'counter.lock');
    const counter = path.join(tmp.dir, 'counter');
    const processes = 12;
    const times = 5;
    for (let round = 0; round < 10; round++) {
      fs.writeFileSync(counter, '0');
      const dead = spawnSync(process.execPath, ['-e', '']).pid;
      fs.writeFileSync(lockPath, JSON.stringify({ pid: dead, host: os.hostname() }));
      const startAt = Date.now() + 1_000;
      const env = { ...process.env, [CHILD]: JSON.stringify([lockPath, counter, startAt, times]) };
      const results = await Promise.all(Array.from({ length: processes }, () => run(__filename, env)));
      results.forEach((r) => assert.equal(r.code, 0, r.err));
      assert.equal(Number(fs.readFileSync(counter, 'utf8')), processes * times, `round ${round}: an increment was lost`);
      assert.equal(fs.existsSync(lockPath), false, 'no lock is left behind');
      assert.equal(fs.existsSync(`${lockPath}.break`), false, 'no breaker is left behind');
    }
  } finally {
    tmp.cleanup();
  }
});
