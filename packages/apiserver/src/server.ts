/**
 * The HTTP front of the embedded API server: authentication, impersonation, API Priority and Fairness
 * classification (requestClassifier.ts: the `X-Kubernetes-PF-*` headers), authorization, then the public
 * endpoints (`/version`, `/healthz`, `/livez`, `/readyz`), OpenAPI, discovery and resource requests, with
 * one log line per request.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { KubeError, goQuote, noopLogger, parseGoDuration, type Logger } from '@kubekit/core';
import type { ResourceCatalog } from './catalog.js';
import { discoveryAPIServices, rootPaths, serveDiscovery } from './discovery.js';
import { healthPath, isHealthCheck, serveHealth } from './healthChecks.js';
import { methodNotAllowed, sendError, sendJSON, setResponseOutput, toKubeError } from './internal/http.js';
import { checkRouteAccepts, isPrettyPrint, serializers } from './internal/negotiation.js';
import { serveOpenAPI } from './openapi.js';
import { serveOpenAPIV2 } from './openapiV2.js';
import { handleResourceRequest, resourceNotFound } from './restHandler.js';
import { ImpersonationError, forbidden, requestUser } from './impersonation.js';
import { anonymousUser, serverUser, type UserInfo } from './rbacAuthorizer.js';
import type { ServiceAccountTokens } from './serviceAccountTokens.js';
import { parseRequestInfo, type RequestInfo } from './router.js';
import { flowSchemaUIDHeader, priorityLevelUIDHeader, type Classification, type RequestClassifier } from './requestClassifier.js';
import type { ResourceType } from './resourceType.js';
import type { ServerContext } from './serverContext.js';
import { bucketOf } from './storage/objectStore.js';
import { isObject } from './internal/own.js';
import { parseGoQuery, pathUnescape } from './internal/goURL.js';

const apiServicesBucket = bucketOf({ group: 'apiregistration.k8s.io', resource: 'apiservices' });

/** What the request handler needs besides the shared context. */
export interface RequestHandlerOptions {
  catalog: ResourceCatalog;
  /** The bearer token required on every non-public request. */
  token: string | undefined;
  logger: Logger;
  /** The `/version` answer. */
  version: { major: string; minor: string; gitVersion: string };
  /** The `CustomResourceFieldSelectors` feature gate (for OpenAPI). */
  customResourceFieldSelectors: boolean;
  /** `host:port`, for `/api`'s `serverAddressByClientCIDRs`. */
  serverAddress: () => string;
  /** API Priority and Fairness: the classification each answer's `X-Kubernetes-PF-*` headers name. @defaultValue none (no headers) */
  classifier?: RequestClassifier;
}

/** The classification of each request answered (for its log line, as the apiserver logs `apf_fs` and `apf_pl`). */
const classified = new WeakMap<ServerResponse, Classification>();

const publicPaths = new Set(['/healthz', '/livez', '/readyz', '/version', '/version/']);

/** The bearer token a request sends, if any. */
function bearerToken(req: IncomingMessage): string | undefined {
  return /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1].trim();
}

/**
 * Who sends the request, or undefined for a 401: the service account of a token this server issued (one
 * that fails its checks is a 401), else the server's own identity when the request has the server's token
 * (any request, when the server has none); a request without a bearer token is the anonymous user, whom
 * RBAC then allows what the bootstrap roles bind to `system:unauthenticated` (as kube-apiserver's default
 * `--anonymous-auth`); a token that does not authenticate is a 401.
 */
function authenticate(req: IncomingMessage, token: string | undefined, tokens: ServiceAccountTokens | undefined): UserInfo | undefined {
  const given = bearerToken(req);
  if (given !== undefined && tokens !== undefined) {
    const account = tokens.authenticate(given);
    if (account !== undefined) return 'error' in account ? undefined : account.user;
  }
  if (token === undefined) return serverUser;
  if (given === undefined) return anonymousUser;
  const sent = Buffer.from(given);
  const wanted = Buffer.from(token);
  return sent.length === wanted.length && timingSafeEqual(sent, wanted) ? serverUser : undefined;
}

/** A request's path and query, as its request-target carries them. */
interface RequestTarget {
  /**
   * The path decoded once, as `req.URL.Path` is: neither its `.` and `..` segments resolved nor its
   * backslashes taken for slashes, and a `%2F` a slash like any other.
   */
  pathname: string;
  /** The request-target as sent, for the log (`req.RequestURI`). */
  uri: string;
  /** The query's pairs as `req.URL.Query()` reads them. */
  searchParams: URLSearchParams;
}

