/**
 * The `eviction` subresource of Pods, as kube-apiserver 1.34.4 serves it
 * (pkg/registry/core/pod/storage/eviction.go): a POST of a policy/v1 (or v1beta1) Eviction named as the
 * pod deletes the pod, with the Eviction's `deleteOptions`, unless the one PodDisruptionBudget that
 * selects it allows no disruption now.
 *
 * - A pod that is pending, finished or already being deleted is deleted whatever its budgets say (with
 *   its resourceVersion as a precondition, unless finished or deleting, so that a pod that started
 *   meanwhile is not).
 * - Otherwise: more than one budget is the handler's 500; a budget not yet observed (status behind its
 *   generation) or with no disruption allowed is a 429 naming it; a pod that is not ready goes without
 *   taking a disruption when the budget's `unhealthyPodEvictionPolicy` is `AlwaysAllow` or it has enough
 *   healthy pods; else a disruption is taken from the budget (`disruptionsAllowed` less one, the pod in
 *   `disruptedPods`, the `DisruptionAllowed` condition when none is left), written as the apiserver's own
 *   status update (manager `kube-apiserver`).
 * - Before the deletion the pod gets the `DisruptionTarget` condition (`EvictionByEvictionAPI`), unless
 *   dry run. The deletion is the store's (pods/graceful deletion, finalizers), so `deleteOptions` are
 *   validated there, after the condition was written, as upstream.
 * - The answer is a `Status` of success, code 201.
 *
 * There is no PodDisruptionBudget controller here (nor in a bare kube-apiserver): budgets count only
 * with a status someone wrote.
 */
import { FieldPath, KubeError, goQuote, invalid, type KubeObject } from '@kubekit/core';
import { labelSelectorFromObject, type LabelSelectorObject } from '@kubekit/selectors';
import { encodeAsGo } from './builtinGoJSON.js';
import { deleteOne, deleteOptionsOf, preconditionConflict } from './deleteHandler.js';
import { withCondition } from './internal/conditions.js';
import { deepEqual } from './internal/deepEqual.js';
import { cloneJSON, isObject, num, objects, str, type JSONObject } from './internal/own.js';
import { updateManagedFields } from './managedFields/fieldManager.js';
import { writeFieldManagerContext } from './managedFields/requestContext.js';
import { timestamp } from './objectMeta.js';
import { policyResourceTypes } from './policyKinds.js';
import { podStatusWarnings } from './podWarnings.js';
import type { ResourceType } from './resourceType.js';
import type { RestRequest } from './restRequest.js';
import type { ServerContext } from './serverContext.js';
import { storeKey } from './storage/objectStore.js';
import { decodeSubresourceBody } from './subresourceBody.js';
import { handleSubresourceCreate } from './writeHandler.js';
import { checkRequestContext, type RequestContext } from './internal/requestContext.js';

const evictionGVK = { group: 'policy', version: 'v1', kind: 'Eviction' };
const podGVK = { group: '', version: 'v1', kind: 'Pod' };
/** How many times a write that met a concurrent one is tried again (`EvictionsRetry`: 20 steps). */
const evictionRetries = 20;
/** The most pods a budget may list as disrupted before evictions are refused (`MaxDisruptedPodSize`). */
const maxDisruptedPods = 2000;
/** The manager of the apiserver's own writes of a budget's status (its loopback client's User-Agent). */
const apiserverManager = 'kube-apiserver';

let budgetType: ResourceType | undefined;
/** The PodDisruptionBudget kind (its bucket, and its type for the field manager). */
function budgets(): ResourceType {
  return (budgetType ??= policyResourceTypes()[0]);
}

