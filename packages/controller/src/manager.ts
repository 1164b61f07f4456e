import { createServer, type Server } from 'node:http';
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { errorMessage, asError, KubeError, realClock, type Clock, type Logger } from '@kubekit/core';
import { defaultLogger, registerRestClientMetrics, type InformerMetricsSink } from '@kubekit/informer';
import { LeaderElector, type LeaseClient } from './leaderElector.js';
import { ControllerMetrics } from './prometheusMetrics.js';
import { finishedWithin, stoppedWithin, syncFailure, syncedWithin } from './internal/deadline.js';

/** Anything a manager runs: `start(signal)` resolves once `signal` aborted and it stopped. */
export interface Runnable {
  start(signal: AbortSignal): Promise<void>;
}

/**
 * A runnable whose readiness the manager waits for before starting leader-only work (an informer).
 * `waitForSync` rejecting (a permanent error) fails the manager's start. A `status` with a
 * `permanentError` makes `/readyz` fail while it lasts.
 */
export interface SyncableRunnable extends Runnable {
  waitForSync(signal?: AbortSignal): Promise<unknown>;
  readonly status?: { permanentError?: Error; lastError?: Error };
}

/** A runnable that reports to the manager's metrics (informers, controllers): the manager calls `useMetrics` on `add`. */
interface MetricsUser {
  useMetrics(metrics: ControllerMetrics & InformerMetricsSink): void;
}

/** Options of a {@link Manager}. */
export interface ManagerOptions {
  /** Leader election on a Lease; without it every runnable starts at once. @defaultValue none */
  leaderElection?: {
    client: LeaseClient;
    namespace: string;
    name: string;
    /** @defaultValue `<hostname>_<random>` */
    identity?: string;
    /** @defaultValue 15000 ms */
    leaseDurationMs?: number;
    /** @defaultValue 10000 ms */
    renewDeadlineMs?: number;
    /** @defaultValue 2000 ms */
    retryPeriodMs?: number;
  };
  /** Serve `/healthz`, `/readyz` and `/metrics` here; port 0 picks a free port. @defaultValue not served */
  probes?: { host?: string; port?: number };
  /**
   * The metrics served on `/metrics`, handed to every controller and informer added (replacing their
   * own), and registered for the process's REST client metrics while the manager runs.
   * @defaultValue a new ControllerMetrics with its own registry and the default process metrics
   */
  metrics?: ControllerMetrics;
  /** @defaultValue `defaultLogger()` of @kubekit/informer: silent unless `KUBEKIT_LOG_LEVEL` is set */
  logger?: Logger;
  /**
   * How long `start` waits for the caches (the syncable runnables) to sync before it fails, as
   * controller-runtime's `CacheSyncTimeout`. @defaultValue 120000 ms
   */
  cacheSyncTimeoutMs?: number;
  /** How long shutdown waits for runnables to stop. @defaultValue 30000 ms */
  gracefulShutdownTimeoutMs?: number;
  /** @defaultValue realClock */
  clock?: Clock;
}

/**
 * Runs informers and controllers together, as controller-runtime's manager.
 *
 * Contract:
 * - Runnables added with `leaderElection: false` (informers, caches) start at once; `/readyz` turns
 *   ready once every syncable one has synced, and fails while one reports a permanent error.
 * - A cache that fails to sync (its `waitForSync` rejects: a permanent error such as a field selector
 *   the server rejects, a missing resource, forbidden) or does not sync within `cacheSyncTimeoutMs`
 *   stops everything and makes `start` reject with a `KubeError` saying which and why. A runnable
 *   that fails (rejects before the signal aborted) does the same, as in controller-runtime.
 * - Leader-only runnables (controllers, by default) start after the caches synced and, with leader
 *   election, only while this process leads. Losing leadership stops them and makes `start` reject
 *   with a `KubeError` (reason `Conflict`), so the process can exit and restart cleanly, as
 *   controller-runtime does.
 * - `start(signal)` resolves once `signal` aborted and every runnable stopped (or the graceful shutdown
 *   timeout passed). Use {@link shutdownSignal} to abort on SIGTERM/SIGINT.
 */