/**
 * A request's path and query from its request-target (`url.ParseRequestURI`): an absolute path, or an
 * absolute URI's (`GET http://host/path`). Not a WHATWG URL: one relative to a base took a path beginning
 * with `//` for an authority (`//` threw out of the request handler and stopped the server; `//api/v1/pods`
 * read as `/v1/pods`), and it resolves `..` (`/api/v1/namespaces/a/configmaps/x/../..` is not namespace
 * `a`'s URL to the apiserver, which does not clean paths). `'not a path'` for anything else (`*`, garbage);
 * `'bad escape'` for a path with a `%` not followed by two hex digits, which Go's HTTP server refuses
 * before any handler.
 */
function requestTarget(target: string): RequestTarget | 'not a path' | 'bad escape' {
  let rest = target;
  if (!rest.startsWith('/')) {
    const absolute = /^https?:\/\/[^/?#]*/i.exec(rest);
    if (absolute === null) return 'not a path';
    rest = rest.slice(absolute[0].length);
    if (!rest.startsWith('/')) rest = `/${rest}`;
  }
  const q = rest.indexOf('?');
  const pathname = pathUnescape(q < 0 ? rest : rest.slice(0, q));
  if (pathname === undefined) return 'bad escape';
  return { pathname, uri: target, searchParams: parseGoQuery(q < 0 ? '' : rest.slice(q + 1)) };
}

/**
 * Go's HTTP server's answer to a request it cannot read (`400 Bad Request` in plain text), after which it
 * closes the connection.
 */
function badRequestBeforeHandlers(req: IncomingMessage, res: ServerResponse): void {
  req.resume();
  res.shouldKeepAlive = false;
  res.sendDate = false;
  res.writeHead(400, { 'Content-Type': goServeErrorType, Connection: 'close', 'Content-Length': String(badRequest.length) });
  res.end(badRequest);
}

/** net/http `serve`'s answers to a request it cannot read: the status as a plain-text body. */
const goServeErrorType = 'text/plain; charset=utf-8';
const badRequest = '400 Bad Request';

/**
 * The most a request line and its headers may take: Go's `http.DefaultMaxHeaderBytes` (1 MiB), which
 * kube-apiserver serves with, plus the 4 KiB net/http allows on top (Node's own default is 16 KiB: a
 * long label selector or a large bearer token that reaches a cluster was a 431 here).
 */
export const maxHeaderBytes = (1 << 20) + 4096;

/**
 * The server's answer to a request it cannot read, as Go's (net/http's `serve`): headers over
 * {@link maxHeaderBytes} are `431 Request Header Fields Too Large`, anything else it cannot parse
 * `400 Bad Request`, in plain text; then the connection is closed. A request that timed out keeps Node's
 * 408, and a connection already written to or gone is only closed.
 */
export function answerClientError(err: Error & { code?: string }, socket: Socket): void {
  // Only between responses: a keep-alive connection's next request may be the unreadable one, but an answer
  // being written must not be cut into.
  if (!socket.writable || (responding.get(socket) ?? 0) > 0 || err.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    socket.end('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n');
  } else {
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : badRequest;
    socket.end(`HTTP/1.1 ${status}\r\nContent-Type: ${goServeErrorType}\r\nConnection: close\r\n\r\n${status}`);
  }
  // closeWriteAndWait: what the client is still sending is read and dropped for a while, so that closing does
  // not reset the connection before the client has read the answer.
  socket.resume();
  setTimeout(() => socket.destroy(), 500).unref();
}

/** The responses each connection is writing (pipelined requests are answered in turn). */
const responding = new WeakMap<object, number>();

/** kube-apiserver's `--request-timeout` (1 minute): the longest a request that is not long-running may take. */
const requestTimeoutMaximumMs = 60_000;

/** `BasicLongRunningRequestCheck` of kube-apiserver: watches, proxies, and a pod's attach, exec, log and port forwarding. */
function isLongRunning(info: RequestInfo): boolean {
  return info.verb === 'watch' || info.verb === 'proxy' || (info.isResourceRequest && ['attach', 'exec', 'proxy', 'log', 'portforward'].includes(info.subresource));
}

/**
 * `WithRequestDeadline`'s reading of the `timeout` parameter (a Go duration): how long the request may
 * take, in ms — the timeout when it is positive and under the maximum, else the maximum — or its 400's message.
 */
function requestTimeoutMs(text: string): number | string {
  if (text === '') return requestTimeoutMaximumMs;
  const parsed = parseGoDuration(text);
  if (parsed.error !== undefined) return `invalid timeout specified in the request URL - ${parsed.error}`;
  const ns = parsed.nanoseconds;
  return ns > 0n && ns < BigInt(requestTimeoutMaximumMs) * 1_000_000n ? Number(ns) / 1e6 : requestTimeoutMaximumMs;
}

/** The status `WithTimeoutForNonLongRunningRequests` writes, with encoding/json (no kind, no apiVersion). */
const timeoutBody = `${JSON.stringify({ metadata: {}, status: 'Failure', message: 'Timeout: request did not complete within the allotted timeout', reason: 'Timeout', details: {}, code: 504 })}\n`;

/**
 * Gives a request that is not long-running its deadline (`performance.now()` time), as
 * `WithTimeoutForNonLongRunningRequests` does: unanswered by then, it is answered 504 (in plain text, as Go's
 * timeout writer writes it); answering already, its connection is closed. The handler goes on, and what it
 * writes afterwards goes nowhere, as into Go's timed-out writer. False when the deadline has passed already
 * (the 504 is sent, and the handler is not to run).
 *
 * The deadline is read by performance.now(), the clock the handler's storage writes and webhook calls are
 * checked against (internal/requestDeadline.ts), not by the timer alone, which may fire a millisecond early or
 * after the handler's own error: a handler that begins its answer once the deadline has passed finds the 504
 * written instead.
 */
function armDeadline(res: ServerResponse, deadline: number): boolean {
  type Method = (this: ServerResponse, ...args: unknown[]) => unknown;
  const writes = ['writeHead', 'write', 'end', 'flushHeaders'] as const;
  const target = res as unknown as Record<string, Method>;
  const original = new Map<string, Method>(writes.map((name) => [name, target[name]]));
  const call = (name: string, ...args: unknown[]): unknown => original.get(name)!.apply(res, args);
  let settled = false;
  const expire = (): void => {
    if (settled) return;
    settled = true;
    if (res.writableEnded) return;
    if (res.headersSent) {
      res.destroy();
      return;
    }
    for (const name of res.getHeaderNames()) res.removeHeader(name);
    call('writeHead', 504, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': String(Buffer.byteLength(timeoutBody)) });
    call('end', timeoutBody);
    for (const method of ['setHeader', 'appendHeader', 'writeHead', 'end']) target[method] = () => res;
    target.removeHeader = () => undefined;
    target.flushHeaders = () => undefined;
    target.write = () => true;
  };
  const left = deadline - performance.now();
  if (left <= 0) {
    expire();
    return false;
  }
  // The handler's first write: the 504 instead when the deadline has passed; from then on, its own answer.
  let answering = false;
  for (const name of writes) {
    target[name] = (...args: unknown[]): unknown => {
      if (!answering) {
        if (performance.now() >= deadline) {
          expire();
          return name === 'write' ? true : res;
        }
        answering = true;
      }
      return call(name, ...args);
    };
  }
  let timer: NodeJS.Timeout;
  const arm = (ms: number): void => {
    timer = setTimeout(() => {
      const rest = deadline - performance.now();
      if (rest > 0) arm(rest);
      else expire();
    }, ms);
    timer.unref();
  };
  arm(left);
  res.once('close', () => clearTimeout(timer));
  return true;
}

/** Creates the request handler of an embedded API server. */
export function createRequestHandler(ctx: ServerContext, options: RequestHandlerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const logger = options.logger ?? noopLogger;
  return (req, res) => {
    const socket = req.socket;
    responding.set(socket, (responding.get(socket) ?? 0) + 1);
    res.once('close', () => responding.set(socket, (responding.get(socket) ?? 1) - 1));
    const started = ctx.clock.now();
    const method = req.method ?? 'GET';
    const url = requestTarget(req.url ?? '/');
    if (url === 'bad escape') {
      badRequestBeforeHandlers(req, res);
      return;
    }
    if (url === 'not a path') {
      // A request-target that is not a path (`OPTIONS *`): no handler has it.
      req.resume();
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
      res.end('404 page not found\n');
      return;
    }
    res.on('finish', () => {
      const apf = classified.get(res);
      logger.info(`${method} ${url.uri} ${res.statusCode}`, {
        verb: method, uri: url.uri, resp: res.statusCode, latencyMs: ctx.clock.now() - started,
        userAgent: req.headers['user-agent'] ?? '', srcIP: `${req.socket.remoteAddress ?? ''}:${req.socket.remotePort ?? ''}`,
        ...(apf === undefined ? {} : { apf_pl: apf.priorityLevelName, apf_fs: apf.flowSchemaName }),
      });
    });
    void handle(ctx, options, req, res, method, url).catch((err: unknown) => {
      if (res.headersSent) {
        res.end();
        return;
      }
      sendError(res, toKubeError(err));
    });
  };
}

/**
 * The 404 of a path nothing serves, in the shape kube-apiserver 1.34 gives it: a `Status` from the
 * handlers of the core group, the built-in groups and `/version` (go-restful's), and Go's plain
 * `404 page not found` from the mux for anything else — an unknown group, a custom resource group's
 * unknown version or resource (the CRD handler hands those to the mux), a path outside the API.
 */
function notFound(catalog: ResourceCatalog, path: string, res: ServerResponse): void {
  const group = /^\/apis\/([^/]+)/.exec(path)?.[1];
  const restful = path === '/api' || path.startsWith('/api/') || path.startsWith('/version/') || (group !== undefined && catalog.isBuiltinGroup(group));
  if (restful) throw resourceNotFound();
  res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
  res.end('404 page not found\n');
}

/**
 * Whether a path is under a group-version an APIService with `spec.service` claims (`/apis/<group>/<version>`
 * and below): kube-aggregator's proxy handler takes it, and kubekit, which proxies to nothing, answers as that
 * handler does when it cannot reach the service.
 */
function proxiedToService(ctx: ServerContext, path: string): boolean {
  const m = /^\/apis\/([^/]+)\/([^/]+)(?:\/|$)/.exec(path);
  if (m === null) return false;
  const apiService = ctx.store.get(apiServicesBucket, `${m[2]}.${m[1]}`);
  return apiService !== undefined && isObject(apiService.spec) && isObject(apiService.spec.service);
}

/**
 * Whether a custom resource request's scope differs from its CRD's: a namespace for a cluster-scoped one,
 * none for a namespaced one but to list or watch across namespaces. The CRD handler passes those to the
 * mux (crdHandler.ServeHTTP), whose 404 is Go's plain text.
 */
function customResourceOutOfScope(type: ResourceType, info: RequestInfo): boolean {
  if (type.customResource !== true) return false;
  if (!type.names.namespaced) return info.namespace !== '';
  return info.namespace === '' && info.verb !== 'list' && info.verb !== 'watch';
}

/** Discovery and /version are indented when the client asks (`?pretty=true`) or is curl or a browser, as resources are. */
function indentIfAsked(req: IncomingMessage, res: ServerResponse): void {
  setResponseOutput(res, { serializer: serializers[0], pretty: isPrettyPrint(req), stream: '' });
}

/** `responsewriters.InternalError`: a plain-text 500 naming the request URI, HTML's special characters escaped. */
function internalError(req: IncomingMessage, res: ServerResponse, message: string): void {
  const text = `Internal Server Error: ${goQuote(req.url ?? '')}: ${message}`.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
  res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
  res.end(`${text}\n`);
}

async function handle(ctx: ServerContext, options: RequestHandlerOptions, req: IncomingMessage, res: ServerResponse, method: string, url: RequestTarget): Promise<void> {
  const path = url.pathname;
  const received = performance.now();
  // The filters' order: request info, the request's deadline, authentication, impersonation, priority and
  // fairness, authorization; the public endpoints are served behind all of them (RBAC's
  // `system:public-info-viewer` lets everyone get them).
  const info = parseRequestInfo(method, path, url.searchParams);
  if (info.undecodable === true) {
    req.resume();
    internalError(req, res, `failed to create RequestInfo: unable to determine kind and namespace from url, ${req.url ?? ''}`);
    return;
  }
  let deadline: number | undefined;
  if (!isLongRunning(info)) {
    const timeout = requestTimeoutMs(url.searchParams.get('timeout') ?? '');
    if (typeof timeout === 'string') {
      req.resume();
      sendError(res, KubeError.badRequest(timeout));
      return;
    }
    deadline = received + timeout;
    if (!armDeadline(res, deadline)) {
      req.resume();
      return;
    }
  }
  const requester = authenticate(req, options.token, ctx.serviceAccountTokens);
  if (requester === undefined) {
    req.resume();
    sendError(res, new KubeError('Unauthorized', 'Unauthorized'));
    return;
  }
  let user;
  try {
    user = requestUser(req, requester, ctx.store);
  } catch (err) {
    if (err instanceof KubeError) req.resume();
    if (!(err instanceof ImpersonationError)) throw err;
    req.resume();
    internalError(req, res, err.message);
    return;
  }
  const classification = options.classifier?.classify({ user, info });
  if (classification !== undefined) {
    res.setHeader(priorityLevelUIDHeader, classification.priorityLevelUID);
    res.setHeader(flowSchemaUIDHeader, classification.flowSchemaUID);
    classified.set(res, classification);
  }
  const denied = forbidden(ctx.store, user, info, url.searchParams);
  if (denied !== undefined) {
    req.resume();
    throw denied;
  }
  // A path that begins with `//` is no route's: authorized by the request info of its trimmed segments, then
  // the mux's 404.
  if (path.startsWith('//')) {
    req.resume();
    notFound(options.catalog, path, res);
    return;
  }
  // The index: every method is answered with the paths the server lists, always indented (WriteRawJSON).
  if (path === '/') {
    req.resume();
    setResponseOutput(res, { serializer: serializers[0], pretty: true, stream: '' });
    sendJSON(res, 200, { paths: rootPaths(options.catalog, discoveryAPIServices(ctx.store.values(apiServicesBucket)), ctx.serviceAccountTokens !== undefined) });
    return;
  }
  if (publicPaths.has(path)) {
    if (path.startsWith('/version')) {
      // A go-restful route for GET only (HEAD included: kube-apiserver 1.34.4 answers it 405).
      if (method !== 'GET') {
        req.resume();
        throw methodNotAllowed();
      }
      // go-restful's route produces JSON only: a client that accepts neither it nor */* gets its 406.
      try {
        checkRouteAccepts(req.headers.accept, ['application/json']);
      } catch (err) {
        sendError(res, err);
        return;
      }
      // The version handler always indents (WriteRawJSON). Since 1.33 (k8s.io/apimachinery v0.33's version.Info;
      // v0.32's has none) it also names the emulated version and the oldest one it stays compatible with (one
      // minor before, as 1.34.4 answers).
      setResponseOutput(res, { serializer: serializers[0], pretty: true, stream: '' });
      const { major, minor, gitVersion } = options.version;
      const emulation = major === '1' && Number(minor) >= 33
        ? { emulationMajor: major, emulationMinor: minor, minCompatibilityMajor: major, minCompatibilityMinor: String(Number(minor) - 1) }
        : {};
      sendJSON(res, 200, {
        major, minor, ...emulation, gitVersion, gitCommit: '', gitTreeState: 'clean', buildDate: '2026-01-01T00:00:00Z',
        goVersion: `node${process.versions.node}`, compiler: 'kubekit', platform: `${process.platform}/${process.arch}`,
      });
    } else {
      req.resume();
      serveHealth(healthPath(path)!.endpoint, url.searchParams, res);
    }
    return;
  }
  const tokens = ctx.serviceAccountTokens;
  if (tokens !== undefined && (path === '/.well-known/openid-configuration' || path === '/openid/v1/jwks')) {
    req.resume();
    // go-restful routes for GET only (HEAD included).
    if (method !== 'GET') throw methodNotAllowed();
    sendJSON(res, 200, path === '/openid/v1/jwks' ? tokens.jwks() : tokens.openidConfiguration());
    return;
  }
  // One health check on its own path: not public (authorized as a non-resource path above).
  const health = healthPath(path);
  if (health?.check !== undefined && isHealthCheck(health.endpoint, health.check)) {
    req.resume();
    res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('ok');
    return;
  }
  // The OpenAPI v2 handler answers any method as a GET.
  if (path === '/openapi/v2') {
    serveOpenAPIV2(options.catalog, req.headers.accept, res, options.customResourceFieldSelectors);
    return;
  }
  if (path === '/openapi/v3' || path.startsWith('/openapi/v3/')) {
    if (!serveOpenAPI(options.catalog, path, url.searchParams, res, options.customResourceFieldSelectors)) {
      // The OpenAPI v3 service answers a group-version it does not know with an empty 404.
      res.writeHead(404, { 'Content-Length': '0' });
      res.end();
    }
    return;
  }
  if (proxiedToService(ctx, path)) {
    req.resume();
    res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
    res.end('service unavailable\n');
    return;
  }
  if (!info.isResourceRequest) {
    indentIfAsked(req, res);
    req.resume();
    if (serveDiscovery(options.catalog, () => discoveryAPIServices(ctx.store.values(apiServicesBucket)), path, req.headers.accept, res, options.serverAddress(), method)) return;
    notFound(options.catalog, path, res);
    return;
  }
  const type = options.catalog.resolve(info.group, info.version, info.resource);
  // The deprecated `/watch/` and `/proxy/` paths go on with their verb: the handler knows which routes a
  // built-in kind has under them, and a custom resource's handler serves any verb it decodes.
  if (type === undefined || customResourceOutOfScope(type, info)) {
    req.resume();
    notFound(options.catalog, path, res);
    return;
  }
  await handleResourceRequest(ctx, { req, res, info, query: url.searchParams, type, user, deadline });
}
