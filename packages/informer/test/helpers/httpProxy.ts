/**
 * An HTTP proxy on 127.0.0.1 in front of an API server (http or https upstream) for tests that must
 * see or change single requests and answers — where {@link FaultProxy}, a TCP proxy, sees only
 * connections. By default it forwards each request and pipes the answer back, its head at once (as
 * the apiserver sends a watch's head before its first event); hooks may answer a request themselves
 * or relay the upstream's answer their own way.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';

export interface HttpProxyHooks {
  /** Returns true when it answered the request itself (the upstream is not asked). */
  answer?: (req: IncomingMessage, res: ServerResponse, url: URL) => boolean;
  /** Relays the upstream's answer (its head is written already); returns false to have it piped as is. */
  relay?: (req: IncomingMessage, res: ServerResponse, up: IncomingMessage, url: URL) => boolean;
}

export interface HttpProxy {
  url: string;
  /** The client connections open now. */
  sockets: ReadonlySet<Socket>;
  close: () => Promise<void>;
}

export async function httpProxy(target: string, ca: string | undefined, hooks: HttpProxyHooks = {}): Promise<HttpProxy> {
  const upstream = new URL(target);
  const secure = upstream.protocol === 'https:';
  const agent = secure ? new https.Agent({ keepAlive: true, ca }) : new http.Agent({ keepAlive: true });
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (hooks.answer?.(req, res, url) === true) {
      req.resume();
      return;
    }
    const headers = { ...req.headers, host: upstream.host };
    const out = (secure ? https : http).request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers, agent }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      // At once: a watch with no event yet would otherwise look unanswered (Node sends the head with
      // the first byte of the body) until the next bookmark, a minute later.
      res.flushHeaders();
      if (hooks.relay?.(req, res, up, url) !== true) up.pipe(res);
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
    res.on('close', () => out.destroy());
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sockets,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      agent.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
