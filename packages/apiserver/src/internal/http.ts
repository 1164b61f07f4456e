/**
 * Small HTTP helpers: reading a bounded request body, writing JSON and `Status` bodies, and the media
 * types the apiserver negotiates.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { KubeError, goQuote, isStackOverflow, parseJSON, stringifyJSON } from '@kubekit/core';
import { TooManyWaitingRequestsError } from '../storage/resourceVersionWaiter.js';
import { jsonToGoYAML } from './goYAML.js';
import { indentJSON, isProtobuf, negotiateError, type OutputMediaType } from './negotiation.js';
import { encodeProtobuf } from './protobufEncode.js';
import { protobufMediaType } from './protobuf.js';

/** The media type of aggregated discovery (v2). */
export const aggregatedDiscoveryV2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
/** The media type of aggregated discovery (v2beta1), which older clients ask for. */
export const aggregatedDiscoveryV2Beta1 = 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';

/** What a resource request asks to get back: plain objects, a `Table`, or their metadata. */
export type ResponseFormat = 'object' | 'table' | 'partialObjectMetadata' | 'partialObjectMetadataList';

/** The negotiated output of each resource response, set before its handler runs (see `negotiation.ts`). */
const outputs = new WeakMap<ServerResponse, OutputMediaType>();

/** Records how a resource response is written: its body goes out in that encoding (JSON, indented JSON or YAML). */
export function setResponseOutput(res: ServerResponse, output: OutputMediaType): void {
  outputs.set(res, output);
}

/** What a response was negotiated to be: the object, a Table or metadata (the object when nothing was negotiated). */
export function responseFormat(res: ServerResponse): ResponseFormat {
  const c = outputs.get(res)?.conversion;
  if (c === undefined) return 'object';
  if (c.kind === 'Table') return 'table';
  return c.kind === 'PartialObjectMetadata' ? 'partialObjectMetadata' : 'partialObjectMetadataList';
}

/** Whether a resource response was negotiated to be protobuf. */
export function responseIsProtobuf(res: ServerResponse): boolean {
  return isProtobuf(outputs.get(res));
}

/** The meta.k8s.io version a Table or metadata response was asked in (`v1` or `v1beta1`). */
export function responseMetaVersion(res: ServerResponse): string {
  return outputs.get(res)?.conversion?.version ?? 'v1';
}

/** Reads the whole request body, refusing more than `limit` bytes with 413 as the apiserver does. */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    throw tooLarge(limit);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      req.resume();
      throw tooLarge(limit);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

function tooLarge(limit: number): KubeError {
  return new KubeError('RequestEntityTooLarge', `Request entity too large: limit is ${limit}`);
}

/** The media type of a request's `Content-Type`, lower-cased and without parameters. */
export function contentType(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
}

/** Writes a JSON body (big integers kept exact), in the encoding negotiated for the response. */
export function sendJSON(res: ServerResponse, code: number, body: unknown, contentTypeHeader = 'application/json'): void {
  if (contentTypeHeader === 'application/json' && isProtobuf(outputs.get(res)) && sendProtobuf(res, code, body)) return;
  sendText(res, code, stringifyJSON(body), contentTypeHeader);
}

/**
 * Writes `body` in protobuf when kubekit has its kind's message; false (nothing written) when not, the
 * answer then going out as JSON (the endpoints that negotiate protobuf answer kinds that have one).
 */
function sendProtobuf(res: ServerResponse, code: number, body: unknown): boolean {
  if (res.headersSent) {
    res.end();
    return true;
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return false;
  const buf = encodeProtobuf(body as Record<string, unknown>);
  if (buf === undefined) return false;
  res.writeHead(code, { 'Content-Type': protobufMediaType, 'Content-Length': buf.length, 'Cache-Control': 'no-cache, private' });
  res.end(buf);
  return true;
}

/**
 * Writes already serialised JSON text: as it is (with the newline of Go's `json.Encoder`), or, for a
 * resource response negotiated so, indented (`json.MarshalIndent`, no newline) or as YAML (sigs.k8s.io/yaml's
 * `JSONToYAML` of it; a value go-yaml cannot write is its 500, as on the apiserver).
 */
export function sendText(res: ServerResponse, code: number, text: string, contentTypeHeader = 'application/json'): void {
  writeEncoded(res, code, text, contentTypeHeader.startsWith('application/json') ? outputs.get(res) : undefined, contentTypeHeader);
}

function writeEncoded(res: ServerResponse, code: number, text: string, output: OutputMediaType | 'raw' | undefined, contentTypeHeader: string): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  if (output !== 'raw' && isProtobuf(output) && sendProtobuf(res, code, parseJSON(text))) return;
  let body = text + '\n';
  let type = contentTypeHeader;
  let status = code;
  if (output === 'raw') {
    body = indentJSON(text);
  } else if (output?.serializer.subtype === 'yaml') {
    type = 'application/yaml';
    try {
      body = toYAML(text);
    } catch (err) {
      // responsewriters.SerializeObject: what the encoder refuses is answered with the Status of its error,
      // in the same encoding (its code in place of a success's), or its reason and message as text.
      const failure = toKubeError(err).toStatus();
      if (code < 400) status = failure.code ?? 500;
      try {
        body = toYAML(stringifyJSON(failure));
      } catch {
        body = `${failure.reason ?? ''}: ${failure.message ?? ''}`;
        type = 'text/plain';
      }
    }
  } else if (output?.pretty === true) {
    body = indentJSON(text);
  }
  const buf = Buffer.from(body, 'utf8');
  res.writeHead(status, { 'Content-Type': type, 'Content-Length': buf.length, 'Cache-Control': 'no-cache, private' });
  res.end(buf);
}