export class Manager {
  readonly metrics: ControllerMetrics;
  private readonly options: ManagerOptions;
  private readonly logger: Logger;
  private readonly clock: Clock;
  private readonly always: Runnable[] = [];
  private readonly leaderOnly: Runnable[] = [];
  private readonly healthChecks = new Map<string, () => Promise<void> | void>();
  private readonly readyChecks = new Map<string, () => Promise<void> | void>();
  private server: Server | undefined;
  private synced = false;
  private leading = false;
  private failure: Error | undefined;
  private stopAll: AbortController | undefined;

  constructor(options: ManagerOptions = {}) {
    this.options = options;
    this.logger = options.logger ?? defaultLogger();
    this.clock = options.clock ?? realClock;
    this.metrics = options.metrics ?? new ControllerMetrics();
  }

  /**
   * Adds a runnable; leader-only unless `leaderElection: false` (informers should pass false). A
   * runnable with `useMetrics` (informers, controllers) is handed the manager's metrics.
   */
  add(runnable: Runnable, options: { leaderElection?: boolean } = {}): this {
    (options.leaderElection === false ? this.always : this.leaderOnly).push(runnable);
    if (typeof (runnable as Partial<MetricsUser>).useMetrics === 'function') (runnable as unknown as MetricsUser).useMetrics(this.metrics);
    return this;
  }

  /** Adds a liveness check served on `/healthz`; throwing means unhealthy. */
  addHealthCheck(name: string, check: () => Promise<void> | void): this {
    this.healthChecks.set(name, check);
    return this;
  }

  /** Adds a readiness check served on `/readyz`; throwing means not ready. */
  addReadyCheck(name: string, check: () => Promise<void> | void): this {
    this.readyChecks.set(name, check);
    return this;
  }

  /** Whether this manager currently runs its leader-only work. */
  isLeader(): boolean {
    return this.leading;
  }

  /** The address of the probe server once started (`http://host:port`). */
  probeAddress(): string | undefined {
    const addr = this.server?.address();
    return addr && typeof addr === 'object' ? `http://${addr.family === 'IPv6' ? `[${addr.address}]` : addr.address}:${addr.port}` : undefined;
  }

  /** Runs everything until `signal` aborts; see the class contract. */
  async start(signal: AbortSignal): Promise<void> {
    if (this.options.probes) await this.serveProbes(this.options.probes);
    const unregister = registerRestClientMetrics(this.metrics);
    // Everything stops when `signal` aborts or a runnable fails.
    const all = new AbortController();
    const stopAll = (): void => all.abort(signal.reason);
    if (signal.aborted) stopAll();
    else signal.addEventListener('abort', stopAll, { once: true });
    this.failure = undefined;
    this.stopAll = all;
    const background = new AbortController();
    const stopBackground = (): void => background.abort(all.signal.reason);
    all.signal.addEventListener('abort', stopBackground, { once: true });
    const alwaysRuns = this.always.map((r) => this.run(r, background.signal));
    let lost: KubeError | undefined;
    try {
      if (await this.waitForCaches(all.signal)) {
        this.synced = true;
        this.logger.info('caches synced');
        if (!all.signal.aborted) lost = await this.runLeaderWork(all.signal);
      }
      // Runnables that return early do not end the manager: it runs until the signal aborts.
      if (lost === undefined) await aborted(all.signal);
    } catch (err) {
      if (!all.signal.aborted) this.failure ??= asError(err);
    } finally {
      background.abort(new Error('manager stopped'));
      signal.removeEventListener('abort', stopAll);
      all.signal.removeEventListener('abort', stopBackground);
      await this.withDeadline(Promise.all(alwaysRuns), 'runnables');
      await this.closeProbes();
      unregister();
      this.synced = false;
    }
    if (this.failure) throw this.failure;
    if (lost) throw lost;
  }

