import { watch, type FSWatcher } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSecureContext } from 'node:tls';
import { basename, dirname, resolve } from 'node:path';
import { errorMessage, asError, KubeError, noopLogger, parseJSON, realClock, stringifyJSON, type Clock, type Logger, type Status } from '@kubekit/core';
import { reviewAdmission, type AdmissionResult } from './admissionReview.js';
import { generateCertificates } from './certificates.js';
import { reviewConversion, type Converter } from './conversionReview.js';
import type { AdmissionRequest } from './reviewTypes.js';
import { WebhookMetrics, type ReviewResult } from './webhookMetrics.js';

/**
 * An admission handler of any object type, as options accept it: write handlers with
 * `AdmissionHandler<Shirt>` and pass them here.
 */
export type AnyAdmissionHandler = (request: AdmissionRequest<never>) => AdmissionResult<unknown> | void | Promise<AdmissionResult<unknown> | void>;

/** One path the server answers on. */
export type WebhookRoute =
  | { type: 'conversion'; converter: Converter }
  | { type: 'validating'; handler: AnyAdmissionHandler }
  | { type: 'mutating'; handler: AnyAdmissionHandler };

/** TLS material: PEM text, or files that are watched and reloaded when they change. */
export type WebhookTLSOptions =
  | { cert: string; key: string; caBundle?: string }
  | { certFile: string; keyFile: string; caFile?: string };

/** Options of {@link WebhookServer} and {@link startWebhookServer}. */
export interface WebhookServerOptions {
  /** @defaultValue `'127.0.0.1'` */
  host?: string;
  /** Port 0 picks a free one. @defaultValue 0 */
  port?: number;
  /** @defaultValue a CA and serving certificate for the host and `localhost`, generated at start */
  tls?: WebhookTLSOptions;
  /** The converter of `ConversionReview`s POSTed to `/convert`. @defaultValue none (404) */
  conversion?: Converter;
  /** The handler of `AdmissionReview`s POSTed to `/validate`. @defaultValue none (404) */
  validate?: AnyAdmissionHandler;
  /** The mutating handler of `AdmissionReview`s POSTed to `/mutate`. @defaultValue none (404) */
  mutate?: AnyAdmissionHandler;
  /** More paths, such as one per kind (`/validate-shirts`). @defaultValue none */
  routes?: Record<string, WebhookRoute>;
  /** Larger request bodies are refused with 413. @defaultValue 3 MiB, the apiserver's request limit */
  maxRequestBytes?: number;
  /** A request not received within this time is answered 408 and closed; a handler that takes longer is answered 504. @defaultValue 10000 ms, the apiserver's default webhook timeout */
  requestTimeoutMs?: number;
  /** @defaultValue a new WebhookMetrics with its own registry */
  metrics?: WebhookMetrics;
  /** @defaultValue no logging */
  logger?: Logger;
  /** @defaultValue realClock */
  clock?: Clock;
  /** Called after certificate files changed: without an argument once reloaded, with the error when they could not be. @defaultValue none */
  onCertificatesReloaded?: (error?: Error) => void;
}

const jsonType = /^application\/json\s*(;|$)/i;

function statusBody(code: number, reason: string, message: string): Status {
  return { apiVersion: 'v1', kind: 'Status', status: 'Failure', code, reason, message };
}

/**
 * An HTTPS server for conversion and admission webhooks, and a `Manager` runnable.
 *
 * Contract:
 * - HTTPS only (TLS 1.2 or newer), on 127.0.0.1 unless told otherwise. Without `tls` it generates a CA
 *   and serving certificate at start; {@link WebhookServer.caBundle} is the CA for `clientConfig.caBundle`.
 *   Certificates given as files are reloaded when the files change; connections made before keep
 *   their certificate.
 * - POST `/convert` answers `ConversionReview`s, `/validate` and `/mutate` `AdmissionReview`s, each with
 *   status 200 and a review, including when a handler denies or fails (the review says so). A request
 *   that is not a review is answered with a `Status`: 400 (not JSON or not a review), 404 (no such
 *   path), 405 (not POST), 413 (body over `maxRequestBytes`), 415 (not `application/json`), 504 (the
 *   handler took longer than `requestTimeoutMs`); a request not received within `requestTimeoutMs` is
 *   answered 408 by Node and its connection closed.
 * - GET `/healthz` and `/readyz` answer `ok` while serving; `/metrics` serves the metrics' registry.
 * - `start(signal)` serves until `signal` aborts, then closes and resolves.
 */
