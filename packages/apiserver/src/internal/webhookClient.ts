/**
 * POSTs a review to a webhook as the apiserver does: https only, the `clientConfig`'s `caBundle` as the
 * only trusted CA, a service reference dialled at the address the server's resolver gives but verified
 * as `<name>.<namespace>.svc` (the name the apiserver checks the serving certificate against).
 */
import { readFileSync } from 'node:fs';
import { X509Certificate } from 'node:crypto';
import type { ClientRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type Socket } from 'node:net';
import { checkServerIdentity, connect as tlsConnect, type TLSSocket } from 'node:tls';
import { goQuote } from '@kubekit/core';
import { timestamp } from '../objectMeta.js';

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
 * POSTs `body` (JSON text) and resolves with the text of a 2xx answer with a body; rejects with the
 * apiserver's words: `Post "<url>": <cause>` for a transport failure (connection, TLS, timeout; see
 * {@link goTransportError}), client-go's for any other answer ({@link clientGoResultError}). `timeoutMs` bounds the
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
    // The connection is verified before anything is written to it, here rather than by Node, so that a
    // certificate that fails is worded as Go's verifier words it (its checks in its order).
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const verifyAs = servername ?? host;
    const socket = tlsConnect({ host, port: url.port === '' ? 443 : Number(url.port), ca, rejectUnauthorized: false, ...(isIP(verifyAs) === 0 ? { servername: verifyAs } : {}) });
    let deadline: NodeJS.Timeout | undefined;
    let req: ClientRequest | undefined;
    let settled = false;
    const close = (): void => {
      req?.destroy();
      socket.destroy();
    };
    // The first outcome settles the call; what the closing reports afterwards is ignored.
    const settle = (message: string | undefined, text = ''): void => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      signal?.removeEventListener('abort', cancel);
      if (message === undefined) resolvePost(text);
      else reject(new Error(message));
    };
    // A transport error is Go's `*url.Error` (`Post "<url>": <cause>`); client-go's own errors are not.
    const fail = (cause: string): void => settle(`Post "${url.href}": ${cause}`);
    // The request's client gone: Go's client sees the request's context cancelled.
    const cancel = (): void => {
      fail('context canceled');
      close();
    };
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
      close();
    };
    deadline = setTimeout(expire, timeoutMs);
    signal?.addEventListener('abort', cancel, { once: true });
    socket.on('error', (err) => fail(goTransportError(err, url, socket)));
    socket.once('secureConnect', () => {
      const tls = socket;
      const refused = goVerificationError(tls, verifyAs, ca);
      if (refused !== undefined) {
        fail(refused);
        close();
        return;
      }
      req = httpsRequest(url, {
        method: 'POST',
        // No agent: the request goes over this connection (an agent would dial its own).
        createConnection: () => tls,
        headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'Content-Length': Buffer.byteLength(body) },
      }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          settle(clientGoResultError(res.statusCode ?? 500, res.headers['content-type'], text), text);
          close();
        });
        // The connection closed before the body's end (client-go's io.ReadAll).
        res.on('error', () => settle('unexpected error when reading response body. Please retry. Original error: unexpected EOF'));
      });
      req.on('error', (err) => fail(goTransportError(err, url, tls)));
      req.end(body);
    });
  });
}

/**
 * Why crypto/tls refuses the server's certificate, in Go's words (`tls: failed to verify certificate: …`), or
 * undefined: x509's `Verify` checks the leaf's validity period first, then the name, then the chain to the
 * `caBundle` (an unknown authority, with its hint when a CA of the issuer's name does not verify the signature).
 */
