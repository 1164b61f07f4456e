/**
 * How Go's `net/url` reads a request's path and query, which is what every handler of the apiserver sees:
 * the path decoded once before any routing (`/api%2Fv1/namespaces` is `/api/v1/namespaces`, `a%2Fb` two
 * segments), the query split into pairs with the ones it cannot read left out.
 */

/** `%` and two hex digits. */
const hex = /^[0-9A-Fa-f]{2}$/;

/**
 * `url.PathUnescape` (`unescape` in `encodePath` mode): each `%XX` becomes its byte, `+` stays `+`.
 * Undefined when a `%` is not followed by two hex digits, which `url.ParseRequestURI` refuses and the
 * HTTP server answers with its plain `400 Bad Request`. Bytes that are not UTF-8 become U+FFFD.
 */
export function pathUnescape(s: string): string | undefined {
  return unescape(s, false);
}

/**
 * `url.ParseQuery` as `req.URL.Query()` uses it, errors dropped: pairs split at `&`, a pair holding `;`
 * or an escape that is not `%XX` left out (Go 1.17 and later), `+` a space, an empty pair skipped. More
 * than 10,000 pairs (`urlmaxqueryparams`) is no query at all.
 */
export function parseGoQuery(query: string): URLSearchParams {
  const params = new URLSearchParams();
  if (query === '') return params;
  let pairs = 1;
  for (let i = query.indexOf('&'); i >= 0; i = query.indexOf('&', i + 1)) pairs++;
  if (pairs > maxQueryParams) return params;
  for (const pair of query.split('&')) {
    if (pair === '' || pair.includes(';')) continue;
    const eq = pair.indexOf('=');
    const key = unescape(eq < 0 ? pair : pair.slice(0, eq), true);
    const value = unescape(eq < 0 ? '' : pair.slice(eq + 1), true);
    if (key === undefined || value === undefined) continue;
    params.append(key, value);
  }
  return params;
}

/** net/url's `defaultMaxParams`. */
const maxQueryParams = 10_000;

function unescape(s: string, query: boolean): string | undefined {
  if (!s.includes('%')) return query && s.includes('+') ? s.replaceAll('+', ' ') : s;
  const bytes: number[] = [];
  for (let i = 0; i < s.length; ) {
    const c = s.charCodeAt(i);
    if (c === 0x25) {
      const digits = s.slice(i + 1, i + 3);
      if (!hex.test(digits)) return undefined;
      bytes.push(Number.parseInt(digits, 16));
      i += 3;
      continue;
    }
    if (c < 0x80) {
      bytes.push(query && c === 0x2b ? 0x20 : c);
      i++;
      continue;
    }
    // A character outside ASCII (not what Node's parser lets through, but a string may hold one): its UTF-8.
    const cp = s.codePointAt(i)!;
    bytes.push(...Buffer.from(String.fromCodePoint(cp), 'utf8'));
    i += cp > 0xffff ? 2 : 1;
  }
  return Buffer.from(bytes).toString('utf8');
}
