import { randomBytes } from 'node:crypto';
import { errorMessage, KubeError, realClock, type Clock, type KubeObject, type Logger } from '@kubekit/core';
import { defaultLogger, type KubeClient, type ResourceClient } from '@kubekit/informer';

/** A core/v1 Event. */
export interface CoreEvent extends KubeObject {
  involvedObject: { apiVersion?: string; kind?: string; name?: string; namespace?: string; uid?: string; resourceVersion?: string };
  reason: string;
  message: string;
  type: 'Normal' | 'Warning';
  count: number;
  firstTimestamp: string;
  lastTimestamp: string;
  source: { component: string; host?: string };
  reportingComponent: string;
  reportingInstance?: string;
}

/** Options of an {@link EventRecorder}. */
export interface EventRecorderOptions {
  /** `source.component` and `reportingComponent`, e.g. the operator's name. */
  component: string;
  /** `source.host` and `reportingInstance`. @defaultValue none */
  host?: string;
  /** @defaultValue realClock */
  clock?: Clock;
  /** Where failures to record are reported (recording never throws). @defaultValue `defaultLogger()` of @kubekit/informer */
  logger?: Logger;
  /**
   * How many recent events are remembered for aggregation, least recently recorded forgotten first
   * (client-go's `maxLruCacheEntries`). Bounds memory in an operator that runs for months.
   * @defaultValue 4096
   */
  cacheSize?: number;
}

/**
 * Records core/v1 Events about objects, as client-go's `record.EventRecorder`: the same reason and
 * message about the same object are aggregated into one Event whose `count` grows. Recording is best
 * effort: failures are logged, never thrown into a reconcile. Aggregation remembers the last
 * `cacheSize` events (an LRU, as client-go's correlator); an older one recurring starts a new Event.
 */
export class EventRecorder {
  private readonly events: ResourceClient<CoreEvent>;
  private readonly options: EventRecorderOptions;
  /** Per aggregation key, what a recurrence needs of the Event written: its name and count (not the whole object). */
  private readonly seen = new Map<string, { name: string; count: number }>();

  constructor(client: KubeClient, options: EventRecorderOptions) {
    this.events = client.resource<CoreEvent>({ apiVersion: 'v1', plural: 'events' });
    this.options = options;
  }

  /** Records an event about `obj`; resolves once written (or once the failure was logged). */
  async event(obj: KubeObject, type: 'Normal' | 'Warning', reason: string, message: string): Promise<void> {
    const { clock = realClock, logger = defaultLogger(), component, host } = this.options;
    const namespace = obj.metadata.namespace || 'default';
    const key = [obj.metadata.uid ?? '', obj.apiVersion, obj.kind, namespace, obj.metadata.name, type, reason, message].join('\u0000');
    const now = new Date(clock.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
    try {
      const previous = this.seen.get(key);
      if (previous) {
        try {
          const updated = await this.events.patch(previous.name, { count: previous.count + 1, lastTimestamp: now }, { namespace });
          this.remember(key, updated);
          return;
        } catch (err) {
          if (!(err instanceof KubeError && err.reason === 'NotFound')) throw err;
        }
      }
      const created = await this.events.create({
        apiVersion: 'v1', kind: 'Event',
        metadata: { namespace, name: `${obj.metadata.name}.${randomBytes(8).toString('hex')}` },
        involvedObject: {
          apiVersion: obj.apiVersion, kind: obj.kind, name: obj.metadata.name, namespace: obj.metadata.namespace,
          uid: obj.metadata.uid, resourceVersion: obj.metadata.resourceVersion,
        },
        reason, message, type, count: 1, firstTimestamp: now, lastTimestamp: now,
        source: host === undefined ? { component } : { component, host },
        reportingComponent: component,
        ...(host === undefined ? {} : { reportingInstance: host }),
      });
      this.remember(key, created);
    } catch (err) {
      logger.warn('recording an event failed', { reason, error: errorMessage(err) });
    }
  }

  /** The number of events remembered for aggregation (at most `cacheSize`). */
  get cached(): number {
    return this.seen.size;
  }

  private remember(key: string, event: CoreEvent): void {
    // Map order is insertion order: delete and set again makes `key` the most recent.
    this.seen.delete(key);
    this.seen.set(key, { name: event.metadata.name!, count: event.count });
    const max = Math.max(1, this.options.cacheSize ?? 4096);
    while (this.seen.size > max) this.seen.delete(this.seen.keys().next().value as string);
  }
}
