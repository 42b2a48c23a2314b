import assert from 'node:assert/strict';
import { test } from 'node:test';

import { flag, numberIn, stringList } from '../../src/host/settingValues';

/**
 * Settings as VS Code hands them over: whatever JSON a settings file holds, schema or not (a
 * repository's `.vscode/settings.json` among them). Each reader gives a value of its type, within
 * its bounds, for anything.
 */

test('stringList: a list of strings, whatever the file holds', () => {
  assert.deepEqual(stringList(['claude-code', '', 7, null, 'vscode']), ['claude-code', 'vscode']);
  for (const hostile of ['vscode', 7, true, null, undefined, { length: 2, 0: 'a', 1: 'b' }, { filter: 'x' }]) {
    assert.deepEqual(stringList(hostile), [], JSON.stringify(hostile));
  }
});

test('numberIn: finite numbers clamped, anything else the fallback', () => {
  assert.equal(numberIn(250, 300, 0, 10_000), 250);
  assert.equal(numberIn(1e12, 300, 0, 10_000), 10_000, 'a timer of weeks (or one past 2^31 ms, which fires at once)');
  assert.equal(numberIn(-5, 300, 0, 10_000), 0);
  for (const hostile of ['300', Number.NaN, Number.POSITIVE_INFINITY, null, undefined, [300], { valueOf: () => 5 }]) {
    assert.equal(numberIn(hostile, 300, 0, 10_000), 300, String(hostile));
  }
});

test('flag: true and false only; the string "false" is not true', () => {
  assert.equal(flag(true, false), true);
  assert.equal(flag(false, true), false);
  for (const hostile of ['false', 'true', 0, 1, null, undefined, {}]) {
    assert.equal(flag(hostile, true), true, String(hostile));
    assert.equal(flag(hostile, false), false, String(hostile));
  }
});
