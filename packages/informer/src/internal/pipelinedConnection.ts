import net from 'node:net';
import tls from 'node:tls';
import type { Clock, TimerHandle } from '@kubekit/core';
import { IdleTimeoutError } from './restClient.js';
import { abortError } from './untilAborted.js';

/** One GET to send on a {@link PipelinedConnection}. */
export interface PipelinedRequest {
  /** Path with its query string: no whitespace or control characters (see {@link pipelineSafePath}). */
  path: string;
  /** Header lines, each `Name: value\r\n`, already validated (see {@link formatHeaderLines}); `Host` is added. */
  headerLines: string;
  /** Ends the wait for this answer with the signal's reason (the answer, when it comes, is dropped). */
  signal?: AbortSignal;
  /**
   * Breaks the connection when no byte arrives for this long while this is the answer awaited
   * (the first one outstanding). 0 disables. @defaultValue the connection's
   */
  idleTimeoutMs?: number;
}

/** A complete answer to a {@link PipelinedRequest}. */
export interface PipelinedResponse {
  readonly statusCode: number;
  /** Header names in lower case; a repeated header keeps its last value (parsed on first use). */
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

/** Why a request on a {@link PipelinedConnection} got no answer; it may be sent again another way (it is a GET). */
export class PipelineBrokenError extends Error {
  override name = 'PipelineBrokenError';
}

interface Outstanding {
  resolve: (res: PipelinedResponse) => void;
  reject: (err: Error) => void;
  signal: AbortSignal | undefined;
  idleTimeoutMs: number;
  /** Settled already (aborted): its answer, when it comes, is dropped. */
  done: boolean;
}

/** The longest response head accepted, in bytes. */
const maxHeadBytes = 64 * 1024;
const CRLF = Buffer.from('\r\n');
const HEAD_END = Buffer.from('\r\n\r\n');
const tokenRE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const unsafeValueRE = /[\r\n\0]/;
const unsafePathRE = /[\0-\x20\x7f]/;

/**
 * `headers` as the header lines of a pipelined request, or `undefined` when one cannot be written
 * safely (a name that is not a token, a value with CR, LF or NUL, a list value, or `Host`, which the
 * connection writes): such a request goes the ordinary way, where node:http validates and reports.
 */
export function formatHeaderLines(headers: Record<string, string | string[] | number | undefined>): string | undefined {
  let lines = '';
  for (const name of Object.keys(headers)) {
    const value = headers[name];
    if (value === undefined) continue;
    if (Array.isArray(value) || !tokenRE.test(name) || name.length === 4 && name.toLowerCase() === 'host') return undefined;
    const text = String(value);
    if (unsafeValueRE.test(text)) return undefined;
    lines += `${name}: ${text}\r\n`;
  }
  return lines;
}

/** Whether `path` can be written in a request line as it is (no whitespace, no control characters). */
export function pipelineSafePath(path: string): boolean {
  return path.startsWith('/') && !unsafePathRE.test(path);
}

/** An answer whose headers are parsed only when asked for (most callers need the status and body only). */
class Answer implements PipelinedResponse {
  private parsed: Record<string, string> | undefined;
  constructor(readonly statusCode: number, private readonly head: string, readonly body: Buffer) {}

  get headers(): Record<string, string> {
    if (this.parsed === undefined) {
      const headers = Object.create(null) as Record<string, string>;
      const lines = this.head.split('\r\n');
      for (let i = 1; i < lines.length; i++) {
        const colon = lines[i].indexOf(':');
        headers[lines[i].slice(0, colon).trim().toLowerCase()] = lines[i].slice(colon + 1).trim();
      }
      this.parsed = headers;
    }
    return this.parsed;
  }
}

/**
 * One keep-alive HTTP/1.1 connection on which GETs are pipelined: the requests queued within one
 * turn of the event loop go out in one write, and the answers come back in order and are parsed with no per-request
 * streams or events. For many small GETs (delete-reason lookups) this costs a fraction of what
 * node:http costs per request, on both ends (node:http sends one request per round trip per socket).
 *
 * Contract: answers are matched to requests in order (RFC 9112 §9.3.2). Only what a GET's answer may
 * be is understood: a body framed by `Content-Length` or `chunked`, or none (204, 304); anything else
 * (a body delimited by the connection's end, a malformed head) breaks the connection. When the
 * connection breaks, closes, or announces `Connection: close`, every request without an answer fails
 * with a {@link PipelineBrokenError} (callers send it again another way; GETs are safe to repeat) and
 * the connection takes no more requests ({@link PipelinedConnection.usable} turns false). An idle
 * timeout (no byte for the awaited answer's `idleTimeoutMs`) breaks it too: the request awaited fails
 * with an `IdleTimeoutError` (not to be sent again), the others with a {@link PipelineBrokenError}.
 * A request whose signal aborts fails with the signal's reason at once; the connection goes on.
 */
export class PipelinedConnection {
  private readonly socket: net.Socket;
  private readonly outstanding: Outstanding[] = [];
  private head = 0;
  private pendingWrite = '';
  private flushScheduled = false;
  private connected = false;
  private closed = false;
  private buffer: Buffer = Buffer.alloc(0);
  private timer: TimerHandle | undefined;
  private lastByteAt = 0;
  private answered = 0;
  private lastFlushAt = -Infinity;
  private writeCount = 0;
  /** The signals of requests without an answer: how many requests each, and its one listener. */
  private readonly signals = new Map<AbortSignal, { count: number; listener: () => void }>();

