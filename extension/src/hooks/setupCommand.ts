import * as path from 'path';
import * as vscode from 'vscode';

import { applyPlan, planSetup } from './install';
import { errorMessage } from '../log';

/** The command's id (contributed in package.json). */
export const SET_UP_RECALL_HOOKS_COMMAND = 'copilotChatSecretary.setUpRecallHooks';

const NAMES = { 'claude-code': 'Claude Code', codex: 'Codex', 'copilot-cli': 'GitHub Copilot CLI', 'gemini-cli': 'Gemini CLI', vscode: 'VS Code (agent hooks, run by Copilot Chat)' } as const;

/**
 * "Chat Secretary: Set Up Recall Hooks": for every agent whose home folder exists on this machine
 * (`~/.claude`, `~/.codex`, `~/.copilot`, `~/.gemini`, or their environment overrides), and for VS
 * Code's own agent hooks (`~/.copilot/hooks/secretary-recall-vscode.json`), the same install as
 * `secretary hooks install --scope user`, after a modal confirmation that lists the files it will
 * change. The hook runs the CLI shipped in this extension (`dist/cli.js`) with the `node` on the
 * agent's PATH (VS Code's own binary is not a Node the agents can run).
 */
export function registerRecallHooksCommand(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): vscode.Disposable {
  return vscode.commands.registerCommand(SET_UP_RECALL_HOOKS_COMMAND, async () => {
    const cli = path.join(context.extensionPath, 'dist', 'cli.js');
    const { plans, refused } = planSetup(cli, 'node');
    for (const why of refused) {
      log.warn(`Set Up Recall Hooks: ${why}`);
    }
    if (plans.length === 0) {
      const message = refused.length > 0 ? `Recall hooks not set up: ${refused.join('; ')}` : 'Every agent found, and VS Code, already has the recall hook.';
      void vscode.window.showInformationMessage(message);
      return;
    }
    const detail = [
      'After an agent compacts its history, its hook gives the person\u2019s own requests back, verbatim. These files will change (a .bak copy of each is kept):',
      '',
      ...plans.map((p) => `\u2022 ${NAMES[p.agent]}: ${p.file}${p.before === undefined ? ' (new)' : ''}`),
      ...(refused.length > 0 ? ['', 'Not touched:', ...refused.map((r) => `\u2022 ${r}`)] : []),
    ].join('\n');
    const choice = await vscode.window.showWarningMessage('Set up the recall hooks?', { modal: true, detail }, 'Set Up');
    if (choice !== 'Set Up') {
      return;
    }
    const done: string[] = [];
    for (const plan of plans) {
      try {
        applyPlan(plan);
        done.push(NAMES[plan.agent]);
        log.info(`Set Up Recall Hooks: ${plan.file} updated`);
      } catch (err) {
        log.error(`Set Up Recall Hooks: ${errorMessage(err)}`);
        void vscode.window.showErrorMessage(`Recall hook for ${NAMES[plan.agent]} not set up: ${errorMessage(err)}`);
      }
    }
    if (done.length > 0) {
      void vscode.window.showInformationMessage(`Recall hooks set up for ${done.join(', ')}.`);
    }
  });
}