export class WebhookServer {
  readonly metrics: WebhookMetrics;
  private readonly options: WebhookServerOptions;
  private readonly routes = new Map<string, WebhookRoute>();
  private readonly logger: Logger;
  private readonly clock: Clock;
  private server: Server | undefined;
  private watchers: FSWatcher[] = [];
  private bundle = '';
  private serving = false;
  private reloading: Promise<void> = Promise.resolve();
  private listeners: (() => void)[] = [];

  constructor(options: WebhookServerOptions = {}) {
    this.options = options;
    this.logger = options.logger ?? noopLogger;
    this.clock = options.clock ?? realClock;
    this.metrics = options.metrics ?? new WebhookMetrics();
    if (options.conversion !== undefined) this.routes.set('/convert', { type: 'conversion', converter: options.conversion });
    if (options.validate !== undefined) this.routes.set('/validate', { type: 'validating', handler: options.validate });
    if (options.mutate !== undefined) this.routes.set('/mutate', { type: 'mutating', handler: options.mutate });
    for (const path of Object.keys(options.routes ?? {})) {
      if (!path.startsWith('/')) throw new TypeError(`WebhookServer: route ${JSON.stringify(path)} must start with '/'`);
      this.routes.set(path, options.routes![path]);
    }
  }

  /** `https://host:port` once listening. */
  get url(): string {
    const address = this.server?.address() as AddressInfo | null | undefined;
    if (!address) throw new Error('WebhookServer: not listening');
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return `https://${host}:${address.port}`;
  }

  /** The CA of the serving certificate in base64 PEM (`clientConfig.caBundle`); empty when unknown. */
  get caBundle(): string {
    return this.bundle;
  }

  /** Whether the server is listening: a readiness check for a `Manager` (`addReadyCheck('webhook', () => server.readyCheck())`). */
  readyCheck(): void {
    if (!this.serving) throw new Error('webhook server is not serving yet');
  }

  /** Starts listening; resolves with the URL and CA bundle. */
  async listen(): Promise<{ url: string; caBundle: string }> {
    if (this.server !== undefined) throw new Error('WebhookServer: already listening');
    const host = this.options.host ?? '127.0.0.1';
    const material = await this.loadTLS(host);
    const timeout = this.options.requestTimeoutMs ?? 10_000;
    // Node checks requestTimeout every connectionsCheckingInterval (30 s by default): check often
    // enough that a client stalling its request is cut near the timeout.
    const server = createServer({ cert: material.cert, key: material.key, minVersion: 'TLSv1.2', connectionsCheckingInterval: Math.min(timeout, 1_000) }, (req, res) => this.handle(req, res));
    server.requestTimeout = timeout;
    server.headersTimeout = timeout;
    this.server = server;
    await new Promise<void>((resolveListen, reject) => {
      server.once('error', reject);
      server.listen(this.options.port ?? 0, host, () => {
        server.off('error', reject);
        resolveListen();
      });
    });
    // After listening, an error is a connection that could not be accepted: logged, not fatal (an
    // 'error' event without a listener would end the process).
    server.on('error', (err) => this.logger.warn('accepting a connection failed; still listening', { error: errorMessage(err) }));
    this.watchCertificates();
    this.serving = true;
    for (const notify of this.listeners.splice(0)) notify();
    this.logger.info('webhook server listening', { url: this.url, paths: [...this.routes.keys()] });
    return { url: this.url, caBundle: this.bundle };
  }

  /** Stops listening and closes every connection. */
  async close(): Promise<void> {
    this.serving = false;
    for (const w of this.watchers) w.close();
    this.watchers = [];
    const server = this.server;
    this.server = undefined;
    if (server === undefined) return;
    await new Promise<void>((done) => {
      server.close(() => done());
      server.closeAllConnections();
    });
  }

  /** Serves until `signal` aborts (the `Runnable` shape of `@kubekit/controller`'s Manager). */
  async start(signal: AbortSignal): Promise<void> {
    if (signal.aborted) return;
    try {
      await this.listen();
      if (!signal.aborted) await new Promise<void>((done) => signal.addEventListener('abort', () => done(), { once: true }));
    } finally {
      await this.close();
    }
  }

