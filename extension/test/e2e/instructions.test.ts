// The instructions that tell an agent when to recall the user's words (`chatInstructions` in
// package.json, resources/instructions/recall.instructions.md). VS Code 1.139 lists an extension's
// contributed prompt files through its `_listExtensionPromptFiles` command, filtered by each
// entry's `when` clause (`getExtensionPromptFiles`); the Secretary's entry is gated by its
// `recallInstructions.enabled` setting. This checks both in the real host.
import * as assert from 'assert/strict';
import * as fs from 'fs';
import * as vscode from 'vscode';
import { test } from './harness';
import { secretary } from './support';

const SETTING = 'recallInstructions.enabled';

interface ListedPromptFile {
  uri: { path: string; scheme: string };
  type: string;
  extensionId?: string;
}

async function listedInstructions(extensionId: string): Promise<ListedPromptFile[]> {
  const listed = (await vscode.commands.executeCommand<ListedPromptFile[]>('_listExtensionPromptFiles')) ?? [];
  return listed.filter((f) => f.type === 'instructions' && f.extensionId?.toLowerCase() === extensionId.toLowerCase());
}

/** Polls the listing until `check` holds (VS Code re-reads the `when` keys on a context change). */
async function waitForListing(extensionId: string, check: (files: ListedPromptFile[]) => boolean, what: string): Promise<ListedPromptFile[]> {
  const deadline = Date.now() + 10_000;
  let files = await listedInstructions(extensionId);
  while (!check(files)) {
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}; listed: ${JSON.stringify(files)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    files = await listedInstructions(extensionId);
  }
  return files;
}

test('instructions: VS Code lists the recall instructions, and the setting turns them off and on again', async () => {
  const { ext } = await secretary();
  const config = () => vscode.workspace.getConfiguration('copilotChatSecretary');
  assert.equal(config().get(SETTING), true, 'on by default');
  const isOurs = (f: ListedPromptFile) => f.uri.path.endsWith('/resources/instructions/recall.instructions.md');
  const listed = await waitForListing(ext.id, (files) => files.some(isOurs), 'the instructions to be listed');
  // The file VS Code lists is the one the extension ships, and it names the tools it asks for.
  const text = fs.readFileSync(vscode.Uri.joinPath(ext.extensionUri, 'resources/instructions/recall.instructions.md').fsPath, 'utf8');
  assert.equal(listed.filter(isOurs).length, 1);
  assert.match(text, /^---\n[\s\S]*applyTo: '\*\*'[\s\S]*\n---\n/, 'applies to every request (front matter)');
  assert.match(text, /#getFirstRequest/);
  assert.match(text, /#getRequest/);
  try {
    await config().update(SETTING, false, vscode.ConfigurationTarget.Global);
    await waitForListing(ext.id, (files) => !files.some(isOurs), 'the instructions to be withdrawn');
  } finally {
    await config().update(SETTING, undefined, vscode.ConfigurationTarget.Global);
  }
  await waitForListing(ext.id, (files) => files.some(isOurs), 'the instructions to be listed again');
});
