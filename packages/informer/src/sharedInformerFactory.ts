import { setMaxListeners } from 'node:events';
import type { KubeObject } from '@kubekit/core';
import { Informer, type InformerOptions } from './informer.js';
import type { KubeConfigLike } from './kubeConfig.js';
import type { KubeObjectLike } from './types.js';
import { toFieldSelector, toLabelSelector } from './internal/selection.js';

/** Defaults a {@link SharedInformerFactory} applies to the informers it creates. */
export type SharedInformerDefaults = Omit<InformerOptions, 'apiVersion' | 'plural' | 'namespace' | 'labelSelector' | 'fieldSelector' | 'indexers' | 'transform'>;

/**
 * Hands out one {@link Informer} per (resource, namespace, label selector, field selector), shared by
 * every consumer, as client-go's `SharedInformerFactory`: one list and one watch however many
 * controllers look at the same objects.
 *
 * Contract:
 * - Identity: selectors are compared in canonical form, so `b=2,a=1` and `a=1,b=2` share an informer.
 *   The first request creates it; options other than the identity of later requests are ignored.
 * - Late consumers: handlers added to an informer that has synced receive the current cache as `add`s,
 *   then `synced` (see {@link Informer.addEventHandler}).
 * - Lifetime: {@link SharedInformerFactory.start} starts every informer, including ones requested
 *   later, and resolves once the signal aborted and all of them stopped.
 *
 * @example
 * ```ts
 * const factory = new SharedInformerFactory(kc);
 * const blue = factory.informer<Shirt>({ apiVersion: 'stable.example.com/v1', plural: 'shirts', fieldSelector: 'spec.color=blue' });
 * const stop = new AbortController();
 * const done = factory.start(stop.signal);
 * await factory.waitForSync();
 * ```
 */
export class SharedInformerFactory {
  private readonly informers = new Map<string, Informer<KubeObject>>();
  private readonly runs: Promise<void>[] = [];
  private signal: AbortSignal | undefined;

  constructor(private readonly kubeConfig: KubeConfigLike, private readonly defaults: SharedInformerDefaults = {}) {}

  /** The number of distinct informers. */
  get size(): number {
    return this.informers.size;
  }

  /**
   * The shared informer for these options, created on first request (and started at once if the
   * factory runs).
   *
   * @throws SelectorParseError when a selector does not parse.
   */
  informer<T extends KubeObjectLike = KubeObject>(options: InformerOptions<T>): Informer<T> {
    const key = SharedInformerFactory.keyOf(options);
    let informer = this.informers.get(key) as Informer<T> | undefined;
    if (informer === undefined) {
      informer = new Informer<T>(this.kubeConfig, { ...(this.defaults as Partial<InformerOptions<T>>), ...options });
      this.informers.set(key, informer as unknown as Informer<KubeObject>);
      if (this.signal !== undefined && !this.signal.aborted) this.runs.push(informer.start(this.signal));
    }
    return informer;
  }

  /** The identity of an informer: resource, namespace and canonical selectors. */
  static keyOf<T extends KubeObjectLike>(options: InformerOptions<T>): string {
    const field = toFieldSelector(options.fieldSelector).toString();
    const label = toLabelSelector(options.labelSelector).toString();
    return JSON.stringify([options.apiVersion, options.plural, options.namespace ?? '', label, field]);
  }

  /** Starts every informer (and those requested later); resolves once `signal` aborted and all stopped. */
  async start(signal: AbortSignal): Promise<void> {
    if (this.signal === undefined) {
      // One listener on the caller's signal, however many informers.
      const own = new AbortController();
      setMaxListeners(0, own.signal);
      if (signal.aborted) own.abort(signal.reason);
      else signal.addEventListener('abort', () => own.abort(signal.reason), { once: true });
      this.signal = own.signal;
      for (const informer of this.informers.values()) this.runs.push(informer.start(own.signal));
    }
    if (!signal.aborted) await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    // Informers created while stopping were started too; wait for all.
    for (let settled = 0; settled < this.runs.length; settled = this.runs.length) {
      await Promise.allSettled(this.runs.slice(settled));
    }
  }

  /** Resolves once every informer requested so far has synced. */
  async waitForSync(signal?: AbortSignal): Promise<void> {
    await Promise.all([...this.informers.values()].map((i) => i.waitForSync(signal)));
  }
}
