import { spawn } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';

import { makeMoreAgent, moreAgentCommand, type MoreAgentName } from './moreDrivers';

/**
 * The real agent CLIs, each driven for one turn at a time against the scripted model
 * (`modelServer.ts`), with `secretary mcp` configured the way docs/agents.md tells a user to.
 * Every agent runs with its home in a temporary folder and the network cut off by the caller
 * (`scripts/agents-test` runs the tests under `unshare -n` with only loopback up). The settings
 * were found by reading each package and running it (docs/agents.md, "Real agents in the tests").
 */

export type AgentName = 'copilot' | 'claude' | 'codex' | 'gemini' | 'qwen' | MoreAgentName;

export interface TurnResult {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export interface Agent {
  name: AgentName;
  /** The source the Secretary calls this agent's dialogs by. */
  source: 'copilot-cli' | 'claude-code' | 'codex' | 'gemini-cli' | 'qwen-code' | 'opencode' | 'kilo-code' | 'aider' | 'continue';
  /** The working folder the agent runs in (one per agent home). */
  work: string;
  home: string;
  /** Runs one turn: a new session when `session` is unknown to the agent yet, else a resumed one.
   * Resolves with the session id (Codex chooses its own). */
  turn(session: string | undefined, prompt: string, extraEnv?: NodeJS.ProcessEnv): Promise<TurnResult & { session: string }>;
  /** The agent's own log of a session. */
  logOf(session: string): string | undefined;
}

export interface AgentOptions {
  root: string;
  /** The agent's command (scripts/agents-setup prints them). */
  command: string;
  modelUrl: string;
  home: string;
  /** The MCP server entry: `node <root>/dist/cli.js mcp` unless a test gives another. */
  mcp?: { command: string; args: string[]; env?: Record<string, string> } | undefined;
  /** Run without the Secretary configured (a bare turn, for timing). */
  bare?: boolean;
  /** Codex: run the hooks of `$CODEX_HOME/hooks.json` (`--dangerously-bypass-hook-trust`; it
   * skips them silently otherwise). */
  trustHooks?: boolean;
}

/** Where each agent is installed by scripts/agents-setup. */
export function agentCommand(root: string, name: AgentName): string {
  if (name === 'opencode' || name === 'kilo' || name === 'aider' || name === 'continue') {
    return moreAgentCommand(root, name);
  }
  const bin = { copilot: 'copilot', claude: 'claude', codex: 'codex', gemini: 'gemini', qwen: 'qwen' }[name];
  return path.join(root, '.tools', 'agents', name, 'node_modules', '.bin', bin);
}

/** What tells one agent from another: the rest of an Agent is its name and folders. */
export type AgentDriver = Pick<Agent, 'source' | 'turn' | 'logOf'>;

export function makeAgent(name: AgentName, options: AgentOptions): Agent {
  const work = path.join(options.home, 'work');
  fs.mkdirSync(work, { recursive: true });
  return { name, work, home: options.home, ...driverOf(name, options, work) };
}

/** How `name` runs its turns and where it keeps its logs, with its settings written under `options.home`. */
function driverOf(name: AgentName, options: AgentOptions, work: string): AgentDriver {
  const mcp = options.mcp ?? { command: process.execPath, args: [path.join(options.root, 'dist', 'cli.js'), 'mcp'] };
  const base: NodeJS.ProcessEnv = {
    PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin`,
    HOME: options.home,
    XDG_CONFIG_HOME: path.join(options.home, '.config'),
    XDG_STATE_HOME: path.join(options.home, '.state'),
    XDG_DATA_HOME: path.join(options.home, '.data'),
    XDG_CACHE_HOME: path.join(options.home, '.cache'),
    TMPDIR: path.join(options.home, 'tmp'),
    LANG: 'C.UTF-8',
  };
  fs.mkdirSync(base.TMPDIR as string, { recursive: true });
  if (name === 'copilot') {
    const config = path.join(options.home, 'mcp.json');
    fs.writeFileSync(config, JSON.stringify({ mcpServers: { secretary: { type: 'local', ...mcp, tools: ['*'] } } }));
    const env = {
      ...base,
      COPILOT_OFFLINE: 'true',
      COPILOT_AUTO_UPDATE: 'false',
      COPILOT_PROVIDER_BASE_URL: `${options.modelUrl}/v1`,
      COPILOT_MODEL: 'scripted',
      COPILOT_PROVIDER_API_KEY: 'offline',
      // One unpacked copy of the CLI's 235 MB package for every run.
      COPILOT_PKG_CACHE_HOME: path.join(options.root, '.tools', 'agents', 'copilot-pkg-cache'),
    };
    return {
      source: 'copilot-cli',
      turn: namedSessions(options.command, work, env, (id, first, prompt) => [
        first ? `--session-id=${id}` : `--resume=${id}`,
        '-p',
        prompt,
        '--allow-all-tools',
        ...(options.bare ? [] : ['--additional-mcp-config', `@${config}`]),
      ]),
      logOf: (id) => existing(path.join(options.home, '.copilot', 'session-state', id, 'events.jsonl')),
    };
  }
  if (name === 'claude') {
    const config = path.join(options.home, 'mcp.json');
    fs.writeFileSync(config, JSON.stringify({ mcpServers: { secretary: { type: 'stdio', ...mcp } } }));
    const env = {
      ...base,
      ANTHROPIC_BASE_URL: options.modelUrl,
      ANTHROPIC_API_KEY: 'sk-offline',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
      // Tools listed directly, not behind ToolSearch; root may skip permissions in a sandbox.
      ENABLE_TOOL_SEARCH: 'false',
      IS_SANDBOX: '1',
    };
    return {
      source: 'claude-code',
      turn: namedSessions(options.command, work, env, (id, first, prompt) => [
        ...sessionPrompt(id, first, prompt),
        '--dangerously-skip-permissions',
        ...(options.bare ? [] : ['--mcp-config', config]),
      ]),
      logOf: (id) => {
        const projects = path.join(options.home, '.claude', 'projects');
        for (const slug of fs.existsSync(projects) ? fs.readdirSync(projects) : []) {
          const file = path.join(projects, slug, `${id}.jsonl`);
          if (fs.existsSync(file)) {
            return file;
          }
        }
        return undefined;
      },
    };
  }
  if (name === 'gemini' || name === 'qwen') {
    return geminiLike(name, options, work, base, mcp);
  }
  if (name === 'opencode' || name === 'kilo' || name === 'aider' || name === 'continue') {
    return makeMoreAgent(name, options, work, base, mcp, run);
  }
  const codexHome = path.join(options.home, '.codex');
  fs.mkdirSync(codexHome, { recursive: true });
  const toml = (value: string) => JSON.stringify(value);
  fs.writeFileSync(
    path.join(codexHome, 'config.toml'),
    [
      'model = "scripted"',
      'model_provider = "scripted"',
      'check_for_update_on_startup = false',
      // Compacts once a turn reports this many tokens (the scripted model reports 100, and a full
      // context for the compaction test's bulky request).
      'model_auto_compact_token_limit = 30000',
      '[model_providers.scripted]',
      'name = "scripted"',
      `base_url = ${toml(`${options.modelUrl}/v1`)}`,
      'wire_api = "responses"',
      'env_key = "SCRIPTED_KEY"',
      '[analytics]',
      'enabled = false',
      '[feedback]',
      'enabled = false',
      '[features]',
      'plugins = false',
      ...(options.bare
        ? []
        : [
            '[mcp_servers.secretary]',
            `command = ${toml(mcp.command)}`,
            `args = [${mcp.args.map(toml).join(', ')}]`,
            'default_tools_approval_mode = "approve"',
          ]),
      '',
    ].join('\n'),
  );
  const env = { ...base, CODEX_HOME: codexHome, SCRIPTED_KEY: 'offline' };
  const sessions = path.join(codexHome, 'sessions');
  return {
    source: 'codex',
    async turn(session, prompt, extraEnv) {
      const before = new Set(rollouts(sessions));
      const trust = options.trustHooks ? ['--dangerously-bypass-hook-trust'] : [];
      const args = session
        ? ['exec', 'resume', '--skip-git-repo-check', ...trust, session, prompt]
        : ['exec', '--skip-git-repo-check', ...trust, prompt];
      const result = await run(options.command, args, work, { ...env, ...extraEnv });
      const id = session ?? rollouts(sessions).filter((f) => !before.has(f)).map(rolloutId).find((x) => x) ?? '';
      return { ...result, session: id };
    },
    logOf: (id) => rollouts(sessions).find((f) => rolloutId(f) === id),
  };
}

/** Gemini CLI (Google's API through `GOOGLE_GEMINI_BASE_URL`) and Qwen Code, its fork (an
 * OpenAI-compatible provider through `OPENAI_BASE_URL`): settings in `~/.gemini` / `~/.qwen`,
 * sessions started with `--session-id` and resumed with `--resume <id>`. */
function geminiLike(
  name: 'gemini' | 'qwen',
  options: AgentOptions,
  work: string,
  base: NodeJS.ProcessEnv,
  mcp: { command: string; args: string[] },
): AgentDriver {
  const dir = path.join(options.home, name === 'gemini' ? '.gemini' : '.qwen');
  fs.mkdirSync(dir, { recursive: true });
  const servers = options.bare ? {} : { mcpServers: { secretary: { ...mcp, trust: true } } };
  const settings =
    name === 'gemini'
      ? { security: { auth: { selectedType: 'gemini-api-key' } }, telemetry: { enabled: false }, privacy: { usageStatisticsEnabled: false }, ...servers }
      : { telemetry: { enabled: false }, privacy: { usageStatisticsEnabled: false }, ...servers };
  fs.writeFileSync(path.join(dir, 'settings.json'), JSON.stringify(settings));
  const env: NodeJS.ProcessEnv =
    name === 'gemini'
      ? { ...base, GOOGLE_GEMINI_BASE_URL: options.modelUrl, GEMINI_API_KEY: 'offline', GEMINI_CLI_NO_RELAUNCH: 'true', GEMINI_CLI_TRUST_WORKSPACE: 'true' }
      : { ...base, OPENAI_BASE_URL: `${options.modelUrl}/v1`, OPENAI_API_KEY: 'offline', OPENAI_MODEL: 'scripted', QWEN_CODE_SUPPRESS_YOLO_WARNING: '1' };
  return {
    source: name === 'gemini' ? 'gemini-cli' : 'qwen-code',
    turn: namedSessions(options.command, work, env, (id, first, prompt) => [
      ...sessionPrompt(id, first, prompt),
      '--yolo',
      ...(name === 'gemini' ? ['-m', 'scripted'] : ['--auth-type', 'openai']),
    ]),
    logOf: (id) => {
      const root = name === 'gemini' ? path.join(dir, 'tmp') : path.join(dir, 'projects');
      for (const project of fs.existsSync(root) ? fs.readdirSync(root) : []) {
        const chats = path.join(root, project, 'chats');
        for (const file of fs.existsSync(chats) ? fs.readdirSync(chats) : []) {
          const full = path.join(chats, file);
          if (file.endsWith('.jsonl') && (file.includes(id.slice(0, 8)) || fs.readFileSync(full, 'utf8').includes(id))) {
            return full;
          }
        }
      }
      return undefined;
    },
  };
}

/** The turns of an agent whose sessions the caller names by UUID: the first turn of an id starts
 * the session, later ones resume it. */
function namedSessions(
  command: string,
  work: string,
  env: NodeJS.ProcessEnv,
  argsFor: (id: string, first: boolean, prompt: string) => string[],
): Agent['turn'] {
  const started = new Set<string>();
  return async (session, prompt, extraEnv) => {
    const id = session ?? crypto.randomUUID();
    const first = !started.has(id);
    started.add(id);
    return { ...(await run(command, argsFor(id, first, prompt), work, { ...env, ...extraEnv })), session: id };
  };
}

/** `--session-id <id>` to start a session (`--resume <id>` later) and `-p <prompt>`: how Claude Code,
 * Gemini CLI and Qwen Code take a turn in a named session. */
function sessionPrompt(id: string, first: boolean, prompt: string): string[] {
  return [first ? '--session-id' : '--resume', id, '-p', prompt];
}

function existing(file: string): string | undefined {
  return fs.existsSync(file) ? file : undefined;
}

function rollouts(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : []) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        walk(p);
      } else if (entry.name.startsWith('rollout-') && entry.name.endsWith('.jsonl')) {
        out.push(p);
      }
    }
  };
  walk(root);
  return out;
}

function rolloutId(file: string): string | undefined {
  return /-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/.exec(file)?.[1];
}

/** Runs a command to its end (stdin closed, as the agents' headless modes want), at most 120 s. */
function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<TurnResult> {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: performance.now() - started });
    });
  });
}
