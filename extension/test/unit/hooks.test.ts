import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';

import { findVscodeSession } from '../../src/cli/vscodeHookSession';
import type { HookInput } from '../../src/core/wasm';
import { applyPlan, planSetup } from '../../src/hooks/install';
import { ROOT, withTempDir } from './helpers';

/**
 * `secretary hook` and `secretary hooks install|uninstall` as processes over real files in a
 * temporary home: hostile hook inputs (missing or garbage session id, a deleted log, a 5 MB
 * request, stdin left open) give bounded output, exit 0 and write nothing; install merges,
 * keeps a backup, refuses what it must not touch, and uninstall removes only its own entry.
 */

const CLI = path.join(ROOT, 'dist', 'cli.js');
const ID = '0b5e2c1a-8f3d-4e2b-9c7a-1d2e3f4a5b6c';

function run(args: string[], home: string, input?: string, extraEnv: NodeJS.ProcessEnv = {}) {
  const started = performance.now();
  const r = spawnSync(process.execPath, [CLI, ...args], {
    input,
    encoding: 'utf8',
    timeout: 30_000,
    env: { PATH: process.env.PATH, HOME: home, XDG_CACHE_HOME: path.join(home, '.cache'), XDG_STATE_HOME: path.join(home, '.state'), ...extraEnv },
  });
  return { code: r.status, out: r.stdout, err: r.stderr, ms: performance.now() - started };
}

/** A Claude Code log of `prompts` in `home`. */
function claudeLog(home: string, prompts: string[]): string {
  const dir = path.join(home, '.claude', 'projects', '-w');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${ID}.jsonl`);
  const lines = prompts.map((p, i) => JSON.stringify({ type: 'user', message: { role: 'user', content: p }, uuid: `u${i}`, sessionId: ID, cwd: '/w' }));
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** Every file under `dir` with its size and mtime: what "nothing written" is checked against. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        walk(p);
      } else {
        const s = fs.lstatSync(p);
        out.set(p, `${s.size}:${s.mtimeMs}`);
      }
    }
  };
  walk(dir);
  return out;
}

/** Asserts that `home` holds the same files, unchanged, as `before` (less `gone`, removed on purpose). */
function assertNothingWritten(home: string, before: Map<string, string>, gone: string): void {
  before.delete(gone);
  const after = snapshot(home);
  assert.deepEqual([...after.keys()].sort(), [...before.keys()].sort(), 'no file was created or removed');
  for (const [file, stat] of before) {
    assert.equal(after.get(file), stat, `${file} was changed`);
  }
}

const hookArgs = ['hook', 'session-start', '--agent', 'claude-code'];

test('hook: the session by transcript path or by id, its requests verbatim in the output Claude Code reads', () => {
  withTempDir('secretary-test-', (home) => {
    const log = claudeLog(home, ['First: write the invoice module', 'Middle: handle refunds', 'Newest: a changelog']);
    for (const input of [{ session_id: ID, transcript_path: log, source: 'compact' }, { session_id: ID, source: 'compact' }]) {
      const r = run(hookArgs, home, JSON.stringify(input));
      assert.equal(r.code, 0, r.err);
      const context = (JSON.parse(r.out) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } }).hookSpecificOutput;
      assert.equal(context.hookEventName, 'SessionStart');
      for (const words of ['First: write the invoice module', 'Middle: handle refunds', 'Newest: a changelog']) {
        assert.ok(context.additionalContext.includes(words), context.additionalContext);
      }
    }
    // A plain start (not after a compaction) recalls nothing.
    const startup = run(hookArgs, home, JSON.stringify({ session_id: ID, source: 'startup' }));
    assert.equal(startup.code, 0);
    assert.equal(startup.out, '');
  });
});

test('hook: hostile inputs print nothing, exit 0, log one line and write nothing', () => {
  withTempDir('secretary-test-', (home) => {
    const log = claudeLog(home, ['First request']);
    // Outside the agent's folder: a transcript path the hook must not read.
    const outside = path.join(home, 'secret.jsonl');
    fs.writeFileSync(outside, fs.readFileSync(log));
    run(hookArgs, home, '{}'); // primes the CLI's code cache, which is written once
    const before = snapshot(home);
    const cases: [string, string | undefined][] = [
      ['empty input', ''],
      ['not JSON', 'garbage {'],
      ['an array', '[1,2,3]'],
      ['no session id', JSON.stringify({ source: 'compact' })],
      ['a garbage session id', JSON.stringify({ session_id: '../../etc/passwd', source: 'compact' })],
      ['a session id of another type', JSON.stringify({ session_id: { x: 1 }, source: 'compact' })],
      ['an unknown session id', JSON.stringify({ session_id: 'ffffffff-0000-0000-0000-000000000000', source: 'compact' })],
      ['a transcript path outside the agent folder', JSON.stringify({ transcript_path: outside, source: 'compact' })],
      ['a transcript path through ..', JSON.stringify({ transcript_path: `${path.dirname(log)}/../../../secret.jsonl`, source: 'compact' })],
      ['a 9 MB input', JSON.stringify({ session_id: ID, source: 'compact', pad: 'x'.repeat(9 * 1024 * 1024) })],
    ];
    for (const [what, input] of cases) {
      const r = run(hookArgs, home, input);
      assert.equal(r.code, 0, `${what}: ${r.err}`);
      assert.equal(r.out, '', `${what} printed something`);
      assert.equal(r.err.trim().split('\n').length <= 2, true, `${what}: ${r.err}`);
      assert.match(r.err, /^secretary hook: /, what);
    }
    // A deleted log.
    fs.rmSync(log);
    const gone = run(hookArgs, home, JSON.stringify({ session_id: ID, transcript_path: log, source: 'compact' }));
    assert.equal(gone.code, 0);
    assert.equal(gone.out, '');
    assert.match(gone.err, /no claude-code log/);
    // Bad usage also prints nothing and exits 0: a broken hook line must not break the agent.
    for (const args of [['hook'], ['hook', 'rm-rf'], ['hook', 'session-start', '--agent', 'vscode'], ['hook', 'session-start', '--max-chars', 'x'], ['hook', 'session-start', '--bogus']]) {
      const r = run(args, home, '{}');
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.err}`);
      assert.equal(r.out, '');
    }
    // An agent named after what every object inherits is not an agent.
    for (const agent of ['constructor', 'toString', '__proto__']) {
      const r = run(['hook', 'session-start', '--agent', agent], home, JSON.stringify({ session_id: ID, source: 'compact' }));
      assert.equal(r.code, 0, `${agent}: ${r.err}`);
      assert.match(r.err, /^secretary hook: needs --agent claude-code/, agent);
    }
    // Nothing else was created, changed or removed (the log is the one this test deleted).
    assertNothingWritten(home, before, log);
  });
});