function goVerificationError(socket: TLSSocket, host: string, caPem: string | undefined): string | undefined {
  if (socket.authorized) return undefined;
  const prefix = 'tls: failed to verify certificate: ';
  // One read of the peer's certificate (after getPeerX509Certificate, Node's getPeerCertificate answers {}).
  const peer = socket.getPeerCertificate();
  const code = String(socket.authorizationError ?? '');
  if (!Buffer.isBuffer(peer.raw)) return `${prefix}${code}`;
  const leaf = new X509Certificate(peer.raw);
  const now = Date.now();
  const [notBefore, notAfter] = [Date.parse(leaf.validFrom), Date.parse(leaf.validTo)];
  if (now < notBefore) return `${prefix}x509: certificate has expired or is not yet valid: current time ${timestamp(now)} is before ${timestamp(notBefore)}`;
  if (now > notAfter) return `${prefix}x509: certificate has expired or is not yet valid: current time ${timestamp(now)} is after ${timestamp(notAfter)}`;
  const names = (leaf.subjectAltName ?? '').split(',').map((n) => n.trim()).filter((n) => n !== '');
  if (checkServerIdentity(host, peer) !== undefined) {
    const ip = isIP(host) !== 0;
    const valid = names.filter((n) => n.startsWith(ip ? 'IP Address:' : 'DNS:')).map((n) => n.slice(n.indexOf(':') + 1));
    // HostnameError: the legacy Common Name only when there are no SANs and it names the host.
    const cn = leaf.subject.split('\n').find((l) => l.startsWith('CN='))?.slice(3) ?? '';
    if (names.length === 0 && commonNameMatches(cn, host)) return `${prefix}x509: certificate relies on legacy Common Name field, use SANs instead`;
    if (ip && valid.length === 0) return `${prefix}x509: cannot validate certificate for ${host} because it doesn't contain any IP SANs`;
    if (valid.length === 0) return `${prefix}x509: certificate is not valid for any names, but wanted to match ${host}`;
    return `${prefix}x509: certificate is valid for ${valid.join(', ')}, not ${host}`;
  }
  if (!unknownAuthority.has(code)) return `${prefix}${code}`;
  return `${prefix}x509: certificate signed by unknown authority${authorityHint(leaf, caPem)}`;
}

/** x509's `matchHostnames` of a Common Name: label by label, ignoring case, a leading `*` matching one label. */
function commonNameMatches(pattern: string, host: string): boolean {
  const [p, h] = [pattern.toLowerCase().replace(/\.$/, '').split('.'), host.toLowerCase().replace(/\.$/, '').split('.')];
  if (pattern === '' || p.length !== h.length) return false;
  return p.every((label, i) => label === h[i] || (i === 0 && label === '*' && h[i] !== ''));
}

/**
 * x509's `UnknownAuthorityError` hint: a CA of the bundle whose subject is the certificate's issuer but whose key
 * did not sign it (a CA regenerated under the same name), as ` (possibly because of "<error>" while trying to
 * verify candidate authority certificate "<its name>")`.
 */
function authorityHint(leaf: X509Certificate, caPem: string | undefined): string {
  for (const pem of (caPem ?? '').match(/-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g) ?? []) {
    let ca: X509Certificate;
    try {
      ca = new X509Certificate(pem);
    } catch {
      continue;
    }
    if (ca.subject !== leaf.issuer || leaf.verify(ca.publicKey)) continue;
    const type = ca.publicKey.asymmetricKeyType;
    const error = type === 'ec' ? 'x509: ECDSA verification failure' : type === 'ed25519' ? 'x509: Ed25519 verification failure' : 'crypto/rsa: verification error';
    const field = (name: string): string | undefined => ca.subject.split('\n').find((l) => l.startsWith(`${name}=`))?.slice(name.length + 1);
    const certName = field('CN') ?? field('O') ?? `serial:${BigInt(`0x${ca.serialNumber}`).toString()}`;
    return ` (possibly because of ${goQuote(error)} while trying to verify candidate authority certificate ${goQuote(certName)})`;
  }
  return '';
}

/**
 * What client-go's `Result.Into` makes of an answer that is not a 2xx with a body (rest/request.go
 * `transformResponse`, `Result.Error`; `errors.NewGenericServerResponse`): a Status in the body is its
 * message; else each code's words, with a text body (`text/*` or no content type, 2,048 bytes at most)
 * as the server's message; a 2xx without a body is a 0-length response. `undefined` for a 2xx with a body.
 */
