import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https, { type RequestOptions } from 'node:https';
import { KubeError, parseJSON, type Clock, type StatusDetails, type TimerHandle } from '@kubekit/core';
import type { KubeConfigLike } from '../kubeConfig.js';
import { reportRestRequest } from '../metrics.js';

/** Options of one request. */
export interface RequestInit {
  method?: string;
  /** Path with its query string, relative to the cluster's server URL. */
  path: string;
  signal?: AbortSignal;
  /** Abort when no byte arrives for this long (headers or body). 0 disables. */
  idleTimeoutMs?: number;
  body?: string;
  /** The body's media type. @defaultValue `application/json` */
  contentType?: string;
  /** The media types accepted. @defaultValue `application/json` */
  accept?: string;
}

/** An error for a request that saw no byte for too long. */
export class IdleTimeoutError extends Error {
  override name = 'IdleTimeoutError';
  constructor(ms: number) {
    super(`no data received for ${ms} ms`);
  }
}

const agentKeys = ['ca', 'cert', 'key', 'pfx', 'passphrase', 'rejectUnauthorized', 'servername'] as const;

/**
 * Plain HTTP(S) requests to the cluster of a `KubeConfig`, over keep-alive agents kubekit owns (so it
 * controls timeouts and streaming). Credentials are applied per request by the `KubeConfig` itself,
 * which keeps exec-plugin and token-file credentials fresh.
 */
export class RestClient {
  private agent: http.Agent | undefined;
  private agentFingerprint: string | undefined;
  readonly server: URL;
  private readonly isHttps: boolean;

  constructor(private readonly kubeConfig: KubeConfigLike, private readonly clock: Clock, private readonly userAgent = 'kubekit-informer') {
    const cluster = kubeConfig.getCurrentCluster();
    if (cluster === null || !cluster.server) throw KubeError.badRequest('the KubeConfig has no current cluster (no current-context, or it names no cluster)');
    this.server = new URL(cluster.server);
    this.isHttps = this.server.protocol === 'https:';
  }

  /**
   * Sends a request and resolves once the response headers arrived, whatever the status. Read the body
   * through {@link HttpResponse.chunks} so the idle timer sees every byte.
   */
  async request(init: RequestInit): Promise<HttpResponse> {
    const options = await this.requestOptions(init);
    const clock = this.clock;
    return new Promise<HttpResponse>((resolve, reject) => {
      let idle = init.idleTimeoutMs ?? 0;
      let timer: TimerHandle | undefined;
      let settled = false;
      const transport = this.isHttps ? https : http;
      const req = transport.request(options);
      const sentAt = clock.now();
      const report = (code: string): void => reportRestRequest(init.method ?? 'GET', this.server.host, code, (clock.now() - sentAt) / 1000);
      const arm = (): void => {
        timer?.cancel();
        timer = undefined;
        if (idle <= 0) return;
        const ms = idle;
        timer = clock.setTimeout(() => req.destroy(new IdleTimeoutError(ms)), ms);
      };
      const disarm = (): void => {
        timer?.cancel();
        timer = undefined;
      };
      const onAbort = (): void => {
        req.destroy(abortError(init.signal));
      };
      const cleanup = (): void => {
        disarm();
        init.signal?.removeEventListener('abort', onAbort);
      };
      if (init.signal?.aborted) onAbort();
      else init.signal?.addEventListener('abort', onAbort, { once: true });
      req.on('error', (err) => {
        cleanup();
        if (!settled) {
          settled = true;
          report('<error>');
          reject(err);
        }
      });
      req.on('response', (res) => {
        settled = true;
        report(String(res.statusCode ?? 0));
        arm();
        res.on('close', cleanup);
        // An error of the request after the response (a reset mid-body) must reach the body's readers.
        req.on('error', (err) => res.destroy(err));
        resolve({
          statusCode: res.statusCode ?? 0,
          headers: res.headers,
          message: res,
          chunks: async function* () {
            for await (const chunk of res) {
              arm();
              yield chunk as Buffer;
            }
          },
          setIdleTimeout: (ms: number) => {
            idle = ms;
            arm();
          },
          destroy: (err?: Error) => {
            cleanup();
            res.destroy(err);
            req.destroy(err);
          },
        });
      });
      arm();
      req.end(init.body);
    });
  }

  /**
   * Sends a request and returns its decoded JSON body.
   *
   * @throws KubeError for a non-2xx answer (from its `Status` body when it has one), or the network error.
   */
  async requestJSON(init: RequestInit): Promise<unknown> {
    const res = await this.request(init);
    const text = await readBody(res);
    if (res.statusCode < 200 || res.statusCode > 299) throw errorFromResponse(res, text);
    try {
      return parseJSON(text);
    } catch (err) {
      throw new KubeError('InternalError', `unable to decode the response of ${init.method ?? 'GET'} ${init.path}: ${(err as Error).message}`, { cause: err });
    }
  }

  /** Closes idle keep-alive connections. */
  destroy(): void {
    this.agent?.destroy();
    this.agent = undefined;
  }

