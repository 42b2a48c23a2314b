// Other agents' own histories, end to end: a fake HOME seeded with a Copilot CLI, a Claude Code and
// a Codex session of one project folder (and the real shared samples of other folders), then
// `node dist/cli.js mcp` started in that folder over real stdio, as each agent would start it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

import { findSharedFixtures, sharedFixturesOrSkip } from '../sharedFixtures';
import { ROOT, tempDir } from './helpers';

const CLI = path.join(ROOT, 'dist', 'cli.js');
/** The real agent logs of shared/, when found (seeded as other folders' sessions when present). */
const AGENT_FIXTURES = findSharedFixtures(ROOT, 'agent-sessions').dir;

type Content = { type: string; text: string }[];

function write(file: string, lines: unknown[]): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
}

/** A sessions service over the agents' folders of `roots`, watched as the extension watches them. */
async function watchingAgents(roots: import('../../src/sessions/agents').AgentRoots, debounceMs: number) {
  const { WasmCore } = await import('../../src/core/wasm');
  const { silentLogger } = await import('../../src/log');
  const { agentSessionFiles, agentWatchDirs, agentWatchNames } = await import('../../src/sessions/agents');
  const { DialogSessionsService } = await import('../../src/sessions/dialogSessionsService');
  const core = new WasmCore(path.join(ROOT, 'dist', 'wasm'), silentLogger);
  return new DialogSessionsService(
    core,
    { files: () => agentSessionFiles(roots), watchDirs: () => agentWatchDirs(roots), watchNames: () => agentWatchNames(roots) },
    silentLogger,
    { workspace: undefined, debounceMs },
  );
}

/** The first request of a dialog once `service` has read it (waiting up to 5 s for the watchers). */
async function firstRequestOnceRead(
  service: import('../../src/sessions/dialogSessionsService').DialogSessionsService,
  source: string,
  id: string,
): Promise<string | undefined> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const text = service.findDialog(source, id)?.dialog.requests[0]?.text;
    if (text !== undefined || Date.now() > deadline) {
      return text;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A fake HOME with one session of each agent for `project`, the Copilot CLI one newest. */
function seedHome(home: string, project: string): void {
  write(path.join(home, '.claude', 'projects', '-proj', 'c1aude00-0000-4000-8000-000000000001.jsonl'), [
    { type: 'permission-mode', permissionMode: 'default', sessionId: 'c1aude00-0000-4000-8000-000000000001' },
    {
      parentUuid: null,
      type: 'user',
      message: { role: 'user', content: 'claude: first prompt' },
      uuid: 'u1',
      timestamp: '2026-03-01T10:00:00.000Z',
      sessionId: 'c1aude00-0000-4000-8000-000000000001',
      cwd: project,
    },
    {
      parentUuid: 'u1',
      type: 'user',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'not a prompt' }] },
      uuid: 'u2',
      timestamp: '2026-03-01T10:00:05.000Z',
      sessionId: 'c1aude00-0000-4000-8000-000000000001',
      cwd: project,
    },
  ]);
  write(path.join(home, '.codex', 'sessions', '2026', '03', '02', 'rollout-2026-03-02T10-00-00-c0dex000-0000-4000-8000-000000000002.jsonl'), [
    {
      timestamp: '2026-03-02T10:00:00.000Z',
      type: 'session_meta',
      payload: { id: 'c0dex000-0000-4000-8000-000000000002', timestamp: '2026-03-02T10:00:00.000Z', cwd: project },
    },
    {
      timestamp: '2026-03-02T10:00:01.000Z',
      type: 'response_item',
      payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: `<environment_context><cwd>${project}</cwd></environment_context>` }] },
    },
    { timestamp: '2026-03-02T10:00:01.000Z', type: 'event_msg', payload: { type: 'user_message', message: 'codex: first prompt' } },
  ]);
  write(path.join(home, '.copilot', 'session-state', 'c0p11070-0000-4000-8000-000000000003', 'events.jsonl'), [
    {
      type: 'session.start',
      data: { sessionId: 'c0p11070-0000-4000-8000-000000000003', startTime: '2026-03-03T10:00:00.000Z', context: { cwd: project } },
      id: 'e1',
      timestamp: '2026-03-03T10:00:00.000Z',
      parentId: null,
    },
    {
      type: 'user.message',
      data: { content: 'copilot: first prompt\n\n<current_datetime>2026-03-03T10:00:01.000Z</current_datetime>', attachments: [] },
      id: 'e2',
      timestamp: '2026-03-03T10:00:01.000Z',
      parentId: 'e1',
    },
  ]);
  // The real samples, in other folders: they must not count as this folder's dialogs.
  if (AGENT_FIXTURES) {
    const copy = (name: string, to: string) => {
      fs.mkdirSync(path.dirname(to), { recursive: true });
      fs.copyFileSync(path.join(AGENT_FIXTURES, name), to);
    };
    copy('claude-code__4thehalibit__omarchy-backup__8a3e5a2e.jsonl', path.join(home, '.claude', 'projects', '-home-vwestberg-Claude', '8a3e5a2e.jsonl'));
    copy('codex__Xu-Wentao__dotfile__rollout-019d6d75.jsonl', path.join(home, '.codex', 'sessions', '2026', '04', '08', 'rollout-019d6d75.jsonl'));
    copy('copilot-cli__Tokisaki7-Dev__HAWZX-AI__27d7ef99.jsonl', path.join(home, '.copilot', 'session-state', '27d7ef99.jsonl'));
  }
}

