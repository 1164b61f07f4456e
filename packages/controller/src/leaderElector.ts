import { KubeError, realClock, type Clock, type KubeObject, type ObjectMeta } from '@kubekit/core';

/** A coordination.k8s.io/v1 Lease. */
export interface Lease extends KubeObject {
  apiVersion: 'coordination.k8s.io/v1';
  kind: 'Lease';
  metadata: ObjectMeta;
  spec: {
    holderIdentity?: string;
    leaseDurationSeconds?: number;
    acquireTime?: string;
    renewTime?: string;
    leaseTransitions?: number;
  };
}

/**
 * The Lease operations leader election needs. `create` throws a `KubeError` with reason `AlreadyExists`
 * and `update` one with reason `Conflict` when another writer got there first (optimistic concurrency on
 * `metadata.resourceVersion`).
 */
export interface LeaseClient {
  get(namespace: string, name: string, signal?: AbortSignal): Promise<Lease | undefined>;
  create(lease: Lease, signal?: AbortSignal): Promise<Lease>;
  update(lease: Lease, signal?: AbortSignal): Promise<Lease>;
}

/** Options of a {@link LeaderElector}. */
export interface LeaderElectorOptions {
  /** The Lease's namespace and name. */
  lock: { namespace: string; name: string };
  /** This candidate's identity (unique per process, e.g. hostname + random suffix). */
  identity: string;
  client: LeaseClient;
  /** How long non-leaders wait after the last observed change before taking over. @defaultValue 15000 ms */
  leaseDurationMs?: number;
  /** How long the leader keeps retrying a renewal before giving up leadership. @defaultValue 10000 ms */
  renewDeadlineMs?: number;
  /** The wait between attempts. @defaultValue 2000 ms */
  retryPeriodMs?: number;
  /** Give the lease up on shutdown so another candidate takes over at once. @defaultValue true */
  releaseOnCancel?: boolean;
  /** @defaultValue realClock */
  clock?: Clock;
  /** Reports failed attempts (they are retried). @defaultValue ignore */
  onError?: (err: unknown) => void;
}

/** Callbacks of {@link LeaderElector.run}. */
export interface LeaderCallbacks {
  /** Leader-only work: runs while this candidate leads; its signal aborts when leadership ends. */
  onStartedLeading(signal: AbortSignal): Promise<void> | void;
  /** Called once leadership ended (lost, or released on shutdown). */
  onStoppedLeading?(): void;
  /** Called whenever the observed leader changes (including to this candidate). */
  onNewLeader?(identity: string): void;
}

const jitterFactor = 1.2;

/** RFC 3339 with microseconds, as metav1.MicroTime is written. */
function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/**
 * Leader election on a coordination.k8s.io Lease, with client-go's `leaderelection` semantics.
 *
 * Contract:
 * - A candidate acquires the lease when it does not exist, when it holds it already, or when the lease
 *   has not changed for `leaseDuration` as measured on this candidate's own clock since it last observed
 *   a change (so clock skew between candidates does not matter).
 * - The leader renews every `retryPeriod`; if it cannot renew within `renewDeadline`, it stops leading
 *   (aborting the leader-only work's signal) before `leaseDuration` runs out, so two candidates never
 *   both act as leader as long as `leaseDuration > renewDeadline`.
 * - Writes are optimistic (resourceVersion); a conflict means another candidate won this round.
 *
 * @see client-go `tools/leaderelection/leaderelection.go`
 */
export class LeaderElector {
  private readonly opts: Required<Omit<LeaderElectorOptions, 'onError'>> & Pick<LeaderElectorOptions, 'onError'>;
  private observed: Lease | undefined;
  private observedAt = 0;
  private leading = false;
  private reportedLeader: string | undefined;

  constructor(options: LeaderElectorOptions) {
    this.opts = {
      ...options,
      leaseDurationMs: options.leaseDurationMs ?? 15_000,
      renewDeadlineMs: options.renewDeadlineMs ?? 10_000,
      retryPeriodMs: options.retryPeriodMs ?? 2_000,
      releaseOnCancel: options.releaseOnCancel ?? true,
      clock: options.clock ?? realClock,
    };
    const { leaseDurationMs, renewDeadlineMs, retryPeriodMs } = this.opts;
    if (!(leaseDurationMs > renewDeadlineMs)) throw new KubeError('BadRequest', 'leaseDuration must be greater than renewDeadline');
    if (!(renewDeadlineMs > jitterFactor * retryPeriodMs)) throw new KubeError('BadRequest', `renewDeadline must be greater than retryPeriod*JitterFactor`);
    if (retryPeriodMs < 1) throw new KubeError('BadRequest', 'retryPeriod must be greater than zero');
    if (options.identity === '') throw new KubeError('BadRequest', 'Lock identity is empty');
  }

  /** Whether this candidate currently leads. */
  isLeader(): boolean {
    return this.leading;
  }

  /** The identity of the leader this candidate last observed, if any. */
  leader(): string | undefined {
    return this.observed?.spec.holderIdentity || undefined;
  }