/** POST pods/{name}/eviction. */
export async function evictPod(ctx: ServerContext, r: RestRequest, namespace: string): Promise<void> {
  await handleSubresourceCreate(ctx, r, evictionGVK, async (body, options, wctx) => {
    const decoded = decodeSubresourceBody(body, wctx, { kind: 'Eviction', apiVersions: ['policy/v1', 'policy/v1beta1'], internal: 'policy.Eviction', schema: 'io.k8s.api.policy.v1.Eviction' });
    const sentMeta = isObject(decoded.metadata) ? decoded.metadata : {};
    if (str(sentMeta.namespace) !== '' && sentMeta.namespace !== namespace) throw KubeError.badRequest('the namespace of the provided object does not match the namespace sent on the request');
    const name = r.info.name;
    // The create handler's mutating admission (webhooks), of the Eviction in policy/v1, before EvictionREST.Create reads it.
    const given = { ...decoded, apiVersion: 'policy/v1', kind: 'Eviction', metadata: { ...sentMeta, namespace } } as KubeObject;
    const eviction = (await ctx.admission?.mutate({ type: r.type, operation: 'CREATE', namespace, name, subresource: 'eviction', dryRun: options.dryRun, object: given, wctx, user: r.user })) ?? given;
    // A webhook may have patched the metadata away, or into another type.
    const meta: JSONObject = isObject(eviction.metadata) ? eviction.metadata : {};
    if (str(meta.name) !== name) throw KubeError.badRequest('name in URL does not match name in Eviction object');
    const sent = isObject(eviction.deleteOptions) ? eviction.deleteOptions : undefined;
    if (sent?.ignoreStoreReadErrorWithClusterBreakingPotential === true) {
      throw KubeError.invalid(evictionGVK, name, [invalid(FieldPath.root('deleteOptions', 'ignoreStoreReadErrorWithClusterBreakingPotential'), true, 'can not be set for pod eviction, try after removing the option')]);
    }
    const deleteOptions = withDryRun(sent, options.dryRun ? ['All'] : []);
    // The create's validating admission, of the Eviction (in policy/v1, which v1beta1's converts to).
    await ctx.admission?.validate({ type: r.type, operation: 'CREATE', namespace, name, subresource: 'eviction', dryRun: options.dryRun, object: eviction, wctx, user: r.user });
    return evict(ctx, r.type, namespace, name, deleteOptions, wctx.warnings, wctx.request);
  });
}

const evicted = { code: 201, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 } };
/** The handler returns a Status of failure as its result: written with its code, without a reason. */
const moreThanOneBudget = {
  code: 500,
  body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.', code: 500 },
};

/**
 * `propagateDryRun`: the Eviction's `deleteOptions` with the request's dry run when they name none;
 * both naming one that differs is the handler's 500.
 */
function withDryRun(sent: JSONObject | undefined, query: string[]): JSONObject {
  const own = Array.isArray(sent?.dryRun) ? (sent.dryRun as string[]) : [];
  if (own.length > 0 && query.length > 0 && (own.length !== query.length || own.some((v, i) => v !== query[i]))) {
    throw new KubeError('Unknown', `Non-matching dry-run options in request and content: [${query.join(' ')}] and [${own.join(' ')}]`, { code: 500 });
  }
  return { ...(sent ?? {}), dryRun: own.length > 0 ? own : query };
}

/** Whether the pod's budgets need not be asked: pending, finished, or already being deleted (`canIgnorePDB`). */
function canIgnoreBudget(pod: KubeObject): boolean {
  const phase = isObject(pod.status) ? pod.status.phase : undefined;
  return phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || pod.metadata.deletionTimestamp !== undefined;
}

/** Whether the deletion should not race a change of the pod (`shouldEnforceResourceVersion`). */
function enforceResourceVersion(pod: KubeObject): boolean {
  const phase = isObject(pod.status) ? pod.status.phase : undefined;
  return phase !== 'Succeeded' && phase !== 'Failed' && pod.metadata.deletionTimestamp === undefined;
}

function isReady(pod: KubeObject): boolean {
  const conditions = isObject(pod.status) && Array.isArray(pod.status.conditions) ? pod.status.conditions : [];
  return conditions.some((c) => isObject(c) && c.type === 'Ready' && c.status === 'True');
}

function hasResourceVersionPrecondition(options: JSONObject): boolean {
  return isObject(options.preconditions) && typeof options.preconditions.resourceVersion === 'string';
}

function withResourceVersion(options: JSONObject, rv: string): JSONObject {
  return { ...options, preconditions: { ...(isObject(options.preconditions) ? options.preconditions : {}), resourceVersion: rv } };
}

const isConflict = (err: unknown): boolean => err instanceof KubeError && err.reason === 'Conflict';

function currentPod(ctx: ServerContext, pods: ResourceType, namespace: string, name: string): KubeObject {
  const pod = ctx.store.get(pods.bucket, storeKey(namespace, name));
  if (pod === undefined) throw KubeError.notFound(pods.groupResource, name);
  return pod;
}

