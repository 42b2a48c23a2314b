import * as os from 'os';
import * as path from 'path';

import { isDir, isFile, listDir, type SessionFile } from './discovery';

/** The agents whose own session logs the Secretary reads, as the core names them. */
export type DialogSource = 'vscode' | 'copilot-cli' | 'claude-code' | 'codex';
export const DIALOG_SOURCES: readonly DialogSource[] = ['vscode', 'copilot-cli', 'claude-code', 'codex'];

/** Where each agent keeps its sessions on this machine (existing or not). */
export interface AgentRoots {
  /** `$COPILOT_HOME/session-state`, else `$XDG_STATE_HOME/.copilot/session-state` when that
   * exists, else `~/.copilot/session-state`. */
  copilot: string;
  /** `$CLAUDE_CONFIG_DIR/projects`, else `~/.claude/projects`. */
  claude: string;
  /** `$CODEX_HOME/sessions`, else `~/.codex/sessions`. */
  codex: string;
}

export function agentRoots(env: NodeJS.ProcessEnv = process.env, home: string = os.homedir()): AgentRoots {
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
  };
}

/**
 * Every agent session log under the roots: Copilot CLI `session-state/<id>/events.jsonl` and the
 * older `session-state/<id>.jsonl`, Claude Code `projects/<slug>/<id>.jsonl`, Codex
 * `sessions/YYYY/MM/DD/rollout-*.jsonl`. The workspace is left to the core, which reads the
 * folder from the log itself (`cwd`).
 */
export function agentSessionFiles(roots: AgentRoots = agentRoots()): SessionFile[] {
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
  for (const dir of codexDayDirs(roots.codex)) {
    for (const name of listDir(dir).sort()) {
      if (name.startsWith('rollout-') && name.endsWith('.jsonl') && isFile(path.join(dir, name))) {
        add(path.join(dir, name));
      }
    }
  }
  return found;
}

/** Folders to watch so that new and growing agent logs are read (like VS Code's session folders). */
export function agentWatchDirs(roots: AgentRoots = agentRoots()): string[] {
  const dirs = [roots.copilot, ...listDir(roots.copilot).map((n) => path.join(roots.copilot, n)).filter(isDir)];
  dirs.push(roots.claude, ...listDir(roots.claude).map((n) => path.join(roots.claude, n)).filter(isDir));
  dirs.push(roots.codex, ...codexDayDirs(roots.codex));
  return dirs.filter(isDir);
}

function codexDayDirs(root: string): string[] {
  const out: string[] = [];
  for (const y of listDir(root).filter((n) => /^\d{4}$/.test(n)).sort()) {
    for (const m of listDir(path.join(root, y)).filter((n) => /^\d{2}$/.test(n)).sort()) {
      for (const d of listDir(path.join(root, y, m)).filter((n) => /^\d{2}$/.test(n)).sort()) {
        out.push(path.join(root, y, m, d));
      }
    }
  }
  return out;
}

/**
 * The agent that runs this process, from the MCP `initialize` client name and the environment:
 * Claude Code (client `claude-code`, or `CLAUDECODE=1` in its children), Codex (`codex...`),
 * GitHub Copilot CLI (`...copilot...cli...`). `undefined`: unknown (VS Code, another client).
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

/** `--source` values, checked: every name must be a known source. */
export function parseSources(values: string[] | undefined): DialogSource[] {
  const out: DialogSource[] = [];
  for (const value of values ?? []) {
    for (const name of value.split(',').map((s) => s.trim()).filter(Boolean)) {
      if (!DIALOG_SOURCES.includes(name as DialogSource)) {
        throw new Error(`unknown source ${JSON.stringify(name)}; known: ${DIALOG_SOURCES.join(', ')}`);
      }
      out.push(name as DialogSource);
    }
  }
  return out;
}