  /**
   * @param idleTimeoutMs - the idle timeout of requests that give none (0: none)
   * @param lingerMs - while GETs keep coming, write them at most once per this many ms (0: once per turn of the event loop)
   */
  constructor(
    target: { host: string; port: number; tls?: tls.ConnectionOptions },
    private readonly hostHeader: string,
    private readonly clock: Clock,
    private readonly idleTimeoutMs: number,
    private readonly lingerMs = 0,
  ) {
    this.socket = target.tls === undefined
      ? net.connect({ host: target.host, port: target.port, noDelay: true })
      : tls.connect({ ...target.tls, host: target.host, port: target.port, ALPNProtocols: ['http/1.1'] });
    this.socket.setNoDelay(true);
    this.socket.once(target.tls === undefined ? 'connect' : 'secureConnect', () => {
      this.connected = true;
      this.flush();
    });
    this.socket.on('data', (chunk: Buffer) => this.onData(chunk));
    this.socket.on('error', (err) => this.break(new PipelineBrokenError(`the pipelined connection failed: ${err.message}`, { cause: err })));
    this.socket.on('close', () => this.break(new PipelineBrokenError('the pipelined connection closed')));
  }

  /** The writes made so far (each carries the GETs queued since the one before). */
  get writes(): number {
    return this.writeCount;
  }

  /** Whether some answer arrived on this connection. */
  get answeredAny(): boolean {
    return this.answered > 0;
  }

  /** Whether the connection takes requests (it has not broken or closed). */
  get usable(): boolean {
    return !this.closed;
  }

  /** The number of requests sent or queued without an answer yet (aborted ones included until their answer is in). */
  get inFlight(): number {
    return this.outstanding.length - this.head;
  }

  /** Queues a GET; it goes out with the others queued in this turn of the event loop. */
  get(request: PipelinedRequest): Promise<PipelinedResponse> {
    if (this.closed) return Promise.reject(new PipelineBrokenError('the pipelined connection is closed'));
    const signal = request.signal;
    if (signal?.aborted === true) return Promise.reject(abortError(signal));
    this.pendingWrite += `GET ${request.path} HTTP/1.1\r\nHost: ${this.hostHeader}\r\n${request.headerLines}\r\n`;
    const entry: Outstanding = { resolve: noop, reject: noop, signal, idleTimeoutMs: request.idleTimeoutMs ?? this.idleTimeoutMs, done: false };
    const answer = new Promise<PipelinedResponse>((resolve, reject) => {
      entry.resolve = resolve;
      entry.reject = reject;
    });
    this.outstanding.push(entry);
    if (signal !== undefined) this.watch(signal);
    if (this.inFlight === 1) {
      // Answers are due: keep the process alive for them (an idle connection does not, as node:http's free sockets do not).
      this.socket.ref();
      this.lastByteAt = this.clock.now();
      this.arm();
    }
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      // After this turn of the event loop, so that the GETs of a whole batch of watch events go out
      // together; while GETs keep coming, at most one write per lingerMs (each write is a system call
      // on both ends, and costs more than the GETs it carries).
      // (Real time, not the clock: this paces system calls and means nothing to the requests.)
      const wait = this.lastFlushAt + this.lingerMs - performance.now();
      if (wait > 0) setTimeout(() => this.flush(), wait);
      else setImmediate(() => this.flush());
    }
    return answer;
  }

  /** Closes the connection; requests without an answer fail. */
  destroy(): void {
    this.break(new PipelineBrokenError('the pipelined connection was closed by the client'));
  }

  private flush(): void {
    this.flushScheduled = false;
    if (!this.connected || this.closed || this.pendingWrite === '') return;
    const text = this.pendingWrite;
    this.pendingWrite = '';
    this.lastFlushAt = performance.now();
    this.writeCount++;
    this.socket.write(text, 'latin1');
  }