function homeEnv(home: string): Record<string, string> {
  const env: Record<string, string> = {
    ...getDefaultEnvironment(),
    HOME: home,
    USERPROFILE: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    SECRETARY_STATE_DIR: path.join(home, 'state'),
  };
  for (const key of ['CLAUDECODE', 'CODEX_HOME', 'COPILOT_HOME', 'CLAUDE_CONFIG_DIR', 'XDG_STATE_HOME']) {
    delete env[key];
  }
  return env;
}

async function firstRequestAs(clientName: string, home: string, project: string, extra: string[] = []) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', ...extra],
    env: homeEnv(home),
    cwd: project,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: clientName, version: '1.0.0' });
  await client.connect(transport);
  try {
    const result = await client.callTool({ name: 'secretary_get_first_request', arguments: {} });
    const text = (result.content as Content)[0]?.text ?? '';
    const dialogs = await client.callTool({ name: 'secretary_list_dialogs', arguments: {} });
    return {
      first: JSON.parse(text) as { success: boolean; firstRequest: string; source: string; sessionId: string },
      dialogs: JSON.parse((dialogs.content as Content)[0]?.text ?? '') as { dialogs: { source: string; sessionId: string }[] },
      stderr,
    };
  } finally {
    await client.close();
  }
}

/** A home folder and a project folder (created, by its real path) under `dir`. */
function homeAndProject(dir: string, name: string): { home: string; project: string } {
  fs.mkdirSync(path.join(dir, name), { recursive: true });
  return { home: path.join(dir, 'home'), project: fs.realpathSync(path.join(dir, name)) };
}

test('mcp in a project folder: each agent gets its own session as the current dialog', async () => {
  const tmp = tempDir();
  try {
    const { home, project } = homeAndProject(tmp.dir, 'my project');
    seedHome(home, project);
    for (const [client, source, text] of [
      ['claude-code', 'claude-code', 'claude: first prompt'],
      ['codex-mcp-client', 'codex', 'codex: first prompt'],
      ['github-copilot-cli', 'copilot-cli', 'copilot: first prompt'],
    ] as const) {
      const { first, dialogs, stderr } = await firstRequestAs(client, home, project);
      assert.equal(first.success, true, `${client}: ${JSON.stringify(first)} ${stderr}`);
      assert.equal(first.firstRequest, text, client);
      assert.equal(first.source, source, client);
      // Only this folder's three dialogs, one per agent, each with its source.
      assert.deepEqual(dialogs.dialogs.map((d) => d.source).sort(), ['claude-code', 'codex', 'copilot-cli'], client);
    }
    // An unknown client gets the folder's newest dialog (Copilot CLI's); --current-from overrides.
    assert.equal((await firstRequestAs('some-client', home, project)).first.source, 'copilot-cli');
    assert.equal((await firstRequestAs('some-client', home, project, ['--current-from', 'codex'])).first.source, 'codex');
    // --source narrows what is served.
    const narrowed = await firstRequestAs('claude-code', home, project, ['--source', 'codex']);
    assert.deepEqual(narrowed.dialogs.dialogs.map((d) => d.source), ['codex']);
    assert.equal(narrowed.first.source, 'codex');
  } finally {
    tmp.cleanup();
  }
});

