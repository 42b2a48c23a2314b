import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import { applyEdits, modify, parse, printParseErrorCode, type ParseError } from 'jsonc-parser';

import { writeFileAtomic } from '../host/atomicWrite';

/**
 * `secretary hooks install|uninstall`: the recall hook (`secretary hook session-start`) in each
 * agent's own settings file, shared by the CLI and the VS Code command "Set Up Recall Hooks".
 *
 * The file is edited, not rewritten: `jsonc-parser`'s `modify` changes only the hook list, so the
 * person's other settings, their order, comments and indentation stay as they were. A file that is
 * not a JSON object, a link, not a regular file or over {@link MAX_SETTINGS_BYTES} is refused with
 * a sentence saying why, and nothing is written. Before a change the old file is copied to
 * `<file>.bak`; the new one replaces it atomically. Uninstall removes exactly the entries whose
 * command is a Secretary hook command ({@link isOwnCommand}).
 */

export type HookAgent = 'claude-code' | 'codex' | 'copilot-cli' | 'gemini-cli' | 'vscode';
export const HOOK_AGENTS: readonly HookAgent[] = ['claude-code', 'codex', 'copilot-cli', 'gemini-cli', 'vscode'];
export type HookScope = 'user' | 'project';

/** Settings files are small; a larger one is not the agent's settings file. */
export const MAX_SETTINGS_BYTES = 1024 * 1024;
/** Seconds the agent waits for the hook (it ends itself after 8 s). */
const HOOK_TIMEOUT_S = 15;

export class HookSetupError extends Error {}

export interface HookPlan {
  agent: HookAgent;
  file: string;
  /** The file's text now (`undefined`: it does not exist). */
  before: string | undefined;
  /** The text after the change (equal to `before`: nothing to do). */
  after: string;
  changed: boolean;
  /** Project scope: the project folder the file must stay in (no folder between is a link). */
  within?: string;
}

/** Where each agent reads its hooks (user scope: the agent's home; project scope: `cwd`). */
export function settingsFile(
  agent: HookAgent,
  scope: HookScope,
  env: NodeJS.ProcessEnv = process.env,
  home: string = os.homedir(),
  cwd: string = process.cwd(),
): string {
  switch (agent) {
    case 'claude-code':
      return scope === 'project' ? path.join(cwd, '.claude', 'settings.json') : path.join(env.CLAUDE_CONFIG_DIR || path.join(home, '.claude'), 'settings.json');
    case 'codex':
      return scope === 'project' ? path.join(cwd, '.codex', 'hooks.json') : path.join(env.CODEX_HOME || path.join(home, '.codex'), 'hooks.json');
    case 'copilot-cli':
      // Copilot CLI reads every `*.json` of `~/.copilot/hooks/` and of a repository's
      // `.github/hooks/` (its `config.json` `hooks` key was not read in 1.0.102, measured).
      return path.join(scope === 'project' ? path.join(cwd, '.github') : env.COPILOT_HOME || path.join(home, '.copilot'), 'hooks', 'secretary-recall.json');
    case 'gemini-cli':
      // Gemini CLI merges the `hooks` of the user's and the project's settings (a project's only
      // in a trusted folder).
      return path.join(scope === 'project' ? cwd : env.GEMINI_CLI_HOME || home, '.gemini', 'settings.json');
    case 'vscode':
      // VS Code 1.139 collects hooks from `chat.hookFilesLocations`, by default `.github/hooks` of
      // the workspace and `~/.copilot/hooks` (a file of its own: the Copilot CLI one keeps its
      // format), and Copilot Chat runs them.
      return path.join(scope === 'project' ? path.join(cwd, '.github') : path.join(home, '.copilot'), 'hooks', 'secretary-recall-vscode.json');
  }
}

/** The agent's home folder: present when the agent has run on this machine. */
export function agentHome(agent: HookAgent, env: NodeJS.ProcessEnv = process.env, home: string = os.homedir()): string {
  switch (agent) {
    case 'claude-code':
      return env.CLAUDE_CONFIG_DIR || path.join(home, '.claude');
    case 'codex':
      return env.CODEX_HOME || path.join(home, '.codex');
    case 'copilot-cli':
      return env.COPILOT_HOME || path.join(home, '.copilot');
    case 'gemini-cli':
      return path.join(env.GEMINI_CLI_HOME || home, '.gemini');
    case 'vscode':
      return path.join(home, '.copilot');
  }
}

/** The command a hook runs: this very CLI under this Node, quoted for a POSIX shell. */
export function hookCommand(agent: HookAgent, cli: string = path.join(__dirname, 'cli.js'), node: string = process.execPath, maxChars?: number): string {
  const event = agent === 'copilot-cli' || agent === 'vscode' ? 'user-prompt-submitted' : agent === 'gemini-cli' ? 'before-agent' : 'session-start';
  const budget = maxChars === undefined ? '' : ` --max-chars ${maxChars}`;
  return `${shellQuote(node)} ${shellQuote(cli)} hook ${event} --agent ${agent}${budget}`;
}

