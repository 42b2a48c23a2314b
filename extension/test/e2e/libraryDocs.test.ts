// The deferred library-docs tools end to end in a real VS Code: through vscode.lm.invokeTool, the
// extension's own roots (a package in the workspace's node_modules, the docs bundled in the
// extension folder) and its settings: Context7's base URL and key pointed at a loopback server
// started here, whose requests are checked; the off switch keeps everything local, and a
// workspace's settings cannot turn it back on.
import * as assert from 'assert/strict';
import * as fs from 'fs';
import * as http from 'http';
import type { AddressInfo } from 'net';
import * as path from 'path';
import * as vscode from 'vscode';

import { test } from './harness';
import { invoke, secretary } from './support';

const SETTING = 'copilotChatSecretary.libraryDocs.context7';

test('library docs: installed and bundled docs offline, Context7 through the settings', async () => {
  await secretary();
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the e2e run opens a workspace folder');
  const before = await invoke('chat_secretary_resolve_library_id', { libraryName: 'secretary' });
  assert.equal(before.error_type, 'not_loaded', JSON.stringify(before));
  const loaded = await invoke('chat_secretary_tool_load', {
    names: ['chat_secretary_resolve_library_id', 'chat_secretary_get_library_docs'],
  });
  assert.equal(loaded.success, true, JSON.stringify(loaded));

  const pkg = path.join(folder.uri.fsPath, 'node_modules', 'e2e-widgets');
  fs.mkdirSync(pkg, { recursive: true });
  const seen: { path: string; query: Record<string, string>; authorization?: string }[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    seen.push({ path: url.pathname, query: Object.fromEntries(url.searchParams), authorization: req.headers.authorization });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ results: [{ id: '/e2e/remote-lib', title: 'Remote Lib', description: 'from the stand-in' }] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const config = vscode.workspace.getConfiguration(SETTING);
  try {
    fs.writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: 'e2e-widgets', version: '2.0.0' }));
    fs.writeFileSync(path.join(pkg, 'README.md'), '# Widgets\n\nIntro.\n\n## Buttons\n\nA button clicks.\n\n## Sliders\n\nA slider slides.\n');
    const widgets = await invoke('chat_secretary_resolve_library_id', { libraryName: 'E2E-Widgets' });
    assert.equal((widgets.libraries as { libraryId: string }[])[0].libraryId, '/npm/e2e-widgets@2.0.0', JSON.stringify(widgets));
    const sliders = await invoke('chat_secretary_get_library_docs', { libraryId: '/npm/e2e-widgets@2.0.0', query: 'slider' });
    assert.deepEqual((sliders.sections as unknown[])[0], { file: 'README.md', heading: 'Sliders', score: 4 });

    const bundled = await invoke('chat_secretary_resolve_library_id', { libraryName: 'secretary' });
    const id = (bundled.libraries as { libraryId: string }[])[0].libraryId;
    assert.equal(id, '/bundled/copilot-chat-secretary@0.1.0', JSON.stringify(bundled));
    const memory = await invoke('chat_secretary_get_library_docs', { libraryId: id, query: 'memory' });
    assert.equal((memory.sections as { heading: string }[])[0].heading, 'Memory', JSON.stringify(memory));

    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await config.update('baseUrl', base, vscode.ConfigurationTarget.Global);
    await config.update('apiKey', 'ctx7sk-e2e', vscode.ConfigurationTarget.Global);
    const remote = await invoke('chat_secretary_resolve_library_id', { libraryName: 'remote-lib' });
    assert.equal(remote.source, 'context7', JSON.stringify(remote));
    assert.equal((remote.libraries as { libraryId: string }[])[0].libraryId, '/e2e/remote-lib');
    assert.deepEqual(seen, [
      { path: '/api/v2/libs/search', query: { libraryName: 'remote-lib', query: 'remote-lib' }, authorization: 'Bearer ctx7sk-e2e' },
    ]);

    await config.update('enabled', false, vscode.ConfigurationTarget.Global);
    const off = await invoke('chat_secretary_resolve_library_id', { libraryName: 'remote-lib' });
    assert.equal(off.error_type, 'not_found', JSON.stringify(off));
    assert.match(String(off.error), /Context7 fallback is off .* Local libraries: \/npm\/e2e-widgets@2\.0\.0, \/bundled\/copilot-chat-secretary@0\.1\.0\.$/);
    assert.equal(seen.length, 1, 'no request when off');

    // A workspace's settings (a cloned repository's .vscode/settings.json) cannot turn it back on
    // for a person who turned it off; they can turn it off.
    await config.update('enabled', true, vscode.ConfigurationTarget.Workspace);
    assert.equal(config.get('enabled'), true, "VS Code's own answer: the workspace wins");
    const stillOff = await invoke('chat_secretary_resolve_library_id', { libraryName: 'remote-lib' });
    assert.equal(stillOff.error_type, 'not_found', JSON.stringify(stillOff));
    await config.update('enabled', undefined, vscode.ConfigurationTarget.Global);
    await config.update('enabled', false, vscode.ConfigurationTarget.Workspace);
    const offHere = await invoke('chat_secretary_resolve_library_id', { libraryName: 'remote-lib' });
    assert.equal(offHere.error_type, 'not_found', JSON.stringify(offHere));
    assert.equal(seen.length, 1, 'no request while the user or the workspace says off');
  } finally {
    for (const key of ['baseUrl', 'apiKey', 'enabled']) {
      await config.update(key, undefined, vscode.ConfigurationTarget.Global);
    }
    await config.update('enabled', undefined, vscode.ConfigurationTarget.Workspace);
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(path.join(folder.uri.fsPath, 'node_modules'), { recursive: true, force: true });
  }
});