  /**
   * Waits for every syncable runnable: `true` once synced, `false` when `signal` aborted first; throws
   * the first failure, or a timeout after `cacheSyncTimeoutMs`.
   */
  private async waitForCaches(signal: AbortSignal): Promise<boolean> {
    const syncable = this.always.filter((r): r is SyncableRunnable => typeof (r as Partial<SyncableRunnable>).waitForSync === 'function');
    const timeoutMs = this.options.cacheSyncTimeoutMs ?? 120_000;
    const outcome = await syncedWithin((s) => Promise.all(syncable.map((r) => r.waitForSync(s))), signal, timeoutMs, this.clock);
    if (outcome.kind === 'synced' || outcome.kind === 'aborted') return outcome.kind === 'synced';
    if (outcome.kind === 'timedOut') {
      const pending = syncable.map((r, i) => ({ r, i })).filter(({ r }) => !('hasSynced' in r && typeof r.hasSynced === 'function' && (r.hasSynced as () => boolean)()));
      const why = pending.map(({ r, i }) => `${describeRunnable(r, i)}${r.status?.lastError ? ` (last error: ${r.status.lastError.message})` : ''}`).join(', ');
      throw new KubeError('Timeout', `timed out waiting for caches to sync after ${timeoutMs} ms: ${why || 'a cache'} did not sync`);
    }
    this.logger.error('a cache failed to sync', { error: outcome.error.message });
    throw syncFailure('failed to wait for caches to sync', outcome.error);
  }

  private async runLeaderWork(signal: AbortSignal): Promise<KubeError | undefined> {
    const le = this.options.leaderElection;
    if (le === undefined) {
      this.leading = true;
      await this.stopWithin(Promise.all(this.leaderOnly.map((r) => this.run(r, signal))), signal, 'controllers');
      this.leading = false;
      return undefined;
    }
    const identity = le.identity ?? `${hostname()}_${randomBytes(4).toString('hex')}`;
    this.metrics.leading(le.name, false);
    const elector = new LeaderElector({
      lock: { namespace: le.namespace, name: le.name }, identity, client: le.client, clock: this.clock,
      leaseDurationMs: le.leaseDurationMs, renewDeadlineMs: le.renewDeadlineMs, retryPeriodMs: le.retryPeriodMs,
      onError: (err) => this.logger.warn('leader election attempt failed', { error: errorMessage(err) }),
    });
    const campaign = new AbortController();
    const stop = (): void => campaign.abort(signal.reason);
    signal.addEventListener('abort', stop, { once: true });
    let lost: KubeError | undefined;
    await elector.run(campaign.signal, {
      onNewLeader: (id) => this.logger.info('new leader observed', { leader: id, self: id === identity }),
      onStartedLeading: async (work) => {
        this.leading = true;
        this.metrics.leading(le.name, true);
        // Not leading any more the moment the lease is lost or given up, as client-go's leaderOff,
        // although the controllers may take up to the graceful shutdown timeout to stop.
        work.addEventListener('abort', () => { this.leading = false; this.metrics.leading(le.name, false); }, { once: true });
        this.logger.info('became leader; starting controllers', { identity });
        await this.stopWithin(Promise.all(this.leaderOnly.map((r) => this.run(r, work))), work, 'controllers');
      },
      onStoppedLeading: () => {
        if (!signal.aborted) {
          lost = new KubeError('Conflict', `leader election lost: ${identity} could not renew lease ${le.namespace}/${le.name}`);
          this.logger.error('leader election lost; stopping', { identity });
          campaign.abort(lost);
        }
      },
    });
    signal.removeEventListener('abort', stop);
    return lost;
  }

  private async run(runnable: Runnable, signal: AbortSignal): Promise<void> {
    try {
      await runnable.start(signal);
    } catch (err) {
      if (signal.aborted) return;
      const error = asError(err);
      this.logger.error('runnable failed; stopping the manager', { error: errorMessage(error) });
      this.failure ??= error;
      this.stopAll?.abort(error);
    }
  }

  /**
   * Waits for `work` that runs until `signal` aborts; the graceful shutdown timeout counts from the
   * abort, never from the start (it bounds shutdown, not the run).
   */
  private async stopWithin(work: Promise<unknown>, signal: AbortSignal, what: string): Promise<void> {
    if (!(await stoppedWithin(work, signal, this.options.gracefulShutdownTimeoutMs ?? 30_000, this.clock))) {
      this.logger.warn(`${what} did not stop within the graceful shutdown timeout`);
    }
  }

