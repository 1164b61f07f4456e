/**
 * What kube-apiserver 1.34.4 itself writes of API Priority and Fairness (flowControlKinds.ts serves the kinds):
 *
 * - the config-producer (`priority-and-fairness-config-producer` post-start hook, manager
 *   `api-priority-and-fairness-config-producer-v1`): at start, each bootstrap PriorityLevelConfiguration,
 *   then FlowSchema, that is not stored, created with the `apf.kubernetes.io/autoupdate-spec: "true"`
 *   annotation, read from `fixtures/bootstrap-flowcontrol.json` (`scripts/gen-bootstrap-flowcontrol.mjs`);
 *   then once a minute, as the reference's hook polls, a mandatory one (`exempt`, `catch-all`) deleted is
 *   created again. The producer's revision of a changed spec (autoupdate) and its removal of unwanted
 *   bootstrap objects are not done.
 * - the config-consumer (manager `api-priority-and-fairness-config-consumer-v1`): each FlowSchema's
 *   `Dangling` condition, written by a forced server-side apply of `/status` when its status, reason or
 *   message is not what the named PriorityLevelConfiguration's presence says.
 *
 * Work is queued by FlowSchema name and done one at a time, off the write path; a write checks the
 * resourceVersion it read and is dropped on a conflict (the other write's event queues the name again).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { KubeError, errorMessage, goQuote, type KubeObject, type Logger, type TimerHandle } from '@kubekit/core';
import type { ResourceCatalog } from './catalog.js';
import { cloneJSON, isObject, str } from './internal/own.js';
import { list, obj } from './internal/podFields.js';
import { WorkLoop } from './internal/workLoop.js';
import { AppliedConfiguration, applyManagedFields } from './managedFields/fieldManager.js';
import { writeFieldManagerContext } from './managedFields/requestContext.js';
import { timestamp } from './objectMeta.js';
import type { ResourceType } from './resourceType.js';
import type { ServerContext } from './serverContext.js';
import { bucketOf, type StoreEvent } from './storage/objectStore.js';

const group = 'flowcontrol.apiserver.k8s.io';
const apiVersion = `${group}/v1`;
const producer = 'api-priority-and-fairness-config-producer-v1';
const consumer = 'api-priority-and-fairness-config-consumer-v1';
const flowSchemasBucket = bucketOf({ group, resource: 'flowschemas' });
const priorityLevelsBucket = bucketOf({ group, resource: 'prioritylevelconfigurations' });
const mandatory = new Set(['exempt', 'catch-all']);
/** The producer's poll once the configuration is in place. */
const ensurePeriod = 60_000;

interface BootstrapObject extends KubeObject {
  fieldsV1: Record<string, unknown>;
}

let bootstrap: readonly BootstrapObject[] | undefined;

/** The bootstrap objects, PriorityLevelConfigurations first, without the fields the server sets. */
function bootstrapObjects(): readonly BootstrapObject[] {
  bootstrap ??= (JSON.parse(readFileSync(fileURLToPath(new URL('../fixtures/bootstrap-flowcontrol.json', import.meta.url)), 'utf8')) as { objects: BootstrapObject[] }).objects;
  return bootstrap;
}

/** The `Dangling` condition the consumer wants on a FlowSchema, given whether its priority level is stored. */
function danglingCondition(plName: string, found: boolean, now: string): Record<string, unknown> {
  return found
    ? { type: 'Dangling', status: 'False', lastTransitionTime: now, reason: 'Found', message: `This FlowSchema references the PriorityLevelConfiguration object named ${goQuote(plName)} and it exists` }
    : { type: 'Dangling', status: 'True', lastTransitionTime: now, reason: 'NotFound', message: `This FlowSchema references the PriorityLevelConfiguration object named ${goQuote(plName)} but there is no such object` };
}

/** See the file comment. */
export class FlowControlControllers {
  private readonly loop = new WorkLoop((name) => this.reconcile(name));
  private readonly flowSchemas: ResourceType;
  private readonly priorityLevels: ResourceType;
  private unsubscribe: (() => void) | undefined;
  private timer: TimerHandle | undefined;
  private closed = false;

  constructor(private readonly ctx: ServerContext, catalog: ResourceCatalog, private readonly logger: Logger) {
    this.flowSchemas = catalog.resolve(group, 'v1', 'flowschemas')!;
    this.priorityLevels = catalog.resolve(group, 'v1', 'prioritylevelconfigurations')!;
  }

