/**
 * POSTs a review to a webhook as the apiserver does: https only, the `clientConfig`'s `caBundle` as the
 * only trusted CA, a service reference dialled at the address the server's resolver gives but verified
 * as `<name>.<namespace>.svc` (the name the apiserver checks the serving certificate against).
 */
import { request as httpsRequest } from 'node:https';

/** `clientConfig` of a webhook (conversion or admission). */
export interface WebhookClientConfig {
  url?: string;
  service?: { namespace: string; name: string; path?: string; port?: number };
  caBundle?: string;
}

/**
 * Where the embedded server dials a webhook `service` reference: a base URL (`https://127.0.0.1:9443`)
 * to which the reference's path is appended.
 */
export type WebhookServiceResolver = (service: { namespace: string; name: string; port: number }) => string;

/** The default resolver: the service's port on 127.0.0.1 (the embedded server has no cluster network). */
export const loopbackServiceResolver: WebhookServiceResolver = (service) => `https://127.0.0.1:${service.port}`;

/** Where a client config points: the URL to dial and the TLS server name to verify. */
export function webhookTarget(config: WebhookClientConfig, resolve: WebhookServiceResolver): { url: URL; servername?: string } {
  if (config.url !== undefined) return { url: new URL(config.url) };
  const service = config.service;
  if (service === undefined) throw new Error('the webhook clientConfig has neither url nor service');
  const base = resolve({ namespace: service.namespace, name: service.name, port: service.port ?? 443 }).replace(/\/+$/, '');
  return { url: new URL(`${base}${service.path ?? ''}`), servername: `${service.name}.${service.namespace}.svc` };
}

/** How {@link postReview} calls. */
export interface PostOptions {
  /** Whether the URL carries the call's deadline (`?timeout=10s`, whole seconds), as the admission webhooks' client's does. */
  timeoutParameter?: boolean;
  /** The request's cancellation: the call fails when it aborts. */
  signal?: AbortSignal;
}

/**
 * POSTs `body` (JSON text) and resolves with the response text; rejects with the apiserver's wording
 * (`Post "<url>": <cause>`) on connection, TLS, timeout or non-2xx failures. `timeoutMs` bounds the
 * whole call, reading the answer included (the apiserver's request context deadline), not only the
 * time the connection is idle: a webhook that trickles its answer fails at the deadline too; one already
 * past (`timeoutMs` ≤ 0) fails at once, and nothing is sent. A call whose `signal` aborts (its request's
 * client has gone) fails with `context canceled`, its connection closed.
 */
export function postReview(config: WebhookClientConfig, body: string, timeoutMs: number, resolve: WebhookServiceResolver, options: PostOptions = {}): Promise<string> {
  const { timeoutParameter = false, signal } = options;
  let target: { url: URL; servername?: string };
  try {
    target = webhookTarget(config, resolve);
  } catch (err) {
    return Promise.reject(err instanceof Error ? err : new Error(String(err)));
  }
  const { url, servername } = target;
  if (signal?.aborted === true) return Promise.reject(new Error(`Post "${url.href}": context canceled`));
  if (timeoutMs <= 0) return Promise.reject(new Error(`Post "${url.href}": context deadline exceeded`));
  // client-go's `Request.Timeout` tells the server its deadline as `?timeout=10s`, rounded up to a whole
  // second (the admission webhooks' client sets it; the URL, with it, is what an error quotes).
  if (timeoutParameter) url.searchParams.set('timeout', `${Math.ceil(timeoutMs / 1000)}s`);
  if (url.protocol !== 'https:') return Promise.reject(new Error(`Post "${url.href}": webhooks are called over https only`));
  const ca = config.caBundle === undefined || config.caBundle === '' ? undefined : Buffer.from(config.caBundle, 'base64').toString('utf8');
  return new Promise((resolvePost, reject) => {
    // The first outcome settles the call; the deadline's own destroy() then reports nothing more.
    let deadline: NodeJS.Timeout | undefined;
    // The request's client gone: Go's client sees the request's context cancelled.
    const cancel = (): void => {
      fail('context canceled');
      req.destroy();
    };
    const fail = (cause: string): void => {
      clearTimeout(deadline);
      signal?.removeEventListener('abort', cancel);
      reject(new Error(`Post "${url.href}": ${cause}`));
    };
    const req = httpsRequest(url, {
      method: 'POST',
      ca,
      ...(servername === undefined ? {} : { servername }),
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'Content-Length': Buffer.byteLength(body) },
      agent: false,
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const code = res.statusCode ?? 500;
        if (code < 200 || code >= 300) fail(`the server responded with the status code ${code}: ${text.slice(0, 500)}`);
        else {
          clearTimeout(deadline);
          signal?.removeEventListener('abort', cancel);
          resolvePost(text);
        }
      });
      res.on('error', (err) => fail(err.message));
    });
    // A timer may fire up to a millisecond early (libuv's clock is in whole milliseconds): the call fails only
    // once `timeoutMs` has passed by performance.now(), the clock of the request's deadline, so that a call
    // cut by that deadline finds it passed (nothing is stored after it).
    const started = performance.now();
    const expire = (): void => {
      const left = timeoutMs - (performance.now() - started);
      if (left > 0) {
        deadline = setTimeout(expire, left);
        return;
      }
      fail('context deadline exceeded');
      req.destroy();
    };
    deadline = setTimeout(expire, timeoutMs);
    signal?.addEventListener('abort', cancel, { once: true });
    req.on('error', (err) => fail(err.message));
    req.end(body);
  });
}
