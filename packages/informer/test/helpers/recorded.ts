/**
 * Real exchanges with a real kube-apiserver, recorded once and replayed: a recording proxy (plain http on
 * 127.0.0.1 → the apiserver's https with its token) writes down every request a client makes and the
 * answer, watch streams line by line; a replay server answers the same requests from the recording, so
 * client behaviour against real answers is tested on machines without Go.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';

/** One request and its answer. */
export interface Exchange {
  method: string;
  /** Path with the query parameters that identify the request (see {@link exchangeKey}). */
  key: string;
  status: number;
  contentType: string;
  /** The body of a plain answer. */
  body?: string;
  /** The lines of a watch stream, in order. */
  lines?: string[];
  /** Whether the server ended the watch stream (rather than the client closing it). */
  ended?: boolean;
}

/** The query parameters that identify a request; the rest (timeoutSeconds: random per watch) do not. */
const identifying = ['watch', 'fieldSelector', 'labelSelector', 'resourceVersion', 'resourceVersionMatch', 'sendInitialEvents', 'allowWatchBookmarks', 'limit', 'continue'];

/** `GET /apis/...?a=1&b=2` with only identifying parameters, sorted. */
export function exchangeKey(method: string, url: string): string {
  const u = new URL(url, 'http://x');
  const q = new URLSearchParams();
  for (const name of identifying.filter((n) => u.searchParams.has(n)).sort()) q.set(name, u.searchParams.get(name)!);
  const query = q.toString();
  return `${method} ${u.pathname}${query === '' ? '' : `?${query}`}`;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** A proxy to a real apiserver that records every exchange through it. */
export async function startRecordingProxy(target: { url: string; token: string; ca: string }): Promise<{ url: string; exchanges: Exchange[]; close(): Promise<void> }> {
  const exchanges: Exchange[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void readBody(req).then((body) => {
      const headers: Record<string, string> = { Authorization: `Bearer ${target.token}` };
      for (const h of ['accept', 'content-type', 'user-agent']) if (typeof req.headers[h] === 'string') headers[h] = req.headers[h];
      const up = httpsRequest(new URL(req.url!, target.url), { method: req.method, headers, ca: target.ca }, (answer) => {
        const contentType = String(answer.headers['content-type'] ?? '');
        const ex: Exchange = { method: req.method!, key: exchangeKey(req.method!, req.url!), status: answer.statusCode ?? 0, contentType };
        exchanges.push(ex);
        res.writeHead(ex.status, { 'Content-Type': contentType });
        const watching = new URL(req.url!, 'http://x').searchParams.get('watch') === 'true' || new URL(req.url!, 'http://x').searchParams.get('watch') === '1';
        if (watching && ex.status === 200) {
          ex.lines = [];
          let buf = '';
          answer.on('data', (c: Buffer) => {
            buf += c.toString('utf8');
            let i: number;
            while ((i = buf.indexOf('\n')) >= 0) { ex.lines!.push(buf.slice(0, i)); buf = buf.slice(i + 1); }
            res.write(c);
          });
          answer.on('end', () => { ex.ended = true; res.end(); });
          res.on('close', () => answer.destroy());
        } else {
          const chunks: Buffer[] = [];
          answer.on('data', (c: Buffer) => chunks.push(c));
          answer.on('end', () => { ex.body = Buffer.concat(chunks).toString('utf8'); res.end(ex.body); });
        }
      });
      up.on('error', (err) => { res.writeHead(502); res.end(String(err)); });
      if (body.length > 0) up.write(body);
      up.end();
    });
  });
  const url = await listen(server);
  return {
    url, exchanges,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

/**
 * A server that answers from a recording: each request takes the next recorded answer with its key (the
 * last one repeats once they run out); an unrecorded request gets 599. A watch sends its recorded lines
 * and, unless the recorded server ended it, stays open as a real one would.
 */
export async function startReplayServer(exchanges: readonly Exchange[]): Promise<{ url: string; unmatched: string[]; served: string[]; close(): Promise<void> }> {
  const queues = new Map<string, Exchange[]>();
  for (const ex of exchanges) {
    const q = queues.get(ex.key) ?? [];
    q.push(ex);
    queues.set(ex.key, q);
  }
  const unmatched: string[] = [];
  const served: string[] = [];
  const server = createServer((req, res) => {
    void readBody(req).then(() => {
      const key = exchangeKey(req.method!, req.url!);
      const q = queues.get(key);
      if (q === undefined || q.length === 0) {
        unmatched.push(key);
        res.writeHead(599, { 'Content-Type': 'text/plain' });
        res.end(`no recorded exchange for ${key}`);
        return;
      }
      const ex = q.length > 1 ? q.shift()! : q[0];
      served.push(key);
      res.writeHead(ex.status, { 'Content-Type': ex.contentType });
      if (ex.lines === undefined) { res.end(ex.body ?? ''); return; }
      for (const line of ex.lines) res.write(`${line}\n`);
      if (ex.ended) res.end();
    });
  });
  const url = await listen(server);
  return {
    url, unmatched, served,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
