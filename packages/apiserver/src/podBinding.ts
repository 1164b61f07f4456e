/**
 * Binding a pod to a node, as kube-apiserver 1.34.4 serves it (pkg/registry/core/pod/storage/storage.go
 * `BindingREST`, `LegacyBindingREST`): a POST of a core/v1 Binding to `pods/{name}/binding`, or to the
 * `bindings` collection of the namespace (the pod named by the Binding) — what a scheduler sends.
 *
 * - The Binding's name must be the URL's (`name in URL does not match name in Binding object`), its
 *   namespace the request's.
 * - `ValidatePodBinding` (target kind `Node` or empty, a target name): its errors are an aggregate, which
 *   the handler answers as a 500 without a reason.
 * - Mutating admission (webhooks) sees the Binding first, a CREATE of `pods/binding`, and what it returns is
 *   what is checked and bound; then validating admission sees it.
 * - The pod is written as the storage's `GuaranteedUpdate` writes it, with the Binding's uid and
 *   resourceVersion as preconditions: refused while it is being deleted, once it has a node, or while it
 *   has scheduling gates (a 409 of `pods/binding`); else its `spec.nodeName`, the Binding's annotations
 *   over its own, and the condition `PodScheduled` true. No strategy, no field manager, no admission of
 *   the pod: its managed fields stay as they were. A dry run checks everything and writes nothing.
 * - The answer is a `Status` of success, code 201.
 *
 * The Binding's labels are not copied (the `PodTopologyLabelsAdmission` gate is off in 1.34).
 */
import { FieldPath, KubeError, goQuote, notSupported, required, type FieldError, type KubeObject } from '@kubekit/core';
import { encodeAsGo } from './builtinGoJSON.js';
import { withCondition } from './internal/conditions.js';
import { cloneJSON, isObject, objects, str, type JSONObject } from './internal/own.js';
import { timestamp } from './objectMeta.js';
import type { ResourceType } from './resourceType.js';
import type { RestRequest } from './restRequest.js';
import type { ServerContext } from './serverContext.js';
import { storeKey } from './storage/objectStore.js';
import { decodeSubresourceBody } from './subresourceBody.js';
import { handleSubresourceCreate, storagePreconditionFailed } from './writeHandler.js';
import { checkRequestContext, type RequestContext } from './internal/requestContext.js';

const podGVK = { group: '', version: 'v1', kind: 'Pod' };
const bindingResource = { group: '', resource: 'pods/binding' };
/** How many times the write is tried again when another write got to the pod first (GuaranteedUpdate retries until it applies). */
const retries = 20;
const bound = { code: 201, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 } };

/**
 * POST `pods/{name}/binding` (`podName` the URL's) or `bindings` (`podName` undefined: the Binding names
 * the pod). `pods` is the Pod kind.
 */
export async function bindPod(ctx: ServerContext, r: RestRequest, pods: ResourceType, namespace: string, podName: string | undefined): Promise<void> {
  await handleSubresourceCreate(ctx, r, { group: '', version: 'v1', kind: 'Binding' }, async (body, options, wctx) => {
    const decoded = decodeSubresourceBody(body, wctx, { kind: 'Binding', apiVersions: ['v1'], internal: 'core.Binding', schema: 'io.k8s.api.core.v1.Binding' });
    const sent = isObject(decoded.metadata) ? decoded.metadata : {};
    if (str(sent.namespace) !== '' && sent.namespace !== namespace) throw KubeError.badRequest('the namespace of the provided object does not match the namespace sent on the request');
    // The create handler's mutating admission, before BindingREST.Create reads the Binding.
    const given = { ...decoded, apiVersion: 'v1', kind: 'Binding', metadata: { ...sent, namespace } } as KubeObject;
    const binding = (await ctx.admission?.mutate({ type: pods, operation: 'CREATE', namespace, name: podName ?? str(sent.name), subresource: 'binding', dryRun: options.dryRun, object: given, wctx, user: r.user })) ?? given;
    // A webhook may have patched the metadata away, or into another type.
    const meta: JSONObject = isObject(binding.metadata) ? binding.metadata : {};
    const name = podName ?? str(meta.name);
    if (str(meta.name) !== name || name === '') throw KubeError.badRequest('name in URL does not match name in Binding object');
    const target = isObject(binding.target) ? binding.target : {};
    const errs = validateBinding(target);
    if (errs.length > 0) throw new KubeError('Unknown', errs.length === 1 ? errs[0].toString() : `[${errs.map(String).join(', ')}]`, { code: 500 });
    await ctx.admission?.validate({ type: pods, operation: 'CREATE', namespace, name, subresource: 'binding', dryRun: options.dryRun, object: binding, wctx, user: r.user });
    const annotations = isObject(meta.annotations) ? meta.annotations : {};
    await assign(ctx, pods, namespace, name, str(target.name), { uid: str(meta.uid), resourceVersion: str(meta.resourceVersion) }, annotations, options.dryRun, wctx.request);
    return bound;
  });
}

