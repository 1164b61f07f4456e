/**
 * An HTTP proxy on 127.0.0.1 that forwards to a real (embedded) API server and, while it has a fault
 * budget, misbehaves at random: 500s, 429s with Retry-After, 410s on watches, connections reset or
 * cut in the middle of a line, garbage lines, and requests it never answers.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type ChaosFault = 'status500' | 'status429' | 'gone' | 'reset' | 'truncate' | 'garbage' | 'silent';

const faultKinds: readonly ChaosFault[] = ['status500', 'status429', 'gone', 'reset', 'truncate', 'garbage', 'silent'];

function status(code: number, reason: string, message: string): string {
  return JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });
}

export class ChaosProxy {
  private readonly server: http.Server;
  private readonly sockets = new Set<Socket>();
  private readonly held = new Set<http.ServerResponse>();
  /** The URLs of held requests (for failure messages). */
  readonly heldUrls = new Map<http.ServerResponse, string>();
  url = '';
  /** Faults still allowed. */
  budget = 0;
  /** Chance that a request gets a fault while the budget lasts. */
  probability = 0.3;
  /** Faults applied, by kind. */
  readonly applied: Record<string, number> = {};

  constructor(private readonly target: string, private readonly random: () => number) {
    this.server = http.createServer((req, res) => this.handle(req, res));
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
  }

  /** Requests held without an answer (or with headers and no body). */
  get silent(): number {
    return this.held.size;
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private pick(isWatch: boolean): ChaosFault | undefined {
    if (this.budget <= 0 || this.random() >= this.probability) return undefined;
    const kinds = faultKinds.filter((k) => isWatch || (k !== 'gone' && k !== 'garbage' && k !== 'truncate'));
    const fault = kinds[Math.floor(this.random() * kinds.length)];
    this.budget--;
    this.applied[fault] = (this.applied[fault] ?? 0) + 1;
    return fault;
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://x');
    const isWatch = url.searchParams.get('watch') === 'true';
    const fault = this.pick(isWatch);
    switch (fault) {
      case 'status500':
        res.writeHead(500, { 'Content-Type': 'application/json' });
        res.end(status(500, 'InternalError', 'chaos: internal error'));
        return;
      case 'status429':
        res.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': '1' });
        res.end(status(429, 'TooManyRequests', 'chaos: too many requests'));
        return;
      case 'gone':
        res.writeHead(410, { 'Content-Type': 'application/json' });
        res.end(status(410, 'Expired', 'chaos: too old resource version'));
        return;
      case 'silent':
        this.held.add(res);
        this.heldUrls.set(res, req.url ?? '');
        // A response pipelined behind another is not attached to the socket yet and hears no
        // 'close' of its own when the client goes: the socket's is the one to watch.
        onGone(req, res, () => {
          this.held.delete(res);
          this.heldUrls.delete(res);
        });
        if (isWatch) {
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.flushHeaders();
        }
        return;
      default:
        this.forward(req, res, fault);
    }
  }

  private forward(req: http.IncomingMessage, res: http.ServerResponse, fault: ChaosFault | undefined): void {
    const upstream = http.request(this.target + (req.url ?? '/'), { method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      let chunks = 0;
      const cutAfter = Math.floor(this.random() * 3);
      up.on('data', (chunk: Buffer) => {
        if (res.destroyed || res.writableEnded) return;
        if (fault !== undefined && chunks++ >= cutAfter) {
          if (fault === 'reset') {
            req.socket.destroy();
            up.destroy();
            return;
          }
          if (fault === 'truncate') {
            res.end(chunk.subarray(0, Math.max(1, chunk.length >> 1)));
            up.destroy();
            return;
          }
          if (fault === 'garbage') {
            res.write('{"type":"MODIFIED","object":{"metad\n');
            fault = undefined;
          }
        }
        res.write(chunk);
      });
      up.on('end', () => {
        if (!res.destroyed && !res.writableEnded) res.end();
      });
      up.on('error', () => res.destroy());
    });
    upstream.on('error', () => res.destroy());
    onGone(req, res, () => upstream.destroy());
    req.pipe(upstream);
  }
}

/** Calls `fn` once when the response closes or the connection it came on does, whichever is first. */
function onGone(req: http.IncomingMessage, res: http.ServerResponse, fn: () => void): void {
  let called = false;
  const once = (): void => {
    if (called) return;
    called = true;
    req.socket.off('close', once);
    fn();
  };
  res.once('close', once);
  req.socket.once('close', once);
}
