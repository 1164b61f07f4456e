import { expect } from 'chai';
import type { KubeObject } from '@kubekit/core';
import type { DeleteReason, EventHandlers } from '../../src/events.js';

function keyOf(o: KubeObject): string {
  return o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : String(o.metadata.name);
}

/**
 * Handlers that log every notification and rebuild the cache from them, checking the per-object
 * contract on the way (no update or delete of an object the handler never saw, no add of one it has,
 * `old` is the state it saw last).
 */
export class EventLog<T extends KubeObject = KubeObject> {
  readonly lines: string[] = [];
  readonly view = new Map<string, T>();
  readonly violations: string[] = [];
  synced = false;

  add(obj: T): void {
    const k = keyOf(obj);
    if (this.view.has(k)) this.violations.push(`add of seen ${k}`);
    this.view.set(k, obj);
    this.lines.push(`add ${k}`);
  }

  update(obj: T, old: T): void {
    const k = keyOf(obj);
    const seen = this.view.get(k);
    if (seen === undefined) this.violations.push(`update of unseen ${k}`);
    else if (seen !== old) this.violations.push(`update of ${k} with an old state the handler did not see last`);
    this.view.set(k, obj);
    this.lines.push(`update ${k}`);
  }

  delete(obj: T, info: { reason: DeleteReason }): void {
    const k = keyOf(obj);
    if (!this.view.has(k)) this.violations.push(`delete of unseen ${k}`);
    this.view.delete(k);
    this.lines.push(`delete ${k} ${info.reason}`);
  }

  // Not `synced()` as a method: the log is also used through `on('synced')`.
  readonly onSynced = (): void => {
    this.synced = true;
    this.lines.push('synced');
  };

  handlers(): EventHandlers<T> {
    return {
      add: (o) => this.add(o),
      update: (o, old) => this.update(o, old),
      delete: (o, i) => this.delete(o, i),
      synced: this.onSynced,
    };
  }

  /** Asserts the handler's view equals `cache` (by key and resource version) and the contract held. */
  expectView(cache: Iterable<T>): void {
    expect(this.violations).to.deep.equal([]);
    const fmt = (o: T): string => `${keyOf(o)}@${o.metadata.resourceVersion}`;
    expect([...this.view.values()].map(fmt).sort()).to.deep.equal([...cache].map(fmt).sort());
  }

  /** Clears the log lines (not the view). */
  clear(): void {
    this.lines.length = 0;
  }
}
