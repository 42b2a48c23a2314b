// The library-docs settings as environment variables: how the CLI and the MCP server are
// configured, and what VS Code passes on to the MCP server it starts.

/** The library-docs settings, and the environment variables that set them for the CLI and MCP server. */
export const LIBRARY_DOCS_ENV: readonly { setting: string; env: string; kind: 'boolean' | 'string' | 'number' }[] = [
  { setting: 'copilotChatSecretary.libraryDocs.context7.enabled', env: 'SECRETARY_CONTEXT7_ENABLED', kind: 'boolean' },
  { setting: 'copilotChatSecretary.libraryDocs.context7.baseUrl', env: 'SECRETARY_CONTEXT7_BASE_URL', kind: 'string' },
  { setting: 'copilotChatSecretary.libraryDocs.context7.timeoutMs', env: 'SECRETARY_CONTEXT7_TIMEOUT_MS', kind: 'number' },
  { setting: 'copilotChatSecretary.libraryDocs.context7.apiKey', env: 'CONTEXT7_API_KEY', kind: 'string' },
];

/**
 * Settings a workspace must never choose: the host library docs are sent to and the key sent with
 * them (a cloned repository's `.vscode/settings.json` could otherwise send the user's
 * `CONTEXT7_API_KEY` to a host of its choosing). `package.json` gives them `"scope": "application"`,
 * so VS Code reads them from the user's settings only; the CLI and MCP server ignore them in
 * `.vscode/settings.json` and take them from the environment alone.
 */
export const USER_ONLY_SETTINGS: readonly string[] = [
  'copilotChatSecretary.libraryDocs.context7.baseUrl',
  'copilotChatSecretary.libraryDocs.context7.apiKey',
];

/**
 * Off switches a workspace may turn off but never on: a person who turned Context7 off (library
 * docs stay on this machine) keeps it off in every repository they open, whatever its
 * `.vscode/settings.json` says. VS Code lets a workspace value win over the user's
 * (`vscodeSettings.ts` reads these through `inspect`); the CLI and MCP server already let the
 * environment win over the workspace file.
 */
export const OFF_SWITCHES: readonly string[] = ['copilotChatSecretary.libraryDocs.context7.enabled'];

/** The environment variables that pass the library-docs settings `get` returns on to a CLI or MCP server
 * process (VS Code's MCP server definition); unset and empty values pass nothing. */
export function libraryDocsEnv(get: (setting: string) => unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { setting, env } of LIBRARY_DOCS_ENV) {
    const value = get(setting);
    if ((typeof value === 'string' && value.trim()) || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))) {
      out[env] = String(value).trim();
    }
  }
  return out;
}

/** The settings the environment sets (`SECRETARY_CONTEXT7_ENABLED=false` ...); unset or empty variables set nothing. */
export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { setting, env: name, kind } of LIBRARY_DOCS_ENV) {
    const raw = env[name]?.trim();
    if (!raw) {
      continue;
    }
    if (kind === 'boolean') {
      out[setting] = !/^(0|false|no|off)$/i.test(raw);
    } else if (kind === 'number') {
      const value = Number(raw);
      if (Number.isFinite(value)) {
        out[setting] = value;
      }
    } else {
      out[setting] = raw;
    }
  }
  return out;
}