  /**
   * Resolves once the server listens (a `Manager` waits for this before it reports ready and starts
   * leader-only work), or rejects with the signal's reason when it aborts first.
   */
  waitForSync(signal?: AbortSignal): Promise<void> {
    if (this.serving) return Promise.resolve();
    return new Promise<void>((resolveSync, reject) => {
      const onAbort = (): void => reject(signal!.reason);
      if (signal?.aborted) {
        onAbort();
        return;
      }
      signal?.addEventListener('abort', onAbort, { once: true });
      this.listeners.push(() => {
        signal?.removeEventListener('abort', onAbort);
        resolveSync();
      });
    });
  }

  /** Re-reads the certificate files now; resolves once the new pair serves new connections. */
  reloadCertificates(): Promise<void> {
    this.reloading = this.reloading.then(async () => {
      const tls = this.options.tls;
      if (tls === undefined || !('certFile' in tls) || this.server === undefined) return;
      try {
        const material = await this.readFiles(tls);
        this.server?.setSecureContext({ cert: material.cert, key: material.key, minVersion: 'TLSv1.2' });
        this.logger.info('webhook certificates reloaded', { certFile: tls.certFile });
        this.options.onCertificatesReloaded?.();
      } catch (err) {
        const error = asError(err);
        this.logger.warn('webhook certificates could not be reloaded; keeping the previous ones', { error: error.message });
        this.options.onCertificatesReloaded?.(error);
      }
    });
    return this.reloading;
  }

  private async readFiles(tls: { certFile: string; keyFile: string; caFile?: string }): Promise<{ cert: string; key: string }> {
    const [cert, key, ca] = await Promise.all([readFile(tls.certFile, 'utf8'), readFile(tls.keyFile, 'utf8'), tls.caFile === undefined ? undefined : readFile(tls.caFile, 'utf8')]);
    // Throws when the pair does not match (a half-written rotation), so the old pair stays.
    createSecureContext({ cert, key });
    if (ca !== undefined) this.bundle = Buffer.from(ca, 'utf8').toString('base64');
    return { cert, key };
  }

  private async loadTLS(host: string): Promise<{ cert: string; key: string }> {
    const tls = this.options.tls;
    if (tls === undefined) {
      const generated = generateCertificates({ hosts: host === 'localhost' ? ['localhost', '127.0.0.1'] : [host, 'localhost'] });
      this.bundle = generated.caBundle;
      return generated;
    }
    if ('certFile' in tls) return this.readFiles(tls);
    this.bundle = tls.caBundle ?? '';
    return tls;
  }

  private watchCertificates(): void {
    const tls = this.options.tls;
    if (tls === undefined || !('certFile' in tls)) return;
    // Watch the directories: rotations replace files (rename), which a watch on the file would miss.
    const files = [tls.certFile, tls.keyFile, ...(tls.caFile === undefined ? [] : [tls.caFile])].map((f) => resolve(f));
    const dirs = new Map<string, Set<string>>();
    for (const f of files) dirs.set(dirname(f), (dirs.get(dirname(f)) ?? new Set()).add(basename(f)));
    for (const [dir, names] of dirs) {
      const watcher = watch(dir, (_event, name) => {
        // Kubernetes secret volumes swap a `..data` symlink; any change there or to a named file counts.
        if (name === null || names.has(String(name)) || String(name).startsWith('..')) void this.reloadCertificates();
      });
      watcher.on('error', (err) => this.logger.warn('watching webhook certificates failed', { error: err.message }));
      this.watchers.push(watcher);
    }
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const path = (req.url ?? '/').split('?')[0];
    const started = this.clock.now();
    const route = this.routes.get(path);
    if (route === undefined) {
      void this.serveInfo(path, req, res);
      return;
    }
    const done = this.metrics.started(path);
    const finish = (code: number, body: unknown, result: ReviewResult): void => {
      if (!res.headersSent) {
        const text = stringifyJSON(body);
        res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
        res.end(text);
      }
      done(code, result, (this.clock.now() - started) / 1000);
    };
    const fail = (err: KubeError, result: ReviewResult): void => {
      finish(err.code, statusBody(err.code, err.reason, err.message), result);
      if (err.code === 413) req.destroy();
    };
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      fail(new KubeError('MethodNotAllowed', `${req.method ?? ''} is not supported on ${path}: webhooks accept POST`), 'bad_request');
      return;
    }
    const type = req.headers['content-type'] ?? '';
    if (!jsonType.test(type)) {
      fail(new KubeError('UnsupportedMediaType', `unsupported media type ${JSON.stringify(type)}: expected application/json`), 'bad_request');
      return;
    }
    const limit = this.options.maxRequestBytes ?? 3 * 1024 * 1024;
    const tooLarge = (): KubeError => new KubeError('RequestEntityTooLarge', `the request body is larger than ${limit} bytes`);
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (declared > limit) {
      fail(tooLarge(), 'bad_request');
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let aborted = false;
    req.on('data', (chunk: Buffer) => {
      if (aborted) return;
      size += chunk.length;
      if (size > limit) {
        aborted = true;
        fail(tooLarge(), 'bad_request');
        return;
      }
      chunks.push(chunk);
    });
    req.on('error', () => {
      aborted = true;
    });
    req.on('end', () => {
      if (aborted) return;
      void this.review(route, Buffer.concat(chunks).toString('utf8')).then(
        ([code, body, result]) => finish(code, body, result),
        (err: unknown) => {
          const error = err instanceof KubeError ? err : new KubeError('InternalError', errorMessage(err));
          fail(error, error.reason === 'BadRequest' ? 'bad_request' : 'error');
        },
      );
    });
  }