/** `ValidatePodBinding`. */
function validateBinding(target: JSONObject): FieldError[] {
  const errs: FieldError[] = [];
  const kind = str(target.kind);
  if (kind !== '' && kind !== 'Node') errs.push(notSupported(FieldPath.root('target', 'kind'), kind, ['Node', '<empty>']));
  if (str(target.name) === '') errs.push(required(FieldPath.root('target', 'name')));
  return errs;
}

/** `setPodNodeAndMetadata` in the storage's `GuaranteedUpdate`, its errors as `assignPod` answers them. */
async function assign(ctx: ServerContext, pods: ResourceType, namespace: string, name: string, node: string,
  preconditions: { uid: string; resourceVersion: string }, annotations: JSONObject, dryRun: boolean, context: RequestContext | undefined): Promise<void> {
  const key = storeKey(namespace, name);
  for (let attempt = 0; ; attempt++) {
    const current = ctx.store.get(pods.bucket, key);
    if (current === undefined) throw KubeError.notFound(pods.groupResource, name);
    if (preconditions.uid !== '' && preconditions.uid !== current.metadata.uid) {
      throw storagePreconditionFailed(pods, namespace, name, dryRun, 'UID', preconditions.uid, current.metadata.uid ?? '');
    }
    if (preconditions.resourceVersion !== '' && preconditions.resourceVersion !== current.metadata.resourceVersion) {
      throw storagePreconditionFailed(pods, namespace, name, dryRun, 'ResourceVersion', preconditions.resourceVersion, current.metadata.resourceVersion ?? '');
    }
    const pod = await pods.fromStorage(current);
    const spec = isObject(pod.spec) ? pod.spec : {};
    if (pod.metadata.deletionTimestamp !== undefined) throw KubeError.conflict(bindingResource, name, `pod ${name} is being deleted, cannot be assigned to a host`);
    if (str(spec.nodeName) !== '') throw KubeError.conflict(bindingResource, name, `pod ${name} is already assigned to node ${goQuote(str(spec.nodeName))}`);
    if (Array.isArray(spec.schedulingGates) && spec.schedulingGates.length > 0) {
      throw KubeError.conflict(bindingResource, name, `pod ${name} has non-empty .spec.schedulingGates`);
    }
    if (dryRun) return;
    // A copy throughout: the pod read is the stored object, and the copy is encoded in place.
    const next = cloneJSON(pod);
    next.spec = { ...(isObject(next.spec) ? next.spec : {}), nodeName: node };
    if (Object.keys(annotations).length > 0) next.metadata.annotations = { ...next.metadata.annotations, ...(cloneJSON(annotations) as Record<string, string>) };
    const status = isObject(next.status) ? next.status : {};
    next.status = { ...status, conditions: withCondition(objects(status.conditions), { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: timestamp(ctx.clock.now()) }) };
    encodeAsGo(next, podGVK);
    if (ctx.store.get(pods.bucket, key) !== current) {
      if (attempt >= retries) throw KubeError.conflict(pods.groupResource, name, 'the object has been modified; please apply your changes to the latest version and try again');
      continue;
    }
    checkRequestContext(context);
    await ctx.store.update(pods.groupResource, key, name, await pods.toStorage(next), current.metadata.resourceVersion).durable;
    return;
  }
}
