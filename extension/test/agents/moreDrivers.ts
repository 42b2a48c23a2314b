import * as fs from 'fs';
import * as path from 'path';

import type { AgentDriver, AgentOptions, TurnResult } from './drivers';

/**
 * OpenCode, Kilo Code's CLI (built on OpenCode), Aider and Continue's `cn`, driven like the other agents (drivers.ts): one turn at a
 * time, offline against the scripted model, in a temporary home. Their settings were found by
 * reading each package and running it (docs/agents.md).
 */
export type MoreAgentName = 'opencode' | 'kilo' | 'aider' | 'continue';

export function moreAgentCommand(root: string, name: MoreAgentName): string {
  const agents = path.join(root, '.tools', 'agents');
  const bin = { opencode: 'opencode', kilo: 'kilo', continue: 'cn' };
  return name === 'aider' ? path.join(agents, 'aider', 'bin', 'aider') : path.join(agents, name, 'node_modules', '.bin', bin[name]);
}

type Run = (command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv) => Promise<TurnResult>;

export function makeMoreAgent(
  name: MoreAgentName,
  options: AgentOptions,
  work: string,
  base: NodeJS.ProcessEnv,
  mcp: { command: string; args: string[] },
  run: Run,
): AgentDriver {
  if (name === 'opencode' || name === 'kilo') {
    // A custom OpenAI-compatible provider (OpenCode's own `@ai-sdk/openai-compatible`, bundled).
    // Kilo Code's CLI reads the same settings from `$XDG_CONFIG_HOME/kilo/kilo.json` and keeps the
    // same tables in `$XDG_DATA_HOME/kilo/kilo.db` (measured with @kilocode/cli 7.7.7).
    const dir = path.join(base.XDG_CONFIG_HOME as string, name);
    fs.mkdirSync(dir, { recursive: true });
    const config = {
      autoupdate: false,
      share: 'disabled',
      provider: {
        scripted: {
          npm: '@ai-sdk/openai-compatible',
          name: 'Scripted',
          options: { baseURL: `${options.modelUrl}/v1`, apiKey: 'offline' },
          models: { scripted: { name: 'Scripted' } },
        },
      },
      model: 'scripted/scripted',
      ...(options.bare ? {} : { mcp: { secretary: { type: 'local', command: [mcp.command, ...mcp.args], enabled: true } } }),
    };
    fs.writeFileSync(path.join(dir, `${name}.json`), JSON.stringify(config));
    const db = path.join(base.XDG_DATA_HOME as string, name, `${name}.db`);
    return {
      source: name === 'kilo' ? 'kilo-code' : 'opencode',
      async turn(session, prompt, extraEnv) {
        // The prompt as separate words: OpenCode quotes a single argument that holds spaces.
        const args = ['run', '--format', 'json', ...(session ? ['--session', session] : []), ...prompt.split(' ')];
        const result = await run(options.command, args, work, { ...base, ...extraEnv });
        const id = session ?? /"sessionID":"(ses_[A-Za-z0-9]+)"/.exec(result.stdout)?.[1] ?? '';
        return { ...result, session: id };
      },
      logOf: (id) => (fs.existsSync(db) && id ? `${db}#${id}` : undefined),
    };
  }
  if (name === 'aider') {
    // Aider has no MCP client: only its history is checked. Its OpenAI-compatible provider is
    // LiteLLM's `openai/` prefix with `--openai-api-base`.
    const history = path.join(work, '.aider.chat.history.md');
    const flags = [
      '--openai-api-base',
      `${options.modelUrl}/v1`,
      '--openai-api-key',
      'offline',
      '--model',
      'openai/scripted',
      '--no-git',
      '--yes',
      '--no-check-update',
      '--no-show-release-notes',
      '--analytics-disable',
      '--no-show-model-warnings',
      '--no-pretty',
    ];
    return {
      source: 'aider',
      async turn(_session, prompt, extraEnv) {
        const result = await run(options.command, [...flags, '--message', prompt], work, { ...base, ...extraEnv });
        // One history per folder: the file is the session.
        return { ...result, session: history };
      },
      logOf: () => (fs.existsSync(history) ? history : undefined),
    };
  }
  // Continue's CLI: a config.yaml with an OpenAI provider at `apiBase`; `--resume` continues the
  // last session; the session is the newest in ~/.continue/sessions/sessions.json.
  const dir = path.join(options.home, '.continue');
  fs.mkdirSync(dir, { recursive: true });
  const yaml = (value: string) => JSON.stringify(value);
  const config = path.join(dir, 'config.yaml');
  fs.writeFileSync(
    config,
    [
      'name: offline',
      'version: 1.0.0',
      'schema: v1',
      'models:',
      '  - name: scripted',
      '    provider: openai',
      '    model: scripted',
      `    apiBase: ${yaml(`${options.modelUrl}/v1`)}`,
      '    apiKey: offline',
      '    roles: [chat]',
      ...(options.bare ? [] : ['mcpServers:', '  - name: secretary', `    command: ${yaml(mcp.command)}`, `    args: [${mcp.args.map(yaml).join(', ')}]`]),
      '',
    ].join('\n'),
  );
  const sessions = path.join(dir, 'sessions');
  return {
    source: 'continue',
    async turn(session, prompt, extraEnv) {
      const args = ['--config', config, ...(session ? ['--resume'] : []), '--auto', '-p', prompt];
      const result = await run(options.command, args, work, { ...base, ...extraEnv });
      let id = session ?? '';
      if (!session) {
        try {
          const list = JSON.parse(fs.readFileSync(path.join(sessions, 'sessions.json'), 'utf8')) as { sessionId: string; dateCreated: string }[];
          id = list.sort((a, b) => Number(b.dateCreated) - Number(a.dateCreated))[0]?.sessionId ?? '';
        } catch {
          // no session written: the test says so
        }
      }
      return { ...result, session: id };
    },
    logOf: (id) => (fs.existsSync(path.join(sessions, `${id}.json`)) ? path.join(sessions, `${id}.json`) : undefined),
  };
}