async function evict(ctx: ServerContext, pods: ResourceType, namespace: string, name: string, options: JSONObject, warnings: string[], context: RequestContext | undefined): Promise<{ code: number; body: unknown }> {
  const dryRun = (options.dryRun as string[]).length > 0;
  const unsetRV = !hasResourceVersionPrecondition(options);
  let pod: KubeObject;
  for (let attempt = 0; ; attempt++) {
    pod = await pods.fromStorage(currentPod(ctx, pods, namespace, name));
    if (!canIgnoreBudget(pod)) break;
    try {
      await addConditionAndDelete(ctx, pods, namespace, name, enforceResourceVersion(pod) && unsetRV ? withResourceVersion(options, pod.metadata.resourceVersion ?? '') : options, dryRun, warnings, context);
      return evicted;
    } catch (err) {
      if (unsetRV && isConflict(err) && attempt < evictionRetries) continue;
      throw err;
    }
  }
  const selecting = budgetsOf(ctx, pod);
  if (selecting.length > 1) return moreThanOneBudget;
  let budgetName = '';
  let unhealthyAllowed = false;
  if (selecting.length === 1) {
    const budget = selecting[0];
    budgetName = budget.metadata.name ?? '';
    const spec = isObject(budget.spec) ? budget.spec : {};
    const status = isObject(budget.status) ? budget.status : {};
    const desired = num(status.desiredHealthy) ?? 0;
    if (!isReady(pod) && (spec.unhealthyPodEvictionPolicy === 'AlwaysAllow' || ((num(status.currentHealthy) ?? 0) >= desired && desired > 0))) {
      unhealthyAllowed = true;
    } else {
      await takeDisruption(ctx, namespace, budgetName, name, dryRun, context);
    }
  }
  try {
    await addConditionAndDelete(ctx, pods, namespace, name, unhealthyAllowed ? withResourceVersion(options, pod.metadata.resourceVersion ?? '') : options, dryRun, warnings, context);
  } catch (err) {
    // The pod changed since it was found not ready: it may be healthy now, and count.
    if (isConflict(err) && unhealthyAllowed && unsetRV) throw stillProcessing(budgetName);
    throw err;
  }
  return evicted;
}

/** The budgets in the pod's namespace whose selector selects it (`getPodDisruptionBudgets`; a selector that does not convert selects nothing). */
function budgetsOf(ctx: ServerContext, pod: KubeObject): KubeObject[] {
  const prefix = `${pod.metadata.namespace ?? ''}/`;
  const labels = pod.metadata.labels ?? {};
  const out: KubeObject[] = [];
  for (const [key, budget] of ctx.store.values(budgets().bucket)) {
    if (!key.startsWith(prefix)) continue;
    const spec = isObject(budget.spec) ? budget.spec : {};
    try {
      if (labelSelectorFromObject(spec.selector as LabelSelectorObject | null | undefined).matches(labels)) out.push(budget);
    } catch {
      // LabelSelectorAsSelector failed: the budget is skipped.
    }
  }
  return out;
}

function tooManyRequests(cause: string, retryAfterSeconds?: number): KubeError {
  return new KubeError('TooManyRequests', "Cannot evict pod as it would violate the pod's disruption budget.", {
    details: { causes: [{ reason: 'DisruptionBudget', message: cause }], ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }) },
  });
}

/** `createTooManyRequestsError`: the budget's status does not describe its spec yet. */
function stillProcessing(budget: string): KubeError {
  return tooManyRequests(`The disruption budget ${budget} is still being processed by the server.`, 10);
}

function budgetForbidden(budget: string, why: string): KubeError {
  return new KubeError('Forbidden', `poddisruptionbudget.policy ${goQuote(budget)} is forbidden: ${why}`, { details: { name: budget, group: 'policy', kind: 'poddisruptionbudget' } });
}

/**
 * `checkAndDecrement`: one disruption taken from the budget, or the refusal; the status written (unless
 * dry run) as the apiserver's own update, read again when it met another write.
 */
