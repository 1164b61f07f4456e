/**
 * Content negotiation of a response, in the apiserver's two steps:
 *
 * 1. go-restful's route match (`jsr311.go` `detectRoute`, `Route.matchesAccept`): a built-in kind's route
 *    is taken only when one of the `Accept` header's media types (parameters dropped, `*\/*` matching
 *    anything) is one the route produces; otherwise `406: Not Acceptable` naming them, before any handler.
 * 2. The handler's `NegotiateOutputMediaType` (apiserver `negotiation/negotiate.go`): the clauses of the
 *    header, parsed and ordered as goautoneg's `ParseAccept` does, each tried against each serializer
 *    (type and subtype equal, `type/*`, or `*\/*`), its parameters checked (`as`/`g`/`v` a conversion the
 *    endpoint allows, `stream=watch`, `sv`, `pretty`); none matching is `only the following media types
 *    are accepted: …`. A write negotiates before it decodes its body, so that such a request changes nothing.
 *
 * Errors are written as `responsewriters.ErrorNegotiated` writes them: negotiated the same way but with no
 * conversion allowed, and as indented JSON (`WriteRawJSON`) when nothing matches. A response is indented
 * when the request says `?pretty=true` or comes from curl, Wget or a browser (`isPrettyPrint`).
 *
 * kubekit writes JSON, YAML (converted from the JSON as sigs.k8s.io/yaml converts it: `goYAML.ts`) and
 * protobuf (encoded from the JSON by the message schema: `protobufEncode.ts`). A custom resource has no
 * protobuf form: its endpoint offers protobuf only for PartialObjectMetadata (`AllowsMediaTypeTransform` with
 * the CRD handler's StandardSerializers), so that a protobuf-only client is refused before anything is done.
 */
import type { IncomingMessage } from 'node:http';
import { KubeError } from '@kubekit/core';
import { parseGoQuery } from './goURL.js';

/** A media type a response can be written in. */
export interface Serializer {
  /** `application/json`. */
  mediaType: string;
  type: string;
  subtype: string;
  /** Whether watch events can be streamed in it. */
  stream: boolean;
}

/** The encodings kubekit writes, in the apiserver's order of preference. */
export const serializers: readonly Serializer[] = [
  { mediaType: 'application/json', type: 'application', subtype: 'json', stream: true },
  { mediaType: 'application/yaml', type: 'application', subtype: 'yaml', stream: false },
  { mediaType: 'application/vnd.kubernetes.protobuf', type: 'application', subtype: 'vnd.kubernetes.protobuf', stream: true },
];

/** Whether a negotiated output is protobuf. */
export function isProtobuf(output: OutputMediaType | undefined): boolean {
  return output?.serializer.subtype === 'vnd.kubernetes.protobuf';
}

/** What the response is converted to (`as=`, `g=`, `v=` of the accepted clause). */
export interface Conversion {
  kind: string;
  group: string;
  version: string;
}

/** The accepted media type, with its options. */
export interface OutputMediaType {
  serializer: Serializer;
  conversion?: Conversion;
  pretty: boolean;
  stream: string;
}

/** What an endpoint lets a client ask for (negotiate.go's `EndpointRestrictions`). */
export interface EndpointRestrictions {
  allowsConversion(serializer: Serializer, conversion: Conversion | undefined): boolean;
  allowsServerVersion(version: string): boolean;
}

/** The restrictions of errors and other endpoints: no conversion, no server version (`DefaultEndpointRestrictions`). */
export const defaultRestrictions: EndpointRestrictions = {
  allowsConversion: (_s, conversion) => conversion === undefined,
  allowsServerVersion: () => false,
};

/**
 * The restrictions of a resource endpoint (`RequestScope`): a Table (meta.k8s.io v1 or v1beta1) in JSON or
 * YAML when the endpoint has a table convertor, PartialObjectMetadata(List) in any, nothing else; the
 * objects themselves in protobuf only when the kind has a protobuf message (`protobuf`: not a custom resource).
 */
export function resourceRestrictions(hasTable: boolean, protobuf = true): EndpointRestrictions {
  return {
    allowsConversion: (serializer, c) => {
      if (c === undefined) return protobuf || serializer.subtype !== 'vnd.kubernetes.protobuf';
      if (c.group !== 'meta.k8s.io' || (c.version !== 'v1' && c.version !== 'v1beta1')) return false;
      if (c.kind === 'Table') return hasTable && serializer.type === 'application' && (serializer.subtype === 'json' || serializer.subtype === 'yaml');
      return c.kind === 'PartialObjectMetadata' || c.kind === 'PartialObjectMetadataList';
    },
    allowsServerVersion: (version) => version === 'v1',
  };
}

