/**
 * What kube-apiserver 1.34.4 itself writes of API Priority and Fairness (flowControlKinds.ts serves the kinds):
 *
 * - the config-producer (`priority-and-fairness-config-producer` post-start hook, manager
 *   `api-priority-and-fairness-config-producer-v1`): the bootstrap PriorityLevelConfigurations and
 *   FlowSchemas, read from `fixtures/bootstrap-flowcontrol.json` (`scripts/gen-bootstrap-flowcontrol.mjs`),
 *   ensured at start and then once a minute, as the reference's hook polls: one not stored is created with
 *   the `apf.kubernetes.io/autoupdate-spec: "true"` annotation; one whose spec is kept up to date (a
 *   mandatory one, `exempt` and `catch-all`, always; a suggested one when its annotation is true, or at
 *   generation 1 without one) gets the bootstrap spec back; an object annotated `true` that is no
 *   bootstrap object is deleted.
 * - the config-consumer (manager `api-priority-and-fairness-config-consumer-v1`): each FlowSchema's
 *   `Dangling` condition, written by a forced server-side apply of `/status` when its status, reason or
 *   message is not what the named PriorityLevelConfiguration's presence says. Its other half, the
 *   classification of requests by the same objects, is requestClassifier.ts.
 *
 * Work is queued by FlowSchema name and done one at a time, off the write path; a write checks the
 * resourceVersion it read and is dropped on a conflict (the other write's event queues the name again).
 */
import { randomUUID } from 'node:crypto';
import { KubeError, errorMessage, goQuote, type KubeObject, type Logger, type TimerHandle } from '@kubekit/core';
import type { ResourceCatalog } from './catalog.js';
import { cloneJSON, isObject, str } from './internal/own.js';
import { list, obj } from './internal/podFields.js';
import { WorkLoop } from './internal/workLoop.js';
import { AppliedConfiguration, applyManagedFields, updateManagedFields } from './managedFields/fieldManager.js';
import { semanticEqual } from './internal/deepEqual.js';
import { writeFieldManagerContext } from './managedFields/requestContext.js';
import { timestamp } from './objectMeta.js';
import { bootstrapFlowControlObjects, mandatoryFlowControlNames, type BootstrapFlowControlObject } from './flowControlKinds.js';
import type { ResourceType } from './resourceType.js';
import type { ServerContext } from './serverContext.js';
import { bucketOf, type StoreEvent } from './storage/objectStore.js';

const group = 'flowcontrol.apiserver.k8s.io';
const apiVersion = `${group}/v1`;
const producer = 'api-priority-and-fairness-config-producer-v1';
const consumer = 'api-priority-and-fairness-config-consumer-v1';
const flowSchemasBucket = bucketOf({ group, resource: 'flowschemas' });
const priorityLevelsBucket = bucketOf({ group, resource: 'prioritylevelconfigurations' });
const autoUpdateAnnotation = 'apf.kubernetes.io/autoupdate-spec';
/** The producer's poll once the configuration is in place. */
const ensurePeriod = 60_000;

