// Renders resources/icon.png (128x128, the extension's icon) from the activity-bar glyph
// resources/secretary.svg, white on a blue rounded tile, with headless Chromium driven over the
// DevTools protocol (exact size, transparent corners). Run by scripts/make-icon; the PNG is committed.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SIZE = 128;
const browser = process.argv[2];
const glyph = fs.readFileSync(path.join(ROOT, 'resources/secretary.svg'), 'utf8').replace(/<svg[^>]*>|<\/svg>/g, '');
const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 128 128">
<defs><linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#2f6fd6"/><stop offset="1" stop-color="#1c4fa3"/></linearGradient></defs>
<rect width="128" height="128" rx="24" fill="url(#bg)"/>
<g transform="translate(16 16) scale(4)" fill="none" stroke="#fff" stroke-width="1.6" stroke-linecap="round" stroke-linejoin="round">${glyph}</g></svg>`;
const html = `<!doctype html><html><body style="margin:0;overflow:hidden;background:transparent"><style>svg{display:block}</style>${svg}</body></html>`;

const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'secretary-icon-'));
const child = spawn(browser, ['--headless', '--no-sandbox', '--disable-gpu', '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'], {
  stdio: 'ignore',
});
try {
  const portFile = path.join(profile, 'DevToolsActivePort');
  for (let i = 0; i < 200 && !fs.existsSync(portFile); i++) await new Promise((r) => setTimeout(r, 50));
  const port = fs.readFileSync(portFile, 'utf8').split('\n')[0];
  const targets = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
  const page = targets.find((t) => t.type === 'page');
  const socket = new WebSocket(page.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => ((socket.onopen = resolve), (socket.onerror = reject)));
  let id = 0;
  const pending = new Map();
  socket.onmessage = (event) => {
    const message = JSON.parse(String(event.data));
    pending.get(message.id)?.(message);
  };
  const send = (method, params = {}) =>
    new Promise((resolve, reject) => {
      pending.set(++id, (m) => (m.error ? reject(new Error(`${method}: ${m.error.message}`)) : resolve(m.result)));
      socket.send(JSON.stringify({ id, method, params }));
    });
  await send('Emulation.setDeviceMetricsOverride', { width: SIZE, height: SIZE, deviceScaleFactor: 1, mobile: false });
  await send('Emulation.setDefaultBackgroundColorOverride', { color: { r: 0, g: 0, b: 0, a: 0 } });
  await send('Page.navigate', { url: `data:text/html;base64,${Buffer.from(html).toString('base64')}` });
  await new Promise((r) => setTimeout(r, 500));
  const shot = await send('Page.captureScreenshot', { format: 'png', clip: { x: 0, y: 0, width: SIZE, height: SIZE, scale: 1 } });
  fs.writeFileSync(path.join(ROOT, 'resources/icon.png'), Buffer.from(shot.data, 'base64'));
  socket.close();
} finally {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill();
  await exited;
  fs.rmSync(profile, { recursive: true, force: true, maxRetries: 5 });
}
