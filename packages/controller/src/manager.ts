import { createServer, type Server } from 'node:http';
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { KubeError, noopLogger, realClock, type Clock, type Logger } from '@kubekit/core';
import { LeaderElector, type LeaseClient } from './leaderElector.js';
import { ControllerMetrics } from './prometheusMetrics.js';
import { finishedWithin, stoppedWithin } from './internal/deadline.js';

/** Anything a manager runs: `start(signal)` resolves once `signal` aborted and it stopped. */
export interface Runnable {
  start(signal: AbortSignal): Promise<void>;
}

/** A runnable whose readiness the manager waits for before starting leader-only work (an informer). */
export interface SyncableRunnable extends Runnable {
  waitForSync(signal?: AbortSignal): Promise<unknown>;
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
  /** @defaultValue a new ControllerMetrics with its own registry */
  metrics?: ControllerMetrics;
  /** @defaultValue no logging */
  logger?: Logger;
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
 *   ready once every syncable one has synced.
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

  constructor(options: ManagerOptions = {}) {
    this.options = options;
    this.logger = options.logger ?? noopLogger;
    this.clock = options.clock ?? realClock;
    this.metrics = options.metrics ?? new ControllerMetrics();
  }

  /** Adds a runnable; leader-only unless `leaderElection: false` (informers should pass false). */
  add(runnable: Runnable, options: { leaderElection?: boolean } = {}): this {
    (options.leaderElection === false ? this.always : this.leaderOnly).push(runnable);
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
    const background = new AbortController();
    const stopBackground = (): void => background.abort(signal.reason);
    signal.addEventListener('abort', stopBackground, { once: true });
    const alwaysRuns = this.always.map((r) => this.run(r, background.signal));
    let lost: KubeError | undefined;
    try {
      await Promise.all(this.always.map((r) => ('waitForSync' in r ? (r as SyncableRunnable).waitForSync(signal) : undefined)));
      this.synced = true;
      this.logger.info('caches synced');
      if (!signal.aborted) lost = await this.runLeaderWork(signal);
    } catch (err) {
      if (!signal.aborted) throw err;
    } finally {
      background.abort(new Error('manager stopped'));
      signal.removeEventListener('abort', stopBackground);
      await this.withDeadline(Promise.all(alwaysRuns), 'runnables');
      await this.closeProbes();
    }
    if (lost) throw lost;
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
    const elector = new LeaderElector({
      lock: { namespace: le.namespace, name: le.name }, identity, client: le.client, clock: this.clock,
      leaseDurationMs: le.leaseDurationMs, renewDeadlineMs: le.renewDeadlineMs, retryPeriodMs: le.retryPeriodMs,
      onError: (err) => this.logger.warn('leader election attempt failed', { error: String(err) }),
    });
    const campaign = new AbortController();
    const stop = (): void => campaign.abort(signal.reason);
    signal.addEventListener('abort', stop, { once: true });
    let lost: KubeError | undefined;
    await elector.run(campaign.signal, {
      onNewLeader: (id) => this.logger.info('new leader observed', { leader: id, self: id === identity }),
      onStartedLeading: async (work) => {
        this.leading = true;
        this.logger.info('became leader; starting controllers', { identity });
        await this.stopWithin(Promise.all(this.leaderOnly.map((r) => this.run(r, work))), work, 'controllers');
      },
      onStoppedLeading: () => {
        this.leading = false;
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
      if (!signal.aborted) this.logger.error('runnable failed', { error: err instanceof Error ? err.message : String(err) });
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

  private async check(checks: Map<string, () => Promise<void> | void>): Promise<string[]> {
    const failures: string[] = [];
    for (const [name, fn] of checks) {
      try {
        await fn();
      } catch (err) {
        failures.push(`${name}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    return failures;
  }

  private serveProbes(probes: { host?: string; port?: number }): Promise<void> {
    this.server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      const answer = (code: number, body: string, type = 'text/plain; charset=utf-8'): void => {
        res.writeHead(code, { 'content-type': type });
        res.end(body);
      };
      void (async () => {
        if (path === '/healthz' || path === '/livez') {
          const failures = await this.check(this.healthChecks);
          answer(failures.length ? 500 : 200, failures.length ? failures.join('\n') : 'ok');
        } else if (path === '/readyz') {
          const failures = await this.check(this.readyChecks);
          if (!this.synced) failures.unshift('informers: caches not synced');
          answer(failures.length ? 500 : 200, failures.length ? failures.join('\n') : 'ok');
        } else if (path === '/metrics') {
          answer(200, await this.metrics.registry.metrics(), this.metrics.registry.contentType);
        } else {
          answer(404, 'not found');
        }
      })().catch((err: unknown) => answer(500, String(err)));
    });
    const server = this.server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(probes.port ?? 0, probes.host ?? '127.0.0.1', () => resolve());
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
