import * as assert from 'assert/strict';
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { after, before, describe, test } from 'node:test';

import { agentCommand, makeAgent, type Agent, type AgentName } from './drivers';
import { startModelServer, type Exchange, type ModelServer, type Script } from './modelServer';

/**
 * Recall without being asked (docs/agents.md, "Recall hooks"): `secretary hooks install` puts
 * `secretary hook` into the real agent's settings; the agent runs turns against the scripted
 * model, compacts, and the model's next request must carry the person's first request and the
 * dropped middle request verbatim. The same scenario after `secretary hooks uninstall` must not.
 * scripts/agents-test runs this under `unshare -n` (loopback only).
 */

const ROOT = process.env.SECRETARY_ROOT ?? path.resolve(__dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
/** The agents whose hooks fire offline after a compaction. */
type Hooked = Extract<AgentName, 'claude' | 'codex' | 'copilot' | 'gemini'>;
const HOOKED: Hooked[] = ['claude', 'codex', 'copilot', 'gemini'];
const ONLY = (process.env.SECRETARY_AGENTS ?? 'copilot,claude,codex,gemini')
  .split(',')
  .map((s) => s.trim())
  .filter((n): n is Hooked => (HOOKED as string[]).includes(n));
const HOOK_AGENT: Record<Hooked, string> = { claude: 'claude-code', codex: 'codex', copilot: 'copilot-cli', gemini: 'gemini-cli' };
/** Gemini CLI compresses before a turn once its history is estimated above this share of the
 * model's window (1,048,576 tokens for a model it does not know): ~3,100 tokens, reached with the
 * bulky third request, so the fourth turn compresses. */
const GEMINI_COMPRESSION_THRESHOLD = 0.003;

const SUMMARY = 'SUMMARY: the person asked for several things earlier.';
/** Short answers at once; the bulky third request reports a full context (Codex compacts on it).
 * The fourth prompt makes the model call a Secretary tool once: Copilot CLI applies a background
 * compaction only within a turn that outlives it (two model requests). */
const script: Script = (ex) => (ex.lastUser.includes('eta-4') && ex.toolResult === undefined && ex.interaction !== 'conversation-compaction' ? { tool: 'list_dialogs', args: {} } : {
  text:
    ex.interaction === 'conversation-compaction' ||
    ex.lastUser.includes('<state_snapshot>') ||
    (/summar/i.test(ex.lastUser.slice(0, 2000)) && !ex.lastUser.includes('epsilon-3'))
      ? SUMMARY
      : 'ok',
  ...(ex.lastUser.includes('epsilon-3') ? { tokens: 1_000_000 } : {}),
});

const bulk = (tag: string, n: number) => Array.from({ length: n }, (_, i) => `${tag}-${i} keeps the ledger balanced`).join('; ');
const FIRST = 'First request gamma-1: write the invoice module with multi-currency totals';
/** The middle request: Copilot CLI's compaction keeps the latest prompts up to some size, so there
 * it must be larger to be dropped (and still fit the 12,000-character budget with the others). */
const middleOf = (name: AgentName) => `Middle request delta-7731: also handle refunds. ${bulk('constraint', name === 'copilot' ? 250 : 120)}`;

function assertTurn(result: { code: number | null; stdout: string; stderr: string }, what: string): void {
  assert.equal(result.code, 0, `${what} exited ${result.code}: ${result.stderr.slice(-2000)} ${result.stdout.slice(-1000)}`);
}

function describeExchanges(exchanges: Exchange[]): string {
  return exchanges
    .map((ex) => `[${ex.api} ${ex.interaction ?? ''}] user=${JSON.stringify(ex.lastUser.slice(0, 60))} body=${ex.body.length} summary=${ex.body.includes(SUMMARY)}`)
    .join('\n  ');
}

function secretary(args: string[], env: NodeJS.ProcessEnv): string {
  return execFileSync(process.execPath, [CLI, ...args], { env: { ...env, PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin` }, encoding: 'utf8' });
}

for (const name of ONLY) {
  describe(`recall hook: real agent ${name}`, () => {
    let server: ModelServer;
    let temp: string;

    before(async () => {
      assert.ok(fs.existsSync(agentCommand(ROOT, name)), `${name} is not installed: run scripts/agents-setup`);
      server = await startModelServer(script);
      temp = fs.mkdtempSync(path.join(os.tmpdir(), `secretary-hook-${name}-`));
    });
    after(async () => {
      await server.close();
      fs.rmSync(temp, { recursive: true, force: true });
    });

    /** Runs the scenario in a fresh home; returns the request the model got after the compaction. */
    async function scenario(label: string, hook: 'installed' | 'uninstalled'): Promise<{ compacted: Exchange[]; agent: Agent; session: string }> {
      const home = path.join(temp, label);
      fs.mkdirSync(home, { recursive: true });
      const agent = makeAgent(name, { root: ROOT, command: agentCommand(ROOT, name), modelUrl: server.url, home, trustHooks: true });
      const env = { HOME: home, CODEX_HOME: path.join(home, '.codex'), XDG_STATE_HOME: path.join(home, '.state') };
      if (name === 'gemini') {
        // A small compression threshold (the hook install below keeps this setting).
        const settings = path.join(home, '.gemini', 'settings.json');
        const value = JSON.parse(fs.readFileSync(settings, 'utf8')) as Record<string, unknown>;
        fs.writeFileSync(settings, JSON.stringify({ ...value, model: { compressionThreshold: GEMINI_COMPRESSION_THRESHOLD } }, null, 2));
      }
      // Copilot CLI's middle request must be large to be dropped (~8,300 characters), and its prompt
      // hook may run right after the bulky third request, the newest then (cut at a quarter of the
      // budget): a 16,000-character budget holds them both.
      // Gemini CLI's bulky third request (~10,000 characters, to pass the compression threshold)
      // is a middle one when its hook runs after the fourth: 20,000 holds it and the middle one.
      const budget = name === 'copilot' ? ['--max-chars', '16000'] : name === 'gemini' ? ['--max-chars', '20000'] : [];
      const installed = secretary(['hooks', 'install', '--agent', HOOK_AGENT[name], ...budget], env);
      assert.match(installed, /added the recall hook/);
      if (hook === 'uninstalled') {
        assert.match(secretary(['hooks', 'uninstall', '--agent', HOOK_AGENT[name]], env), /removed the recall hook/);
      }
      const start = server.exchanges.length;
      // Copilot CLI compacts at 80% of its prompt limit; its own prompt and tools take ~15k tokens.
      const limits = name === 'copilot' ? { COPILOT_PROVIDER_MAX_PROMPT_TOKENS: '30000' } : {};
      const first = await agent.turn(undefined, FIRST, limits);
      assertTurn(first, 'turn 1');
      const id = first.session;
      assertTurn(await agent.turn(id, middleOf(name), limits), 'turn 2 (the middle request)');
      // Codex keeps the newest ~80,000 characters of prompts through a compaction.
      assertTurn(await agent.turn(id, `Third request epsilon-3: add tests. ${bulk('case', name === 'codex' ? 2400 : name === 'copilot' ? 950 : 300)}`, limits), 'turn 3');
      if (name === 'claude') {
        assertTurn(await agent.turn(id, '/compact'), 'the /compact command');
      }
      assertTurn(await agent.turn(id, 'Fourth request eta-4: and a changelog', limits), 'turn 4');
      // Copilot CLI compacts in the background and applies it within the turn that outlives it;
      // Gemini CLI compresses within the fourth turn, after its prompt hook ran.
      assertTurn(await agent.turn(id, 'Fifth request zeta-5: and a release note', limits), 'turn 5');
      const exchanges = server.exchanges.slice(start);
      // The requests the model got with the compacted history (the summary in it).
      const compacted = exchanges.filter(
        (ex) => ex.interaction !== 'conversation-compaction' && /eta-4|zeta-5/.test(ex.lastUser) && ex.history.includes(SUMMARY),
      );
      assert.ok(compacted.length > 0, `no compacted request in turns 4 and 5: ${describeExchanges(exchanges)}`);
      return { compacted, agent, session: id };
    }

    test('with the hook installed, the request after the compaction carries the first and the dropped middle request verbatim', async () => {
      const { compacted, agent, session } = await scenario('installed', 'installed');
      // Claude Code and Codex: the very first request after the compaction. Copilot CLI: the first
      // prompt after its background compaction completed (turn 4 or 5, as its timing falls); its
      // prompt hook answers once, so every later request holds the words too. Gemini CLI: its
      // prompt hook runs before the turn that compresses (the fourth), so the fifth prompt.
      const next = name === 'copilot' || name === 'gemini' ? compacted.find((ex) => ex.history.includes('verbatim from the agent')) : compacted[0];
      assert.ok(next, `no recall in the requests after the compaction: ${describeExchanges(compacted)}`);
      if (name === 'gemini') {
        assert.ok(next.lastUser.startsWith('Fifth request zeta-5'), `the recall came with the prompt after the compression: ${describeExchanges(compacted)}`);
      }
      // What the model reads as the conversation (tool results left out).
      assert.ok(next.history.includes(JSON.stringify(FIRST).slice(1, -1)), 'the first request came back');
      assert.ok(next.history.includes(JSON.stringify(middleOf(name)).slice(1, -1)), `the middle request came back verbatim: ${next.history.slice(-4000)}`);
      assert.ok(next.history.includes('verbatim from the agent'), 'the recall header reached the model');
      // What the hook prints for that log, and how long it takes (docs/agents.md).
      const log = agent.logOf(session);
      assert.ok(log);
      // Copilot CLI's prompt hook answers once after a compaction: replay the fourth prompt's input
      // against the log as it was then is not possible, so this measures a session-start answer.
      const input = JSON.stringify({ session_id: session, transcript_path: log, source: 'compact', hook_event_name: 'SessionStart' });
      const started = performance.now();
      const run = spawnSync(process.execPath, [CLI, 'hook', 'session-start', '--agent', HOOK_AGENT[name]], {
        input,
        env: { HOME: agent.home, CODEX_HOME: path.join(agent.home, '.codex'), XDG_STATE_HOME: path.join(agent.home, '.state'), PATH: '/usr/bin:/bin' },
        encoding: 'utf8',
      });
      const ms = performance.now() - started;
      assert.equal(run.status, 0, run.stderr);
      const output = JSON.parse(run.stdout) as { hookSpecificOutput?: { additionalContext: string }; additionalContext?: string };
      const context = output.hookSpecificOutput?.additionalContext ?? output.additionalContext ?? '';
      assert.ok(context.length <= 12_000);
      process.stdout.write(`# ${name}: hook output ${run.stdout.length} bytes (${context.length} characters of context), ${ms.toFixed(0)} ms, log ${fs.statSync(log).size} bytes\n`);
    });

    test('with the hook uninstalled, the same request carries neither', async () => {
      const { compacted } = await scenario('uninstalled', 'uninstalled');
      for (const ex of compacted) {
        assert.ok(!ex.history.includes('delta-7731'), 'without the hook the compaction dropped the middle request');
        assert.ok(!ex.history.includes('verbatim from the agent'), 'no recall without the hook');
      }
    });
  });
}