  /** Creates the bootstrap objects not stored, then starts the consumer on every FlowSchema and the producer's poll. */
  async start(): Promise<void> {
    await this.ensure(() => true);
    this.unsubscribe = this.ctx.store.subscribe((e) => this.observe(e));
    for (const [name] of this.ctx.store.values(flowSchemasBucket)) this.loop.enqueue(name);
    this.schedule();
  }

  /** Stops the controllers; resolves once the item in flight, if any, is done. */
  close(): Promise<void> {
    this.closed = true;
    this.timer?.cancel();
    this.unsubscribe?.();
    return this.loop.close();
  }

  /** Whether no work is queued or running. */
  isIdle(): boolean {
    return this.loop.isIdle();
  }

  /** Resolves once no work is queued or running. */
  idle(): Promise<void> {
    return this.loop.idle();
  }

  private schedule(): void {
    if (this.closed) return;
    this.timer = this.ctx.clock.setTimeout(() => {
      this.ensure((o) => mandatory.has(o.metadata.name ?? '')).catch((err: unknown) => this.logger.warn('ensuring the mandatory flow control objects failed', { error: errorMessage(err) })).finally(() => this.schedule());
    }, ensurePeriod);
  }

  /** Creates each of the bootstrap objects `which` picks that is not stored. */
  private async ensure(which: (o: KubeObject) => boolean): Promise<void> {
    for (const template of bootstrapObjects()) {
      if (this.closed || !which(template)) continue;
      const type = template.kind === 'FlowSchema' ? this.flowSchemas : this.priorityLevels;
      const name = template.metadata.name ?? '';
      if (this.ctx.store.get(bucketOf(type.groupResource), name) !== undefined) continue;
      const now = timestamp(this.ctx.clock.now());
      const { fieldsV1, ...body } = cloneJSON(template);
      const o: KubeObject = { ...body, metadata: { ...body.metadata, uid: randomUUID(), generation: 1, creationTimestamp: now }, status: {} };
      if (this.ctx.limits.managedFields) o.metadata.managedFields = [{ manager: producer, operation: 'Update', apiVersion, time: now, fieldsType: 'FieldsV1', fieldsV1 }];
      try {
        await this.ctx.store.create(type.groupResource, name, name, await type.toStorage(o)).durable;
      } catch (err) {
        if (!(err instanceof KubeError && err.reason === 'AlreadyExists')) throw err;
      }
    }
  }

  private observe(e: StoreEvent): void {
    if (e.bucket === flowSchemasBucket && e.type !== 'DELETED') this.loop.enqueue(e.key);
    else if (e.bucket === priorityLevelsBucket && (e.type === 'ADDED' || e.type === 'DELETED')) {
      const name = e.object.metadata.name ?? '';
      for (const [key, fs] of this.ctx.store.values(flowSchemasBucket)) if (str(obj(obj(fs.spec).priorityLevelConfiguration).name) === name) this.loop.enqueue(key);
    }
  }

  /** The consumer's `presyncFlowSchemaStatus` and apply, for one FlowSchema. */
  private async reconcile(name: string): Promise<void> {
    const current = this.ctx.store.get(flowSchemasBucket, name);
    if (current === undefined) return;
    const plName = str(obj(obj(current.spec).priorityLevelConfiguration).name);
    const found = this.ctx.store.get(priorityLevelsBucket, plName) !== undefined;
    const now = timestamp(this.ctx.clock.now());
    const want = danglingCondition(plName, found, now);
    const have = obj(list(obj(current.status).conditions).find((c) => obj(c).type === 'Dangling'));
    if (have.status === want.status && have.reason === want.reason && have.message === want.message) return;
    const config = new AppliedConfiguration({ apiVersion, kind: 'FlowSchema', metadata: { name }, status: { conditions: [want] } });
    const type = this.flowSchemas;
    try {
      const result = applyManagedFields(current, config, consumer, { force: true }, writeFieldManagerContext(type, 'status', now));
      // The status strategy: only the status of the applied object counts.
      const next = cloneJSON(current);
      next.status = isObject(result.object.status) ? result.object.status : {};
      const entries = result.managedFields;
      if (entries === undefined || entries.length === 0) delete next.metadata.managedFields;
      else next.metadata.managedFields = entries;
      const stored = await type.toStorage(next);
      await this.ctx.store.update(type.groupResource, name, name, stored, current.metadata.resourceVersion).durable;
    } catch (err) {
      const race = err instanceof KubeError && (err.reason === 'Conflict' || err.reason === 'NotFound');
      if (race) this.logger.debug('a FlowSchema status write lost a race; it is retried', { name, error: errorMessage(err) });
      else this.logger.warn('writing a FlowSchema status failed', { name, error: errorMessage(err) });
    }
  }
}
