import assert from 'node:assert/strict';
import { test } from 'node:test';

import { oneHome, probedHomes } from '../../src/sessions/storeProbe';

/**
 * A remote window finds its chats on the person's own machine by probing the usual user folders
 * (`windowStore.ts`). Another account must not be able to plant them: a home every account writes
 * is never probed, and a window id found under two accounts is not guessed between.
 */

test('probedHomes: the shared homes every account can write are left out', () => {
  assert.deepEqual(probedHomes('/Users', ['ada', 'Shared', 'bob', '.localized']), ['/Users/ada', '/Users/bob', '/Users/.localized']);
  assert.deepEqual(probedHomes('/c:/Users', ['Public', 'Default', 'All Users', 'Default User', 'ada']), ['/c:/Users/ada']);
});

test('oneHome: one home is taken (two VS Code builds of one person); two homes are refused', () => {
  assert.equal(oneHome([]), undefined);
  const code = { home: '/Users/ada', build: 'Code' };
  const insiders = { home: '/Users/ada', build: 'Code - Insiders' };
  assert.deepEqual(oneHome([code, insiders]), { match: code });
  assert.deepEqual(oneHome([code, { home: '/Users/mallory', build: 'Code' }]), { ambiguous: ['/Users/ada', '/Users/mallory'] });
});
