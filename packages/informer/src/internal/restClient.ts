import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https, { type RequestOptions } from 'node:https';
import net from 'node:net';
import type tls from 'node:tls';
import { KubeError, parseJSON, type Clock, type StatusDetails, type TimerHandle } from '@kubekit/core';
import type { KubeConfigLike } from '../kubeConfig.js';
import { reportRestRequest } from '../metrics.js';
import { formatHeaderLines, PipelineBrokenError, PipelinedConnection, pipelineSafePath, type PipelinedResponse } from './pipelinedConnection.js';
import { readChunks } from './readChunks.js';
import { abortError } from './untilAborted.js';

/** The answer of {@link RestClient.getPipelined}: status, headers and body text, whatever the status. */
export interface PipelinedAnswer {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

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

/** How many times a GET that failed on a kept-alive connection before any answer is sent again (see {@link RestClient.request}). */
export const staleRetries = 3;

/** Errors of GETs that failed before any answer on a reused keep-alive connection: safe to send again. */
const staleConnectionErrors = new WeakSet<object>();

/** Pipelined connections in a row that may break before their first answer before GETs go the ordinary way for a while. */
export const pipelineStrikes = 3;
/** How long GETs go the ordinary way after {@link pipelineStrikes}, in ms, before pipelining is tried again. */
export const pipelineRestMs = 10 * 60_000;

/** How many GETs of getPipelined may go as ordinary requests at once. */
export const ordinaryFallbackLimit = 8;

/**
 * While pipelined GETs keep coming, they are written at most once per this many ms (a lone GET goes
 * at once): a write is a system call on both ends that costs more than the GETs it carries.
 */
const pipelineLingerMs = 2;

/** The most response headers an ordinary request reads (1 MiB). */
const responseHeaderLimit = 1 << 20;

interface PipelineTurn {
  /** The server URL's path, prefixed to every request path. */
  base: string;
  headerLines: string;
  pipeline: PipelinedConnection;
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
  private agentValues: unknown[] | undefined;
  private pipeline: PipelinedConnection | undefined;
  /** The agent the pipeline's TLS settings came from (a new agent means new settings: a new pipeline). */
  private pipelineAgent: http.Agent | undefined;
  /** Pipelined connections in a row that broke before their first answer, and when the last such made it too many. */
  private pipelineStrikes = 0;
  private pipelineOffAt = 0;
  private readonly pipelineStruck = new WeakSet<PipelinedConnection>();
  /** Ordinary requests of getPipelined running, and those waiting for a slot. */
  private fallbackRunning = 0;
  private readonly fallbackWaiting: (() => void)[] = [];
  /** What this turn's pipelined GETs share (see startPipelineTurn). */
  private pipelineTurn: Promise<PipelineTurn | undefined> | undefined;
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
   *
   * A GET that fails before any answer on a kept-alive connection (the other end closed it while it
   * sat idle in the pool: a proxy, a load balancer, an apiserver going away, which shows only when the
   * next request goes out on it) is sent again on another connection, up to {@link staleRetries}
   * times, as Go's net/http does for idempotent requests. Other methods are never sent twice.
   */
  async request(init: RequestInit): Promise<HttpResponse> {
    for (let retries = 0; ; retries++) {
      try {
        return await this.send(init);
      } catch (err) {
        if (retries >= staleRetries || !staleConnectionErrors.has(err as object) || init.signal?.aborted === true) throw err;
      }
    }
  }