  private async requestOptions(init: RequestInit): Promise<RequestOptions> {
    const options: RequestOptions = { headers: {} };
    const cluster = this.kubeConfig.getCurrentCluster();
    try {
      await this.kubeConfig.applyToHTTPSOptions(options);
    } catch (err) {
      // client-node refuses to build its own agent for a plain-HTTP server unless skipTLSVerify is set;
      // it throws only after it applied the credentials, and kubekit builds its own agent anyway.
      const plainHttp = !this.isHttps && /HTTP protocol is not allowed/.test((err as Error)?.message ?? '');
      if (!plainHttp) throw err;
    }
    const headers = (options.headers ?? {}) as Record<string, string | string[] | number>;
    headers['Accept'] = init.accept ?? 'application/json';
    headers['User-Agent'] = this.userAgent;
    if (init.body !== undefined) {
      headers['Content-Type'] = init.contentType ?? 'application/json';
      // Node frames DELETE bodies only with an explicit length (it never chunks DELETE, GET or HEAD).
      headers['Content-Length'] = Buffer.byteLength(init.body);
    }
    const base = this.server.pathname.replace(/\/$/, '');
    const result: RequestOptions = {
      protocol: this.server.protocol,
      hostname: this.server.hostname.replace(/^\[|\]$/g, ''),
      port: this.server.port || (this.isHttps ? 443 : 80),
      method: init.method ?? 'GET',
      path: base + init.path,
      headers,
      auth: options.auth,
      agent: cluster?.proxyUrl ? options.agent : this.agentFor(options),
    };
    return result;
  }

  private agentFor(options: RequestOptions): http.Agent {
    const fingerprint = agentKeys.map((k) => fingerprintOf(options[k])).join('|');
    if (this.agent === undefined || fingerprint !== this.agentFingerprint) {
      const previous = this.agent;
      const agentOptions: https.AgentOptions = { keepAlive: true, keepAliveMsecs: 30_000, scheduling: 'lifo' };
      for (const k of agentKeys) {
        if (options[k] !== undefined) (agentOptions as Record<string, unknown>)[k] = options[k];
      }
      this.agent = this.isHttps ? new https.Agent(agentOptions) : new http.Agent(agentOptions);
      this.agentFingerprint = fingerprint;
      // Connections in use finish on the old agent; idle ones go now.
      previous?.destroy();
    }
    return this.agent;
  }
}

function fingerprintOf(value: unknown): string {
  if (value === undefined) return '';
  if (Buffer.isBuffer(value)) return value.toString('base64');
  if (Array.isArray(value)) return value.map(fingerprintOf).join(',');
  return String(value);
}

/** A response whose headers arrived. */
export interface HttpResponse {
  readonly statusCode: number;
  readonly headers: IncomingHttpHeaders;
  /** The underlying message, for inspection only; read the body through {@link HttpResponse.chunks}. */
  readonly message: IncomingMessage;
  /** The body's chunks; each one re-arms the idle timer. Throws the connection's error, if any. */
  chunks(): AsyncGenerator<Buffer, void, undefined>;
  /** Changes the idle timeout (0 disables it) and restarts it from now. */
  setIdleTimeout(ms: number): void;
  /** Abandons the response and its connection. */
  destroy(err?: Error): void;
}

/** Reads a whole body as UTF-8 text, keeping at most `maxBytes`. */
export async function readBody(res: HttpResponse, maxBytes = Number.POSITIVE_INFINITY): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of res.chunks()) {
    total += chunk.length;
    if (total <= maxBytes) chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function abortError(signal: AbortSignal | undefined): Error {
  return signal?.reason instanceof Error ? signal.reason : new DOMException('This operation was aborted', 'AbortError');
}

/** The `KubeError` an unsuccessful response stands for, with `Retry-After` folded into its details. */
export function errorFromResponse(res: Pick<HttpResponse, 'statusCode' | 'headers'>, text: string): KubeError {
  const code = res.statusCode || 500;
  let body: unknown;
  try {
    body = parseJSON(text);
  } catch {
    body = undefined;
  }
  let err: KubeError;
  if (typeof body === 'object' && body !== null && (body as { kind?: unknown }).kind === 'Status') {
    err = KubeError.fromStatus(body, code);
  } else {
    const message = text.trim() === '' ? undefined : text.trim().slice(0, 1024);
    err = KubeError.fromStatus({ message }, code);
  }
  const retryAfter = parseRetryAfter(res.headers['retry-after']);
  if (retryAfter !== undefined && err.details?.retryAfterSeconds === undefined) {
    const details: StatusDetails = { ...err.details, retryAfterSeconds: retryAfter };
    err = new KubeError(err.reason, err.message, { code: err.code, details });
  }
  return err;
}

function parseRetryAfter(header: string | string[] | undefined): number | undefined {
  const text = Array.isArray(header) ? header[0] : header;
  if (text === undefined) return undefined;
  const seconds = Number(text.trim());
  if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - Date.now()) / 1000));
}
