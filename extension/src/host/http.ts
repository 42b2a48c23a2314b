import { HostError, type HostBridge } from './bridge';

/**
 * HTTP for the core's synchronous host bridge (`Host::http_get`): the core asks for a URL while a tool
 * runs; JavaScript can only fetch asynchronously. So each tool call gets an `HttpExchange`, a cache:
 *
 * 1. the core asks for a URL the exchange has no answer for: the exchange notes the request and throws
 *    `SECRETARY_FETCH_PENDING`, and the tool fails with `fetch_pending`;
 * 2. the adapter (`WasmCore.invokeAsync`) sees the noted requests, fetches them (global `fetch` with
 *    `AbortSignal.timeout`), and stores each body, or the network error, in the exchange;
 * 3. it runs the same call again: the core now gets its answer (or `SECRETARY_NETWORK`) and goes on.
 *
 * This is safe because only read-only tools make HTTP requests (the library docs), so running one
 * twice changes nothing; the replays are capped (`MAX_HTTP_REPLAYS`). No tool logic lives here: the
 * core builds the URLs and headers and reads the answers.
 */

/** A GET the core asked for. */
export interface HttpRequest {
  url: string;
  headers: Record<string, string>;
  timeoutMs: number;
}

/** An HTTP answer (any status), or why none came. */
export type HttpOutcome = { status: number; body: string } | { error: string };

/** How often one tool call is run again after fetching what it asked for. */
export const MAX_HTTP_REPLAYS = 3;

/** Bodies are cut at this many bytes while they arrive (the core keeps at most 50,000 characters
 * anyway): the rest is never downloaded, so a huge or endless answer costs no memory. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** Redirects followed within the same origin; a redirect to another origin is never followed (the
 * headers, an API key among them, would go to a host the user did not choose). */
export const MAX_REDIRECTS = 3;

/** One tool call's HTTP answers. */
export class HttpExchange {
  private readonly answers = new Map<string, HttpOutcome>();
  private readonly pending = new Map<string, HttpRequest>();

  constructor(private readonly fetcher: (request: HttpRequest) => Promise<HttpOutcome> = fetchOnce) {}

  /** The bridge's `httpGet`: the stored answer, else the request is noted and `SECRETARY_FETCH_PENDING` thrown. */
  answer(request: HttpRequest): { status: number; body: string } {
    const outcome = this.answers.get(request.url);
    if (outcome === undefined) {
      this.pending.set(request.url, request);
      throw new HostError('SECRETARY_FETCH_PENDING', `Fetching ${request.url}`);
    }
    if ('error' in outcome) {
      throw new HostError('SECRETARY_NETWORK', outcome.error);
    }
    return outcome;
  }

  /** Whether the last run asked for URLs the exchange has no answer for. */
  get hasPending(): boolean {
    return this.pending.size > 0;
  }

  /** Fetches every noted request (in parallel) and stores the answers; returns the URLs fetched. */
  async fetchPending(): Promise<string[]> {
    const requests = [...this.pending.values()];
    this.pending.clear();
    await Promise.all(
      requests.map(async (request) => {
        this.answers.set(request.url, await this.fetcher(request));
      }),
    );
    return requests.map((request) => request.url);
  }
}

/** One GET with Node's global `fetch`; never throws: failures become `{error}` ("timed out after 500 ms",
 * "connect ECONNREFUSED 127.0.0.1:9", "redirected to another host ..."). Redirects are handled here
 * (`redirect: 'manual'`): followed only to the same origin, at most `MAX_REDIRECTS` times. */
export async function fetchOnce(request: HttpRequest, maxBodyBytes = MAX_BODY_BYTES): Promise<HttpOutcome> {
  const signal = AbortSignal.timeout(Math.max(1, request.timeoutMs));
  try {
    let url = new URL(request.url);
    for (let redirects = 0; ; redirects++) {
      const response = await fetch(url, { headers: request.headers, signal, redirect: 'manual' });
      const location = response.status >= 300 && response.status < 400 ? response.headers.get('location') : null;
      if (location === null) {
        return { status: response.status, body: await readCapped(response, maxBodyBytes) };
      }
      await response.body?.cancel().catch(() => undefined);
      const next = new URL(location, url);
      if (next.origin !== url.origin) {
        return { error: `redirected to another host (${next.origin}); not followed` };
      }
      if (redirects >= MAX_REDIRECTS) {
        return { error: `more than ${MAX_REDIRECTS} redirects` };
      }
      url = next;
    }
  } catch (err) {
    return { error: describeFetchError(err, request.timeoutMs) };
  }
}

/** The body as UTF-8 text, reading at most `maxBytes` bytes: the stream is cancelled there. */
async function readCapped(response: Response, maxBytes: number): Promise<string> {
  if (!response.body) {
    return '';
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    while (total < maxBytes) {
      const { done, value } = await reader.read();
      if (done) {
        break;
      }
      const room = maxBytes - total;
      const part = value.length > room ? value.subarray(0, room) : value;
      chunks.push(part);
      total += part.length;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  // A character cut in two at the cap becomes U+FFFD; the core reads JSON or text, and a cut answer
  // fails to parse either way.
  return Buffer.concat(chunks, total).toString('utf8');
}

/** A fetch failure in words: the timeout, else the cause's code and message (undici hides them in `cause`). */
export function describeFetchError(err: unknown, timeoutMs: number): string {
  const error = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (error?.name === 'TimeoutError' || error?.name === 'AbortError') {
    return `timed out after ${timeoutMs} ms`;
  }
  const cause = error?.cause;
  if (cause?.message) {
    return cause.code && !cause.message.includes(cause.code) ? `${cause.code}: ${cause.message}` : cause.message;
  }
  return error?.message ?? String(err);
}

/** `host` with `httpGet` answered by `exchange` (the other methods delegate; optional ones only when
 * the host has them, since the core treats a missing method as "not offered"). */
export function withHttp(host: HostBridge, exchange: HttpExchange): HostBridge {
  const bridge: HostBridge = {
    read: (area, rel) => host.read(area, rel),
    writeAtomic: (area, rel, bytes) => host.writeAtomic(area, rel, bytes),
    remove: (area, rel) => host.remove(area, rel),
    list: (area, dir, recursive) => host.list(area, dir, recursive),
    setting: (key) => host.setting(key),
    httpGet: (url, headers, timeoutMs) => exchange.answer({ url, headers: { ...headers }, timeoutMs }),
  };
  if (host.stat) {
    bridge.stat = (area, rel) => host.stat!(area, rel);
  }
  if (host.rootOf) {
    bridge.rootOf = (area) => host.rootOf!(area);
  }
  if (host.gitStatus) {
    bridge.gitStatus = (repo) => host.gitStatus!(repo);
  }
  if (host.listDirs) {
    bridge.listDirs = (area, dir) => host.listDirs!(area, dir);
  }
  if (host.lock && host.unlock) {
    bridge.lock = (area, rel) => host.lock!(area, rel);
    bridge.unlock = (area, rel) => host.unlock!(area, rel);
  }
  return bridge;
}
