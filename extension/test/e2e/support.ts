// Shared helpers of the end-to-end tests: our extension's API, tool calls as an agent makes them,
// and seeding chat sessions where VS Code keeps them for the open workspace.
import * as assert from 'assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';

import type { SecretaryApi } from '../../src/extension';
import { sharedFixturesOrSkip } from '../sharedFixtures';

export async function secretary(): Promise<{ ext: vscode.Extension<SecretaryApi>; api: SecretaryApi }> {
  const ext = vscode.extensions.all.find((e) => e.packageJSON?.name === 'copilot-chat-secretary') as
    | vscode.Extension<SecretaryApi>
    | undefined;
  assert.ok(ext, 'copilot-chat-secretary is not loaded');
  const api = await ext.activate();
  return { ext, api };
}

export function textOf(result: vscode.LanguageModelToolResult): string {
  return result.content
    .filter((p): p is vscode.LanguageModelTextPart => p instanceof vscode.LanguageModelTextPart)
    .map((p) => p.value)
    .join('');
}

/** Calls a tool exactly as an agent does and parses its JSON answer. */
export async function invoke(name: string, input: object): Promise<Record<string, unknown>> {
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined });
  const text = textOf(result);
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new Error(`${name} answered non-JSON: ${text}`);
  }
}

/** This workspace's chatSessions folder (created), where VS Code writes its sessions. */
export function chatSessionsDir(api: SecretaryApi): string {
  assert.ok(api.workspaceStorageDir, 'the e2e workspace has no workspaceStorage folder');
  const dir = path.join(api.workspaceStorageDir, 'chatSessions');
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** The repository's sample sessions (samples/user-data) of the todo-app workspace. */
export function sampleSessions(ext: vscode.Extension<unknown>): string[] {
  const dir = path.join(ext.extensionPath, 'samples', 'user-data', 'User', 'workspaceStorage', '5f2a9c0e1b7d4e3f8a6b2c1d0e9f8a7b', 'chatSessions');
  return fs.readdirSync(dir).map((name) => path.join(dir, name));
}

/** Our extension, its sessions started, with the sample sessions copied into the workspace's
 * chatSessions folder (a sample already there, maybe changed by an earlier test, is kept). */
export async function secretaryWithSamples(): Promise<Awaited<ReturnType<typeof secretary>>> {
  const found = await secretary();
  await found.api.sessions.start();
  const dir = chatSessionsDir(found.api);
  for (const sample of sampleSessions(found.ext)) {
    const target = path.join(dir, path.basename(sample));
    if (!fs.existsSync(target)) {
      fs.copyFileSync(sample, target);
    }
  }
  return found;
}

/**
 * The real session fixtures of shared/ (see ../sharedFixtures.ts): empty when absent (the harness has
 * no skip; the reason goes to the extension host's log), a thrown failure under CI=true.
 */
export function sharedFixtures(ext: vscode.Extension<unknown>): string[] {
  const dir = sharedFixturesOrSkip(ext.extensionPath, 'sessions', (why) => console.warn(why));
  return dir ? fs.readdirSync(dir).map((name) => path.join(dir, name)) : [];
}

/** Resolves when `check` holds, polling the host state (not the product) for up to `ms`. */
export async function eventually(check: () => boolean, ms: number, what: string): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) {
      throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
