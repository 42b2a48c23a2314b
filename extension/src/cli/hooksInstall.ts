import * as path from 'path';
import { parseArgs } from 'util';

import {
  HOOK_AGENTS,
  HookSetupError,
  applyPlan,
  hookCommand,
  planDiff,
  planInstall,
  planUninstall,
  readSettingsText,
  settingsFile,
  type HookAgent,
  type HookScope,
} from '../hooks/install';
import { errorMessage } from '../log';

/**
 * `secretary hooks install|uninstall [--agent a,b] [--scope user|project] [--max-chars N] [--dry-run]`:
 * puts the recall hook into each agent's settings file, or takes it out (`hooks/install.ts` says
 * how). Exit 0 when every file was handled, 1 when one was refused (the others are still done),
 * 2 on bad usage.
 */
export const HOOKS_USAGE = `secretary hooks install|uninstall [--agent claude-code,codex,copilot-cli,gemini-cli,vscode] [--scope user|project]
                               [--max-chars <n>] [--dry-run]
  install: adds \`secretary hook\` to each agent's settings (Claude Code ~/.claude/settings.json,
  Codex ~/.codex/hooks.json, Copilot CLI ~/.copilot/hooks/secretary-recall.json, Gemini CLI
  ~/.gemini/settings.json, VS Code ~/.copilot/hooks/secretary-recall-vscode.json; --scope project:
  .claude/settings.json, .codex/hooks.json, .github/hooks/secretary-recall.json,
  .gemini/settings.json, .github/hooks/secretary-recall-vscode.json in this folder),
  keeping everything else and a <file>.bak; --dry-run prints the diff and writes nothing.
  uninstall: removes only the entries it added.
`;

export function runHooks(argv: string[], env: NodeJS.ProcessEnv = process.env): number {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        agent: { type: 'string', multiple: true },
        scope: { type: 'string' },
        'max-chars': { type: 'string' },
        'dry-run': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    return usage(errorMessage(err));
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(HOOKS_USAGE);
    return 0;
  }
  const action = positionals[0];
  if ((action !== 'install' && action !== 'uninstall') || positionals.length > 1) {
    return usage('hooks needs install or uninstall');
  }
  const scope = (values.scope ?? 'user') as HookScope;
  if (scope !== 'user' && scope !== 'project') {
    return usage(`--scope takes user or project, got ${values.scope}`);
  }
  const agents: HookAgent[] = [];
  for (const name of (values.agent ?? ['claude-code']).flatMap((v) => v.split(',')).map((s) => s.trim()).filter(Boolean)) {
    if (!HOOK_AGENTS.includes(name as HookAgent)) {
      return usage(`unknown agent ${JSON.stringify(name)}; known: ${HOOK_AGENTS.join(', ')}`);
    }
    agents.push(name as HookAgent);
  }
  let maxChars: number | undefined;
  if (values['max-chars'] !== undefined) {
    maxChars = Number(values['max-chars']);
    if (!Number.isInteger(maxChars) || maxChars < 1) {
      return usage(`--max-chars takes a positive whole number, got ${values['max-chars']}`);
    }
  }
  let failed = false;
  for (const agent of agents) {
    const file = settingsFile(agent, scope, env);
    const within = scope === 'project' ? process.cwd() : undefined;
    try {
      const text = readSettingsText(file, within);
      const plan = {
        ...(action === 'install'
          ? planInstall(agent, file, text, hookCommand(agent, path.join(__dirname, 'cli.js'), process.execPath, maxChars))
          : planUninstall(agent, file, text)),
        within,
      };
      if (!plan.changed) {
        process.stdout.write(`${agent}: ${file} already ${action === 'install' ? 'has the recall hook' : 'has no recall hook'}\n`);
        continue;
      }
      if (values['dry-run']) {
        process.stdout.write(planDiff(plan));
        continue;
      }
      applyPlan(plan);
      process.stdout.write(`${agent}: ${action === 'install' ? 'added the recall hook to' : 'removed the recall hook from'} ${file}${plan.before !== undefined ? ` (backup: ${file}.bak)` : ''}\n`);
    } catch (err) {
      failed = true;
      const message = err instanceof HookSetupError ? err.message : `${file}: ${errorMessage(err)}`;
      process.stderr.write(`secretary hooks: ${message}\n`);
    }
  }
  return failed ? 1 : 0;
}

function usage(message: string): number {
  process.stderr.write(`secretary hooks: ${message}\n${HOOKS_USAGE}`);
  return 2;
}