  /** One abort listener per signal, however many requests carry it. */
  private watch(signal: AbortSignal): void {
    const watched = this.signals.get(signal);
    if (watched !== undefined) {
      watched.count++;
      return;
    }
    const listener = (): void => this.aborted(signal);
    this.signals.set(signal, { count: 1, listener });
    signal.addEventListener('abort', listener, { once: true });
  }

  private unwatch(signal: AbortSignal): void {
    const watched = this.signals.get(signal);
    if (watched === undefined || --watched.count > 0) return;
    this.signals.delete(signal);
    signal.removeEventListener('abort', watched.listener);
  }

  /** Fails the requests of `signal` that wait for an answer; their answers will be dropped. */
  private aborted(signal: AbortSignal): void {
    this.signals.delete(signal);
    const err = abortError(signal);
    for (let i = this.head; i < this.outstanding.length; i++) {
      const entry = this.outstanding[i];
      if (entry.signal === signal && !entry.done) {
        entry.done = true;
        entry.reject(err);
      }
    }
  }

  /** Settles `entry` with its answer (unless it was aborted) and stops watching its signal. */
  private answer(entry: Outstanding, response: PipelinedResponse): void {
    if (entry.done) return;
    entry.done = true;
    if (entry.signal !== undefined) this.unwatch(entry.signal);
    entry.resolve(response);
  }

  /** Keeps one idle timer running while an answer with an idle timeout is awaited. */
  private arm(): void {
    if (this.timer !== undefined || this.inFlight === 0) return;
    const ms = this.outstanding[this.head].idleTimeoutMs;
    if (ms > 0) this.schedule(this.lastByteAt + ms - this.clock.now());
  }

