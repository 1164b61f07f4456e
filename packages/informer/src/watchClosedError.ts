import { humanDuration, KubeError } from '@kubekit/core';

/** What a {@link WatchClosedError} records about the watch whose connection broke. */
export interface WatchClosedDetails {
  /** Node's error code of the break: `ECONNRESET`, `EPIPE`, `ERR_STREAM_PREMATURE_CLOSE`, … */
  connectionCode: string;
  /** Objects and bookmarks the watch delivered before it broke. */
  events: number;
  /** How long the watch lasted, from its request, in ms. */
  durationMs: number;
  /** The resource version the next watch starts from. */
  resourceVersion: string | undefined;
  /**
   * Whether the watch was resumed at once: it delivered an event or lasted a second, so its end is
   * no failure. Otherwise it was a very short watch, reported as a failure and retried after the backoff.
   */
  resumed: boolean;
}

/**
 * A watch whose connection broke under it — closed by the server or a proxy before the watch ended,
 * reset, or cut short — with what the watch had done by then, in words an operator can act on, e.g.
 * `the watch connection was reset after 1234 events in 5m2s (ECONNRESET); resuming from resourceVersion
 * 567 at once`. The underlying Node error is the `cause`.
 *
 * A break after a healthy watch (an event delivered, or a second passed) is no failure, as in client-go:
 * the {@link Reflector} resumes at once and shows it in `status.lastWatchClose`, logged at info. A
 * break within a second without any event (client-go's very short watch) is a failure: an `error`
 * event, then the backoff.
 */
export class WatchClosedError extends KubeError implements WatchClosedDetails {
  override name = 'WatchClosedError';
  readonly connectionCode: string;
  readonly events: number;
  readonly durationMs: number;
  readonly resourceVersion: string | undefined;
  readonly resumed: boolean;

  /** @param how what happened to the connection, e.g. `was reset` (see `connectionLoss`). */
  constructor(how: string, details: WatchClosedDetails, cause: unknown) {
    const what = `the watch connection ${how} after ${details.events} ${details.events === 1 ? 'event' : 'events'} in ${durationText(details.durationMs)} (${details.connectionCode})`;
    const next = details.resumed
      ? `resuming from resourceVersion ${details.resourceVersion ?? '""'} at once`
      : 'a watch that ends within 1 s without an event is a failure (client-go: very short watch)';
    super('InternalError', `${what}; ${next}`, { cause });
    this.connectionCode = details.connectionCode;
    this.events = details.events;
    this.durationMs = details.durationMs;
    this.resourceVersion = details.resourceVersion;
    this.resumed = details.resumed;
  }
}

function durationText(ms: number): string {
  return ms < 1000 ? `${Math.max(0, Math.round(ms))} ms` : humanDuration(ms);
}