  private async review(route: WebhookRoute, text: string): Promise<[number, unknown, ReviewResult]> {
    const body = parseJSON(text);
    const work = route.type === 'conversion'
      ? reviewConversion(body, route.converter)
      : reviewAdmission(body, route.handler as never, { mutating: route.type === 'mutating' });
    const timeoutMs = this.options.requestTimeoutMs ?? 10_000;
    let timer: { cancel(): void } | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = this.clock.setTimeout(() => reject(new KubeError('Timeout', `the webhook handler did not answer within ${timeoutMs}ms`)), timeoutMs);
    });
    try {
      const review = await Promise.race([work, timeout]);
      const response = review.response as { allowed?: boolean; result?: { status?: string } } | undefined;
      const result: ReviewResult = route.type === 'conversion'
        ? (response?.result?.status === 'Success' ? 'converted' : 'failed')
        : (response?.allowed === true ? 'allowed' : 'denied');
      return [200, review, result];
    } finally {
      timer?.cancel();
    }
  }

  private async serveInfo(path: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const answer = (code: number, body: string, type = 'text/plain; charset=utf-8'): void => {
      res.writeHead(code, { 'Content-Type': type });
      res.end(body);
    };
    if (req.method === 'GET' && (path === '/healthz' || path === '/readyz' || path === '/livez')) answer(this.serving ? 200 : 500, this.serving ? 'ok' : 'not serving');
    else if (req.method === 'GET' && path === '/metrics') answer(200, await this.metrics.registry.metrics(), this.metrics.registry.contentType);
    else answer(404, stringifyJSON(statusBody(404, 'NotFound', `no webhook is served at ${path}`)), 'application/json');
  }
}

/** What {@link startWebhookServer} returns. */
export interface RunningWebhookServer {
  /** `https://127.0.0.1:<port>`; webhooks are at `/convert`, `/validate`, `/mutate`. */
  readonly url: string;
  /** The CA in base64 PEM, for `clientConfig.caBundle`. */
  readonly caBundle: string;
  readonly server: WebhookServer;
  close(): Promise<void>;
}

/**
 * Starts a {@link WebhookServer} and resolves once it listens.
 *
 * @example
 * ```ts
 * const webhook = await startWebhookServer({ conversion: shirtConversion, validate: (req) => allow() });
 * crd.spec.conversion = { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'],
 *   clientConfig: { url: `${webhook.url}/convert`, caBundle: webhook.caBundle } } };
 * await webhook.close();
 * ```
 */
export async function startWebhookServer(options: WebhookServerOptions = {}): Promise<RunningWebhookServer> {
  const server = new WebhookServer(options);
  const { url, caBundle } = await server.listen();
  return { url, caBundle, server, close: () => server.close() };
}
