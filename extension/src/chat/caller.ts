/**
 * Which chat called a tool, read from the tool invocation token VS Code hands the tool.
 *
 * The token is typed opaque, but at run time (VS Code 1.139) it is a frozen object
 * `{sessionResource: Uri, workingDirectory?: Uri}`; older builds sent `{sessionId}` or both. For
 * VS Code's own chats `sessionResource` is `vscode-chat-session://local/<base64url(sessionId)>`
 * (no padding), and the decoded id is exactly the name of the session file
 * (`chatSessions/<sessionId>.jsonl`). Other schemes (`copilotcli:`, `claude-code:`,
 * `agent-host-*`) are chats of other agents that VS Code shows.
 *
 * This is the one place that reads the token; it imports nothing from `vscode`, so the unit tests
 * cover every shape. What comes out is the core's `Caller` (`session::live::Caller`).
 */

/** The core's `Caller`, as JSON. */
export type Caller =
  | { kind: 'local'; sessionId: string }
  | { kind: 'foreign'; scheme: string; resource: string; sessionId?: string }
  | { kind: 'unknown'; shape: string }
  /** An agent session that said who it is over MCP (`mcp/caller.ts`). */
  | { kind: 'agent'; source: string; sessionId: string; via: string; recorded?: boolean };

/** The live copy of the last focused chat, or why there is none (the core's `LiveCopy`). */
export type LiveOutcome = { bytes: Uint8Array } | { error: string };

/** A tool call's calling chat, and how to get its live copy when the core asks (`live_pending`). */
export interface CallContext {
  caller: Caller;
  live: () => Promise<LiveOutcome>;
}

export const LOCAL_CHAT_SCHEME = 'vscode-chat-session';
export const LOCAL_CHAT_AUTHORITY = 'local';

/** Session ids are file names: at most this long, and no path or control characters. */
const MAX_ID_LENGTH = 256;

/** The calling chat, or `undefined` when there was no token (a call from another extension, not
 * from a chat). A token that is present but unreadable is a `kind: 'unknown'` caller: the tools
 * then say so instead of guessing. Never throws. */
export function callerOf(token: unknown): Caller | undefined {
  if (token === undefined || token === null) {
    return undefined;
  }
  if (typeof token !== 'object') {
    return { kind: 'unknown', shape: `a ${typeof token}` };
  }
  const resource = own(token, 'sessionResource');
  if (resource !== undefined && resource !== null) {
    return callerOfResource(resource);
  }
  const sessionId = own(token, 'sessionId');
  if (typeof sessionId === 'string') {
    return safeId(sessionId)
      ? { kind: 'local', sessionId }
      : { kind: 'unknown', shape: 'a sessionId that is not a session file name' };
  }
  return { kind: 'unknown', shape: `an object with keys [${keysOf(token)}]` };
}

/** The chat a session resource names (a `Uri`, its plain components, or its string form). */
export function callerOfResource(resource: unknown): Caller {
  const parts = uriParts(resource);
  if (!parts) {
    return { kind: 'unknown', shape: 'a sessionResource that is not a URI' };
  }
  const { scheme, authority, path } = parts;
  if (scheme !== LOCAL_CHAT_SCHEME) {
    // Other agents' chats name their session in the last path segment (`copilotcli:/<id>`); the
    // core knows which schemes it can read.
    const last = lastSegment(path);
    return { kind: 'foreign', scheme, resource: display(parts), ...(last ? { sessionId: last } : {}) };
  }
  if (authority !== LOCAL_CHAT_AUTHORITY) {
    // Another provider's sessions under VS Code's scheme (e.g. a remote agent host).
    return { kind: 'foreign', scheme: `${scheme}://${authority}`, resource: display(parts) };
  }
  const encoded = path.replace(/^\/+/, '');
  const sessionId = decodeBase64Url(encoded);
  if (sessionId === undefined || !safeId(sessionId)) {
    return { kind: 'unknown', shape: 'a local chat resource whose id does not decode to a session file name' };
  }
  return { kind: 'local', sessionId };
}

/** The resource of a local chat, as VS Code builds it: the inverse of `callerOfResource`. */
export function localChatResource(sessionId: string): string {
  return `${LOCAL_CHAT_SCHEME}://${LOCAL_CHAT_AUTHORITY}/${Buffer.from(sessionId, 'utf8').toString('base64url')}`;
}

interface UriParts {
  scheme: string;
  authority: string;
  path: string;
}

function uriParts(value: unknown): UriParts | undefined {
  if (typeof value === 'string') {
    const match = /^([a-zA-Z][a-zA-Z0-9+.-]*):(?:\/\/([^/?#]*))?([^?#]*)/.exec(value);
    return match ? { scheme: match[1].toLowerCase(), authority: match[2] ?? '', path: match[3] ?? '' } : undefined;
  }
  if (typeof value !== 'object' || value === null) {
    return undefined;
  }
  // A vscode.Uri exposes these as getters on its prototype; a revived or marshalled one (`$mid`) as
  // own properties. Both are read, never called.
  const scheme = field(value, 'scheme');
  const authority = field(value, 'authority') ?? '';
  const path = field(value, 'path') ?? '';
  if (typeof scheme !== 'string' || !/^[a-zA-Z][a-zA-Z0-9+.-]*$/.test(scheme)) {
    return undefined;
  }
  return { scheme: scheme.toLowerCase(), authority, path };
}

/** A string property of a URI-like object, own or inherited from its class (never from
 * `Object.prototype`). */
function field(value: object, key: string): string | undefined {
  let target: object | null = value;
  while (target !== null && target !== Object.prototype) {
    const descriptor = Object.getOwnPropertyDescriptor(target, key);
    if (descriptor) {
      const got = descriptor.get ? descriptor.get.call(value) : descriptor.value;
      return typeof got === 'string' ? got : undefined;
    }
    target = Object.getPrototypeOf(target) as object | null;
  }
  return undefined;
}

function own(value: object, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(value, key) ? (value as Record<string, unknown>)[key] : undefined;
}

function keysOf(value: object): string {
  return Object.keys(value)
    .slice(0, 8)
    .map((key) => key.slice(0, 40))
    .join(', ');
}

function display(parts: UriParts): string {
  const text = `${parts.scheme}:${parts.authority ? `//${parts.authority}` : ''}${parts.path}`;
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
}

function lastSegment(path: string): string | undefined {
  const segment = path.split('/').filter(Boolean).pop();
  if (segment === undefined) {
    return undefined;
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    return undefined;
  }
  return safeId(decoded) ? decoded : undefined;
}

function decodeBase64Url(text: string): string | undefined {
  if (text.length === 0 || !/^[A-Za-z0-9_-]+={0,2}$/.test(text)) {
    return undefined;
  }
  const bytes = Buffer.from(text, 'base64url');
  const decoded = bytes.toString('utf8');
  // Reject what does not round-trip (bad UTF-8 is replaced, not kept).
  return Buffer.from(decoded, 'utf8').equals(bytes) ? decoded : undefined;
}

/** A session id that can be a file name: no separators, no `..`, no control characters. */
function safeId(id: string): boolean {
  return (
    id.length > 0 &&
    id.length <= MAX_ID_LENGTH &&
    id !== '.' &&
    id !== '..' &&
    !/[/\\\x7f]|[^\P{Cc}\x7f-\x9f]/u.test(id) // separators, DEL, C0 controls (Cc less DEL and C1)
  );
}
