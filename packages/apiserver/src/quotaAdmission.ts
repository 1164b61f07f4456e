/**
 * The `ResourceQuota` admission plugin (k8s.io/apiserver/pkg/admission/plugin/resourcequota, on by
 * default, the last validating plugin: after the validating webhooks), with kube-apiserver 1.34.4's
 * evaluators (pkg/quota/v1/evaluator/core, and the object count evaluator of every other resource).
 *
 * On a create (and, for Pods that start or stop terminating, Services and PersistentVolumeClaims, an
 * update) in a namespace with ResourceQuotas, each quota whose `status.hard` names a resource the object
 * uses, and whose scopes the object matches, is checked: a Pod must request (or limit) each compute
 * resource the quota limits (`failed quota: q: must specify requests.cpu for: c`), the quota's
 * `status.used` must have an entry for each of them (`status unknown for quota: q, resources: pods` —
 * no quota controller fills it on a bare apiserver: a client writes it through `/status`), and
 * `used + requested` must not exceed `hard` (`exceeded quota: q, requested: pods=1, used: pods=2,
 * limited: pods=2`); each is a 403. Unless the request is a dry run, the new `status.used` of each quota
 * charged is written (as the apiserver's own `/status` update, manager `kube-apiserver`) before the object
 * is stored. A quota whose `status.hard` is empty limits nothing.
 *
 * What each resource is charged is its evaluator's (quotaEvaluators.ts): pods and their compute resources
 * with the quota scopes, services, claims and their storage, and `count/<resource>` of everything else.
 *
 * kubekit reads the quotas from its store: no informer lags behind a `/status` write as the apiserver's does.
 * The quotas of a namespace are checked in name order (the apiserver's lister has none).
 *
 * @see https://kubernetes.io/docs/concepts/policy/resource-quotas/
 */
import type { Clock, KubeObject } from '@kubekit/core';
import { admissionForbidden, type AdmissionAttributes, type AdmissionPlugin } from './admission.js';
import { quotaEvaluators, type Evaluator, type ScopeRequirement } from './quotaEvaluators.js';
import { resourceQuotasBucket } from './resourceQuotaKinds.js';
import type { ResourceType } from './resourceType.js';
import { timestamp } from './objectMeta.js';
import { updateManagedFields } from './managedFields/fieldManager.js';
import { writeFieldManagerContext } from './managedFields/requestContext.js';
import { cloneJSON, isObject, objects, setOwn, str, type JSONObject } from './internal/own.js';
import {
  addAmounts, addLists, amountText, exceededNames, maskList, negativeNames, prettyPrint, removeZeros, resourceList, subtractNonNegative, type ResourceList,
} from './internal/resourceList.js';
import { storeKey, type ObjectStore } from './storage/objectStore.js';

/** The manager of the apiserver's own writes of a quota's status (its loopback client's User-Agent). */
const apiserverManager = 'kube-apiserver';

/** Resources no quota charges (`DefaultIgnoredResources`): virtual ones and Events. */
const ignored = new Set([
  '/bindings', '/componentstatuses', 'authentication.k8s.io/tokenreviews', 'authentication.k8s.io/selfsubjectreviews',
  'authorization.k8s.io/subjectaccessreviews', 'authorization.k8s.io/selfsubjectaccessreviews', 'authorization.k8s.io/localsubjectaccessreviews',
  'authorization.k8s.io/selfsubjectrulesreviews', '/events', 'events.k8s.io/events',
]);

/** A quota's scopes as requirements (`getScopeSelectorsFromQuota`): each scope an `Exists`, then the selector's. */
function scopeRequirements(quota: KubeObject): ScopeRequirement[] {
  const spec = isObject(quota.spec) ? quota.spec : {};
  const out: ScopeRequirement[] = (Array.isArray(spec.scopes) ? spec.scopes : []).map((s) => ({ scopeName: str(s), operator: 'Exists', values: [] }));
  const selector = isObject(spec.scopeSelector) ? spec.scopeSelector : {};
  for (const r of objects(selector.matchExpressions)) out.push({ scopeName: str(r.scopeName), operator: str(r.operator), values: Array.isArray(r.values) ? r.values.map(str) : [] });
  return out;
}

/** A quota's `status.hard` and `status.used`. */
function statusLists(quota: KubeObject): { hard: ResourceList; used: ResourceList } {
  const status = isObject(quota.status) ? quota.status : {};
  return { hard: resourceList(status.hard), used: resourceList(status.used) };
}

/** `generic.Matches`: the quota limits something the evaluator accounts for, and the object is in all its scopes. */
function quotaMatches(e: Evaluator, quota: KubeObject, object: KubeObject): boolean {
  if (e.matchingResources([...statusLists(quota).hard.keys()]).length === 0) return false;
  return scopeRequirements(quota).every((s) => e.matchesScope(s, object));
}

/** The ResourceQuota admission plugin (see the file comment). */
export class QuotaAdmission implements AdmissionPlugin {
  private readonly evaluator: (group: string, resource: string) => Evaluator;

