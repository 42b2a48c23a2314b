// Screenshots of the VS Code window the tests run in, written into the run's log folder.
// scripts/e2e starts Chromium with a DevTools port and tells the extension host where it is
// (SECRETARY_E2E_CDP) and where to write (SECRETARY_E2E_SHOTS); the host asks Chromium over the
// DevTools protocol for `Page.captureScreenshot` of the workbench page.
import * as fs from 'fs';
import * as path from 'path';

interface Target {
  type: string;
  url: string;
  webSocketDebuggerUrl?: string;
}

/** True when the runner offers screenshots (not when the host was started another way). */
export function canScreenshot(): boolean {
  return Boolean(process.env.SECRETARY_E2E_CDP && process.env.SECRETARY_E2E_SHOTS);
}

/**
 * Captures the window as `<SECRETARY_E2E_SHOTS>/<name>.png` and returns the file, or `undefined`
 * when the runner offers no screenshots. Throws when Chromium does not answer.
 */
export async function screenshot(name: string): Promise<string | undefined> {
  const cdp = process.env.SECRETARY_E2E_CDP;
  const dir = process.env.SECRETARY_E2E_SHOTS;
  if (!cdp || !dir) {
    return undefined;
  }
  if (!/^[A-Za-z0-9._-]{1,80}$/.test(name)) {
    throw new Error(`screenshot: unsafe name ${JSON.stringify(name)}`);
  }
  const targets = (await (await fetch(`${cdp}/json/list`)).json()) as Target[];
  const page = targets.find((t) => t.type === 'page' && t.webSocketDebuggerUrl && /^https?:/.test(t.url));
  if (!page?.webSocketDebuggerUrl) {
    throw new Error(`screenshot: no workbench page among ${targets.map((t) => `${t.type} ${t.url}`).join(', ')}`);
  }
  const data = await captureOver(page.webSocketDebuggerUrl);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.png`);
  fs.writeFileSync(file, Buffer.from(data, 'base64'));
  return file;
}

/** One `Page.captureScreenshot` call over the page's DevTools WebSocket (Node's global WebSocket). */
function captureOver(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    const timer = setTimeout(() => {
      socket.close();
      reject(new Error('screenshot: Chromium did not answer within 10 s'));
    }, 10_000);
    socket.onopen = () => socket.send(JSON.stringify({ id: 1, method: 'Page.captureScreenshot', params: { format: 'png' } }));
    socket.onerror = () => {
      clearTimeout(timer);
      reject(new Error(`screenshot: cannot reach ${url}`));
    };
    socket.onmessage = (event) => {
      const message = JSON.parse(String(event.data)) as { id?: number; result?: { data: string }; error?: { message: string } };
      if (message.id !== 1) {
        return;
      }
      clearTimeout(timer);
      socket.close();
      if (message.result?.data) {
        resolve(message.result.data);
      } else {
        reject(new Error(`screenshot: ${message.error?.message ?? 'no image'}`));
      }
    };
  });
}
