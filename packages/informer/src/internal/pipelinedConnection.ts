import net from 'node:net';
import tls from 'node:tls';
import type { Clock, TimerHandle } from '@kubekit/core';
import { IdleTimeoutError } from './restClient.js';

/** One GET to send on a {@link PipelinedConnection}. */
export interface PipelinedRequest {
  /** Path with its query string. */
  path: string;
  /** Header lines, already validated (no CR or LF in names or values). */
  headers: Record<string, string>;
}

/** A complete answer to a {@link PipelinedRequest}. */
export interface PipelinedResponse {
  statusCode: number;
  /** Header names in lower case; a repeated header keeps its last value. */
  headers: Record<string, string>;
  body: Buffer;
}

/** Why a request on a {@link PipelinedConnection} got no answer; it may be sent again another way (it is a GET). */
export class PipelineBrokenError extends Error {
  override name = 'PipelineBrokenError';
}

interface Outstanding {
  resolve: (res: PipelinedResponse) => void;
  reject: (err: Error) => void;
}

/** The longest response head accepted, in bytes. */
const maxHeadBytes = 64 * 1024;
const CRLF = Buffer.from('\r\n');
const HEAD_END = Buffer.from('\r\n\r\n');

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
 * timeout (no byte while answers are due) breaks it too: the first request waiting fails with an
 * `IdleTimeoutError` (not to be sent again), the others with a {@link PipelineBrokenError}.
 */
export class PipelinedConnection {
  private readonly socket: net.Socket;
  private readonly outstanding: Outstanding[] = [];
  private head = 0;
  private pendingWrite: string[] = [];
  private flushScheduled = false;
  private connected = false;
  private closed = false;
  private buffer: Buffer = Buffer.alloc(0);
  private timer: TimerHandle | undefined;
  private lastByteAt = 0;
  private answered = 0;

  constructor(
    target: { host: string; port: number; tls?: tls.ConnectionOptions },
    private readonly hostHeader: string,
    private readonly clock: Clock,
    private readonly idleTimeoutMs: number,
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

  /** Whether some answer arrived on this connection. */
  get answeredAny(): boolean {
    return this.answered > 0;
  }

  /** Whether the connection takes requests (it has not broken or closed). */
  get usable(): boolean {
    return !this.closed;
  }

  /** The number of requests sent or queued without an answer yet. */
  get inFlight(): number {
    return this.outstanding.length - this.head;
  }

  /** Queues a GET; it goes out with the others queued in this turn of the event loop. */
  get(request: PipelinedRequest): Promise<PipelinedResponse> {
    if (this.closed) return Promise.reject(new PipelineBrokenError('the pipelined connection is closed'));
    let text = `GET ${request.path} HTTP/1.1\r\nHost: ${this.hostHeader}\r\n`;
    for (const name of Object.keys(request.headers)) text += `${name}: ${request.headers[name]}\r\n`;
    this.pendingWrite.push(text + '\r\n');
    const answer = new Promise<PipelinedResponse>((resolve, reject) => this.outstanding.push({ resolve, reject }));
    if (this.inFlight === 1) {
      // Answers are due: keep the process alive for them (an idle connection does not, as node:http's free sockets do not).
      this.socket.ref();
      this.touch();
    }
    if (!this.flushScheduled) {
      // After this turn of the event loop: the GETs of a whole batch of watch events go out together.
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
    return answer;
  }

  /** Closes the connection; requests without an answer fail. */
  destroy(): void {
    this.break(new PipelineBrokenError('the pipelined connection was closed by the client'));
  }

  private flush(): void {
    this.flushScheduled = false;
    if (!this.connected || this.closed || this.pendingWrite.length === 0) return;
    const text = this.pendingWrite.length === 1 ? this.pendingWrite[0] : this.pendingWrite.join('');
    this.pendingWrite = [];
    this.socket.write(text, 'latin1');
  }

  /** Records that a byte arrived (or an answer became due) and keeps one idle timer running while answers are due. */
  private touch(): void {
    this.lastByteAt = this.clock.now();
    if (this.timer === undefined && this.idleTimeoutMs > 0) this.schedule(this.idleTimeoutMs);
  }

  private schedule(ms: number): void {
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      if (this.closed || this.inFlight === 0) return;
      const left = this.lastByteAt + this.idleTimeoutMs - this.clock.now();
      if (left > 0) this.schedule(left);
      // The first request waiting timed out (it is not sent again: a failure is reported, as an
      // ordinary request's would be); those queued behind it never got their turn.
      else this.break(new PipelineBrokenError(`no data received for ${this.idleTimeoutMs} ms`), new IdleTimeoutError(this.idleTimeoutMs));
    }, ms);
  }

