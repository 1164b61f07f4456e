/**
 * A raw HTTP client for the differential suite: the same requests to kubekit's embedded server (http)
 * and to the real kube-apiserver (https with its own CA and a bearer token), answers kept byte-true.
 */
import { request as httpRequest, Agent as HttpAgent, type IncomingMessage } from 'node:http';
import { request as httpsRequest, Agent as HttpsAgent } from 'node:https';

/** Where to send requests. */
export interface Target {
  /** `kubekit`, `reference` or `fixture`. */
  name: string;
  url: string;
  token?: string;
  ca?: string;
}

/** One answer. */
export interface Reply {
  status: number;
  contentType: string;
  warnings: string[];
  /** Parsed JSON, or the text when the body is not JSON. */
  body: unknown;
}

export interface RequestOptions {
  body?: unknown;
  contentType?: string;
  accept?: string;
  /** The User-Agent header. @defaultValue `kubekit-differential` */
  userAgent?: string;
  /** Raw body text or bytes, sent as is (malformed JSON, YAML, invalid UTF-8). */
  raw?: string | Buffer;
  /** Send no Content-Type header even with a body. */
  noContentType?: boolean;
  /** More headers (impersonation: `Impersonate-User`). */
  headers?: Readonly<Record<string, string>>;
}

const agents = new WeakMap<Target, HttpAgent>();

function agentFor(t: Target): HttpAgent {
  let a = agents.get(t);
  if (a === undefined) {
    a = t.url.startsWith('https:') ? new HttpsAgent({ keepAlive: true, ca: t.ca, maxSockets: 16 }) : new HttpAgent({ keepAlive: true, maxSockets: 16 });
    agents.set(t, a);
  }
  return a;
}

function open(t: Target, method: string, path: string, options: RequestOptions, signal?: AbortSignal): Promise<IncomingMessage> {
  const url = new URL(path, t.url);
  const headers: Record<string, string> = { Accept: options.accept ?? 'application/json', 'User-Agent': options.userAgent ?? 'kubekit-differential' };
  if (t.token !== undefined) headers.Authorization = `Bearer ${t.token}`;
  if (options.headers !== undefined) Object.assign(headers, options.headers);
  let payload: string | Buffer | undefined;
  if (options.raw !== undefined) payload = options.raw;
  else if (options.body !== undefined) payload = JSON.stringify(options.body);
  if (payload !== undefined) {
    if (options.noContentType !== true) headers['Content-Type'] = options.contentType ?? 'application/json';
    // A known length, not chunked: a server that answers before reading a chunked body leaves it on the
    // keep-alive connection, where it spoils the next request.
    headers['Content-Length'] = String(Buffer.byteLength(payload));
  }
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(url, { method, headers, agent: agentFor(t), signal, timeout: 60_000 }, resolve);
    req.on('error', reject);
    req.on('timeout', () => req.destroy(new Error(`${t.name}: ${method} ${path} timed out`)));
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

function warningsOf(res: IncomingMessage): string[] {
  const raw = res.headers.warning;
  const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  // `299 - "text"`; several in one header are comma-separated quoted strings.
  return list.flatMap((h) => [...h.matchAll(/299 - "((?:[^"\\]|\\.)*)"/g)].map((m) => m[1].replace(/\\(.)/g, '$1')));
}

/** Sends one request and reads the whole answer. */
export async function send(t: Target, method: string, path: string, options: RequestOptions = {}): Promise<Reply> {
  const res = await open(t, method, path, options);
  const chunks: Buffer[] = [];
  for await (const c of res) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  let body: unknown = text;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), warnings: warningsOf(res), body };
}

/** A watch event as sent. */
export interface WatchEvent {
  type: string;
  object: Record<string, unknown>;
}

/** An open watch: events arrive in `events`; `until` waits (bounded) for a condition on them. */
export interface Watch {
  status: number;
  /** The body when the watch was refused (status ≥ 300). */
  error?: unknown;
  events: WatchEvent[];
  until(cond: (events: WatchEvent[]) => boolean, what: string, timeoutMs?: number): Promise<void>;
  /** Whether the server ended the stream. */
  ended(): boolean;
  close(): void;
}

/** Opens a watch (a GET with `watch=1` in `path`) and collects its events. */
export async function watch(t: Target, path: string): Promise<Watch> {
  const ac = new AbortController();
  const res = await open(t, 'GET', path, {}, ac.signal);
  const events: WatchEvent[] = [];
  let waiters: (() => void)[] = [];
  let done = false;
  const poke = () => { const w = waiters; waiters = []; for (const f of w) f(); };
  if ((res.statusCode ?? 0) >= 300) {
    const chunks: Buffer[] = [];
    for await (const c of res) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let error: unknown = text;
    try { error = JSON.parse(text); } catch { /* text */ }
    return { status: res.statusCode ?? 0, error, events, until: async () => undefined, ended: () => true, close: () => undefined };
  }
  let buf = '';
  res.on('data', (c: Buffer) => {
    buf += c.toString('utf8');
    let i: number;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i).trim();
      buf = buf.slice(i + 1);
      if (line !== '') events.push(JSON.parse(line) as WatchEvent);
    }
    poke();
  });
  const end = () => { done = true; poke(); };
  res.on('end', end);
  res.on('error', end);
  res.on('close', end);
  return {
    status: res.statusCode ?? 0,
    events,
    ended: () => done,
    async until(cond, what, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (!cond(events)) {
        if (done) throw new Error(`${t.name}: watch ${path} ended before ${what}; events: ${JSON.stringify(events.map((e) => e.type))}`);
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`${t.name}: watch ${path}: no ${what} within ${timeoutMs} ms; events: ${JSON.stringify(events.map((e) => [e.type, (e.object.metadata as { name?: string } | undefined)?.name]))}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(left, 1000));
          waiters.push(() => { clearTimeout(timer); resolve(); });
        });
      }
    },
    close() { ac.abort(); res.destroy(); },
  };
}
