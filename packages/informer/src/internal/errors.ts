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

/**
 * The server does not support a field label of the selector: `field label not supported: <label>`
 * (custom resources, and built-in kinds with a conversion function) or `"<label>" is not a known field
 * selector` (the default conversion). The apiserver gives these only as the message of a 400, so this
 * is the one place kubekit reads a message.
 */
export function unsupportedFieldLabel(err: unknown): string | undefined {
  if (!(err instanceof KubeError) || err.code !== 400) return undefined;
  const m = /field label not supported: (\S+)/.exec(err.message) ?? /"([^"]+)" is not a known field selector/.exec(err.message);
  return m?.[1];
}

/** A one-line description of any thrown value. */
export function describe(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