  constructor(private readonly options: { store: ObjectStore; quotaType: ResourceType; clock: Clock; managedFields: boolean }) {
    this.evaluator = quotaEvaluators(options.clock);
  }

  /** The stored quotas of a namespace, in name order. */
  private quotas(namespace: string): KubeObject[] {
    const prefix = `${namespace}/`;
    return [...this.options.store.values(resourceQuotasBucket)].filter(([key]) => key.startsWith(prefix)).map(([, q]) => q);
  }

  /** `Validate`: refuses what a quota does not allow; charges the quotas (unless dry run). */
  async validate(attrs: AdmissionAttributes): Promise<void> {
    if (attrs.operation === 'DELETE' || attrs.namespace === '' || attrs.object === undefined) return;
    const { group, resource } = attrs.type.names;
    if (ignored.has(`${group}/${resource}`)) return;
    const e = this.evaluator(group, resource);
    if (!e.handles(attrs)) return;
    const quotas = this.quotas(attrs.namespace);
    if (quotas.length === 0) return;
    const charged = this.check(quotas, attrs, e);
    if (attrs.dryRun) return;
    for (const [quota, used] of charged) await this.writeUsed(quota, used);
  }

  /** `CheckRequest`: the new `status.used` of each quota the request changes, or the refusal. */
  private check(quotas: KubeObject[], attrs: AdmissionAttributes, e: Evaluator): Map<KubeObject, ResourceList> {
    const object = attrs.object!;
    const interesting: KubeObject[] = [];
    for (const quota of quotas) {
      if (!quotaMatches(e, quota, object)) continue;
      const { hard, used } = statusLists(quota);
      const restricted = e.matchingResources([...hard.keys()]);
      const name = quota.metadata.name ?? '';
      const failed = e.constraints(restricted, object);
      if (failed !== undefined) throw admissionForbidden(attrs, `failed quota: ${name}: ${failed}`);
      if (restricted.some((r) => hard.has(r) && !used.has(r))) throw admissionForbidden(attrs, `status unknown for quota: ${name}, resources: ${[...restricted].sort().join(',')}`);
      interesting.push(quota);
    }
    const usage = e.usage(object);
    const negative = negativeNames(usage);
    if (negative.length > 0) throw admissionForbidden(attrs, `quota usage is negative for resource(s): ${negative.sort().join(',')}`);
    const deltas = new Map<KubeObject, ResourceList>();
    for (const quota of interesting) deltas.set(quota, usage);
    if (attrs.operation === 'UPDATE' && attrs.oldObject !== undefined) {
      const delta = subtractNonNegative(usage, e.usage(attrs.oldObject));
      for (const quota of interesting) if (quotaMatches(e, quota, attrs.oldObject)) deltas.set(quota, delta);
    }
    const out = new Map<KubeObject, ResourceList>();
    for (const quota of interesting) {
      const delta = removeZeros(deltas.get(quota)!);
      if (delta.size === 0) continue;
      const { hard, used } = statusLists(quota);
      const requested = maskList(delta, hard.keys());
      const next = addLists(used, requested);
      if (attrs.subresource !== 'status') {
        const exceeded = exceededNames(maskList(next, requested.keys()), hard);
        if (exceeded.length > 0) {
          const why = `exceeded quota: ${quota.metadata.name ?? ''}, requested: ${prettyPrint(maskList(requested, exceeded))}, used: ${prettyPrint(maskList(used, exceeded))}, limited: ${prettyPrint(maskList(hard, exceeded))}`;
          throw admissionForbidden(attrs, why);
        }
      }
      if (requested.size > 0) out.set(quota, requested);
    }
    return out;
  }

  /**
   * The quota's `status.used` with `requested` added, written as the apiserver's `UpdateStatus` (its
   * other entries as they are stored); a quota deleted meanwhile is let be.
   */
  private async writeUsed(quota: KubeObject, requested: ResourceList): Promise<void> {
    const { store, quotaType, clock } = this.options;
    const namespace = quota.metadata.namespace ?? '';
    const name = quota.metadata.name ?? '';
    const key = storeKey(namespace, name);
    const current = store.get(resourceQuotasBucket, key);
    if (current === undefined) return;
    const next = cloneJSON(current);
    const status: JSONObject = isObject(next.status) ? next.status : {};
    next.status = status;
    const used: JSONObject = isObject(status.used) ? status.used : {};
    const before = resourceList(used);
    for (const [k, q] of requested) {
      const old = before.get(k);
      setOwn(used, k, amountText(old === undefined ? q : addAmounts(old, q)));
    }
    status.used = used;
    const now = timestamp(clock.now());
    const stored = await quotaType.toStorage(next);
    if (this.options.managedFields) {
      const entries = updateManagedFields(current, stored, apiserverManager, writeFieldManagerContext(quotaType, 'status', now));
      if (entries === undefined) delete stored.metadata.managedFields;
      else stored.metadata.managedFields = entries;
    }
    await store.update(quotaType.groupResource, key, name, stored, current.metadata.resourceVersion).durable;
  }
}