  /** Waits for `work` already told to stop, no longer than the graceful shutdown timeout. */
  private async withDeadline(work: Promise<unknown>, what: string): Promise<void> {
    if (!(await finishedWithin(work, this.options.gracefulShutdownTimeoutMs ?? 30_000, this.clock))) {
      this.logger.warn(`${what} did not stop within the graceful shutdown timeout`);
    }
  }

  /** Readiness failures of caches that report a permanent error. */
  private cacheFailures(): string[] {
    const out: string[] = [];
    this.always.forEach((r, i) => {
      const permanent = (r as SyncableRunnable).status?.permanentError;
      if (permanent !== undefined) out.push(`${describeRunnable(r, i)}: ${permanent.message}`);
    });
    return out;
  }

  private async check(checks: Map<string, () => Promise<void> | void>): Promise<string[]> {
    const failures: string[] = [];
    for (const [name, fn] of checks) {
      try {
        await fn();
      } catch (err) {
        failures.push(`${name}: ${errorMessage(err)}`);
      }
    }
    return failures;
  }

  private serveProbes(probes: { host?: string; port?: number }): Promise<void> {
    this.server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      const answer = (code: number, body: string, type = 'text/plain; charset=utf-8'): void => {
        // A failure after the answer began (a scrape cut short) can only end the connection.
        if (res.headersSent) {
          res.destroy();
          return;
        }
        res.writeHead(code, { 'content-type': type });
        res.end(body);
      };
      void (async () => {
        if (path === '/healthz' || path === '/livez') {
          const failures = await this.check(this.healthChecks);
          answer(failures.length ? 500 : 200, failures.length ? failures.join('\n') : 'ok');
        } else if (path === '/readyz') {
          const failures = await this.check(this.readyChecks);
          failures.unshift(...this.cacheFailures());
          if (!this.synced) failures.unshift('informers: caches not synced');
          answer(failures.length ? 500 : 200, failures.length ? failures.join('\n') : 'ok');
        } else if (path === '/metrics') {
          answer(200, await this.metrics.scrape(), this.metrics.registry.contentType);
        } else {
          answer(404, 'not found');
        }
      })().catch((err: unknown) => answer(500, errorMessage(err)));
    });
    const server = this.server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(probes.port ?? 0, probes.host ?? '127.0.0.1', () => {
        server.off('error', reject);
        // After listening, an error is a connection that could not be accepted: logged, not fatal
        // (an 'error' event without a listener would end the process).
        server.on('error', (err) => this.logger.warn('probe server: accepting a connection failed; still listening', { error: errorMessage(err) }));
        resolve();
      });
    });
  }

  private closeProbes(): Promise<void> {
    const server = this.server;
    if (!server) return Promise.resolve();
    return new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
}

/** Resolves once `signal` aborted. */
function aborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

/** A runnable's name for messages: an informer's resource and selectors, else its position. */
function describeRunnable(r: Runnable, index: number): string {
  const inf = r as { resource?: { plural?: string; namespace?: string }; fieldSelector?: { toString(): string; isEmpty?(): boolean } };
  if (inf.resource?.plural !== undefined) {
    const fs = inf.fieldSelector?.toString() ?? '';
    return `informer ${inf.resource.plural}${inf.resource.namespace ? ` in ${inf.resource.namespace}` : ''}${fs ? ` (fieldSelector ${fs})` : ''}`;
  }
  return `runnable ${index}`;
}

/**
 * An AbortSignal that aborts on the first SIGTERM or SIGINT, for graceful shutdown of a manager. The
 * handlers are removed then, so a second signal ends the process the default way.
 */
export function shutdownSignal(): AbortSignal {
  const ac = new AbortController();
  const onSignal = (sig: NodeJS.Signals): void => ac.abort(new Error(`received ${sig}`));
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  ac.signal.addEventListener('abort', () => {
    process.removeListener('SIGTERM', onSignal);
    process.removeListener('SIGINT', onSignal);
  }, { once: true });
  return ac.signal;
}