/** A folder's URI as VS Code writes it in `workspace.json` (its `encodeURIComponent` also encodes
 * `!'()*`, which Node's `pathToFileURL` leaves). */
function vscodeFolderUri(folder: string): string {
  const encode = (segment: string) => encodeURIComponent(segment).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `file://${folder.split('/').map(encode).join('/')}`;
}

test("a folder VS Code spells otherwise than Node: its VS Code chats and an agent's sessions are one workspace", async () => {
  const tmp = tempDir();
  try {
    const { home, project } = homeAndProject(tmp.dir, "it's (v2)!");
    const storage = path.join(home, '.config', 'Code', 'User', 'workspaceStorage', '0123abcd');
    fs.mkdirSync(path.join(storage, 'chatSessions'), { recursive: true });
    const folder = vscodeFolderUri(project);
    assert.match(folder, /%28v2%29%21$/, 'spelled as VS Code does');
    fs.writeFileSync(path.join(storage, 'workspace.json'), JSON.stringify({ folder }));
    fs.writeFileSync(
      path.join(storage, 'chatSessions', 'f01de500-0000-4000-8000-000000000001.json'),
      JSON.stringify({
        version: 3,
        sessionId: 'f01de500-0000-4000-8000-000000000001',
        creationDate: Date.parse('2026-03-04T10:00:00Z'),
        requests: [{ requestId: 'r1', timestamp: Date.parse('2026-03-04T10:00:00Z'), message: { text: 'vscode: first prompt', parts: [] }, response: [] }],
      }),
    );
    write(path.join(home, '.claude', 'projects', '-its-v2', 'c1aude00-0000-4000-8000-0000000000f1.jsonl'), [
      {
        type: 'user',
        message: { role: 'user', content: 'claude: first prompt' },
        uuid: 'u1',
        timestamp: '2026-03-01T10:00:00.000Z',
        sessionId: 'c1aude00-0000-4000-8000-0000000000f1',
        cwd: project,
      },
    ]);
    const { dialogs, stderr } = await firstRequestAs('claude-code', home, project);
    assert.deepEqual(dialogs.dialogs.map((d) => d.source).sort(), ['claude-code', 'vscode'], `${JSON.stringify(dialogs)} ${stderr}`);
  } finally {
    tmp.cleanup();
  }
});

test('mcp and call start with no session source at all', async () => {
  const tmp = tempDir();
  try {
    const home = path.join(tmp.dir, 'empty-home');
    const project = path.join(tmp.dir, 'proj');
    fs.mkdirSync(home, { recursive: true });
    fs.mkdirSync(project, { recursive: true });
    const call = spawnSync(process.execPath, [CLI, 'call', 'list_project_flags'], {
      cwd: project,
      env: homeEnv(home),
      encoding: 'utf8',
    });
    assert.equal(call.status, 0, call.stderr + call.stdout);
    assert.equal((JSON.parse(call.stdout) as { success: boolean }).success, true, call.stdout);
    const { first } = await firstRequestAs('claude-code', home, project);
    assert.equal(first.success, false);
  } finally {
    tmp.cleanup();
  }
});