  private schedule(ms: number): void {
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      if (this.closed || this.inFlight === 0) return;
      const awaited = this.outstanding[this.head].idleTimeoutMs;
      if (awaited <= 0) return;
      const left = this.lastByteAt + awaited - this.clock.now();
      if (left > 0) this.schedule(left);
      // The awaited request timed out (it is not sent again: a failure is reported, as an ordinary
      // request's would be); those queued behind it never got their turn.
      else this.break(new PipelineBrokenError(`no data received for ${awaited} ms`), new IdleTimeoutError(awaited));
    }, Math.max(0, ms));
  }

  private onData(chunk: Buffer): void {
    this.lastByteAt = this.clock.now();
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    let offset = 0;
    for (;;) {
      const parsed = this.parseOne(offset);
      if (parsed === undefined) break;
      if (parsed === 'broken') return;
      offset = parsed.next;
      const waiter = this.outstanding[this.head];
      if (waiter === undefined) {
        this.break(new PipelineBrokenError('the server sent an answer to no request'));
        return;
      }
      this.outstanding[this.head++] = undefined as unknown as Outstanding;
      if (this.head === this.outstanding.length) {
        this.outstanding.length = 0;
        this.head = 0;
      } else if (this.head >= 1024 && this.head * 2 > this.outstanding.length) {
        this.outstanding.splice(0, this.head);
        this.head = 0;
      }
      this.answered++;
      this.answer(waiter, parsed.response);
      if (parsed.close) {
        this.break(new PipelineBrokenError('the server closes the connection'));
        return;
      }
    }
    if (offset > 0) {
      // Keep the unparsed rest only, copied: the chunk it came from can go.
      this.buffer = offset === this.buffer.length ? Buffer.alloc(0) : Buffer.from(this.buffer.subarray(offset));
    }
    if (this.inFlight === 0) {
      this.timer?.cancel();
      this.timer = undefined;
      this.socket.unref();
    } else if (offset > 0) {
      // Another answer is awaited now, perhaps with another idle timeout.
      this.timer?.cancel();
      this.timer = undefined;
      this.arm();
    }
  }

  /** Parses the answer starting at `offset`: the answer and where the next starts, `undefined` if incomplete, `'broken'` if malformed. */
  private parseOne(offset: number): { response: PipelinedResponse; next: number; close: boolean } | undefined | 'broken' {
    const buf = this.buffer;
    if (offset >= buf.length) return undefined;
    const headEnd = buf.indexOf(HEAD_END, offset);
    // A head is at most maxHeadBytes, whether its end has arrived (perhaps with later answers behind
    // it) or not yet (three bytes of its terminator may be in).
    if (headEnd === -1 ? buf.length - offset > maxHeadBytes + 3 : headEnd - offset > maxHeadBytes) return this.malformed('a response head longer than 64 KiB');
    if (headEnd === -1) return undefined;
    const head = buf.toString('latin1', offset, headEnd);
    const statusCode = statusOf(head);
    if (statusCode === undefined) return this.malformed(`a malformed status line (${JSON.stringify(head.split('\r\n')[0].slice(0, 64))})`);
    const bodyStart = headEnd + HEAD_END.length;
    if (statusCode >= 100 && statusCode < 200) {
      // An interim answer (100 Continue): the real one follows.
      return this.parseOne(bodyStart);
    }
    // Only the framing headers are looked at here; the rest are parsed when asked for.
    let contentLength: string | undefined;
    let transferEncoding: string | undefined;
    let connection: string | undefined;
    let pos = head.indexOf('\r\n');
    while (pos !== -1) {
      const start = pos + 2;
      pos = head.indexOf('\r\n', start);
      const end = pos === -1 ? head.length : pos;
      const colon = head.indexOf(':', start);
      if (colon <= start || colon > end) return this.malformed('a malformed header line');
      const nameLength = colon - start;
      if (nameLength !== 14 && nameLength !== 17 && nameLength !== 10) continue;
      const name = head.slice(start, colon).toLowerCase();
      const value = head.slice(colon + 1, end).trim();
      if (name === 'content-length') contentLength = value;
      else if (name === 'transfer-encoding') transferEncoding = value;
      else if (name === 'connection') connection = connection === undefined ? value : `${connection}, ${value}`;
    }
    const close = connection !== undefined && /(?:^|,)\s*close\s*(?:,|$)/i.test(connection);
    let body: Buffer;
    let next: number;
    if (transferEncoding !== undefined) {
      if (!/^chunked$/i.test(transferEncoding)) return this.malformed(`an unsupported Transfer-Encoding (${transferEncoding})`);
      const parts: Buffer[] = [];
      let at = bodyStart;
      for (;;) {
        const lineEnd = buf.indexOf(CRLF, at);
        if (lineEnd === -1) return undefined;
        const sizeText = buf.toString('latin1', at, lineEnd).split(';')[0].trim();
        if (!/^[0-9a-fA-F]{1,8}$/.test(sizeText)) return this.malformed('a malformed chunk size');
        const size = parseInt(sizeText, 16);
        if (size === 0) {
          // The last chunk; trailers (none expected) end with an empty line.
          if (buf.length < lineEnd + 4) return undefined;
          if (buf[lineEnd + 2] === 13 && buf[lineEnd + 3] === 10) {
            next = lineEnd + 4;
          } else {
            const end = buf.indexOf(HEAD_END, lineEnd);
            if (end === -1) return undefined;
            next = end + HEAD_END.length;
          }
          break;
        }
        if (buf.length < lineEnd + 2 + size + 2) return undefined;
        parts.push(buf.subarray(lineEnd + 2, lineEnd + 2 + size));
        at = lineEnd + 2 + size + 2;
      }
      body = Buffer.concat(parts);
    } else if (contentLength !== undefined) {
      if (!/^\d{1,12}$/.test(contentLength)) return this.malformed('a malformed Content-Length');
      const length = Number(contentLength);
      if (buf.length < bodyStart + length) return undefined;
      body = buf.subarray(bodyStart, bodyStart + length);
      next = bodyStart + length;
    } else if (statusCode === 204 || statusCode === 304) {
      body = Buffer.alloc(0);
      next = bodyStart;
    } else {
      // A body that ends with the connection: not for a pipeline.
      return this.malformed('an answer without Content-Length or chunked framing');
    }
    // The body may point into the receive buffer, which is replaced, never written to: safe to keep.
    return { response: new Answer(statusCode, head, body), next, close };
  }

  private malformed(what: string): 'broken' {
    this.break(new PipelineBrokenError(`the server sent ${what} on the pipelined connection`));
    return 'broken';
  }

  private break(err: PipelineBrokenError, firstErr: Error = err): void {
    if (this.closed) return;
    this.closed = true;
    this.timer?.cancel();
    this.timer = undefined;
    this.socket.destroy();
    const waiting = this.outstanding.slice(this.head);
    this.outstanding.length = 0;
    this.head = 0;
    this.pendingWrite = '';
    for (const [signal, { listener }] of this.signals) signal.removeEventListener('abort', listener);
    this.signals.clear();
    waiting.forEach((w, i) => {
      if (w.done) return;
      w.done = true;
      w.reject(i === 0 ? firstErr : err);
    });
  }
}

/** The status code of a head starting `HTTP/1.x NNN` (a reason phrase, if any, after a space), or `undefined`. */
function statusOf(head: string): number | undefined {
  if (!head.startsWith('HTTP/1.') || (head.charCodeAt(7) !== 48 && head.charCodeAt(7) !== 49) || head.charCodeAt(8) !== 32) return undefined;
  let code = 0;
  for (let i = 9; i < 12; i++) {
    const c = head.charCodeAt(i) - 48;
    if (!(c >= 0 && c <= 9)) return undefined;
    code = code * 10 + c;
  }
  const after = head.charCodeAt(12);
  return Number.isNaN(after) || after === 32 || after === 13 ? code : undefined;
}

function noop(): void {}