/** One clause of an `Accept` header, as goautoneg parses it. */
interface Clause {
  type: string;
  subtype: string;
  q: number;
  params: Map<string, string>;
}

const trimSpaces = (s: string): string => s.replace(/^ +| +$/g, '');

/** Splits at the first `sep` (goautoneg's `nextSplitElement`). */
function cut(s: string, sep: string): [string, string] {
  const i = s.indexOf(sep);
  return i < 0 ? [s, ''] : [s.slice(0, i), s.slice(i + 1)];
}

/**
 * goautoneg's `ParseAccept`: clauses split at commas, a media range needing `type/subtype` (or `*`),
 * parameters `k=v` (`q` read as a float, malformed ones skipped), then sorted by q and specificity (Go's
 * insertion sort for the few clauses a header has, which keeps ties in order).
 */
export function parseAcceptClauses(header: string): Clause[] {
  const out: Clause[] = [];
  let remaining = header;
  while (remaining.length > 0) {
    let part: string;
    [part, remaining] = cut(remaining, ',');
    part = trimSpaces(part);
    const [range, paramText] = cut(part, ';');
    const [t, subRest] = cut(range, '/');
    const type = trimSpaces(t);
    let subtype: string;
    if (subRest.length === 0) {
      if (type !== '*') continue;
      subtype = '*';
    } else {
      const [s, extra] = cut(subRest, '/');
      if (extra.length > 0) continue;
      subtype = trimSpaces(s);
    }
    const clause: Clause = { type, subtype, q: 1, params: new Map() };
    let rest = paramText;
    while (rest.length > 0) {
      let p: string;
      [p, rest] = cut(rest, ';');
      const [k, vRest] = cut(p, '=');
      if (vRest.length === 0) continue;
      const [v, extra] = cut(vRest, '=');
      if (extra.length !== 0) continue;
      const key = trimSpaces(k);
      if (key === 'q') clause.q = parseGoFloat(v);
      else clause.params.set(key, trimSpaces(v));
    }
    out.push(clause);
  }
  const less = (a: Clause, b: Clause): boolean => a.q > b.q || (a.type !== '*' && b.type === '*') || (a.subtype !== '*' && b.subtype === '*');
  for (let i = 1; i < out.length; i++) {
    for (let j = i; j > 0 && less(out[j], out[j - 1]); j--) [out[j], out[j - 1]] = [out[j - 1], out[j]];
  }
  return out;
}

/** `strconv.ParseFloat(s, 32)` as goautoneg uses it: 0 when it is not a number. */
function parseGoFloat(s: string): number {
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(s)) return 0;
  return Math.fround(Number(s));
}

/**
 * negotiate.go's `NegotiateMediaTypeOptions`: the first clause (in sorted order) that a serializer matches
 * and whose parameters the endpoint allows; an empty header takes the first serializer.
 */
export function negotiateMediaType(header: string | undefined, offered: readonly Serializer[], restrictions: EndpointRestrictions): OutputMediaType | undefined {
  if (header === undefined || header.length === 0) return { serializer: offered[0], pretty: false, stream: '' };
  for (const clause of parseAcceptClauses(header)) {
    for (const serializer of offered) {
      const matches = (clause.type === serializer.type && (clause.subtype === serializer.subtype || clause.subtype === '*'))
        || (clause.type === '*' && clause.subtype === '*');
      if (!matches) continue;
      const options = acceptOptions(clause.params, serializer, restrictions);
      if (options !== undefined) return options;
    }
  }
  return undefined;
}

/** negotiate.go's `acceptMediaTypeOptions`: the clause's parameters, or undefined when the endpoint refuses one. */
function acceptOptions(params: Map<string, string>, serializer: Serializer, restrictions: EndpointRestrictions): OutputMediaType | undefined {
  let conversion: Conversion | undefined;
  let pretty = false;
  let stream = '';
  for (const [k, v] of params) {
    switch (k) {
      case 'as': conversion = { kind: v, group: conversion?.group ?? '', version: conversion?.version ?? '' }; break;
      case 'g': conversion = { kind: conversion?.kind ?? '', group: v, version: conversion?.version ?? '' }; break;
      case 'v': conversion = { kind: conversion?.kind ?? '', group: conversion?.group ?? '', version: v }; break;
      case 'stream':
        if (v.length > 0 && (!serializer.stream || v !== 'watch')) return undefined;
        stream = v;
        break;
      case 'sv':
        if (v.length > 0 && !restrictions.allowsServerVersion(v)) return undefined;
        break;
      case 'pretty': pretty = v === '1'; break;
      default: break;
    }
  }
  if (!restrictions.allowsConversion(serializer, conversion)) return undefined;
  return { serializer, conversion, pretty, stream };
}

