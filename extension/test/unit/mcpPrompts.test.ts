// MCP prompts over stdio: the SDK's own Client against the built server (`node dist/cli.js mcp`)
// on the sample sessions. Prompts render the core's prompts, which call the tools' logic directly:
// no tool call is logged for them.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

import { ROOT, SAMPLES } from './helpers';

const CLI = path.join(ROOT, 'dist', 'cli.js');
const TODO_APP = '/home/dev/projects/todo-app';
const JSONL = 'c3d9e8f1-2a4b-4c6d-8e0f-1a2b3c4d5e6f';
const JSON_ID = 'a1f4c2e0-7b3d-4d9a-9c51-2e8f6b0d3a71';

async function start(): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--storage', SAMPLES, '--workspace', TODO_APP],
    env: { ...getDefaultEnvironment(), SECRETARY_LOG_LEVEL: 'trace' },
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const client = new Client({ name: 'mcp-prompts-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => err };
}

function textOf(result: { messages: { role: string; content: { type: string; text?: string } }[] }): string {
  assert.equal(result.messages.length, 1);
  assert.equal(result.messages[0].role, 'user');
  assert.equal(result.messages[0].content.type, 'text');
  return result.messages[0].content.text ?? '';
}

test('prompts/list: every prompt with its generated description and arguments', async () => {
  const { client } = await start();
  try {
    assert.deepEqual(client.getServerCapabilities()?.prompts, {});
    const { prompts } = await client.listPrompts();
    assert.deepEqual(
      prompts.map((p) => p.name),
      ['recall_first_request', 'recall_request', 'recent_dialogs', 'search_requests', 'find_tool'],
    );
    const request = prompts.find((p) => p.name === 'recall_request');
    assert.ok(request);
    assert.deepEqual(request.arguments, [
      { name: 'index', description: 'Which request, counting from 1.', required: true },
      { name: 'sessionId', description: 'The dialog to read (from /dialogs); omit it for the current dialog.', required: false },
    ]);
    const description = request.description ?? '';
    assert.match(description, /^Recall the full text of request n\.\n\nArguments: `\*args` = `<index> \[sessionId\]`/);
    for (const section of ['Usage:', '`@secretary /request 2`', 'Examples:']) {
      assert.ok(description.includes(section), `${section} in ${description}`);
    }
    for (const prompt of prompts) {
      assert.ok((prompt.description ?? '').split('\n')[0].length <= 50, prompt.name);
    }
  } finally {
    await client.close();
  }
});

test('prompts/get: recall the first request in full, a request, dialogs, search and tools', async () => {
  const { client, stderr } = await start();
  try {
    const first = textOf(await client.getPrompt({ name: 'recall_first_request' }));
    assert.match(first, new RegExp(`^\\*\\*First request\\*\\* of dialog \`${JSONL}\` \\(2025-10-15T09:20:01.000Z, 2 requests in all\\):\\n\\n> `));
    // The full text, not the tool's 80-character preview.
    const full = (await client.callTool({ name: 'secretary_get_request', arguments: { index: 1 } })).content as { text: string }[];
    const request = (JSON.parse(full[0].text) as { request: string }).request;
    assert.ok(request.length > 80);
    assert.ok(first.includes(request.split('\n')[0]), first);

    const second = textOf(await client.getPrompt({ name: 'recall_request', arguments: { index: '2', sessionId: JSON_ID } }));
    assert.equal(
      second,
      `**Request 2 of 3** of dialog \`${JSON_ID}\` (2025-10-14T09:25:00.000Z):\n\n` +
        '> Use CSS custom properties for the colours, not a second stylesheet. Keep contrast at WCAG AA.\n',
    );

    const dialogs = textOf(await client.getPrompt({ name: 'recent_dialogs' }));
    assert.match(dialogs, /^\*\*Recent dialogs\*\* \(2 of 2, newest first\):\n\n1\. \*\*Speed up the todo list\*\*/);

    const found = textOf(await client.getPrompt({ name: 'search_requests', arguments: { query: 'playwright reload' } }));
    assert.match(found, new RegExp(`^\\*\\*\\d+ (?:request matches|requests match) "playwright reload"\\*\\*, best first:\\n\\n1\\. \\*\\*Dark mode for the todo app\\*\\*, request 3 `));

    const tools = textOf(await client.getPrompt({ name: 'find_tool', arguments: { query: 'recall earlier chat request' } }));
    assert.match(tools, /^\*\*Tools for "recall earlier chat request"\*\*, best first:\n\n- `secretary_/);

    // Errors are the tools' errors in plain words, as the message.
    const tooFar = await client.getPrompt({ name: 'recall_request', arguments: { index: '9' } });
    assert.equal(textOf(tooFar), 'Index 9 exceeds total requests (2).');
    assert.match(tooFar.description ?? '', /Failed: Index 9 exceeds total requests \(2\)$/);

    // Prompts do not go through the tool path: only the one real tool call above is logged.
    const called = stderr().split('\n').filter((line) => line.includes('Tool called'));
    assert.equal(called.length, 1, called.join('\n'));
    assert.match(called[0], /secretary_get_request/);
  } finally {
    await client.close();
  }
});

test('prompts/get: unknown prompts and missing required arguments are protocol errors', async () => {
  const { client } = await start();
  try {
    await assert.rejects(client.getPrompt({ name: 'nope' }), /Prompt not found: nope/);
    await assert.rejects(client.getPrompt({ name: 'recall_request' }), /Missing required argument\(s\) of recall_request: index/);
  } finally {
    await client.close();
  }
});
