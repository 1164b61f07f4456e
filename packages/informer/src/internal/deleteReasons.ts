import { makeObjectKey, objectKey, type Clock, type KubeList, type KubeObject, type Logger } from '@kubekit/core';
import type { DeleteReason } from '../events.js';
import type { ListOptions, RequestOptions } from '../listerWatcher.js';
import { describe } from './errors.js';
import type { KubeObjectLike } from '../types.js';

/** The lister the resolver confirms with. */
export interface Lister<T extends KubeObjectLike> {
  list(options: ListOptions, request?: RequestOptions): Promise<KubeList<T & KubeObject>>;
}

interface Pending<T> {
  obj: T;
  resolve: (reason: DeleteReason) => void;
}

/** At or below this many objects in a batch, each is confirmed on its own; above, one full list answers all. */
const perObjectLimit = 16;
const concurrency = 4;
const attempts = 4;

/**
 * Tells a real deletion from a departure from the selection, for `DELETED` events of a server-side
 * selected watch (the apiserver sends `DELETED` for both, carrying the last state that matched).
 *
 * How: after the object left the cache, ask the server whether an object of that name still exists,
 * with a list restricted by `metadata.name` (a list, not a get, so the informer's list permission is
 * enough) and no other selector. Absent, or present with another `uid` ⇒ `deleted`; present with the
 * same `uid` ⇒ `leftSelection`. Confirmations are batched: a burst of more than 16 (a relist that lost
 * many objects, a collection delete) is answered by one paginated list of the whole resource. A failed
 * confirmation is retried 3 times (200 ms, 400 ms, 800 ms); if it still fails the reason is `deleted`
 * and a warning is logged. The answer describes the object when it was checked, so an object that left
 * the selection and was deleted right after reads as `deleted`.
 */
export class DeleteReasonResolver<T extends KubeObjectLike> {
  private pending: Pending<T>[] = [];
  private scheduled = false;

  constructor(
    private readonly lister: Lister<T>,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly signal: () => AbortSignal | undefined,
  ) {}

  /** The reason `obj` (which just left the cache) left it. Never rejects. */
  resolve(obj: T): Promise<DeleteReason> {
    return new Promise<DeleteReason>((resolve) => {
      this.pending.push({ obj, resolve });
      if (!this.scheduled) {
        this.scheduled = true;
        // A macrotask, so the rest of the chunk being applied joins the batch.
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    if (batch.length <= perObjectLimit) {
      let next = 0;
      const worker = async (): Promise<void> => {
        while (next < batch.length) {
          const item = batch[next++];
          item.resolve(await this.withRetries(() => this.confirmOne(item.obj), 'deleted'));
        }
      };
      await Promise.all(Array.from({ length: Math.min(concurrency, batch.length) }, worker));
      return;
    }
    const existing = await this.withRetries(() => this.listAll(), undefined);
    for (const item of batch) {
      if (existing === undefined) item.resolve('deleted');
      else item.resolve(existing.get(objectKey(item.obj)) === (item.obj.metadata.uid ?? '') ? 'leftSelection' : 'deleted');
    }
  }

  private async confirmOne(obj: T): Promise<DeleteReason> {
    const { name, namespace, uid } = obj.metadata;
    const list = await this.lister.list(
      { fieldSelector: `metadata.name=${name ?? ''}`, labelSelector: '' },
      { signal: this.signal(), namespace: namespace || undefined },
    );
    const found = list.items.find((o) => o.metadata?.name === name);
    if (found === undefined) return 'deleted';
    return (found.metadata.uid ?? '') === (uid ?? '') ? 'leftSelection' : 'deleted';
  }

  private async listAll(): Promise<Map<string, string>> {
    const uids = new Map<string, string>();
    let cont: string | undefined;
    for (let pages = 0; pages < 100_000; pages++) {
      const page = await this.lister.list({ limit: 500, continue: cont, labelSelector: '', fieldSelector: '' }, { signal: this.signal() });
      for (const o of page.items) uids.set(makeObjectKey(o.metadata?.namespace, o.metadata?.name ?? ''), o.metadata?.uid ?? '');
      cont = page.metadata?.continue || undefined;
      if (cont === undefined) break;
    }
    return uids;
  }

  private async withRetries<R, F>(fn: () => Promise<R>, fallback: F): Promise<R | F> {
    let delay = 200;
    for (let i = 1; ; i++) {
      try {
        return await fn();
      } catch (err) {
        const signal = this.signal();
        if (signal?.aborted) return fallback;
        if (i >= attempts) {
          this.logger.warn('could not confirm why an object left the cache; reporting it as deleted', { error: describe(err) });
          return fallback;
        }
        try {
          await this.clock.sleep(delay, signal);
        } catch {
          return fallback;
        }
        delay *= 2;
      }
    }
  }
}
