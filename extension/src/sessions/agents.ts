import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import type { DialogSource } from '../core/generated/DialogSource';
import { readBounded } from '../host/boundedRead';
import { cursorSessionFiles, cursorUserDirs, cursorWatchDirs } from './cursor';
import { defaultUserDataDirs, folderKey, isDir, isFile, listDir, type SessionFile } from './discovery';
import { KILO_DB, kiloDataDir, openCodeDataDir, openCodeSessionFiles } from './opencode';

/** The agents whose own session logs the Secretary reads, as the core names them. */
export type { DialogSource };

/** The `globalStorage` folders (publisher.name, as VS Code spells them: lower case) of the VS Code
 * agent extensions that keep each task in `tasks/<taskId>/ui_messages.json`: Cline and its forks
 * Roo Code and Kilo Code. */
export const TASK_EXTENSIONS: readonly string[] = ['saoudrizwan.claude-dev', 'rooveterinaryinc.roo-cline', 'kilocode.kilo-code'];

/** Where each agent keeps its sessions on this machine (existing or not). */
export interface AgentRoots {
  /** `$COPILOT_HOME/session-state`, else `$XDG_STATE_HOME/.copilot/session-state` when that
   * exists, else `~/.copilot/session-state`. */
  copilot: string;
  /** `$CLAUDE_CONFIG_DIR/projects`, else `~/.claude/projects`. */
  claude: string;
  /** `$CODEX_HOME/sessions`, else `~/.codex/sessions`. */
  codex: string;
  /** `$GEMINI_CLI_HOME/.gemini/tmp`, else `~/.gemini/tmp`: one folder per project, its sessions
   * in `chats/`. */
  gemini: string;
  /** `~/.qwen/projects`: one folder per project, its sessions in `chats/`. */
  qwen: string;
  /** `<user data>/User/globalStorage/<extension>/tasks` of Cline, Roo Code and Kilo Code, for every
   * VS Code user-data folder found (`defaultUserDataDirs`): one folder per task. */
  tasks: string[];
  /** `$CONTINUE_GLOBAL_DIR/sessions`, else `~/.continue/sessions`: one `<sessionId>.json` per
   * session beside the `sessions.json` index. */
  continue: string;
  /** OpenCode's data folder, `$XDG_DATA_HOME/opencode`, else `~/.local/share/opencode` (on every
   * platform): its sessions are in the SQLite database `opencode.db` there (`opencode.ts`). */
  opencode: string;
  /** Kilo Code's CLI's data folder, `$XDG_DATA_HOME/kilo`, else `~/.local/share/kilo`: its sessions
   * are in `kilo.db` there, OpenCode's tables (`opencode.ts`). Absent: not read. */
  kilo?: string;
  /** The folders whose `.aider.chat.history.md` is read (Aider writes it in the folder it runs
   * in): the hosts' workspace folders, and the folder of `$AIDER_CHAT_HISTORY_FILE`. */
  aider: string[];
  /** Cursor's `User` folders (`~/.config/Cursor/User`, `~/Library/Application Support/Cursor/User`,
   * `%APPDATA%\Cursor\User`): their SQLite `state.vscdb` databases (`sessions/cursor.ts`).
   * Absent: Cursor is not read (the hooks look for one agent's log only). */
  cursor?: string[];
}

/** The name Aider gives its chat history, in the folder it runs in. */
export const AIDER_HISTORY = '.aider.chat.history.md';

export function agentRoots(
  env: NodeJS.ProcessEnv = process.env,
  home: string = os.homedir(),
  userDataDirs: string[] = defaultUserDataDirs(process.platform, env, home),
): AgentRoots {
  let copilot = path.join(env.COPILOT_HOME || path.join(home, '.copilot'), 'session-state');
  if (!env.COPILOT_HOME && env.XDG_STATE_HOME) {
    const xdg = path.join(env.XDG_STATE_HOME, '.copilot', 'session-state');
    if (isDir(xdg)) {
      copilot = xdg;
    }
  }
  return {
    copilot,
    claude: path.join(env.CLAUDE_CONFIG_DIR || path.join(home, '.claude'), 'projects'),
    codex: path.join(env.CODEX_HOME || path.join(home, '.codex'), 'sessions'),
    gemini: path.join(env.GEMINI_CLI_HOME || home, '.gemini', 'tmp'),
    qwen: path.join(home, '.qwen', 'projects'),
    continue: path.join(env.CONTINUE_GLOBAL_DIR || path.join(home, '.continue'), 'sessions'),
    opencode: openCodeDataDir(env, home),
    kilo: kiloDataDir(env, home),
    aider: env.AIDER_CHAT_HISTORY_FILE && path.basename(env.AIDER_CHAT_HISTORY_FILE) === AIDER_HISTORY ? [path.dirname(env.AIDER_CHAT_HISTORY_FILE)] : [],
    tasks: userDataDirs.flatMap((dir) => TASK_EXTENSIONS.map((ext) => path.join(dir, 'User', 'globalStorage', ext, 'tasks'))),
    cursor: cursorUserDirs(process.platform, env, home),
  };
}