test('hook: a 5 MB request gives bounded output, the other requests whole, in well under the deadline', () => {
  withTempDir('secretary-test-', (home) => {
    const huge = `HUGE ${'y'.repeat(5 * 1024 * 1024)}`;
    claudeLog(home, ['First request', huge, 'Middle two', 'Newest request']);
    const r = run(hookArgs, home, JSON.stringify({ session_id: ID, source: 'compact' }));
    assert.equal(r.code, 0, r.err);
    const context = (JSON.parse(r.out) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    assert.ok(context.length <= 12_000, `${context.length}`);
    assert.ok(context.includes('First request') && context.includes('Middle two') && context.includes('Newest request'));
    assert.match(context, /- request 2 \(5242885 characters\): HUGE y+\.\.\./);
    assert.ok(r.ms < 8_000, `${r.ms} ms`);
    // --max-chars sets the budget.
    const small = run([...hookArgs, '--max-chars', '2000'], home, JSON.stringify({ session_id: ID, source: 'compact' }));
    const smallContext = (JSON.parse(small.out) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    assert.ok(smallContext.length <= 2_000, `${smallContext.length}`);
  });
});

test('hook: stdin left open ends the hook after 2 s with nothing printed', () => {
  withTempDir('secretary-test-', (home) => {
    const started = performance.now();
    const r = spawnSync('sh', ['-c', `sleep 3 | "${process.execPath}" "${CLI}" hook session-start --agent claude-code`], {
      encoding: 'utf8',
      timeout: 30_000,
      env: { PATH: process.env.PATH, HOME: home },
    });
    assert.equal(r.status, 0);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /stdin stayed open/);
    // sh waits for sleep too; the hook itself gave up at 2 s (its line says so).
    assert.ok(performance.now() - started < 10_000);
  });
});

test('hooks install merges into existing settings, keeps a backup, is idempotent; uninstall removes only its entry', () => {
  withTempDir('secretary-test-', (home) => {
    const file = path.join(home, '.claude', 'settings.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const original = `{
  // the person's own comment
  "model": "opus",
  "hooks": {
    "SessionStart": [
      { "matcher": "startup", "hooks": [{ "type": "command", "command": "echo hello" }] }
    ],
    "PreToolUse": [{ "matcher": "Bash", "hooks": [{ "type": "command", "command": "lint.sh" }] }]
  }
}
`;
    fs.writeFileSync(file, original);
    // --dry-run prints the diff and writes nothing.
    const dry = run(['hooks', 'install', '--agent', 'claude-code', '--dry-run'], home);
    assert.equal(dry.code, 0, dry.err);
    assert.match(dry.out, /^\+.*"matcher": "compact"/m);
    assert.match(dry.out, /^\+.*hook session-start --agent claude-code/m);
    assert.equal(fs.readFileSync(file, 'utf8'), original);
    assert.ok(!fs.existsSync(`${file}.bak`));

    const install = run(['hooks', 'install', '--agent', 'claude-code'], home);
    assert.equal(install.code, 0, install.err);
    assert.equal(fs.readFileSync(`${file}.bak`, 'utf8'), original);
    const text = fs.readFileSync(file, 'utf8');
    assert.ok(text.includes("// the person's own comment") && text.includes('"model": "opus"') && text.includes('echo hello') && text.includes('lint.sh'), text);
    assert.equal(text.match(/"matcher": "compact"/g)?.length, 1);
    // Again: nothing to do, the file is untouched.
    const again = run(['hooks', 'install', '--agent', 'claude-code'], home);
    assert.match(again.out, /already has the recall hook/);
    assert.equal(fs.readFileSync(file, 'utf8'), text);

    const uninstall = run(['hooks', 'uninstall', '--agent', 'claude-code'], home);
    assert.equal(uninstall.code, 0, uninstall.err);
    const back = fs.readFileSync(file, 'utf8');
    assert.ok(!back.includes('hook session-start'), back);
    assert.ok(back.includes('echo hello') && back.includes('lint.sh') && back.includes("// the person's own comment"));
    assert.match(run(['hooks', 'uninstall', '--agent', 'claude-code'], home).out, /has no recall hook/);

    // A new file for an agent that has none yet (Codex), and Copilot CLI's hooks file with its version.
    assert.equal(run(['hooks', 'install', '--agent', 'codex,copilot-cli'], home).code, 0);
    const codex = JSON.parse(fs.readFileSync(path.join(home, '.codex', 'hooks.json'), 'utf8')) as { hooks: { SessionStart: { matcher: string }[] } };
    assert.equal(codex.hooks.SessionStart[0].matcher, 'compact');
    const copilot = JSON.parse(fs.readFileSync(path.join(home, '.copilot', 'hooks', 'secretary-recall.json'), 'utf8')) as { version: number; hooks: { userPromptSubmitted: { bash: string }[] } };
    assert.equal(copilot.version, 1);
    assert.match(copilot.hooks.userPromptSubmitted[0].bash, /hook user-prompt-submitted --agent copilot-cli$/);
  });
});

test('hooks install refuses a settings file that is not JSON, a link, huge, or the wrong shape, and never clobbers it', () => {
  withTempDir('secretary-test-', (home) => {
    const file = path.join(home, '.claude', 'settings.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const cases: [string, () => void, RegExp][] = [
      ['not JSON', () => fs.writeFileSync(file, '{"model": "opus",, oops'), /not valid JSON/],
      ['an array', () => fs.writeFileSync(file, '[1, 2]'), /does not hold a JSON object/],
      ['hooks.SessionStart not a list', () => fs.writeFileSync(file, '{"hooks": {"SessionStart": "x"}}'), /not a list/],
      ['huge', () => fs.writeFileSync(file, `{"pad": "${'x'.repeat(2 * 1024 * 1024)}"}`), /more than a settings file holds/],
      [
        'a symbolic link',
        () => {
          const target = path.join(home, 'elsewhere.json');
          fs.writeFileSync(target, '{}');
          fs.symlinkSync(target, file);
        },
        /symbolic link/,
      ],
      ['a folder', () => fs.mkdirSync(file), /not a regular file/],
    ];
    for (const [what, make, message] of cases) {
      fs.rmSync(file, { recursive: true, force: true });
      make();
      const before = fs.lstatSync(file).isSymbolicLink() ? 'link' : fs.statSync(file).isDirectory() ? 'dir' : fs.readFileSync(file, 'utf8');
      for (const action of ['install', 'uninstall']) {
        const r = run(['hooks', action, '--agent', 'claude-code'], home);
        if (action === 'uninstall' && what === 'hooks.SessionStart not a list') {
          assert.equal(r.code, 1, `${what}: ${r.out}`);
        }
        if (action === 'install') {
          assert.equal(r.code, 1, `${what}: ${r.out}`);
          assert.match(r.err, message, what);
        }
        const now = fs.lstatSync(file).isSymbolicLink() ? 'link' : fs.statSync(file).isDirectory() ? 'dir' : fs.readFileSync(file, 'utf8');
        assert.equal(now, before, `${what}: the file was changed by ${action}`);
        assert.ok(!fs.existsSync(`${file}.bak`), `${what}: a backup was written`);
      }
    }
    assert.equal(fs.readFileSync(path.join(home, 'elsewhere.json'), 'utf8'), '{}', 'the link target is untouched');
    // Bad usage.
    assert.equal(run(['hooks', 'install', '--agent', 'cursor'], home).code, 2);
    assert.equal(run(['hooks', 'install', '--scope', 'galaxy'], home).code, 2);
    assert.equal(run(['hooks', 'frobnicate'], home).code, 2);
  });
});

test('hooks install --scope project refuses folders that are links out of the project (a repository cannot aim the write), and writes nothing there', () => {
  withTempDir('secretary-test-', (home) => {
    // What a cloned repository can ship: its agent folders as links to a VS Code profile and to
    // VS Code's chat storage.
    const victim = path.join(home, 'victim', 'User');
    const chats = path.join(victim, 'workspaceStorage', 'abc', 'chatSessions');
    fs.mkdirSync(chats, { recursive: true });
    const project = path.join(home, 'repo');
    fs.mkdirSync(path.join(project, '.github'), { recursive: true });
    fs.symlinkSync(victim, path.join(project, '.claude'));
    fs.symlinkSync(chats, path.join(project, '.gemini'));
    fs.symlinkSync(chats, path.join(project, '.github', 'hooks'));
    const files = () => fs.readdirSync(path.join(home, 'victim'), { recursive: true, encoding: 'utf8' }).sort();
    const before = files();
    for (const action of ['install', 'uninstall']) {
      for (const agent of ['claude-code', 'gemini-cli', 'copilot-cli', 'vscode']) {
        const r = spawnSync(process.execPath, [CLI, 'hooks', action, '--agent', agent, '--scope', 'project'], {
          cwd: project,
          encoding: 'utf8',
          env: { PATH: process.env.PATH, HOME: home },
        });
        if (action === 'install') {
          assert.equal(r.status, 1, `${agent}: ${r.stdout}`);
          assert.match(r.stderr, /is a symbolic link; a project's hooks are written only into the project's own folders/, agent);
        }
      }
    }
    assert.deepEqual(files(), before, 'nothing was written through the links');
    // A real project folder still works, and a user's own linked ~/.claude (dotfiles) too.
    fs.rmSync(path.join(project, '.claude'));
    const r = spawnSync(process.execPath, [CLI, 'hooks', 'install', '--agent', 'claude-code', '--scope', 'project'], { cwd: project, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: home } });
    assert.equal(r.status, 0, r.stderr);
    assert.ok(fs.lstatSync(path.join(project, '.claude')).isDirectory());
    const dotfiles = path.join(home, 'dotfiles', 'claude');
    fs.mkdirSync(dotfiles, { recursive: true });
    fs.symlinkSync(dotfiles, path.join(home, '.claude'));
    assert.equal(run(['hooks', 'install', '--agent', 'claude-code'], home).code, 0);
    assert.ok(fs.existsSync(path.join(dotfiles, 'settings.json')));
  });
});

test('Set Up Recall Hooks plans only for the agents whose home exists, names the files, and refuses what it must not touch', () => {
  withTempDir('secretary-test-', (home) => {
    const env = {};
    assert.deepEqual(
      planSetup('/opt/s/dist/cli.js', 'node', env, home).plans.map((p) => p.agent),
      ['vscode'],
      "no agent home: only VS Code's own hooks",
    );
    fs.mkdirSync(path.join(home, '.claude'));
    fs.mkdirSync(path.join(home, '.copilot'));
    fs.mkdirSync(path.join(home, '.codex'));
    fs.mkdirSync(path.join(home, '.gemini'));
    fs.writeFileSync(path.join(home, '.codex', 'hooks.json'), 'not json');
    const { plans, refused } = planSetup('/opt/s/dist/cli.js', 'node', env, home);
    assert.deepEqual(
      plans.map((p) => [p.agent, p.file]),
      [
        ['claude-code', path.join(home, '.claude', 'settings.json')],
        ['copilot-cli', path.join(home, '.copilot', 'hooks', 'secretary-recall.json')],
        ['gemini-cli', path.join(home, '.gemini', 'settings.json')],
        ['vscode', path.join(home, '.copilot', 'hooks', 'secretary-recall-vscode.json')],
      ],
    );
    assert.equal(refused.length, 1);
    assert.match(refused[0], /hooks\.json is not valid JSON/);
    for (const plan of plans) {
      applyPlan(plan);
    }
    assert.match(fs.readFileSync(path.join(home, '.claude', 'settings.json'), 'utf8'), /"command": "node \/opt\/s\/dist\/cli\.js hook session-start --agent claude-code"/);
    assert.equal(fs.readFileSync(path.join(home, '.codex', 'hooks.json'), 'utf8'), 'not json');
    // Set up already: nothing left to do.
    assert.equal(planSetup('/opt/s/dist/cli.js', 'node', env, home).plans.length, 0);
    // The environment's homes count (CLAUDE_CONFIG_DIR).
    const other = path.join(home, 'claude-elsewhere');
    fs.mkdirSync(other);
    assert.deepEqual(
      planSetup('/opt/s/dist/cli.js', 'node', { CLAUDE_CONFIG_DIR: other }, home).plans.map((p) => p.file),
      [path.join(other, 'settings.json')],
    );
  });
});

/** A Gemini CLI log in `home` (`~/.gemini/tmp/<project>/chats/session-<time>-<id8>.jsonl`), shaped
 * as 0.61.0 writes it: the header, the context message as a `$set`, the prompts on their own
 * lines; `compressed` adds the history a compression writes back (its summary, "Got it"). */
function geminiLog(home: string, prompts: string[], compressed: boolean): string {
  const dir = path.join(home, '.gemini', 'tmp', 'work', 'chats');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `session-2026-11-24T22-49-${ID.slice(0, 8)}.jsonl`);
  const context = { id: 'ctx', type: 'user', content: [{ text: '<session_context>\nThis is the Gemini CLI.' }] };
  const lines: unknown[] = [{ sessionId: ID, projectHash: 'ab', startTime: '2026-11-24T22:49:00Z', lastUpdated: '2026-11-24T22:49:00Z', kind: 'main' }, { $set: { messages: [context] } }];
  prompts.forEach((p, i) => lines.push({ id: `u${i}`, timestamp: '2026-11-24T22:50:00Z', type: 'user', content: [{ text: p }] }, { id: `a${i}`, type: 'gemini', content: 'ok' }));
  if (compressed) {
    lines.push({ $set: { messages: [context, { id: 'sum', type: 'user', content: [{ text: '<state_snapshot>summary</state_snapshot>' }] }, { id: 'got', type: 'gemini', content: [{ text: 'Got it. Thanks for the additional context!' }] }] } });
  }
  fs.writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  return file;
}

test('hook: Gemini CLI BeforeAgent answers after a compression only, by transcript path or session id; hostile inputs print nothing and write nothing', () => {
  withTempDir('secretary-test-', (home) => {
    const args = ['hook', 'before-agent', '--agent', 'gemini-cli'];
    const prompts = ['First: write the invoice module', 'Middle: handle refunds', 'Newest: a changelog'];
    const plain = geminiLog(home, prompts, false);
    const input = (fields: Record<string, unknown>) => JSON.stringify({ hook_event_name: 'BeforeAgent', prompt: 'Next', cwd: '/w', timestamp: '2026-11-24T22:51:00Z', ...fields });
    // No compression yet: nothing.
    const quiet = run(args, home, input({ session_id: ID, transcript_path: plain }));
    assert.equal(quiet.code, 0, quiet.err);
    assert.equal(quiet.out, '');
    geminiLog(home, prompts, true);
    for (const fields of [{ session_id: ID, transcript_path: plain }, { session_id: ID }]) {
      const r = run(args, home, input(fields));
      assert.equal(r.code, 0, r.err);
      const out = (JSON.parse(r.out) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } }).hookSpecificOutput;
      assert.equal(out.hookEventName, 'BeforeAgent');
      for (const words of prompts) {
        assert.ok(out.additionalContext.includes(words), out.additionalContext);
      }
      assert.ok(!out.additionalContext.includes('state_snapshot'));
    }
    run(args, home, '{}'); // primes the CLI's code cache, which is written once
    const before = snapshot(home);
    const cases: [string, string][] = [
      ['no session id', input({})],
      ['a garbage session id', input({ session_id: '../../../etc/passwd' })],
      ['an unknown session id', input({ session_id: 'ffffffff-0000-0000-0000-000000000000' })],
      ['a session id that is a number', input({ session_id: 42 })],
      ['not JSON', '{"session_id": '],
    ];
    for (const [what, stdin] of cases) {
      const r = run(args, home, stdin);
      assert.equal(r.code, 0, `${what}: ${r.err}`);
      assert.equal(r.out, '', `${what} printed something`);
      assert.match(r.err, /^secretary hook: /, what);
    }
    // A 5 MB request: bounded output, in time.
    geminiLog(home, ['First', `HUGE ${'y'.repeat(5 * 1024 * 1024)}`, 'Newest'], true);
    const huge = run(args, home, input({ session_id: ID, transcript_path: plain }));
    assert.equal(huge.code, 0, huge.err);
    const context = (JSON.parse(huge.out) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    assert.ok(context.length <= 12_000, `${context.length}`);
    assert.match(context, /- request 2 \(5242885 characters\): HUGE y+\.\.\./);
    assert.ok(huge.ms < 8_000, `${huge.ms} ms`);
    // A deleted log.
    fs.rmSync(plain);
    const gone = run(args, home, input({ session_id: ID, transcript_path: plain }));
    assert.equal(gone.code, 0);
    assert.equal(gone.out, '');
    assert.match(gone.err, /no gemini-cli log/);
    // Nothing else was created, changed or removed (the log is the one this test rewrote and deleted).
    assertNothingWritten(home, before, plain);
  });
});

test('hooks install --agent gemini-cli: BeforeAgent in ~/.gemini/settings.json, the other settings kept; uninstall removes only it', () => {
  withTempDir('secretary-test-', (home) => {
    const file = path.join(home, '.gemini', 'settings.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const original = '{\n  "model": { "compressionThreshold": 0.5 },\n  "hooks": { "BeforeAgent": [{ "hooks": [{ "type": "command", "command": "audit.sh" }] }] }\n}\n';
    fs.writeFileSync(file, original);
    const install = run(['hooks', 'install', '--agent', 'gemini-cli'], home);
    assert.equal(install.code, 0, install.err);
    const settings = JSON.parse(fs.readFileSync(file, 'utf8')) as { model: unknown; hooks: { BeforeAgent: { hooks: { command: string; timeout: number; name?: string }[] }[] } };
    assert.deepEqual(settings.model, { compressionThreshold: 0.5 });
    assert.equal(settings.hooks.BeforeAgent.length, 2);
    const ours = settings.hooks.BeforeAgent[1].hooks[0];
    assert.match(ours.command, /hook before-agent --agent gemini-cli$/);
    assert.equal(ours.timeout, 15_000, 'Gemini CLI reads the timeout in milliseconds');
    assert.equal(fs.readFileSync(`${file}.bak`, 'utf8'), original);
    assert.equal(run(['hooks', 'uninstall', '--agent', 'gemini-cli'], home).code, 0);
    const back = JSON.parse(fs.readFileSync(file, 'utf8')) as { hooks: { BeforeAgent: { hooks: { command: string }[] }[] } };
    assert.deepEqual(back.hooks.BeforeAgent.map((e) => e.hooks[0].command), ['audit.sh']);
    // The project scope: .gemini/settings.json in the current folder.
    const project = path.join(home, 'project');
    fs.mkdirSync(project);
    const r = spawnSync(process.execPath, [CLI, 'hooks', 'install', '--agent', 'gemini-cli', '--scope', 'project'], { cwd: project, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: home } });
    assert.equal(r.status, 0, r.stderr);
    assert.ok(fs.existsSync(path.join(project, '.gemini', 'settings.json')));
  });
});

/** A VS Code chat session log (`.jsonl` mutation log) under `home`'s `~/.config/Code`, its
 * requests' results carrying Copilot Chat's `IResultMetadata` (`sessionId`, and `summaries` on the
 * request in which it compacted the conversation: src/extension/prompt/common/conversation.ts of
 * microsoft/vscode-copilot-chat@31acd00a86424e2ee6e980e54919cf31fbf88030). Returns the log and the
 * Copilot Chat transcript path of the same workspace. */
function vscodeSession(home: string, fileId: string, copilotId: string, prompts: string[], compactedAt: number | undefined): { log: string; transcript: string } {
  const storage = path.join(home, '.config', 'Code', 'User', 'workspaceStorage', '5f2a9c0e');
  fs.mkdirSync(path.join(storage, 'chatSessions'), { recursive: true });
  fs.writeFileSync(path.join(storage, 'workspace.json'), JSON.stringify({ folder: 'file:///w' }));
  const lines: unknown[] = [{ kind: 0, v: { version: 3, sessionId: fileId, creationDate: 1760520000000, requests: [] } }];
  prompts.forEach((text, i) => {
    lines.push({ kind: 2, k: ['requests'], v: [{ requestId: `q${i}`, timestamp: 1760520001000 + i, message: { text, parts: [{ kind: 'text', text }] }, response: [{ value: 'ok' }] }] });
    // The newest request is the prompt being submitted: no result yet.
    if (i < prompts.length - 1) {
      const metadata = { sessionId: copilotId, responseId: `r${i}`, ...(i === compactedAt ? { summaries: [{ toolCallRoundId: 'round', text: '<summary>model</summary>' }] } : {}) };
      lines.push({ kind: 1, k: ['requests', i, 'result'], v: { timings: { totalElapsed: 5 }, metadata } });
    }
  });
  const log = path.join(storage, 'chatSessions', `${fileId}.jsonl`);
  fs.writeFileSync(log, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  return { log, transcript: path.join(storage, 'GitHub.copilot-chat', 'transcripts', `${copilotId}.jsonl`) };
}

test("findVscodeSession: the search by the id inside the sessions reads no file past its deadline (the hook's timer cannot stop synchronous reads)", () => {
  withTempDir('secretary-test-', (home) => {
    const COPILOT_ID = 'de268602-1201-4c82-94f4-1d91a16df012';
    const { transcript } = vscodeSession(home, 'b0b0b0b0-0000-4000-8000-000000000000', COPILOT_ID, ['First', 'Second'], 0);
    const input: HookInput = { sessionId: COPILOT_ID, transcriptPath: transcript, wantsRecall: true };
    assert.match(String(findVscodeSession(input, 1 << 20, {}, home)), /b0b0b0b0-0000-4000-8000-000000000000\.jsonl$/);
    assert.throws(() => findVscodeSession(input, 1 << 20, {}, home, Date.now() - 1), /gave up looking for session de268602-.* after reading 0 session files/);
  });
});

test("hook: VS Code's UserPromptSubmit (as Copilot Chat sends it) answers once after a compaction, by VS Code's session id or Copilot Chat's own; hostile inputs print nothing", () => {
  withTempDir('secretary-test-', (home) => {
    const args = ['hook', 'user-prompt-submitted', '--agent', 'vscode'];
    const VSCODE_ID = 'c3d9e8f1-2a4b-4c6d-8e0f-1a2b3c4d5e6f';
    const COPILOT_ID = 'de268602-1201-4c82-94f4-1d91a16df012';
    const prompts = ['First gamma-1: write the invoice module', 'Middle delta-7731: handle refunds', 'Third epsilon-3: add tests', 'Fourth eta-4'];
    // The input chatHookService.executeHook writes (common fields and the caller's `{prompt}`;
    // `cwd` only when the hook names one) — microsoft/vscode-copilot-chat@31acd00a
    // src/extension/chat/vscode-node/chatHookService.ts and prompt/node/defaultIntentRequestHandler.ts.
    const input = (sessionId: unknown, transcript?: string) =>
      JSON.stringify({ timestamp: '2026-11-24T23:00:00.000Z', hook_event_name: 'UserPromptSubmit', session_id: sessionId, ...(transcript ? { transcript_path: transcript } : {}), prompt: 'Fourth eta-4' });
    // No compaction: nothing.
    vscodeSession(home, VSCODE_ID, VSCODE_ID, prompts, undefined);
    const quiet = run(args, home, input(VSCODE_ID));
    assert.equal(quiet.code, 0, quiet.err);
    assert.equal(quiet.out, '');
    // Copilot Chat compacted within the third request: the fourth prompt gets the words back,
    // the session found by VS Code's id, or by Copilot Chat's own id inside the session.
    const named = vscodeSession(home, VSCODE_ID, VSCODE_ID, prompts, 2);
    const byName = run(args, home, input(VSCODE_ID, named.transcript));
    fs.rmSync(named.log);
    const other = vscodeSession(home, 'b0b0b0b0-0000-4000-8000-000000000000', COPILOT_ID, prompts, 2);
    const byInside = run(args, home, input(COPILOT_ID, other.transcript));
    for (const r of [byName, byInside]) {
      assert.equal(r.code, 0, r.err);
      const out = (JSON.parse(r.out) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } }).hookSpecificOutput;
      assert.equal(out.hookEventName, 'UserPromptSubmit');
      assert.ok(out.additionalContext.includes(prompts[0]) && out.additionalContext.includes(prompts[1]), out.additionalContext);
    }
    run(args, home, '{}'); // primes the CLI's code cache, which is written once
    const before = snapshot(home);
    for (const [what, stdin] of [
      ['no session id', input(undefined)],
      ['a garbage session id', input('../../../../etc/passwd')],
      ['an unknown session id', input('ffffffff-0000-0000-0000-000000000000', other.transcript)],
      ['a transcript path elsewhere', input('ffffffff-0000-0000-0000-000000000000', '/tmp/GitHub.copilot-chat/transcripts/x.jsonl')],
    ] as const) {
      const r = run(args, home, stdin);
      assert.equal(r.code, 0, `${what}: ${r.err}`);
      assert.equal(r.out, '', `${what} printed something`);
      assert.match(r.err, /^secretary hook: /, what);
    }
    assert.deepEqual(snapshot(home), before, 'nothing written');
    // A 5 MB request: bounded output.
    const huge = vscodeSession(home, VSCODE_ID, VSCODE_ID, ['First', `HUGE ${'y'.repeat(5 * 1024 * 1024)}`, 'Third', 'Fourth'], 2);
    const big = run(args, home, input(VSCODE_ID, huge.transcript));
    assert.equal(big.code, 0, big.err);
    const context = (JSON.parse(big.out) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    assert.ok(context.length <= 12_000, `${context.length}`);
    assert.match(context, /- request 2 \(5242885 characters\): HUGE y+\.\.\./);
    assert.ok(big.ms < 8_000, `${big.ms} ms`);
    // A deleted session.
    fs.rmSync(huge.log);
    const gone = run(args, home, input(VSCODE_ID, huge.transcript));
    assert.equal(gone.code, 0);
    assert.equal(gone.out, '');
    assert.match(gone.err, /no vscode log/);
  });
});

test('hooks install --agent vscode: UserPromptSubmit in ~/.copilot/hooks/secretary-recall-vscode.json (VS Code format), beside the Copilot CLI file; uninstall removes only it', () => {
  withTempDir('secretary-test-', (home) => {
    assert.equal(run(['hooks', 'install', '--agent', 'copilot-cli,vscode'], home).code, 0);
    const file = path.join(home, '.copilot', 'hooks', 'secretary-recall-vscode.json');
    const settings = JSON.parse(fs.readFileSync(file, 'utf8')) as { version: number; hooks: { UserPromptSubmit: { type: string; command: string; timeout: number }[] } };
    assert.equal(settings.version, 1);
    assert.equal(settings.hooks.UserPromptSubmit[0].type, 'command');
    assert.match(settings.hooks.UserPromptSubmit[0].command, /hook user-prompt-submitted --agent vscode$/);
    assert.equal(settings.hooks.UserPromptSubmit[0].timeout, 15);
    assert.ok(fs.existsSync(path.join(home, '.copilot', 'hooks', 'secretary-recall.json')), 'the Copilot CLI file is its own');
    assert.equal(run(['hooks', 'uninstall', '--agent', 'vscode'], home).code, 0);
    assert.ok(!fs.readFileSync(file, 'utf8').includes('--agent vscode'));
    assert.match(fs.readFileSync(path.join(home, '.copilot', 'hooks', 'secretary-recall.json'), 'utf8'), /--agent copilot-cli/);
  });
});