/** Whether a hook command is one this module installed (any Node, any install folder). */
export function isOwnCommand(command: unknown, agent: HookAgent): boolean {
  return typeof command === 'string' && new RegExp(`(cli\\.js|secretary)'? hook [a-z-]+ --agent ${agent}( --max-chars \\d+)?$`).test(command);
}

function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * Refuses a project settings file reached through a link: a repository can ship `.claude` (or
 * `.github`, `.gemini`, `.codex`, `hooks`) as a symbolic link to any folder, a VS Code profile or
 * its chat storage among them, and the write would land there. Each folder from `within` down to
 * the file's that exists must be a real folder. (User scope is not checked: a person's own
 * `~/.claude` may well be a link into their dotfiles.)
 */
export function refuseLinkedFolders(within: string, file: string): void {
  const parts = path.relative(within, path.dirname(file)).split(path.sep).filter(Boolean);
  if (parts.includes('..') || path.isAbsolute(path.relative(within, file))) {
    throw new HookSetupError(`${file} is not inside ${within}; not touched`);
  }
  let at = within;
  for (const part of parts) {
    at = path.join(at, part);
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(at);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        return; // created by the write, as a real folder
      }
      throw new HookSetupError(`cannot read ${at}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
    }
    if (stat.isSymbolicLink()) {
      throw new HookSetupError(`${at} is a symbolic link; a project's hooks are written only into the project's own folders (not touched)`);
    }
    if (!stat.isDirectory()) {
      throw new HookSetupError(`${at} is not a folder; not touched`);
    }
  }
}

/** Reads a settings file for editing, refusing what must not be touched (with `within`, a file
 * reached through a linked folder, {@link refuseLinkedFolders}). */
export function readSettingsText(file: string, within?: string): string | undefined {
  if (within !== undefined) {
    refuseLinkedFolders(within, file);
  }
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      return undefined;
    }
    throw new HookSetupError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  if (stat.isSymbolicLink()) {
    throw new HookSetupError(`${file} is a symbolic link; edit the file it points to by hand, or replace the link with a file`);
  }
  if (!stat.isFile()) {
    throw new HookSetupError(`${file} is not a regular file`);
  }
  if (stat.size > MAX_SETTINGS_BYTES) {
    throw new HookSetupError(`${file} is ${stat.size} bytes, more than a settings file holds (${MAX_SETTINGS_BYTES}); not touched`);
  }
  const text = fs.readFileSync(file, 'utf8');
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    throw new HookSetupError(`${file} is not valid JSON (${printParseErrorCode(errors[0].error)} at offset ${errors[0].offset}); not touched`);
  }
  if (text.trim() !== '' && (typeof value !== 'object' || value === null || Array.isArray(value))) {
    throw new HookSetupError(`${file} does not hold a JSON object; not touched`);
  }
  return text;
}

/** The hook list this agent keeps the recall hook in, and the entry to add. */
function hookShape(agent: HookAgent, command: string): { list: (string | number)[]; entry: unknown; commandsOf: (entry: unknown) => unknown[] } {
  if (agent === 'copilot-cli') {
    return {
      list: ['hooks', 'userPromptSubmitted'],
      entry: { type: 'command', bash: command, timeoutSec: HOOK_TIMEOUT_S },
      commandsOf: (entry) => [(entry as { bash?: unknown; command?: unknown } | null)?.bash, (entry as { command?: unknown } | null)?.command],
    };
  }
  const commandsOf = (entry: unknown) => {
    const hooks = (entry as { hooks?: unknown } | null)?.hooks;
    return Array.isArray(hooks) ? hooks.map((h) => (h as { command?: unknown } | null)?.command) : [];
  };
  if (agent === 'vscode') {
    // VS Code's own format: PascalCase events, `command`, `timeout` in seconds.
    return {
      list: ['hooks', 'UserPromptSubmit'],
      entry: { type: 'command', command, timeout: HOOK_TIMEOUT_S },
      commandsOf: (entry) => [(entry as { command?: unknown } | null)?.command],
    };
  }
  if (agent === 'gemini-cli') {
    // Every prompt (no matcher); the answer comes only once after a compression. Gemini CLI's
    // timeout is in milliseconds.
    return {
      list: ['hooks', 'BeforeAgent'],
      entry: { hooks: [{ type: 'command', name: 'secretary-recall', command, timeout: HOOK_TIMEOUT_S * 1000 }] },
      commandsOf,
    };
  }
  return {
    list: ['hooks', 'SessionStart'],
    entry: { matcher: 'compact', hooks: [{ type: 'command', command, timeout: HOOK_TIMEOUT_S }] },
    commandsOf,
  };
}

const FORMAT = { formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' } };

/** What installing the recall hook changes in `text` (the file's text, `undefined` when absent).
 * An entry with a Secretary command already there is replaced, so a reinstall updates the path. */
export function planInstall(agent: HookAgent, file: string, text: string | undefined, command: string): HookPlan {
  const before = text;
  const base = text === undefined || text.trim() === '' ? '{}\n' : text;
  const shape = hookShape(agent, command);
  const current = listAt(base, shape.list);
  const kept = current.filter((entry) => !shape.commandsOf(entry).some((c) => isOwnCommand(c, agent)));
  const next = [...kept, shape.entry];
  let after = applyEdits(base, modify(base, shape.list, next, FORMAT));
  // A Copilot CLI (or VS Code) hooks file says its format version.
  if ((agent === 'copilot-cli' || agent === 'vscode') && valueAt(after, ['version']) === undefined) {
    after = applyEdits(after, modify(after, ['version'], 1, FORMAT));
  }
  return { agent, file, before, after, changed: after !== (before ?? '') };
}

/** What uninstalling changes: only entries whose command is a Secretary hook command go; a list
 * left empty goes too. */
export function planUninstall(agent: HookAgent, file: string, text: string | undefined): HookPlan {
  if (text === undefined) {
    return { agent, file, before: undefined, after: '', changed: false };
  }
  const shape = hookShape(agent, 'unused');
  const current = listAt(text, shape.list);
  const kept = current.filter((entry) => !shape.commandsOf(entry).some((c) => isOwnCommand(c, agent)));
  if (kept.length === current.length) {
    return { agent, file, before: text, after: text, changed: false };
  }
  const after = applyEdits(text, modify(text, shape.list, kept.length > 0 ? kept : undefined, FORMAT));
  return { agent, file, before: text, after, changed: after !== text };
}

function valueAt(text: string, at: (string | number)[]): unknown {
  let value: unknown = parse(text, [], { allowTrailingComma: true });
  for (const key of at) {
    value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  }
  return value;
}

function listAt(text: string, at: (string | number)[]): unknown[] {
  const value = valueAt(text, at);
  if (value === undefined) {
    return [];
  }
  if (!Array.isArray(value)) {
    throw new HookSetupError(`${at.join('.')} in the settings is not a list; not touched`);
  }
  return value;
}

/** Writes a plan: the old file to `<file>.bak`, then the new text atomically. */
export function applyPlan(plan: HookPlan): void {
  if (!plan.changed) {
    return;
  }
  // Read again: refuse when the file changed kind or content since the plan (a race with the agent).
  const now = readSettingsText(plan.file, plan.within);
  if (now !== plan.before) {
    throw new HookSetupError(`${plan.file} changed while the hook was set up; run the command again`);
  }
  if (plan.before !== undefined) {
    writeFileAtomic(`${plan.file}.bak`, Buffer.from(plan.before, 'utf8'));
  }
  writeFileAtomic(plan.file, Buffer.from(plan.after, 'utf8'));
}

/** A unified-style diff of a plan: the changed lines with three lines of context. */
export function planDiff(plan: HookPlan): string {
  const a = plan.before === undefined ? [] : plan.before.split('\n');
  const b = plan.after.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) {
    start++;
  }
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const from = Math.max(0, start - 3);
  const lines = [`--- ${plan.before === undefined ? '/dev/null' : plan.file}`, `+++ ${plan.file}`, `@@ -${from + 1} +${from + 1} @@`];
  for (let i = from; i < start; i++) {
    lines.push(` ${a[i]}`);
  }
  for (let i = start; i < endA; i++) {
    lines.push(`-${a[i]}`);
  }
  for (let i = start; i < endB; i++) {
    lines.push(`+${b[i]}`);
  }
  for (let i = endA; i < Math.min(a.length, endA + 3); i++) {
    lines.push(` ${a[i]}`);
  }
  return `${lines.join('\n')}\n`;
}

/** What "Set Up Recall Hooks" would change: for every agent whose home folder exists, the user-scope
 * install plan when it changes something, and the refusals (a settings file it must not touch). */
export function planSetup(cli: string, node: string, env: NodeJS.ProcessEnv = process.env, home: string = os.homedir()): { plans: HookPlan[]; refused: string[] } {
  const plans: HookPlan[] = [];
  const refused: string[] = [];
  for (const agent of HOOK_AGENTS) {
    // VS Code's own agent is set up wherever the command runs (its hooks folder may be new).
    try {
      if (agent !== 'vscode' && !fs.statSync(agentHome(agent, env, home)).isDirectory()) {
        continue;
      }
    } catch {
      continue;
    }
    const file = settingsFile(agent, 'user', env, home);
    try {
      const plan = planInstall(agent, file, readSettingsText(file), hookCommand(agent, cli, node));
      if (plan.changed) {
        plans.push(plan);
      }
    } catch (err) {
      refused.push(err instanceof HookSetupError ? err.message : `${file}: ${String(err)}`);
    }
  }
  return { plans, refused };
}