  /**
   * Campaigns until `signal` aborts: acquires the lease, runs the leader-only work while renewing, and
   * campaigns again after losing it. Resolves once `signal` aborted and the work has stopped.
   */
  async run(signal: AbortSignal, callbacks: LeaderCallbacks): Promise<void> {
    const { clock, retryPeriodMs } = this.opts;
    while (!signal.aborted) {
      if (!(await this.acquire(signal, callbacks))) break;
      const work = new AbortController();
      const onAbort = (): void => work.abort(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      const running = Promise.resolve().then(() => callbacks.onStartedLeading(work.signal)).catch((err: unknown) => this.opts.onError?.(err));
      await this.renewLoop(signal);
      this.leading = false;
      work.abort(new Error('leadership lost'));
      signal.removeEventListener('abort', onAbort);
      await running;
      callbacks.onStoppedLeading?.();
      if (signal.aborted && this.opts.releaseOnCancel) await this.release();
      if (!signal.aborted) await clock.sleep(retryPeriodMs, signal).catch(() => undefined);
    }
  }

  private async acquire(signal: AbortSignal, callbacks: LeaderCallbacks): Promise<boolean> {
    const { clock, retryPeriodMs } = this.opts;
    for (;;) {
      if (signal.aborted) return false;
      // A hung request must not stall the campaign: each attempt gets the renew deadline.
      const ok = await this.attempt(signal, this.opts.renewDeadlineMs);
      this.reportLeader(callbacks);
      if (ok) {
        this.leading = true;
        return true;
      }
      const wait = retryPeriodMs * (1 + Math.random() * (jitterFactor - 1));
      try {
        await clock.sleep(wait, signal);
      } catch {
        return false;
      }
    }
  }

  /** Renews until a renewal misses its deadline or `signal` aborts. */
  private async renewLoop(signal: AbortSignal): Promise<void> {
    const { clock, retryPeriodMs, renewDeadlineMs } = this.opts;
    while (!signal.aborted) {
      const deadline = clock.now() + renewDeadlineMs;
      let renewed = false;
      while (!signal.aborted && clock.now() < deadline) {
        renewed = await this.attempt(signal, deadline - clock.now());
        if (renewed && clock.now() < deadline) break;
        renewed = false;
        try {
          await clock.sleep(Math.min(retryPeriodMs, Math.max(0, deadline - clock.now())), signal);
        } catch {
          return;
        }
      }
      if (!renewed) return;
      try {
        await clock.sleep(retryPeriodMs, signal);
      } catch {
        return;
      }
    }
  }

  /** One `tryAcquireOrRenew`, abandoned after `timeoutMs` or when `signal` aborts. */
  private async attempt(signal: AbortSignal, timeoutMs: number): Promise<boolean> {
    const attempt = new AbortController();
    const timer = this.opts.clock.setTimeout(() => attempt.abort(new Error('leader election attempt timed out')), timeoutMs);
    const stop = (): void => attempt.abort(signal.reason);
    signal.addEventListener('abort', stop, { once: true });
    try {
      return await this.tryAcquireOrRenew(attempt.signal);
    } finally {
      timer.cancel();
      signal.removeEventListener('abort', stop);
    }
  }

  private async tryAcquireOrRenew(signal: AbortSignal): Promise<boolean> {
    const { client, lock, identity, clock, leaseDurationMs } = this.opts;
    try {
      const now = clock.now();
      const current = await client.get(lock.namespace, lock.name, signal);
      if (signal.aborted) return false;
      const spec = {
        holderIdentity: identity,
        leaseDurationSeconds: Math.ceil(leaseDurationMs / 1000),
        acquireTime: microTime(now),
        renewTime: microTime(now),
        leaseTransitions: 0,
      };
      if (current === undefined) {
        const created = await client.create({
          apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { namespace: lock.namespace, name: lock.name }, spec,
        }, signal);
        this.observe(created, clock.now());
        return !signal.aborted;
      }
      if (this.observed === undefined || !sameRecord(this.observed, current)) this.observe(current, clock.now());
      const holder = current.spec.holderIdentity ?? '';
      const durationMs = (current.spec.leaseDurationSeconds ?? 0) * 1000;
      if (holder !== '' && holder !== identity && this.observedAt + durationMs > now) return false;
      if (holder === identity) {
        spec.acquireTime = current.spec.acquireTime ?? spec.acquireTime;
        spec.leaseTransitions = current.spec.leaseTransitions ?? 0;
      } else {
        spec.leaseTransitions = (current.spec.leaseTransitions ?? 0) + 1;
      }
      const updated = await client.update({ ...current, spec }, signal);
      this.observe(updated, clock.now());
      return !signal.aborted;
    } catch (err) {
      if (!(err instanceof KubeError && (err.reason === 'Conflict' || err.reason === 'AlreadyExists'))) this.opts.onError?.(err);
      return false;
    }
  }

  private observe(lease: Lease, at: number): void {
    this.observed = lease;
    this.observedAt = at;
  }

  private reportLeader(callbacks: LeaderCallbacks): void {
    const leader = this.leader();
    if (leader !== undefined && leader !== this.reportedLeader) {
      this.reportedLeader = leader;
      callbacks.onNewLeader?.(leader);
    }
  }

  /** Gives the lease up (holder cleared, duration 1 s), as client-go's ReleaseOnCancel. */
  private async release(): Promise<void> {
    const { client, lock, identity, clock, renewDeadlineMs } = this.opts;
    const bounded = new AbortController();
    const timer = clock.setTimeout(() => bounded.abort(new Error('releasing the lease timed out')), renewDeadlineMs);
    try {
      const current = await client.get(lock.namespace, lock.name, bounded.signal);
      if (current === undefined || current.spec.holderIdentity !== identity) return;
      const now = microTime(clock.now());
      await client.update({ ...current, spec: { ...current.spec, holderIdentity: '', leaseDurationSeconds: 1, renewTime: now, acquireTime: now } }, bounded.signal);
    } catch (err) {
      this.opts.onError?.(err);
    } finally {
      timer.cancel();
    }
  }
}

function sameRecord(a: Lease, b: Lease): boolean {
  return a.spec.holderIdentity === b.spec.holderIdentity && a.spec.renewTime === b.spec.renewTime &&
    a.spec.acquireTime === b.spec.acquireTime && a.spec.leaseTransitions === b.spec.leaseTransitions &&
    a.spec.leaseDurationSeconds === b.spec.leaseDurationSeconds;
}
