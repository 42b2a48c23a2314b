// What the Secretary adds to a real agent's turn: the GitHub Copilot CLI (scripts/agents-setup)
// runs turns against the scripted model on loopback, alternating in one run between a bare turn
// (no MCP server configured, no tool call), a turn calling one tool of a minimal MCP server (a
// dozen lines that answer at once: what any MCP tool call costs the CLI) and a turn that starts
// `secretary mcp` and calls `get_first_request` once. The CLI starts its MCP servers per session,
// so the figures include the server's start. Run under `unshare -n` (scripts/bench does): no
// traffic leaves loopback.
//   node out/bench/agents.js [rounds]     prints a markdown table
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import { agentCommand, makeAgent } from '../test/agents/drivers';
import { startModelServer } from '../test/agents/modelServer';

const ROOT = process.env.SECRETARY_ROOT ?? path.resolve(__dirname, '..', '..');

/** The smallest MCP server: one tool that answers at once. */
const ECHO_SERVER = `let buf = '';
process.stdin.on('data', (d) => {
  buf += d;
  let i;
  while ((i = buf.indexOf('\\n')) >= 0) {
    const line = buf.slice(0, i);
    buf = buf.slice(i + 1);
    if (!line.trim()) continue;
    const m = JSON.parse(line);
    const reply = (result) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result }) + '\\n');
    if (m.method === 'initialize') reply({ protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'echo', version: '0' } });
    else if (m.method === 'tools/list') reply({ tools: [{ name: 'get_first_request', description: 'echo', inputSchema: { type: 'object', properties: {} } }] });
    else if (m.method === 'tools/call') reply({ content: [{ type: 'text', text: '{"echo": true}' }] });
    else if (m.id !== undefined) process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'no' } }) + '\\n');
  }
});
`;

async function main(): Promise<void> {
  const rounds = Number(process.argv[2] ?? 7);
  const server = await startModelServer((ex) => {
    if (ex.toolResult !== undefined) {
      return { text: 'noted' };
    }
    return /CALL/.test(ex.lastUser) ? { tool: 'get_first_request', args: {} } : { text: 'ok' };
  });
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'secretary-bench-agents-'));
  try {
    const command = agentCommand(ROOT, 'copilot');
    const bare = makeAgent('copilot', { root: ROOT, command, modelUrl: server.url, home: path.join(temp, 'bare'), bare: true });
    const echoServer = path.join(temp, 'echo-mcp.js');
    fs.writeFileSync(echoServer, ECHO_SERVER);
    const echo = makeAgent('copilot', { root: ROOT, command, modelUrl: server.url, home: path.join(temp, 'echo'), mcp: { command: process.execPath, args: [echoServer] } });
    const withTool = makeAgent('copilot', { root: ROOT, command, modelUrl: server.url, home: path.join(temp, 'secretary') });
    const runs = [
      { agent: bare, prompt: 'plain turn', ms: [] as number[], session: '' },
      { agent: echo, prompt: 'CALL get_first_request', ms: [] as number[], session: '' },
      { agent: withTool, prompt: 'CALL get_first_request', ms: [] as number[], session: '' },
    ];
    for (const run of runs) {
      run.session = (await run.agent.turn(undefined, 'first request of the measured session')).session;
    }
    for (let i = 0; i < rounds; i++) {
      for (const run of runs) {
        const turn = await run.agent.turn(run.session, `turn ${i}: ${run.prompt}`);
        if (turn.code !== 0) {
          throw new Error(`a turn failed: ${turn.stderr.slice(-500)}`);
        }
        run.ms.push(turn.ms);
      }
    }
    const answered = server.exchanges.filter((ex) => ex.toolResult?.includes('"dialogFrom":"caller"')).length;
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const [b, e, t] = runs.map((run) => median(run.ms));
    console.log(`| Copilot CLI 1.0.102 turn (median of ${rounds}, alternating) | ms |`);
    console.log('|---|---|');
    console.log(`| bare turn (no MCP server, no tool call) | ${b.toFixed(0)} |`);
    console.log(`| one call to a minimal MCP server that answers at once | ${e.toFixed(0)} |`);
    console.log(`| one call to \`secretary mcp\` (get_first_request) | ${t.toFixed(0)} |`);
    console.log(`| the Secretary beyond any MCP call (its start, its wait for the CLI's ~100 ms log flush, the answer) | ${(t - e).toFixed(0)} |`);
    console.log(`| tool calls answered for the calling session | ${answered} of ${rounds + 0} |`);
  } finally {
    await server.close();
    fs.rmSync(temp, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
