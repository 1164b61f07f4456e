import { KubeError } from '@kubekit/core';

/** `410 Gone` / `Expired`: the resource version (or continue token) is too old; relist. */
export function isExpired(err: unknown): boolean {
  return err instanceof KubeError && (err.reason === 'Expired' || err.reason === 'Gone' || err.code === 410);
}

/**
 * The server has not reached the requested resource version (it restarted from an older state, or its
 * cache lags): client-go's `isTooLargeResourceVersionError`, a `ResourceVersionTooLarge` cause or, from
 * older servers, a `Timeout` whose message says so. Relist.
 */
export function isTooLargeResourceVersion(err: unknown): boolean {
  if (!(err instanceof KubeError)) return false;
  if (err.causes.some((c) => c.reason === 'ResourceVersionTooLarge')) return true;
  return (err.reason === 'Timeout' || err.code === 504) && /Too large resource version/i.test(err.message);
}

/** The server's requested wait (`Retry-After` or `details.retryAfterSeconds`), in milliseconds. */
export function retryAfterMs(err: unknown): number | undefined {
  if (!(err instanceof KubeError)) return undefined;
  const s = err.details?.retryAfterSeconds;
  return typeof s === 'number' && s >= 0 ? s * 1000 : undefined;
}

/**
 * The server rejected a streaming list (`sendInitialEvents`) as a request it does not understand: the
 * WatchList feature is off or the server predates it. Such servers answer 400/422 (or a proxy 405/501).
 */
export function isStreamingListRejected(err: unknown): boolean {
  return err instanceof KubeError && [400, 405, 406, 415, 422, 501].includes(err.code);
}

const unsupportedFieldLabelMessages = [
  /field label not supported(?: for [^:]*)?: (\S+)/,
  /"([^"]+)" is not a known field selector/,
  /field label "([^"]+)" not supported/,
];

/**
 * The server does not support a field label of the selector. The conversion functions word it in
 * several ways: `field label not supported: <label>` (custom resources and most built-in kinds),
 * `"<label>" is not a known field selector: …` (the default conversion), `field label "<label>" not
 * supported for batchv1.Job`, `field label not supported for <apiVersion>, Kind=<kind>: <label>`. The
 * apiserver gives them only as the message of a 400, so this is the one place kubekit reads a message.
 */
export function unsupportedFieldLabel(err: unknown): string | undefined {
  if (!(err instanceof KubeError) || err.code !== 400) return undefined;
  for (const re of unsupportedFieldLabelMessages) {
    const m = re.exec(err.message);
    if (m !== null) return m[1];
  }
  return undefined;
}

/**
 * An error that retrying cannot fix without a change elsewhere (a CRD, RBAC, the selectors): `400 Bad
 * Request` (a rejected selector), `403 Forbidden`, `404 Not Found` (no such resource), `405 Method Not
 * Allowed` (the resource cannot be listed or watched). controller-runtime's cache reports such list
 * errors instead of syncing; kubekit reports them after a few attempts and keeps retrying.
 */
export function isPermanent(err: unknown): boolean {
  return err instanceof KubeError && [400, 403, 404, 405].includes(err.code) && !isExpired(err);
}

/** A one-line description of any thrown value (core's `errorMessage`: it never throws). */
export { errorMessage as describe } from '@kubekit/core';