  private async send(init: RequestInit): Promise<HttpResponse> {
    const options = await this.requestOptions(init);
    const clock = this.clock;
    return new Promise<HttpResponse>((resolve, reject) => {
      let idle = init.idleTimeoutMs ?? 0;
      // One timer per request, re-armed only when it fires early: a byte arriving just records the
      // time (thousands of small requests, and every chunk of a watch, would otherwise each cost a
      // timer created and cancelled).
      let timer: TimerHandle | undefined;
      let lastByteAt = 0;
      let settled = false;
      const transport = this.isHttps ? https : http;
      const req = transport.request(options);
      const sentAt = clock.now();
      const report = (code: string): void => reportRestRequest(init.method ?? 'GET', this.server.host, code, (clock.now() - sentAt) / 1000);
      const fire = (): void => {
        timer = undefined;
        const left = lastByteAt + idle - clock.now();
        if (left > 0) schedule(left);
        else req.destroy(new IdleTimeoutError(idle));
      };
      const schedule = (ms: number): void => {
        timer = clock.setTimeout(fire, ms);
      };
      const arm = (): void => {
        lastByteAt = clock.now();
        if (timer === undefined && idle > 0) schedule(idle);
      };
      const disarm = (): void => {
        timer?.cancel();
        timer = undefined;
      };
      /** Restarts the timer from now (a stream's chunks: the pending timer always shows the full delay). */
      const rearm = (): void => {
        disarm();
        arm();
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
          const idempotent = (init.method ?? 'GET') === 'GET' && init.body === undefined;
          if (idempotent && req.reusedSocket && !(err instanceof IdleTimeoutError) && init.signal?.aborted !== true) staleConnectionErrors.add(err);
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
          chunks: () => readChunks(res, arm),
          text: (maxBytes = Number.POSITIVE_INFINITY) => new Promise<string>((resolveText, rejectText) => {
            const parts: Buffer[] = [];
            let total = 0;
            res.on('data', (chunk: Buffer) => {
              arm();
              total += chunk.length;
              if (total <= maxBytes) parts.push(chunk);
            });
            res.once('end', () => resolveText(parts.length === 1 ? parts[0].toString('utf8') : Buffer.concat(parts).toString('utf8')));
            res.once('error', rejectText);
            // A body cut short (the connection closed before its end) is an error, as the iterator reports it.
            res.once('close', () => {
              if (!res.complete) rejectText(res.errored ?? new Error('aborted'));
            });
          }),
          setIdleTimeout: (ms: number) => {
            idle = ms;
            rearm();
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
   * Sends a request and returns its decoded JSON body (its text through `skip` first, if given).
   *
   * @throws KubeError for a non-2xx answer (from its `Status` body when it has one), or the network error.
   */
  async requestJSON(init: RequestInit, skip?: (text: string) => string): Promise<unknown> {
    const res = await this.request(init);
    return decodeAnswer(res, await res.text(), init, skip);
  }

  /**
   * A GET pipelined with the other GETs of this tick on a connection of their own (see
   * {@link PipelinedConnection}): much cheaper per request than {@link RestClient.request} for many
   * small GETs. The credentials and the connection are worked out once per turn of the event loop
   * for all the GETs of that turn. Falls back to an ordinary request when a proxy is configured,
   * when a request cannot be pipelined, and for a request whose pipelined connection broke before its
   * answer (a GET is safe to repeat). After {@link pipelineStrikes} connections in a row broke before
   * any answer (the server or something in between does not take pipelined requests), GETs go the
   * ordinary way for {@link pipelineRestMs}, then pipelining is tried again.
   *
   * @returns the status, headers and body text, whatever the status.
   */
  async getPipelined(init: RequestInit): Promise<PipelinedAnswer> {
    if (init.signal?.aborted === true || !this.pipeliningOn()) return this.ordinaryAnswer(init);
    const turn = await (this.pipelineTurn ??= this.startPipelineTurn());
    const path = turn === undefined ? undefined : turn.base + init.path;
    const accept = init.accept ?? 'application/json';
    if (turn === undefined || !pipelineSafePath(path!) || /[\r\n\0]/.test(accept)) return this.ordinaryAnswer(init);
    const pipeline = turn.pipeline;
    const sentAt = this.clock.now();
    let res: PipelinedResponse;
    try {
      res = await pipeline.get({ path: path!, headerLines: `${turn.headerLines}Accept: ${accept}\r\n`, signal: init.signal, idleTimeoutMs: init.idleTimeoutMs ?? 0 });
    } catch (err) {
      if (!(err instanceof PipelineBrokenError)) throw err;
      this.pipelineBroke(pipeline);
      return this.ordinaryAnswer(init);
    }
    this.pipelineStrikes = 0;
    reportRestRequest('GET', this.server.host, String(res.statusCode), (this.clock.now() - sentAt) / 1000);
    return {
      statusCode: res.statusCode,
      // Parsed only when asked for (an error's Retry-After): most answers need no headers.
      get headers() {
        return res.headers;
      },
      text: res.body.toString('utf8'),
    };
  }

  /** Whether GETs may be pipelined now (they may again once a rest after repeated breaks is over). */
  private pipeliningOn(): boolean {
    if (this.pipelineStrikes < pipelineStrikes) return true;
    if (this.clock.now() - this.pipelineOffAt < pipelineRestMs) return false;
    this.pipelineStrikes = pipelineStrikes - 1;
    return true;
  }

  /** Counts a pipelined connection that broke before its first answer (the strikes that turn pipelining off for a while). */
  private pipelineBroke(pipeline: PipelinedConnection): void {
    if (pipeline.answeredAny || this.pipelineStruck.has(pipeline)) return;
    this.pipelineStruck.add(pipeline);
    if (++this.pipelineStrikes >= pipelineStrikes) this.pipelineOffAt = this.clock.now();
  }

  /**
   * What the pipelined GETs of this turn of the event loop share: the header lines (credentials
   * applied once), the path prefix and the connection; `undefined` when they go the ordinary way
   * (a proxy, or credentials that cannot be written as header lines).
   */
  private async startPipelineTurn(): Promise<PipelineTurn | undefined> {
    setImmediate(() => (this.pipelineTurn = undefined));
    if (this.kubeConfig.getCurrentCluster()?.proxyUrl) return undefined;
    const options = await this.requestOptions({ path: '' });
    const headers = { ...(options.headers as Record<string, string | string[] | number | undefined>) };
    delete headers['Accept'];
    if (options.auth) headers['Authorization'] = `Basic ${Buffer.from(options.auth).toString('base64')}`;
    const headerLines = formatHeaderLines(headers);
    if (headerLines === undefined) return undefined;
    if (this.pipeline === undefined || !this.pipeline.usable || this.pipelineAgent !== options.agent) {
      this.pipeline?.destroy();
      const tlsOptions: tls.ConnectionOptions | undefined = this.isHttps ? {} : undefined;
      if (tlsOptions !== undefined) {
        // The TLS settings the agent was made with (the request options carry them no further).
        agentKeys.forEach((k, i) => {
          if (this.agentValues?.[i] !== undefined) (tlsOptions as Record<string, unknown>)[k] = this.agentValues[i];
        });
        if (tlsOptions.servername === undefined && net.isIP(String(options.hostname)) === 0) tlsOptions.servername = String(options.hostname);
      }
      this.pipeline = new PipelinedConnection({ host: String(options.hostname), port: Number(options.port), tls: tlsOptions }, this.server.host, this.clock, 0, pipelineLingerMs);
      this.pipelineAgent = options.agent as http.Agent | undefined;
    }
    return { base: String(options.path), headerLines, pipeline: this.pipeline };
  }

  /**
   * A GET of {@link getPipelined} sent the ordinary way, at most {@link ordinaryFallbackLimit} at
   * once (callers may keep hundreds in flight, counting on one pipelined connection).
   */
  private async ordinaryAnswer(init: RequestInit): Promise<PipelinedAnswer> {
    if (this.fallbackRunning >= ordinaryFallbackLimit) {
      await new Promise<void>((resolve) => this.fallbackWaiting.push(resolve));
    } else {
      this.fallbackRunning++;
    }
    try {
      if (init.signal?.aborted === true) throw abortError(init.signal);
      const res = await this.request(init);
      return { statusCode: res.statusCode, headers: res.headers, text: await res.text() };
    } finally {
      // The slot passes to the next waiting, if any.
      const next = this.fallbackWaiting.shift();
      if (next !== undefined) next();
      else this.fallbackRunning--;
    }
  }

  /** Closes idle keep-alive connections. */
  destroy(): void {
    this.agent?.destroy();
    this.agent = undefined;
    this.pipeline?.destroy();
    this.pipeline = undefined;
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
      // Node reads at most 16 KiB of response headers by default; Go's client reads up to 10 MiB, and an
      // apiserver's answer may carry 4,096 runes of warnings (up to 16 KiB of UTF-8) besides its other headers.
      maxHeaderSize: responseHeaderLimit,
      auth: options.auth,
      agent: cluster?.proxyUrl ? options.agent : this.agentFor(options),
    };
    return result;
  }

  private agentFor(options: RequestOptions): http.Agent {
    // The same TLS values as last time (the KubeConfig hands out the same instances until its
    // credentials change): the same agent, without fingerprinting a CA bundle per request.
    const values = agentKeys.map((k) => options[k]);
    if (this.agent !== undefined && this.agentValues !== undefined && values.every((v, i) => v === this.agentValues![i])) return this.agent;
    this.agentValues = values;
    const fingerprint = values.map(fingerprintOf).join('|');
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
  /**
   * The whole body as UTF-8 text, keeping at most `maxBytes` (each chunk re-arms the idle timer);
   * rejects with the connection's error. Read the body one way only: this or {@link HttpResponse.chunks}.
   */
  text(maxBytes?: number): Promise<string>;
  /** Changes the idle timeout (0 disables it) and restarts it from now. */
  setIdleTimeout(ms: number): void;
  /** Abandons the response and its connection. */
  destroy(err?: Error): void;
}


/**
 * A response's JSON body (its text through `skip` first, if given: `managedFields` cut, say), or the
 * error its non-2xx status stands for.
 *
 * @throws KubeError for a non-2xx status, and `InternalError` when the body is not JSON.
 */
export function decodeAnswer(res: Pick<HttpResponse, 'statusCode' | 'headers'>, text: string, init: Pick<RequestInit, 'method' | 'path'>, skip?: (text: string) => string): unknown {
  if (res.statusCode < 200 || res.statusCode > 299) throw errorFromResponse(res, text);
  try {
    return parseJSON(skip === undefined ? text : skip(text));
  } catch (err) {
    throw new KubeError('InternalError', `unable to decode the response of ${init.method ?? 'GET'} ${init.path}: ${(err as Error).message}`, { cause: err });
  }
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