/** The user-data folders whose Cline-family tasks are read: this VS Code's own (`own`, when the
 * host knows it: a portable or `--user-data-dir` install is not among the defaults) and every
 * default one found, each once. */
export function taskUserDataDirs(own: string | undefined, env: NodeJS.ProcessEnv = process.env, home: string = os.homedir()): string[] {
  const dirs = [...(own === undefined ? [] : [own]), ...defaultUserDataDirs(process.platform, env, home)];
  return [...new Set(dirs.map((dir) => path.resolve(dir)))];
}

/** The roots as a list, for messages. */
export function agentRootList(roots: AgentRoots): string[] {
  return [
    roots.copilot,
    roots.claude,
    roots.codex,
    roots.gemini,
    roots.qwen,
    roots.continue,
    roots.opencode,
    ...(roots.kilo ? [roots.kilo] : []),
    ...roots.aider,
    ...roots.tasks.filter(isDir),
    ...(roots.cursor ?? []).filter(isDir),
  ];
}

/** The most a `.project_root` file is read (a path). */
const PROJECT_ROOT_MAX = 4096;

/** The folder a Gemini CLI project folder is for: its `.project_root` file (the log does not say).
 * A missing, odd or oversized file gives none: the session then counts for every workspace. */
function geminiProjectRoot(projectDir: string): string | undefined {
  try {
    const text = readBounded(path.join(projectDir, '.project_root'), { maxBytes: PROJECT_ROOT_MAX, noFollow: true })
      .toString('utf8')
      .trim();
    return text && path.isAbsolute(text) && !/[\0\n]/.test(text) ? text : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Every agent session log under the roots: Copilot CLI `session-state/<id>/events.jsonl` and the
 * older `session-state/<id>.jsonl`, Claude Code `projects/<slug>/<id>.jsonl`, Codex
 * `sessions/YYYY/MM/DD/rollout-*.jsonl`. The workspace is left to the core, which reads the
 * folder from the log itself (`cwd`).
 */
export function agentSessionFiles(roots: AgentRoots = agentRoots(), problems?: Map<string, string>): SessionFile[] {
  const found: SessionFile[] = [];
  const add = (file: string) => found.push({ path: file, workspace: undefined, kind: 'agent' });
  for (const name of listDir(roots.copilot).sort()) {
    const entry = path.join(roots.copilot, name);
    if (name.endsWith('.jsonl') && isFile(entry)) {
      add(entry);
    } else if (isFile(path.join(entry, 'events.jsonl'))) {
      add(path.join(entry, 'events.jsonl'));
    }
  }
  for (const slug of listDir(roots.claude).sort()) {
    const dir = path.join(roots.claude, slug);
    for (const name of listDir(dir).sort()) {
      if (name.endsWith('.jsonl') && isFile(path.join(dir, name))) {
        add(path.join(dir, name));
      }
    }
  }
  for (const dir of codexDateDirs(roots.codex).days) {
    for (const name of listDir(dir).sort()) {
      if (name.startsWith('rollout-') && name.endsWith('.jsonl') && isFile(path.join(dir, name))) {
        add(path.join(dir, name));
      }
    }
  }
  for (const project of listDir(roots.gemini).sort()) {
    const chats = path.join(roots.gemini, project, 'chats');
    const names = listDir(chats).filter((name) => name.startsWith('session-') && name.endsWith('.jsonl'));
    if (names.length === 0) {
      continue;
    }
    const folder = geminiProjectRoot(path.join(roots.gemini, project));
    for (const name of names.sort()) {
      if (isFile(path.join(chats, name))) {
        found.push({ path: path.join(chats, name), workspace: folder === undefined ? undefined : folderKey(folder), kind: 'agent' });
      }
    }
  }
  for (const project of listDir(roots.qwen).sort()) {
    const chats = path.join(roots.qwen, project, 'chats');
    for (const name of listDir(chats).sort()) {
      if (name.endsWith('.jsonl') && isFile(path.join(chats, name))) {
        add(path.join(chats, name));
      }
    }
  }
  for (const name of listDir(roots.continue).sort()) {
    if (name.endsWith('.json') && name !== 'sessions.json' && isFile(path.join(roots.continue, name))) {
      add(path.join(roots.continue, name));
    }
  }
  // OpenCode's sessions from its database; Aider's history of each folder read (one per folder).
  found.push(...openCodeSessionFiles(roots.opencode, problems));
  if (roots.kilo) {
    found.push(...openCodeSessionFiles(roots.kilo, problems, KILO_DB));
  }
  for (const dir of new Set(roots.aider)) {
    if (isFile(path.join(dir, AIDER_HISTORY))) {
      add(path.join(dir, AIDER_HISTORY));
    }
  }
  // Cline, Roo Code, Kilo Code: the core reads the folder from the task's first request.
  for (const tasks of roots.tasks) {
    for (const task of listDir(tasks).sort()) {
      const file = path.join(tasks, task, 'ui_messages.json');
      if (isFile(file)) {
        add(file);
      }
    }
  }
  // Cursor: one entry per conversation of its SQLite databases, with the workspace they name.
  found.push(...cursorSessionFiles(roots.cursor ?? []));
  return found;
}

/**
 * At most this many folders of one root are watched, the most recently changed: each is an
 * inotify watch, which the user shares with VS Code's own watcher (a process making 100,000
 * session folders would use them all up). A log in an older folder is read by the next full sync.
 */
export const MAX_WATCHED_SUBDIRS = 1000;

/** The `max` folders of `dirs` changed last (all of them when there are no more). */
function newest(dirs: string[], max: number): string[] {
  if (dirs.length <= max) {
    return dirs;
  }
  const changed = (dir: string) => {
    try {
      return fs.statSync(dir).mtimeMs;
    } catch {
      return 0;
    }
  };
  return dirs
    .map((dir) => ({ dir, at: changed(dir) }))
    .sort((a, b) => b.at - a.at)
    .slice(0, max)
    .map((d) => d.dir);
}

/**
 * Folders to watch so that new and growing agent logs are read (like VS Code's session folders):
 * each root and the folders a new log appears in, plus Codex's year and month folders (a new
 * day's folder appears in its month: without them, the first session after midnight waited for a
 * Refresh). A root that does not exist yet is looked for by `agentWatchNames`. Cline-family
 * tasks: each `tasks` folder and each task's folder (the extension rewrites `ui_messages.json`
 * there); before the first task, the extension's own `globalStorage` folder when it exists, never
 * `globalStorage` itself (VS Code's state database lives there).
 */
export function agentWatchDirs(roots: AgentRoots = agentRoots()): string[] {
  const subdirs = (dir: string) => newest(listDir(dir).map((n) => path.join(dir, n)).filter(isDir), MAX_WATCHED_SUBDIRS);
  const dirs = [roots.copilot, ...subdirs(roots.copilot), roots.claude, ...subdirs(roots.claude)];
  for (const root of [roots.gemini, roots.qwen]) {
    const projects = subdirs(root);
    dirs.push(root, ...projects, ...projects.map((p) => path.join(p, 'chats')));
  }
  const codex = codexDateDirs(roots.codex);
  dirs.push(roots.codex, ...codex.years, ...codex.months, ...codex.days);
  for (const tasks of roots.tasks) {
    dirs.push(...(isDir(tasks) ? [tasks, ...subdirs(tasks)] : [path.dirname(tasks)]));
  }
  // OpenCode writes its database's WAL there; Aider appends its history in the folder it runs in.
  const kilo = roots.kilo ? [roots.kilo] : [];
  dirs.push(roots.continue, roots.opencode, ...kilo, ...roots.aider, ...cursorWatchDirs(roots.cursor ?? []));
  return [...new Set(dirs)].filter(isDir);
}

/**
 * Where an agent's root does not exist yet (the agent not run on this machine since, or not
 * installed when the window opened), the nearest folder above it that does, with the name that
 * will appear there: `.claude` in the home folder, `projects` in `~/.claude`, `kilo` in
 * `~/.local/share`. The sync watches those folders for those names alone (`SessionScope.watchNames`),
 * so that the home folder's own dotfiles, written all the time, wake nothing; when the name
 * appears, a full sync lists the agent and the next folder down is watched, until the root is.
 */
export function agentWatchNames(roots: AgentRoots): Map<string, Set<string>> {
  const named = new Map<string, Set<string>>();
  for (const root of agentRootList(roots)) {
    let missing = path.resolve(root);
    if (isDir(missing)) {
      continue;
    }
    let parent = path.dirname(missing);
    while (parent !== missing && !isDir(parent)) {
      missing = parent;
      parent = path.dirname(parent);
    }
    if (parent !== missing) {
      named.set(parent, (named.get(parent) ?? new Set()).add(path.basename(missing)));
    }
  }
  return named;
}

/** Codex's `sessions/YYYY`, `YYYY/MM` and `YYYY/MM/DD` folders. */
function codexDateDirs(root: string): { years: string[]; months: string[]; days: string[] } {
  const within = (dir: string, pattern: RegExp) =>
    listDir(dir)
      .filter((n) => pattern.test(n))
      .sort()
      .map((n) => path.join(dir, n));
  const years = within(root, /^\d{4}$/);
  const months = years.flatMap((year) => within(year, /^\d{2}$/));
  const days = months.flatMap((month) => within(month, /^\d{2}$/));
  return { years, months, days };
}

/**
 * The agent that runs this process, from the MCP `initialize` client name and the environment:
 * Claude Code (client `claude-code`, or `CLAUDECODE=1` in its children), Codex (`codex...`),
 * GitHub Copilot CLI (`...copilot...cli...`), Gemini CLI, Qwen Code, OpenCode (`opencode`), Kilo
 * Code's CLI (`kilo`), Continue's `cn` (`continue...`). `undefined`: unknown (VS Code, another client).
 */
export function agentOfClient(clientName: string | undefined, env: NodeJS.ProcessEnv = process.env): DialogSource | undefined {
  const name = (clientName ?? '').toLowerCase();
  if (name.includes('claude')) {
    return 'claude-code';
  }
  if (name.includes('codex')) {
    return 'codex';
  }
  if (name.includes('copilot') && name.includes('cli')) {
    return 'copilot-cli';
  }
  if (name.includes('gemini')) {
    return 'gemini-cli';
  }
  if (name.includes('qwen')) {
    return 'qwen-code';
  }
  if (name === 'opencode') {
    return 'opencode';
  }
  // Kilo Code's CLI (7.7.7, measured) says exactly `kilo`; built on OpenCode, it also sets
  // `OPENCODE=1` for its servers, so that variable could never tell OpenCode apart.
  if (name === 'kilo') {
    return 'kilo-code';
  }
  if (name.startsWith('continue')) {
    return 'continue';
  }
  if (name.includes('visual studio code') || name.includes('vscode')) {
    return undefined;
  }
  if (env.CLAUDECODE === '1') {
    return 'claude-code';
  }
  if (env.CODEX_THREAD_ID || env.CODEX_SANDBOX) {
    return 'codex';
  }
  if (env.COPILOT_CLI === '1') {
    return 'copilot-cli';
  }
  return undefined;
}

/** `--source` values (repeated or comma-separated), checked against `known`, the core's own list
 * (`WasmCore.listing.sources`, written by the module at build time): every name must be one. */
export function parseSources(values: string[] | undefined, known: readonly DialogSource[]): DialogSource[] {
  const out: DialogSource[] = [];
  for (const value of values ?? []) {
    for (const name of value.split(',').map((s) => s.trim()).filter(Boolean)) {
      if (!known.includes(name as DialogSource)) {
        throw new Error(`unknown source ${JSON.stringify(name)}; known: ${known.join(', ')}`);
      }
      out.push(name as DialogSource);
    }
  }
  return out;
}
