/**
 * Kubernetes' URL library (`url`, `isURL`, `getScheme`, `getHost`, `getHostname`, `getPort`,
 * `getEscapedPath`, `getQuery`) over Go's `url.ParseRequestURI` rules: an absolute URL or an
 * absolute path, no fragment.
 */
import { ArrayList, LiteralMap, OpaqueVal } from '../internal/values.js';
import type { CelVal } from '../internal/values.js';
import { BoolType, StringType, listType, mapType, objectType } from '../internal/types.js';
import { err, func, memberOverload, overload } from './library.js';
import type { FunctionDecl } from './library.js';

/** `kubernetes.URL`. */
export const URLType = objectType('kubernetes.URL');

/** A parsed URL. */
export class URLVal extends OpaqueVal {
  readonly celType = URLType;

  constructor(readonly text: string, readonly scheme: string, readonly host: string, readonly path: string, readonly rawQuery: string) {
    super();
  }

  equals(other: OpaqueVal): boolean {
    return other instanceof URLVal && other.text === this.text;
  }

  override size(): number {
    return [...this.text].length;
  }
}

function hasBadEscape(s: string): boolean {
  return /%(?![0-9A-Fa-f]{2})/.test(s);
}

/** `url.ParseRequestURI`, or the reason it fails. */
export function parseURL(raw: string): URLVal | string {
  const fail = (why: string): string => `parse ${JSON.stringify(raw)}: ${why}`;
  if (raw === '') return fail('empty url');
  if (/[\x00-\x1f\x7f]/.test(raw)) return fail('net/url: invalid control character in URL');
  let rest = raw;
  const hash = rest.indexOf('#');
  if (hash >= 0) rest = rest.slice(0, hash);
  let rawQuery = '';
  const qm = rest.indexOf('?');
  if (qm >= 0) {
    rawQuery = rest.slice(qm + 1);
    rest = rest.slice(0, qm);
  }
  let scheme = '';
  const sm = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(rest);
  if (sm !== null) {
    scheme = sm[1].toLowerCase();
    rest = rest.slice(sm[0].length);
  } else if (/^[0-9+.-]*:/.test(rest) && rest.indexOf(':') < (rest.indexOf('/') < 0 ? Infinity : rest.indexOf('/'))) {
    return fail('missing protocol scheme');
  }
  let host = '';
  if (scheme !== '' && rest.startsWith('//')) {
    rest = rest.slice(2);
    const slash = rest.indexOf('/');
    const authority = slash < 0 ? rest : rest.slice(0, slash);
    rest = slash < 0 ? '' : rest.slice(slash);
    const at = authority.lastIndexOf('@');
    host = at < 0 ? authority : authority.slice(at + 1);
    if (host.startsWith('[')) {
      const close = host.indexOf(']');
      if (close < 0) return fail('missing \']\' in host');
      const port = host.slice(close + 1);
      if (port !== '' && !/^:[0-9]*$/.test(port)) return fail(`invalid port ${JSON.stringify(port)} after host`);
    } else {
      const colon = host.lastIndexOf(':');
      if (colon >= 0 && !/^:[0-9]*$/.test(host.slice(colon))) return fail(`invalid port ${JSON.stringify(host.slice(colon))} after host`);
    }
  } else if (scheme === '' && !rest.startsWith('/')) {
    return fail('invalid URI for request');
  } else if (scheme !== '' && rest !== '' && !rest.startsWith('/')) {
    // An opaque URL such as `mailto:x` has no path.
    return new URLVal(raw, scheme, '', '', rawQuery);
  }
  if (hasBadEscape(rest)) return fail('invalid URL escape');
  return new URLVal(raw, scheme, host, escapePath(rest), rawQuery);
}

/** Go's `URL.EscapedPath()` of a parsed path: keeps valid escapes, encodes what a path may not hold. */
function escapePath(path: string): string {
  let out = '';
  for (const ch of path) {
    if (/[A-Za-z0-9\-._~!$&'()*+,;=:@/%]/.test(ch)) out += ch;
    else for (const b of Buffer.from(ch, 'utf8')) out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function hostname(host: string): string {
  if (host.startsWith('[')) {
    const close = host.indexOf(']');
    return close < 0 ? host : host.slice(1, close);
  }
  const colon = host.lastIndexOf(':');
  return colon < 0 ? host : host.slice(0, colon);
}

function port(host: string): string {
  const start = host.startsWith('[') ? host.indexOf(']') + 1 : 0;
  const colon = host.indexOf(':', start);
  return colon < 0 ? '' : host.slice(colon + 1);
}

function decodeComponent(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

const u = (v: CelVal): URLVal => v as URLVal;

/** The URL library. */
export const urlsLibrary: readonly FunctionDecl[] = [
  func('url', overload('string_to_url', [StringType], URLType, (v) => {
    const r = parseURL(v as string);
    return typeof r === 'string' ? err(`URL parse error during conversion from string: ${r}`) : r;
  })),
  func('isURL', overload('is_url_string', [StringType], BoolType, (v) => typeof parseURL(v as string) !== 'string')),
  func('getScheme', memberOverload('url_get_scheme', [URLType], StringType, (v) => u(v).scheme)),
  func('getHost', memberOverload('url_get_host', [URLType], StringType, (v) => u(v).host)),
  func('getHostname', memberOverload('url_get_hostname', [URLType], StringType, (v) => hostname(u(v).host))),
  func('getPort', memberOverload('url_get_port', [URLType], StringType, (v) => port(u(v).host))),
  func('getEscapedPath', memberOverload('url_get_escaped_path', [URLType], StringType, (v) => u(v).path)),
  func('getQuery', memberOverload('url_get_query', [URLType], mapType(StringType, listType(StringType)), (v) => {
    const values = new Map<string, string[]>();
    for (const part of u(v).rawQuery.split(/[&;]/)) {
      if (part === '') continue;
      const eq = part.indexOf('=');
      const k = decodeComponent(eq < 0 ? part : part.slice(0, eq));
      const val = eq < 0 ? '' : decodeComponent(part.slice(eq + 1));
      values.set(k, [...(values.get(k) ?? []), val]);
    }
    const m = new LiteralMap();
    for (const [k, list] of values) m.set(k, new ArrayList(list));
    return m;
  })),
];