/** `strconv.ParseBool`: the value of a text Go reads as a bool, or undefined. */
function parseGoBool(text: string | undefined): boolean | undefined {
  if (text === undefined) return undefined;
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(text)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(text)) return false;
  return undefined;
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
  /** The producer's poll in flight, awaited by close(). */
  private ensuring: Promise<void> | undefined;

  constructor(private readonly ctx: ServerContext, catalog: ResourceCatalog, private readonly logger: Logger) {
    this.flowSchemas = catalog.resolve(group, 'v1', 'flowschemas')!;
    this.priorityLevels = catalog.resolve(group, 'v1', 'prioritylevelconfigurations')!;
  }

  /** Ensures the bootstrap objects, writes every FlowSchema's condition, then starts the consumer and the producer's poll. */
  async start(): Promise<void> {
    await this.ensure();
    // The first conditions are written before the server answers (the reference's consumer writes them a
    // moment after start): the store's resourceVersion is settled once the server is up.
    for (const [name] of [...this.ctx.store.values(flowSchemasBucket)]) await this.reconcile(name);
    this.unsubscribe = this.ctx.store.subscribe((e) => this.observe(e));
    this.schedule();
  }

  /** Stops the controllers; resolves once the item in flight, if any, is done. */
  async close(): Promise<void> {
    this.closed = true;
    this.timer?.cancel();
    this.unsubscribe?.();
    await Promise.all([this.loop.close(), this.ensuring]);
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
      this.ensuring = this.ensure().catch((err: unknown) => this.logger.warn('ensuring the flow control bootstrap objects failed', { error: errorMessage(err) })).finally(() => this.schedule());
    }, ensurePeriod);
  }

  /**
   * The producer's `ensure`: each bootstrap object not stored is created; a stored one whose spec is to be
   * kept up to date (a mandatory one always, a suggested one when its annotation says so, or without one at
   * generation 1) gets the bootstrap spec back and the annotation set; then the objects with the annotation
   * `true` that are no bootstrap object are deleted.
   */
  private async ensure(): Promise<void> {
    const wanted = new Set<string>();
    for (const template of bootstrapFlowControlObjects()) {
      if (this.closed) return;
      const type = template.kind === 'FlowSchema' ? this.flowSchemas : this.priorityLevels;
      const name = template.metadata.name ?? '';
      wanted.add(`${type.names.resource}/${name}`);
      const current = this.ctx.store.get(bucketOf(type.groupResource), name);
      await (current === undefined ? this.create(type, template) : this.revise(type, template, current));
    }
    for (const type of [this.flowSchemas, this.priorityLevels]) {
      for (const [name, o] of this.ctx.store.values(bucketOf(type.groupResource))) {
        if (this.closed || wanted.has(`${type.names.resource}/${name}`) || parseGoBool(o.metadata.annotations?.[autoUpdateAnnotation]) !== true) continue;
        await this.tolerant(() => this.ctx.store.delete(type.groupResource, name, name, {}).durable, name);
      }
    }
  }

  private async create(type: ResourceType, template: BootstrapFlowControlObject): Promise<void> {
    const name = template.metadata.name ?? '';
    const now = timestamp(this.ctx.clock.now());
    const { fieldsV1, ...body } = cloneJSON(template);
    const o: KubeObject = { ...body, metadata: { ...body.metadata, uid: randomUUID(), generation: 1, creationTimestamp: now }, status: {} };
    if (this.ctx.limits.managedFields) o.metadata.managedFields = [{ manager: producer, operation: 'Update', apiVersion, time: now, fieldsType: 'FieldsV1', fieldsV1 }];
    const stored = await type.toStorage(o);
    await this.tolerant(() => this.ctx.store.create(type.groupResource, name, name, stored).durable, name);
  }

  /** The ensure strategies' `ReviseIfNeeded`, and the update it asks for. */
  private async revise(type: ResourceType, template: BootstrapFlowControlObject, current: KubeObject): Promise<void> {
    const name = current.metadata.name ?? '';
    const annotation = parseGoBool(current.metadata.annotations?.[autoUpdateAnnotation]);
    const autoUpdate = mandatoryFlowControlNames.has(name) || (annotation ?? current.metadata.generation === 1);
    const updateAnnotation = annotation !== autoUpdate;
    let expected = template.spec;
    // The exempt level's `exempt` member is the cluster's to set.
    if (type === this.priorityLevels && name === 'exempt') {
      const have = obj(current.spec).exempt;
      if (!isObject(have)) expected = undefined;
      else expected = { ...obj(template.spec), exempt: { ...obj(obj(template.spec).exempt), nominalConcurrencyShares: have.nominalConcurrencyShares, lendablePercent: have.lendablePercent } };
    }
    const specChanged = autoUpdate && (expected === undefined || !semanticEqual(expected, current.spec));
    if (!updateAnnotation && !specChanged) return;
    const next = cloneJSON(current);
    if (specChanged) {
      next.spec = cloneJSON(template.spec);
      next.metadata.generation = (current.metadata.generation ?? 0) + 1;
    }
    if (updateAnnotation) next.metadata.annotations = { ...next.metadata.annotations, [autoUpdateAnnotation]: String(autoUpdate) };
    const now = timestamp(this.ctx.clock.now());
    const stored = await type.toStorage(next);
    if (this.ctx.limits.managedFields) {
      const entries = updateManagedFields(current, stored, producer, writeFieldManagerContext(type, '', now));
      if (entries === undefined) delete stored.metadata.managedFields;
      else stored.metadata.managedFields = entries;
    }
    await this.tolerant(() => this.ctx.store.update(type.groupResource, name, name, stored, current.metadata.resourceVersion).durable, name);
  }

  /** Runs a write that may lose a race (AlreadyExists, NotFound, Conflict): the next poll looks again. */
  private async tolerant(write: () => Promise<unknown>, name: string): Promise<void> {
    try {
      await write();
    } catch (err) {
      const race = err instanceof KubeError && (err.reason === 'Conflict' || err.reason === 'AlreadyExists' || err.reason === 'NotFound');
      if (race) this.logger.debug('a flow control write lost a race', { name, error: errorMessage(err) });
      else this.logger.warn('a flow control write failed', { name, error: errorMessage(err) });
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