test('show --json gives the user prompts of each shared agent sample', (t) => {
  const found = sharedFixturesOrSkip(ROOT, 'agent-sessions', (why) => t.skip(why));
  if (!found) {
    return;
  }
  const dir: string = found;
  const read = (name: string) =>
    fs
      .readFileSync(path.join(dir, name), 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as Record<string, any>);
  // Independent readings, by each format's documented rule.
  const expected: Record<string, string[]> = {
    'copilot-cli__Tokisaki7-Dev__HAWZX-AI__27d7ef99.jsonl': read('copilot-cli__Tokisaki7-Dev__HAWZX-AI__27d7ef99.jsonl')
      .filter((v) => v.type === 'user.message')
      .map((v) => String(v.data.content).replace(/\s*<current_datetime>[^<]*<\/current_datetime>\s*$/, '')),
    'claude-code__4thehalibit__omarchy-backup__8a3e5a2e.jsonl': read('claude-code__4thehalibit__omarchy-backup__8a3e5a2e.jsonl').flatMap((v) => {
      if (v.type === 'attachment' && v.attachment?.type === 'queued_command') {
        return [String(v.attachment.prompt)];
      }
      if (v.type !== 'user' || v.isMeta || v.isSidechain) {
        return [];
      }
      const c = v.message.content;
      const text = typeof c === 'string' ? c : c.some((p: any) => p.type === 'tool_result') ? '' : c.filter((p: any) => p.type === 'text').map((p: any) => p.text).join('\n');
      if (!text || /^(\[Request interrupted|<bash-stdout>|<local-command-)/.test(text)) {
        return [];
      }
      const bash = /^<bash-input>([\s\S]*)<\/bash-input>$/.exec(text);
      return [bash ? `!${bash[1]}` : text];
    }),
    'codex__Xu-Wentao__dotfile__rollout-019d6d75.jsonl': read('codex__Xu-Wentao__dotfile__rollout-019d6d75.jsonl')
      .filter((v) => v.type === 'event_msg' && v.payload.type === 'user_message')
      .map((v) => String(v.payload.message)),
  };
  const sources: Record<string, string> = {
    'copilot-cli__Tokisaki7-Dev__HAWZX-AI__27d7ef99.jsonl': 'copilot-cli',
    'claude-code__4thehalibit__omarchy-backup__8a3e5a2e.jsonl': 'claude-code',
    'codex__Xu-Wentao__dotfile__rollout-019d6d75.jsonl': 'codex',
  };
  for (const [name, prompts] of Object.entries(expected)) {
    assert.ok(prompts.length >= 2, name);
    const plain = spawnSync(process.execPath, [CLI, 'show', path.join(dir, name), '--json'], { encoding: 'utf8' });
    assert.equal(plain.status, 0, plain.stderr);
    const dialog = JSON.parse(plain.stdout) as { requests: { text: string }[]; source: string };
    assert.deepEqual(dialog.requests.map((r) => r.text), prompts, name);
    const forced = spawnSync(process.execPath, [CLI, 'show', path.join(dir, name), '--json', '--source', sources[name]], { encoding: 'utf8' });
    assert.equal(forced.status, 0, forced.stderr);
    const dialog2 = JSON.parse(forced.stdout) as { requests: { text: string }[]; source: string };
    assert.equal(dialog2.source, sources[name]);
    assert.deepEqual(dialog2.requests.map((r) => r.text), prompts, name);
  }
});

/** `dir/project`, created, with every agent's sessions of it seeded under the home `dir`. */
function seededProject(dir: string): string {
  const project = path.join(dir, 'project');
  fs.mkdirSync(project, { recursive: true });
  seedHome(dir, project);
  return project;
}

test("a chat of another agent in VS Code (copilotcli:, claude-code:) is answered from that agent's own log", async () => {
  const { callerOf } = await import('../../src/chat/caller');
  const { WasmCore } = await import('../../src/core/wasm');
  const { silentLogger } = await import('../../src/log');
  const { agentSessionFiles, agentRoots } = await import('../../src/sessions/agents');
  const { DialogSessionsService } = await import('../../src/sessions/dialogSessionsService');
  const home = tempDir();
  try {
    seededProject(home.dir);
    const roots = agentRoots({ HOME: home.dir }, home.dir);
    const core = new WasmCore(path.join(ROOT, 'dist', 'wasm'), silentLogger);
    const service = new DialogSessionsService(core, { files: () => agentSessionFiles(roots), watchDirs: () => [] }, silentLogger, {
      workspace: undefined,
    });
    await service.start(false);
    const ask = async (resource: string) => {
      const caller = callerOf({ sessionResource: resource });
      assert.ok(caller);
      const live = async () => ({ error: 'not a VS Code chat' });
      return JSON.parse(await service.invokeTool('get_first_request', {}, { caller, live })) as Record<string, unknown>;
    };
    const claude = await ask('claude-code:/c1aude00-0000-4000-8000-000000000001');
    assert.equal(claude.success, true, JSON.stringify(claude));
    assert.equal(claude.firstRequest, 'claude: first prompt');
    assert.equal(claude.source, 'claude-code');
    assert.equal(claude.dialogFrom, 'caller');
    const copilot = await ask('copilotcli:/c0p11070-0000-4000-8000-000000000003');
    assert.equal(copilot.firstRequest, 'copilot: first prompt', JSON.stringify(copilot));
    assert.equal(copilot.source, 'copilot-cli');
    const unknown = await ask('copilotcli:/00000000-0000-4000-8000-00000000dead');
    assert.equal(unknown.error_type, 'caller_not_found', JSON.stringify(unknown));
    const other = await ask('some-other-agent:/x');
    assert.equal(other.error_type, 'unsupported_chat', JSON.stringify(other));
  } finally {
    home.cleanup();
  }
});

test("agents' folders are watched: a new Codex day, a new Claude project and a Copilot CLI root made after the start are read without a Refresh", async () => {
  const { agentRoots } = await import('../../src/sessions/agents');
  const home = tempDir();
  try {
    const project = seededProject(home.dir);
    // Copilot CLI installed (its home exists) but no session yet: `session-state` comes later.
    fs.rmSync(path.join(home.dir, '.copilot', 'session-state'), { recursive: true });
    const roots = agentRoots({ HOME: home.dir }, home.dir);
    const service = await watchingAgents(roots, 50);
    try {
      await service.start(true);
      const codexId = 'c0dex000-0000-4000-8000-0000000000d2';
      const claudeId = 'c1aude00-0000-4000-8000-0000000000d2';
      const copilotId = 'c0p11070-0000-4000-8000-0000000000d2';
      assert.equal(service.findDialog('codex', codexId), undefined);
      // Each step alone, so that one folder's event does not trigger the full sync that finds
      // another's file.
      const firstRequest = (source: string, id: string) => firstRequestOnceRead(service, source, id);
      // The next day: Codex makes `2026/03/03` in the month folder, then its log.
      write(path.join(roots.codex, '2026', '03', '03', `rollout-2026-03-03T00-01-00-${codexId}.jsonl`), [
        { timestamp: '2026-03-03T00:01:00.000Z', type: 'session_meta', payload: { id: codexId, timestamp: '2026-03-03T00:01:00.000Z', cwd: project } },
        { timestamp: '2026-03-03T00:01:01.000Z', type: 'event_msg', payload: { type: 'user_message', message: 'codex: after midnight' } },
      ]);
      assert.equal(await firstRequest('codex', codexId), 'codex: after midnight');
      // Copilot CLI's first session on this machine makes `session-state`.
      write(path.join(roots.copilot, copilotId, 'events.jsonl'), [
        { type: 'session.start', data: { sessionId: copilotId, context: { cwd: project } }, id: 'e1', timestamp: '2026-03-03T00:03:00.000Z' },
        { type: 'user.message', data: { content: 'copilot: first session here' }, id: 'e2', timestamp: '2026-03-03T00:03:01.000Z' },
      ]);
      assert.equal(await firstRequest('copilot-cli', copilotId), 'copilot: first session here');
      // Claude Code in another project folder.
      write(path.join(roots.claude, '-other', `${claudeId}.jsonl`), [
        { parentUuid: null, type: 'user', message: { role: 'user', content: 'claude: new project' }, uuid: 'u9', timestamp: '2026-03-03T00:02:00.000Z', sessionId: claudeId, cwd: project },
      ]);
      assert.equal(await firstRequest('claude-code', claudeId), 'claude: new project');
    } finally {
      service.dispose();
    }
  } finally {
    home.cleanup();
  }
});

test('an agent first run after the start (its home folder made then) is read without a Refresh; other dotfiles of the home folder wake nothing', async () => {
  const { agentRoots, agentWatchDirs, agentWatchNames } = await import('../../src/sessions/agents');
  const home = tempDir();
  try {
    const roots = agentRoots({ HOME: home.dir }, home.dir, []);
    // No agent has run here: the home folder is watched for their homes' names alone.
    const named = agentWatchNames(roots);
    assert.deepEqual([...named.keys()], [home.dir]);
    assert.deepEqual([...(named.get(home.dir) ?? [])].sort(), ['.claude', '.codex', '.continue', '.copilot', '.gemini', '.local', '.qwen']);
    assert.ok(!agentWatchDirs(roots).includes(home.dir), 'the home folder is never watched for everything');
    const service = await watchingAgents(roots, 20);
    try {
      await service.start(true);
      const before = service.sync.syncCount;
      for (let i = 0; i < 5; i += 1) {
        fs.writeFileSync(path.join(home.dir, '.bash_history'), `ls ${i}\n`);
        fs.writeFileSync(path.join(home.dir, '.viminfo.json'), `{"n":${i}}`);
        fs.mkdirSync(path.join(home.dir, `.cache${i}`));
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(service.sync.syncCount, before, "a write to the home folder's own dotfiles woke the sync");
      // Claude Code installed and run: `~/.claude`, then its project folder and log, in one go.
      const claudeId = 'c1aude00-0000-4000-8000-0000000000e1';
      write(path.join(home.dir, '.claude', 'projects', '-work', `${claudeId}.jsonl`), [
        { parentUuid: null, type: 'user', message: { role: 'user', content: 'claude: first run on this machine' }, uuid: 'u1', timestamp: '2026-03-03T00:02:00.000Z', sessionId: claudeId, cwd: '/work' },
      ]);
      const firstRequest = (source: string, id: string) => firstRequestOnceRead(service, source, id);
      assert.equal(await firstRequest('claude-code', claudeId), 'claude: first run on this machine');
      // Its second session, in a new project, is seen through the watchers the first one made.
      const second = 'c1aude00-0000-4000-8000-0000000000e2';
      write(path.join(home.dir, '.claude', 'projects', '-other', `${second}.jsonl`), [
        { parentUuid: null, type: 'user', message: { role: 'user', content: 'claude: second project' }, uuid: 'u2', timestamp: '2026-03-03T00:03:00.000Z', sessionId: second, cwd: '/other' },
      ]);
      assert.equal(await firstRequest('claude-code', second), 'claude: second project');
      assert.ok(!agentWatchNames(roots).get(home.dir)?.has('.claude'), 'once ~/.claude/projects exists it is watched itself');
    } finally {
      service.dispose();
    }
  } finally {
    home.cleanup();
  }
});

test("Gemini CLI's sessions take their folder from .project_root; Qwen Code's are found under projects/*/chats", async () => {
  const { agentSessionFiles, agentRoots } = await import('../../src/sessions/agents');
  const { folderKey } = await import('../../src/sessions/discovery');
  const home = tempDir();
  try {
    const project = path.join(home.dir, '.gemini', 'tmp', 'work');
    fs.mkdirSync(path.join(project, 'chats'), { recursive: true });
    fs.writeFileSync(path.join(project, '.project_root'), '/home/me/work');
    fs.writeFileSync(path.join(project, 'chats', 'session-2026-11-24T20-36-0ba308b8.jsonl'), '{}\n');
    fs.writeFileSync(path.join(project, 'chats', 'notes.txt'), 'not a session');
    // A project folder whose .project_root is a link or holds no path: its sessions count for
    // every workspace.
    const odd = path.join(home.dir, '.gemini', 'tmp', 'odd');
    fs.mkdirSync(path.join(odd, 'chats'), { recursive: true });
    fs.symlinkSync('/etc/hostname', path.join(odd, '.project_root'));
    fs.writeFileSync(path.join(odd, 'chats', 'session-x.jsonl'), '{}\n');
    const qwen = path.join(home.dir, '.qwen', 'projects', '-home-me-work', 'chats');
    fs.mkdirSync(qwen, { recursive: true });
    fs.writeFileSync(path.join(qwen, '3536b454.jsonl'), '{}\n');
    const files = agentSessionFiles(agentRoots({}, home.dir));
    const rel = (f: { path: string; workspace?: string }) => [path.relative(home.dir, f.path), f.workspace];
    assert.deepEqual(files.map(rel), [
      ['.gemini/tmp/odd/chats/session-x.jsonl', undefined],
      ['.gemini/tmp/work/chats/session-2026-11-24T20-36-0ba308b8.jsonl', folderKey('/home/me/work')],
      ['.qwen/projects/-home-me-work/chats/3536b454.jsonl', undefined],
    ]);
  } finally {
    home.cleanup();
  }
});

test("Cline, Roo Code and Kilo Code tasks are found in every VS Code user-data folder's globalStorage, and their folders watched", async () => {
  const { agentSessionFiles, agentRoots, agentWatchDirs, taskUserDataDirs } = await import('../../src/sessions/agents');
  const home = tempDir();
  try {
    const userData = path.join(home.dir, '.config', 'Code');
    const storage = path.join(userData, 'User', 'globalStorage');
    const task = (ext: string, id: string, file = 'ui_messages.json') => {
      fs.mkdirSync(path.join(storage, ext, 'tasks', id), { recursive: true });
      fs.writeFileSync(path.join(storage, ext, 'tasks', id, file), '[]');
    };
    task('saoudrizwan.claude-dev', '1769053680585');
    task('saoudrizwan.claude-dev', '1769053690000', 'api_conversation_history.json');
    task('rooveterinaryinc.roo-cline', '0a1b-2c');
    task('kilocode.kilo-code', 'k1');
    task('someone.else', 'x1');
    // Installed, no task yet: its folder is watched for the first one.
    const portable = path.join(home.dir, 'portable', 'data');
    fs.mkdirSync(path.join(portable, 'User', 'globalStorage', 'kilocode.kilo-code'), { recursive: true });
    const roots = agentRoots({}, home.dir, taskUserDataDirs(portable, {}, home.dir));
    const rel = (f: string) => path.relative(home.dir, f);
    assert.deepEqual(
      agentSessionFiles(roots).map((f) => [rel(f.path), f.workspace, f.kind]),
      [
        ['.config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks/1769053680585/ui_messages.json', undefined, 'agent'],
        ['.config/Code/User/globalStorage/rooveterinaryinc.roo-cline/tasks/0a1b-2c/ui_messages.json', undefined, 'agent'],
        ['.config/Code/User/globalStorage/kilocode.kilo-code/tasks/k1/ui_messages.json', undefined, 'agent'],
      ],
    );
    const watched = agentWatchDirs(roots).map(rel);
    for (const dir of [
      '.config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks',
      '.config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks/1769053680585',
      '.config/Code/User/globalStorage/kilocode.kilo-code/tasks/k1',
      'portable/data/User/globalStorage/kilocode.kilo-code',
    ]) {
      assert.ok(watched.includes(dir), `${dir} not in ${watched.join(', ')}`);
    }
    assert.ok(!watched.some((dir) => dir.endsWith('globalStorage') || dir.includes('someone.else')), watched.join(', '));
  } finally {
    home.cleanup();
  }
});

test('watched folders: at most MAX_WATCHED_SUBDIRS of one root, the most recently changed (inotify watches are shared with VS Code)', async () => {
  const { agentRoots, agentWatchDirs, MAX_WATCHED_SUBDIRS } = await import('../../src/sessions/agents');
  const home = tempDir();
  try {
    const roots = agentRoots({}, home.dir, []);
    const count = MAX_WATCHED_SUBDIRS + 5;
    const base = Date.now() / 1000 - count;
    for (let i = 0; i < count; i++) {
      const dir = path.join(roots.copilot, `s${String(i).padStart(5, '0')}`);
      fs.mkdirSync(dir, { recursive: true });
      fs.utimesSync(dir, base + i, base + i); // s00000 oldest
    }
    const watched = new Set(agentWatchDirs(roots));
    const sessionDirs = [...watched].filter((dir) => path.dirname(dir) === roots.copilot);
    assert.equal(sessionDirs.length, MAX_WATCHED_SUBDIRS);
    assert.ok(watched.has(roots.copilot), 'the root itself is watched (a new session folder appears there)');
    assert.ok(watched.has(path.join(roots.copilot, `s${String(count - 1).padStart(5, '0')}`)), 'the newest folder is watched');
    for (let i = 0; i < 5; i++) {
      assert.ok(!watched.has(path.join(roots.copilot, `s${String(i).padStart(5, '0')}`)), `the old folder s${i} is not watched`);
    }
  } finally {
    home.cleanup();
  }
});

test("Continue's sessions are found under ~/.continue/sessions (CONTINUE_GLOBAL_DIR), not its sessions.json index", async () => {
  const { agentSessionFiles, agentRoots, agentWatchDirs } = await import('../../src/sessions/agents');
  const home = tempDir();
  try {
    const sessions = path.join(home.dir, '.continue', 'sessions');
    fs.mkdirSync(sessions, { recursive: true });
    fs.writeFileSync(path.join(sessions, 'sessions.json'), '[]');
    fs.writeFileSync(path.join(sessions, '5f0c2b1e.json'), '{}');
    fs.writeFileSync(path.join(sessions, 'notes.txt'), 'not a session');
    const roots = agentRoots({}, home.dir, []);
    assert.deepEqual(
      agentSessionFiles(roots).map((f) => path.relative(home.dir, f.path)),
      ['.continue/sessions/5f0c2b1e.json'],
    );
    assert.ok(agentWatchDirs(roots).includes(sessions));
    const moved = path.join(home.dir, 'elsewhere');
    assert.equal(agentRoots({ CONTINUE_GLOBAL_DIR: moved }, home.dir, []).continue, path.join(moved, 'sessions'));
  } finally {
    home.cleanup();
  }
});