  private onData(chunk: Buffer): void {
    this.touch();
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
      }
      this.answered++;
      waiter.resolve(parsed.response);
      if (parsed.close) {
        this.break(new PipelineBrokenError('the server closes the connection'));
        return;
      }
    }
    this.buffer = offset === 0 ? this.buffer : this.buffer.subarray(offset);
    if (this.buffer.length > 0 && offset > 0) this.buffer = Buffer.from(this.buffer);
    if (this.inFlight === 0) {
      this.timer?.cancel();
      this.timer = undefined;
      this.socket.unref();
    }
  }

  /** Parses the answer starting at `offset`: the answer and where the next starts, `undefined` if incomplete, `'broken'` if malformed. */
  private parseOne(offset: number): { response: PipelinedResponse; next: number; close: boolean } | undefined | 'broken' {
    const buf = this.buffer;
    if (offset >= buf.length) return undefined;
    const headEnd = buf.indexOf(HEAD_END, offset);
    if (headEnd === -1) {
      if (buf.length - offset > maxHeadBytes) return this.malformed('a response head longer than 64 KiB');
      return undefined;
    }
    const lines = buf.toString('latin1', offset, headEnd).split('\r\n');
    const status = /^HTTP\/1\.[01] (\d{3})(?: |$)/.exec(lines[0]);
    if (status === null) return this.malformed(`a malformed status line (${JSON.stringify(lines[0].slice(0, 64))})`);
    const statusCode = Number(status[1]);
    const headers: Record<string, string> = Object.create(null) as Record<string, string>;
    for (let i = 1; i < lines.length; i++) {
      const colon = lines[i].indexOf(':');
      if (colon <= 0) return this.malformed('a malformed header line');
      headers[lines[i].slice(0, colon).trim().toLowerCase()] = lines[i].slice(colon + 1).trim();
    }
    const bodyStart = headEnd + HEAD_END.length;
    if (statusCode >= 100 && statusCode < 200) {
      // An interim answer (100 Continue): the real one follows.
      return this.parseOne(bodyStart);
    }
    const close = /(?:^|,)\s*close\s*(?:,|$)/i.test(headers['connection'] ?? '');
    const te = headers['transfer-encoding'];
    let body: Buffer;
    let next: number;
    if (te !== undefined) {
      if (!/^chunked$/i.test(te)) return this.malformed(`an unsupported Transfer-Encoding (${te})`);
      const parts: Buffer[] = [];
      let pos = bodyStart;
      for (;;) {
        const lineEnd = buf.indexOf(CRLF, pos);
        if (lineEnd === -1) return undefined;
        const sizeText = buf.toString('latin1', pos, lineEnd).split(';')[0].trim();
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
        pos = lineEnd + 2 + size + 2;
      }
      body = Buffer.concat(parts);
    } else if (headers['content-length'] !== undefined) {
      if (!/^\d{1,12}$/.test(headers['content-length'])) return this.malformed('a malformed Content-Length');
      const length = Number(headers['content-length']);
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
    return { response: { statusCode, headers, body }, next, close };
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
    this.pendingWrite = [];
    waiting.forEach((w, i) => w.reject(i === 0 ? firstErr : err));
  }
}