/** sigs.k8s.io/yaml's `JSONToYAML` of JSON text as kubekit writes it (encoding/json escapes the line and paragraph separators, which go-yaml would fold when raw). */
function toYAML(text: string): string {
  return jsonToGoYAML(text.replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029'));
}

/**
 * `errors.NewForbidden` of a resource: `<resource>.<group> "<name>" is forbidden: <why>`, the name left out
 * (of the message and the details) when there is none.
 */
export function forbiddenError(group: string, resource: string, name: string, why: string): KubeError {
  const qualified = group === '' ? resource : `${resource}.${group}`;
  return new KubeError('Forbidden', `${name === '' ? qualified : `${qualified} ${goQuote(name)}`} is forbidden: ${why}`, {
    details: { ...(name === '' ? {} : { name }), ...(group === '' ? {} : { group }), kind: resource },
  });
}

/** go-restful's answer to a method no route of the path takes (a 405 Status). */
export function methodNotAllowed(): KubeError {
  return new KubeError('MethodNotAllowed', 'the server does not allow this method on the requested resource', { details: {} });
}

/**
 * Writes an error as the apiserver's `Status` body with its HTTP code (`responsewriters.ErrorNegotiated`:
 * in the media type the request accepts without conversions, else indented JSON); a read refused for
 * too many waiting reads as the apiserver's in-flight limit refuses it, in plain text.
 */
export function sendError(res: ServerResponse, err: unknown): void {
  if (err instanceof TooManyWaitingRequestsError && !res.headersSent) {
    res.setHeader('Retry-After', String(err.details?.retryAfterSeconds ?? 1));
    sendText(res, err.code, err.message, 'text/plain; charset=utf-8');
    return;
  }
  const kerr = toKubeError(err);
  const status = kerr.toStatus();
  // As responsewriters.ErrorNegotiated: a Status that says when to retry says it in Retry-After too.
  const retryAfter = status.details?.retryAfterSeconds;
  if (retryAfter !== undefined && retryAfter > 0 && !res.headersSent) res.setHeader('Retry-After', String(retryAfter));
  writeEncoded(res, kerr.code, stringifyJSON(status), negotiateError(res.req) ?? 'raw', 'application/json');
}

/** Any thrown value as a `KubeError`: unexpected errors become `InternalError` (500). */
export function toKubeError(err: unknown): KubeError {
  if (err instanceof KubeError) return err;
  if (isStackOverflow(err)) {
    // The last guard of request data nested as deeply as the apiserver accepts (10,000 levels): the
    // pipeline's walks are iterative, but one that recursed would otherwise be a 500.
    return KubeError.badRequest(`the request nests deeper than the embedded server can process (${(err as Error).message}); the apiserver reads up to 10000 levels`);
  }
  const message = err instanceof Error ? err.message : String(err);
  return new KubeError('InternalError', `Internal error occurred: ${message}`, { cause: err });
}

/**
 * A `Warning` header value (`299 - "text"`) as the apiserver writes it: the text quoted, its UTF-8
 * bytes sent as they are (a header string in Node carries bytes as latin1 characters; anything else
 * would make Node refuse the header).
 */
function warningHeaderValue(text: string): string {
  return Buffer.from(`299 - ${JSON.stringify(text)}`, 'utf8').toString('latin1');
}

/** The warnings a response has been given, as the apiserver's warning recorder keeps them (filters/warning.go). */
interface WarningRecorder {
  recorded: Set<string>;
  ordered: string[];
  /** Runes written. */
  written: number;
  truncating: boolean;
}

const warningRecorders = new WeakMap<ServerResponse, WarningRecorder>();
/** filters/warning.go's `truncateAtTotalRunes` and `truncateItemRunes`. */
const warningTotalRunes = 4 * 1024;
const warningItemRunes = 256;
/** `unicode.IsControl`: C0, DEL and C1. */
const controlCharacter = /\p{Cc}/u;

/**
 * Adds a `Warning` header value (`299 - "text"`) as the apiserver's warning recorder does: each text once;
 * a text with a control character dropped (`net.NewWarningHeader` refuses it); and once the texts would
 * pass 4,096 runes in all, every one cut to its first 256 runes, and none added past 4,096 runes. Without
 * that limit, a write with hundreds of unknown fields (each warned of) had headers no Node client reads
 * (its 16 KiB `maxHeaderSize`: `HPE_HEADER_OVERFLOW`).
 */
export function addWarning(res: ServerResponse, text: string): void {
  if (text === '') return;
  let r = warningRecorders.get(res);
  if (r === undefined) warningRecorders.set(res, r = { recorded: new Set(), ordered: [], written: 0, truncating: false });
  if (r.written >= warningTotalRunes && r.truncating) return;
  if (r.recorded.has(text)) return;
  r.recorded.add(text);
  r.ordered.push(text);
  const runes = [...text];
  const cut = r.truncating && runes.length > warningItemRunes ? runes.slice(0, warningItemRunes).join('') : text;
  const length = Math.min(runes.length, r.truncating ? warningItemRunes : runes.length);
  if (controlCharacter.test(cut)) return;
  if (r.written + length <= warningTotalRunes || r.truncating) {
    r.written += length;
    appendWarningHeader(res, cut);
    return;
  }
  // Over the limit: from now on every warning is cut, those written already included.
  r.truncating = true;
  r.written = 0;
  res.removeHeader('Warning');
  for (const w of r.ordered) {
    const chars = [...w];
    const item = chars.length > warningItemRunes ? chars.slice(0, warningItemRunes).join('') : w;
    if (controlCharacter.test(item)) continue;
    r.written += Math.min(chars.length, warningItemRunes);
    appendWarningHeader(res, item);
  }
}

function appendWarningHeader(res: ServerResponse, text: string): void {
  const value = warningHeaderValue(text);
  const existing = res.getHeader('Warning');
  if (existing === undefined) res.setHeader('Warning', value);
  else res.setHeader('Warning', [...(Array.isArray(existing) ? existing : [String(existing)]), value]);
}

/**
 * Calls `gone` once if the client goes away before `res` is complete.
 *
 * The response's own `close` is not enough: Node runs the handlers of requests pipelined on one
 * connection at once, but attaches a response to the socket only when the responses before it have
 * ended, so a response waiting its turn hears nothing when the client closes the connection. The
 * socket's `close` is watched as well, and that listener is removed when the response ends (a
 * keep-alive connection carries many requests).
 */
export function onClientGone(res: ServerResponse, gone: () => void): void {
  const socket = res.req?.socket;
  let settled = false;
  let unwatch: (() => void) | undefined;
  const settle = (): void => {
    if (settled) return;
    settled = true;
    unwatch?.();
    if (!res.writableFinished) gone();
  };
  res.once('close', settle);
  if (socket === undefined || socket === null) return;
  // Gone already (the connection closed while the handler read the request).
  if (socket.destroyed) queueMicrotask(settle);
  else unwatch = onSocketClose(socket, settle);
}

/** The callbacks waiting for each socket's `close`: one listener per socket, however many requests wait on it. */
const socketClosers = new WeakMap<Socket, Set<() => void>>();

/** Calls `fn` when `socket` closes; returns the function that stops waiting. */
function onSocketClose(socket: Socket, fn: () => void): () => void {
  let waiting = socketClosers.get(socket);
  if (waiting === undefined) {
    const set = new Set<() => void>();
    waiting = set;
    socketClosers.set(socket, set);
    socket.once('close', () => {
      socketClosers.delete(socket);
      for (const f of [...set]) f();
    });
  }
  const set = waiting;
  set.add(fn);
  return () => set.delete(fn);
}

/**
 * A signal that aborts once the client goes away before the response is complete, for handlers that
 * wait (a read waiting for a resourceVersion).
 */
export function requestSignal(res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  onClientGone(res, () => controller.abort(new Error('the client closed the connection')));
  return controller.signal;
}