export function clientGoResultError(code: number, contentType: string | undefined, body: string): string | undefined {
  const ok = code >= 200 && code <= 206;
  if (ok) return body.length > 0 ? undefined : `0-length response with status code: ${code} and content type: ${contentType ?? 'application/json'}`;
  const status = failureStatus(body);
  if (status !== undefined) return status;
  const media = (contentType ?? '').split(';')[0].trim().toLowerCase();
  const serverMessage = contentType === undefined || contentType === '' || media.startsWith('text/') ? Buffer.from(body).subarray(0, 2048).toString('utf8').trim() : 'unknown';
  const generic: Record<number, string> = {
    409: 'the server reported a conflict', 404: 'the server could not find the requested resource', 400: 'the server rejected our request for an unknown reason',
    401: 'the server has asked for the client to provide credentials', 403: serverMessage, 415: serverMessage, 405: 'the server does not allow this method on the requested resource',
    406: serverMessage === '' || serverMessage === 'unknown' ? 'the server was unable to respond with a content type that the client supports' : serverMessage,
    422: 'the server rejected our request due to an error in our request', 503: 'the server is currently unable to handle the request',
    504: 'the server was unable to return a response in the time allotted, but may still be processing the request', 429: 'the server has received too many requests and has asked us to try again later',
  };
  if (Object.hasOwn(generic, code)) return generic[code];
  return code >= 500 ? `an error on the server (${goQuote(serverMessage)}) has prevented the request from succeeding` : `the server responded with the status code ${code} but did not return more information`;
}

/** The message of a body that decodes as a failed `v1` Status (its apiVersion defaulted, as `Result.Error` decodes it). */
function failureStatus(body: string): string | undefined {
  if (!/^\s*\{/.test(body)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  const { kind, apiVersion, status, message } = parsed as Record<string, unknown>;
  if (kind !== 'Status' || (apiVersion !== undefined && apiVersion !== '' && apiVersion !== 'v1') || status !== 'Failure') return undefined;
  return typeof message === 'string' ? message : '';
}

/** The nameserver Go's resolver asks (the first of /etc/resolv.conf), as its DNS errors name it. */
function nameserver(): string | undefined {
  try {
    const line = /^\s*nameserver\s+(\S+)/m.exec(readFileSync('/etc/resolv.conf', 'utf8'));
    if (line === null) return undefined;
    return isIP(line[1]) === 6 ? `[${line[1]}]:53` : `${line[1]}:53`;
  } catch {
    return undefined;
  }
}

const unknownAuthority = new Set(['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_GET_ISSUER_CERT', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'CERT_SIGNATURE_FAILURE']);

/**
 * Go's words for a failed call (net/http, net), from Node's error: a refused connection is `dial tcp …:
 * connect: connection refused`, a name that does not resolve `dial tcp: lookup …: no such host`, a connection
 * closed before an answer `EOF`, one reset `read tcp …: read: connection reset by peer`. (A certificate that
 * fails is {@link goVerificationError}'s.)
 */
function goTransportError(err: Error, url: URL, socket: Socket | undefined): string {
  const e = err as Error & { code?: string; syscall?: string; address?: string; port?: number; hostname?: string; host?: string; cert?: { subjectaltname?: string } };
  const hostPort = (address: string, port: number | string): string => (isIP(address) === 6 ? `[${address}]:${port}` : `${address}:${port}`);
  if (e.code === 'ECONNREFUSED' && e.address !== undefined && e.port !== undefined) return `dial tcp ${hostPort(e.address, e.port)}: connect: connection refused`;
  if ((e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN') && e.hostname !== undefined) {
    const server = nameserver();
    return `dial tcp: lookup ${e.hostname}${server === undefined ? '' : ` on ${server}`}: no such host`;
  }
  if (e.code === 'ECONNRESET') {
    // A reset read (an RST) names both ends; a connection closed before any answer is io.EOF.
    if (e.syscall === 'read' && socket?.localAddress !== undefined && socket.remoteAddress !== undefined) {
      return `read tcp ${hostPort(socket.localAddress, socket.localPort ?? 0)}->${hostPort(socket.remoteAddress, socket.remotePort ?? 0)}: read: connection reset by peer`;
    }
    return 'EOF';
  }
  return err.message;
}
