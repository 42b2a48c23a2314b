import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';

import { ROOT, tempDir } from './helpers';

/** Runs scripts/setup with a PATH of our choosing and an empty HOME (no ~/.cargo/bin). */
function setup(pathDirs: string[]) {
  const home = tempDir();
  try {
    const run = spawnSync('bash', [path.join(ROOT, 'scripts', 'setup')], {
      encoding: 'utf8',
      env: { PATH: pathDirs.join(':'), HOME: home.dir },
      timeout: 30_000,
    });
    return { code: run.status, err: run.stderr.trim(), out: run.stdout };
  } finally {
    home.cleanup();
  }
}

/** A folder of fake commands: name -> shell script body. */
function fakeBin(commands: Record<string, string>): { dir: string; cleanup(): void } {
  const temp = tempDir();
  for (const [name, body] of Object.entries(commands)) {
    const file = path.join(temp.dir, name);
    fs.writeFileSync(file, `#!/bin/sh\n${body}\n`);
    fs.chmodSync(file, 0o755);
  }
  return temp;
}

test('setup stops with one clear line when cargo is missing', () => {
  const bin = fakeBin({ node: `exec ${process.execPath} "$@"`, npm: 'exit 0' });
  try {
    const run = setup([bin.dir, '/usr/bin', '/bin']);
    if (fs.existsSync('/usr/bin/cargo')) {
      return; // a system cargo exists: this machine cannot show the missing-cargo path
    }
    assert.equal(run.code, 1);
    assert.equal(run.err.split('\n').length, 1, run.err);
    assert.match(run.err, /^error: cargo is missing: install Rust with rustup/);
  } finally {
    bin.cleanup();
  }
});

test('setup refuses a Node.js older than 20 with one clear line', () => {
  const bin = fakeBin({
    cargo: 'exit 0',
    rustup: 'exit 0',
    npm: 'exit 0',
    node: 'case "$*" in *versions.node*) echo 18;; *) echo v18.19.0;; esac',
  });
  try {
    const run = setup([bin.dir, '/usr/bin', '/bin']);
    assert.equal(run.code, 1);
    assert.equal(run.err.split('\n').length, 1, run.err);
    assert.match(run.err, /^error: Node.js v18.19.0 is too old: install Node.js 20 or newer$/);
  } finally {
    bin.cleanup();
  }
});
