import * as path from 'path';

import type { AreaName, HostBridge } from '../host/bridge';

/**
 * The host bridge of `secretary copilot-ls`, which reports every file a tool writes inside the
 * workspace folder (`onWrite(absolute path, text)`) after the write succeeded, so the client can
 * announce it to the language server (`textDocument/didOpen`/`didChange`), as an editor tells
 * it about the buffers it changes. Everything else is the wrapped bridge's.
 */
export function announcingHost(inner: HostBridge, workspaceFolder: string, onWrite: (file: string, text: string) => void): HostBridge {
  const workspace = path.resolve(workspaceFolder);
  const host: HostBridge = Object.create(inner) as HostBridge;
  host.writeAtomic = (area: AreaName, rel: string, bytes: Uint8Array): void => {
    inner.writeAtomic(area, rel, bytes);
    const root = inner.rootOf?.(area);
    if (!root) {
      return;
    }
    const file = path.resolve(root, ...rel.split('/'));
    const inside = path.relative(workspace, file);
    if (inside && !inside.startsWith('..') && !path.isAbsolute(inside)) {
      onWrite(file, Buffer.from(bytes).toString('utf8'));
    }
  };
  return host;
}