async function takeDisruption(ctx: ServerContext, namespace: string, budgetName: string, podName: string, dryRun: boolean, context: RequestContext | undefined): Promise<void> {
  const type = budgets();
  const key = storeKey(namespace, budgetName);
  for (let attempt = 0; ; attempt++) {
    const current = ctx.store.get(type.bucket, key);
    if (current === undefined) throw KubeError.notFound(type.groupResource, budgetName);
    const status = isObject(current.status) ? current.status : {};
    if ((num(status.observedGeneration) ?? 0) < (current.metadata.generation ?? 0)) throw stillProcessing(budgetName);
    const allowed = num(status.disruptionsAllowed) ?? 0;
    if (allowed < 0) throw budgetForbidden(budgetName, 'pdb disruptions allowed is negative');
    const disrupted = isObject(status.disruptedPods) ? status.disruptedPods : {};
    if (Object.keys(disrupted).length > maxDisruptedPods) throw budgetForbidden(budgetName, 'DisruptedPods map too big - too many evictions not confirmed by PDB controller');
    if (allowed === 0) throw tooManyRequests(`The disruption budget ${budgetName} needs ${num(status.desiredHealthy) ?? 0} healthy pods and has ${num(status.currentHealthy) ?? 0} currently`);
    if (dryRun) return;
    const now = timestamp(ctx.clock.now());
    // The copy is encoded in place: nothing of it may be shared with the stored budget.
    const next = cloneJSON(current);
    const nextStatus: JSONObject = { ...(isObject(next.status) ? next.status : {}), disruptionsAllowed: allowed - 1, disruptedPods: { ...cloneJSON(disrupted), [podName]: now } };
    // UpdateDisruptionAllowedCondition, with no disruption left.
    if (allowed - 1 === 0) nextStatus.conditions = withCondition(objects(nextStatus.conditions), { type: 'DisruptionAllowed', status: 'False', observedGeneration: num(status.observedGeneration) ?? 0, lastTransitionTime: now, reason: 'InsufficientPods', message: '' });
    next.status = nextStatus;
    encodeAsGo(next, { group: 'policy', version: 'v1', kind: 'PodDisruptionBudget' });
    if (ctx.limits.managedFields) {
      const entries = updateManagedFields(current, next, apiserverManager, writeFieldManagerContext(type, 'status', now));
      if (entries === undefined) delete next.metadata.managedFields;
      else next.metadata.managedFields = entries;
    }
    if (ctx.store.get(type.bucket, key) !== current) {
      if (attempt >= evictionRetries) throw new KubeError('Timeout', `Timeout: couldn't update PodDisruptionBudget ${goQuote(budgetName)} due to conflicts`, { details: { retryAfterSeconds: 10 } });
      continue;
    }
    checkRequestContext(context);
    await ctx.store.update(type.groupResource, key, budgetName, await type.toStorage(next), current.metadata.resourceVersion).durable;
    return;
  }
}

/**
 * `addConditionAndDeletePod`: unless dry run, the pod gets the `DisruptionTarget` condition (the
 * preconditions checked against it first, and a resourceVersion precondition moved to the pod it
 * wrote); then the store deletes it with `options`, validated there. The condition is written through
 * the status store, whose strategy warns of the pod's addresses (`podStatusStrategy.WarningsOnUpdate`):
 * those warnings are the eviction's, once each.
 */
async function addConditionAndDelete(ctx: ServerContext, pods: ResourceType, namespace: string, name: string, raw: JSONObject, dryRun: boolean, warnings: string[], context: RequestContext | undefined): Promise<void> {
  let sent = raw;
  if (!dryRun) {
    const key = storeKey(namespace, name);
    const current = currentPod(ctx, pods, namespace, name);
    // getLatestPod checks the preconditions that are not empty before it writes (the store checks all of them after).
    const preconditions = isObject(raw.preconditions) ? raw.preconditions : {};
    const nonEmpty = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
    const conflict = preconditionConflict(pods.names, name, current, nonEmpty(preconditions.uid), nonEmpty(preconditions.resourceVersion));
    if (conflict !== undefined) throw conflict;
    const view = await pods.fromStorage(current);
    const next = withDisruptionTarget(view, timestamp(ctx.clock.now()));
    let rv = current.metadata.resourceVersion ?? '';
    // The update runs (and warns) whether or not the condition was there already.
    for (const w of podStatusWarnings(next ?? view)) if (!warnings.includes(w)) warnings.push(w);
    if (next !== undefined) {
      encodeAsGo(next, podGVK);
      if (ctx.store.get(pods.bucket, key) !== current) throw KubeError.conflict(pods.groupResource, name, 'the object has been modified; please apply your changes to the latest version and try again');
      checkRequestContext(context);
      const write = ctx.store.update(pods.groupResource, key, name, await pods.toStorage(next), rv);
      await write.durable;
      rv = write.event.object.metadata.resourceVersion ?? rv;
    }
    if (hasResourceVersionPrecondition(raw)) sent = withResourceVersion(raw, rv);
  }
  // Not admitted: the eviction was.
  await deleteOne(ctx, pods, namespace, name, deleteOptionsOf(sent), dryRun, { admissionName: null, context });
}

/** The pod with the `DisruptionTarget` condition (`UpdatePodCondition`), or `undefined` when it has it already. */
function withDisruptionTarget(pod: KubeObject, now: string): KubeObject | undefined {
  const conditions = objects(isObject(pod.status) ? pod.status.conditions : undefined);
  const next = withCondition(conditions, { type: 'DisruptionTarget', status: 'True', lastProbeTime: null, lastTransitionTime: now, reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting' });
  if (deepEqual(next, conditions)) return undefined;
  // A copy throughout: the pod read is the stored object, and the copy is encoded in place.
  const written = cloneJSON(pod);
  written.status = { ...(isObject(written.status) ? written.status : {}), conditions: cloneJSON(next) };
  return written;
}
