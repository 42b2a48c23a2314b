// How tool invocations are logged in VS Code (extension/src/tools/toolLogging.ts, used by Tool.ts),
// with a recording logger.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { WasmCore } from '../../src/core/wasm';
import { errorMessage, silentLogger, type Logger } from '../../src/log';
import { confirmationFor, failureOf, runLogged } from '../../src/tools/toolLogging';
import { WASM_DIR } from './helpers';

function recorder(): { log: Logger; lines: string[] } {
  const lines: string[] = [];
  const at = (level: string) => (message: string | Error) => {
    lines.push(`${level}: ${errorMessage(message)}`);
  };
  return { lines, log: { trace: at('trace'), debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } };
}

const asText = (value: string) => value;

test('a successful call logs called, then completed successfully (trace)', async () => {
  const { log, lines } = recorder();
  const outcome = await runLogged(log, 'chat_secretary_get_request', async () => '{"success":true,"index":1}', asText);
  assert.deepEqual(outcome, { ok: true, value: '{"success":true,"index":1}' });
  assert.deepEqual(lines, ['trace: Tool called: chat_secretary_get_request', 'trace: Tool chat_secretary_get_request completed successfully']);
});

test('an exception logs failed at error level and is returned, never thrown', async () => {
  const { log, lines } = recorder();
  const outcome = await runLogged(log, 't', async () => {
    throw new Error('The Secretary core failed and was restarted: boom');
  }, asText);
  assert.deepEqual(outcome, { ok: false, message: 'The Secretary core failed and was restarted: boom' });
  assert.deepEqual(lines, ['trace: Tool called: t', 'error: Tool t failed: The Secretary core failed and was restarted: boom']);
});

test('a failed result logs failed with its error at warn level', async () => {
  const { log, lines } = recorder();
  const text = '{"success":false,"error":"Index must be 1 or greater"}';
  const outcome = await runLogged(log, 't', async () => text, asText);
  assert.deepEqual(outcome, { ok: true, value: text });
  assert.deepEqual(lines, ['trace: Tool called: t', 'warn: Tool t failed: Index must be 1 or greater']);
  const { log: log2, lines: lines2 } = recorder();
  await runLogged(log2, 't', async () => '{"isError":true,"message":"x"}', asText);
  assert.equal(lines2[1], 'warn: Tool t failed: x');
});

test('results that are not text (passed through from another tool) count as success', async () => {
  const { log, lines } = recorder();
  await runLogged(log, 't', async () => ({ parts: [] }), () => undefined);
  assert.equal(lines[1], 'trace: Tool t completed successfully');
  // Text that is not a JSON object is not an answer of the core's: a failure (the one rule, as MCP).
  assert.equal(failureOf('not json'), 'not json');
  assert.equal(failureOf('[1]'), 'not a JSON object');
  assert.equal(failureOf('{"success":true}'), undefined);
  assert.equal(failureOf('{"success":false}'), 'unknown error');
});

test('destructive tools get a confirmation naming why and the literal', () => {
  const core = new WasmCore(WASM_DIR, silentLogger);
  core.setIncludeExamples(true);
  const tool = (name: string) => core.tools().find((t) => t.name === name)!;
  assert.equal(confirmationFor(tool('get_request')), undefined);
  const reset = tool('example_reset');
  const confirmation = confirmationFor(reset);
  assert.ok(confirmation);
  assert.match(confirmation.title, /requires your explicit instruction/);
  assert.ok(confirmation.message.includes(reset.consent!.why), confirmation.message);
  assert.match(confirmation.message, /confirm: "RESET_EXAMPLES"/);
});

test('a per-command consent asks only for that command with the literal (memory delete)', () => {
  const core = new WasmCore(WASM_DIR, silentLogger);
  const memory = core.tools().find((t) => t.name === 'memory')!;
  assert.deepEqual(memory.consent?.when, { field: 'command', value: 'delete' });
  assert.equal(confirmationFor(memory, { command: 'save', path: 'x', content: 'y' }), undefined);
  assert.equal(confirmationFor(memory, { command: 'list' }), undefined);
  assert.equal(confirmationFor(memory, { command: 'delete', path: 'x' }), undefined, 'the core refuses it: nothing to confirm');
  const asked = confirmationFor(memory, { command: 'delete', path: 'x', confirm: 'DELETE_MEMORY' });
  assert.ok(asked);
  assert.match(asked.message, /confirm: "DELETE_MEMORY"/);
  assert.ok(confirmationFor(memory), 'without the input, ask');
});

test('failureOf counts as a failure exactly what the core does (registry::copilot_ls::result_status)', () => {
  const core = new WasmCore(WASM_DIR, silentLogger);
  const texts = [
    '{"success":true}',
    '{"success":false,"error":"x"}',
    '{"success":false}',
    '{"isError":true,"message":"m"}',
    '{"isError":false}',
    '{"success":"false"}',
    '{}',
    '[1]',
    'null',
    '"text"',
    'not json',
    '',
    JSON.stringify(JSON.parse(core.invoke('get_request', { index: 0 }, undefined))),
  ];
  for (const text of texts) {
    const [answer] = JSON.parse(core.run((_h, m) => m.copilotLsResult(text))) as [{ status: string }];
    assert.equal(failureOf(text) !== undefined, answer.status === 'error', text);
  }
});