/** `NewNotAcceptableError`: the media types the server could have written. */
export function notAcceptable(mediaTypes: readonly string[]): KubeError {
  return new KubeError('NotAcceptable', `only the following media types are accepted: ${mediaTypes.join(', ')}`);
}

/** The handler's negotiation of a resource response; a 406 when nothing the client accepts can be written. */
export function negotiateOutput(req: IncomingMessage, restrictions: EndpointRestrictions): OutputMediaType {
  const out = negotiateMediaType(req.headers.accept, serializers, restrictions);
  if (out === undefined) throw notAcceptable(serializers.map((s) => s.mediaType));
  return { ...out, pretty: out.pretty || isPrettyPrint(req) };
}

/**
 * A watch's negotiation (`NegotiateOutputMediaTypeStream`), given the list's: the same clause is taken (the
 * same header, serializers and restrictions), which must be one that streams.
 */
export function checkStream(output: OutputMediaType): void {
  if (!output.serializer.stream) throw notAcceptable(serializers.filter((s) => s.stream).map((s) => `${s.mediaType};stream=watch`));
}

/** How an error is written for this request: negotiated without conversions, or `undefined` for indented JSON. */
export function negotiateError(req: IncomingMessage | undefined): OutputMediaType | undefined {
  if (req === undefined) return { serializer: serializers[0], pretty: false, stream: '' };
  const out = negotiateMediaType(req.headers.accept, serializers, defaultRestrictions);
  return out === undefined ? undefined : { ...out, pretty: out.pretty || isPrettyPrint(req) };
}

/** negotiate.go's `isPrettyPrint`: `?pretty=` (Go's ParseBool) when given, else the user agent of curl, Wget or a browser. */
export function isPrettyPrint(req: IncomingMessage): boolean {
  const url = req.url ?? '';
  const q = url.indexOf('?');
  if (q >= 0 && url.includes('pretty', q)) {
    const value = parseGoQuery(url.slice(q + 1)).get('pretty') ?? '';
    if (value.length > 0) return ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value);
  }
  const agent = req.headers['user-agent'] ?? '';
  return agent.startsWith('curl') || agent.startsWith('Wget') || agent.startsWith('Mozilla/5.0');
}

/** The media types a built-in kind's go-restful route produces: its serializers, and their watch streams on a collection GET. */
export function routeProduces(collectionGet: boolean): string[] {
  const types = serializers.map((s) => s.mediaType);
  return collectionGet ? [...types, ...serializers.filter((s) => s.stream).map((s) => `${s.mediaType};stream=watch`)] : types;
}

/**
 * go-restful's `Route.matchesAccept`: some media type of the header (parameters dropped) is one the route
 * produces, or `*\/*`; an empty header accepts anything. Otherwise its 406, before the handler runs.
 */
export function checkRouteAccepts(header: string | undefined, produces: readonly string[]): void {
  const accept = header === undefined || header.length === 0 ? '*/*' : header;
  for (const part of accept.split(',')) {
    const semi = part.indexOf(';');
    const type = trimSpaces(semi < 0 ? part : part.slice(0, semi));
    if (type === '*/*' || produces.includes(type)) return;
  }
  throw new KubeError('NotAcceptable', `406: Not Acceptable\n\nAvailable representations: ${produces.join(', ')}`, { details: {} });
}

/**
 * encoding/json's `Indent` with two spaces, of compact JSON text (as `json.MarshalIndent` writes): each
 * element and member on its own line, `": "` after keys, empty objects and arrays kept as `{}` and `[]`.
 */
export function indentJSON(text: string): string {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  const newline = (): void => { out.push('\n', '  '.repeat(depth)); };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: copied as it is, escapes included.
      let j = i + 1;
      while (j < text.length && text.charCodeAt(j) !== 0x22) j += text.charCodeAt(j) === 0x5c ? 2 : 1;
      i = j;
      continue;
    }
    if (c === 0x7b || c === 0x5b) {
      const close = c === 0x7b ? 0x7d : 0x5d;
      out.push(text.slice(start, i + 1));
      if (text.charCodeAt(i + 1) === close) {
        out.push(String.fromCharCode(close));
        i++;
      } else {
        depth++;
        newline();
      }
      start = i + 1;
    } else if (c === 0x7d || c === 0x5d) {
      out.push(text.slice(start, i));
      depth--;
      newline();
      out.push(String.fromCharCode(c));
      start = i + 1;
    } else if (c === 0x2c) {
      out.push(text.slice(start, i + 1));
      newline();
      start = i + 1;
    } else if (c === 0x3a) {
      out.push(text.slice(start, i + 1), ' ');
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out.join('');
}
