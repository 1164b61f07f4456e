/**
 * core/v1 Nodes, as kube-apiserver 1.34.4 serves them: the strategy of pkg/registry/core/node/strategy.go
 * (the status kept on create and on update of the main resource, `spec.configSource` and
 * `status.config` dropped — the feature is removed —, a `/status` that keeps the spec, no generation, the
 * deprecated `externalID` and non-standard pod CIDRs warned about), the TaintNodesByCondition admission
 * plugin (a new node gets the `node.kubernetes.io/not-ready:NoSchedule` taint), the v1 conversion of
 * `spec.podCIDR` and `spec.podCIDRs`, `SetObjectDefaults_Node` (allocatable from capacity, quantities
 * rounded up to thousandths) and the checks of pkg/apis/core/validation (`ValidateNode`,
 * `ValidateNodeUpdate`, `ValidateNodeSpecificAnnotations`).
 *
 * Go walks `status.capacity` and `status.allocatable` in no fixed order; kubekit walks each in key order.
 * Taint errors are reported under `metadata.taints` as upstream reports them.
 */
import { FieldError, FieldPath, forbidden, goJSON, internalError, invalid, notSupported, required, type KubeObject } from '@kubekit/core';
import { BuiltinResourceType, type BuiltinSpec } from './builtinKinds.js';
import { goJSONSyntaxError, goStringFieldMismatch, goUnmarshalTypeError } from './internal/goJSON.js';
import { isObject, objects, setOwn, str, type JSONObject } from './internal/own.js';
import { roundUpToMilli } from './internal/resourceList.js';
import { isQualifiedName, isValidLabelValue } from './internal/semantics.js';
import { resourceQuantityErrors } from './podResources.js';
import { cidrWarnings, parseIP } from './podWarnings.js';
import { isCIDRSloppy } from './serviceValidation.js';
import { ageCell, builtinAgeColumn } from './table.js';
import { proxySubresource } from './proxySubresources.js';

const taintsAnnotation = 'scheduler.alpha.kubernetes.io/taints';
const avoidPodsAnnotation = 'scheduler.alpha.kubernetes.io/preferAvoidPods';
const taintEffects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
const cidrMessage = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';
const podCIDRChange = 'node updates may not change podCIDR except from "" to valid';
const notReadyTaint = 'node.kubernetes.io/not-ready';
const roleLabelPrefix = 'node-role.kubernetes.io/';
const roleLabel = 'kubernetes.io/role';

const specOf = (o: KubeObject): JSONObject => (isObject(o.spec) ? o.spec : {});
const statusOf = (o: KubeObject): JSONObject => (isObject(o.status) ? o.status : {});
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(str) : []);

/**
 * `Convert_v1_NodeSpec_To_core_NodeSpec` and back: `podCIDR`, when set and not the first of `podCIDRs`,
 * is the only pod CIDR (it wins for older clients); the written `podCIDR` is the first of `podCIDRs`.
 */
function convertPodCIDRs(o: KubeObject): void {
  if (!isObject(o.spec)) return;
  const spec = o.spec;
  const single = str(spec.podCIDR);
  const list = strings(spec.podCIDRs);
  if (single !== '' && (list.length === 0 || list[0] !== single)) spec.podCIDRs = [single];
  if (Array.isArray(spec.podCIDRs) && spec.podCIDRs.length > 0) spec.podCIDR = spec.podCIDRs[0];
}

/** `SetObjectDefaults_Node`: allocatable copied from capacity when absent, both lists rounded up to thousandths. */
function defaultNode(o: KubeObject): void {
  if (!isObject(o.status)) return;
  const status = o.status;
  if ((status.allocatable === undefined || status.allocatable === null) && isObject(status.capacity)) status.allocatable = { ...status.capacity };
  for (const list of ['capacity', 'allocatable']) {
    const resources = status[list];
    if (!isObject(resources)) continue;
    for (const name of Object.keys(resources)) setOwn(resources, name, roundUpToMilli(resources[name]));
  }
}

/** The internal `core.Taint` as encoding/json prints it in a field error (no JSON tags: its Go field names). */
function taintText(t: JSONObject): string {
  return `{"Key":${goJSON(str(t.key))},"Value":${goJSON(str(t.value))},"Effect":${goJSON(str(t.effect))},"TimeAdded":${goJSON(t.timeAdded ?? null)}}`;
}

/** `validateNodeTaints`: each key a label name, each value a label value, an effect given and known, no key twice per effect. */
function taintErrors(taints: readonly JSONObject[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Map<string, Set<string>>();
  taints.forEach((t, i) => {
    const p = path.index(i);
    const key = str(t.key);
    const value = str(t.value);
    const effect = str(t.effect);
    errs.push(...isQualifiedName(key).map((msg) => invalid(p.child('key'), key, msg)));
    const valueErrs = isValidLabelValue(value);
    if (valueErrs.length > 0) errs.push(invalid(p.child('value'), value, valueErrs.join(';')));
    if (effect === '') errs.push(required(p.child('effect'), ''));
    else if (!taintEffects.includes(effect)) errs.push(notSupported(p.child('effect'), effect, taintEffects));
    const keys = seen.get(effect) ?? new Set<string>();
    if (keys.has(key)) {
      errs.push(new FieldError('FieldValueDuplicate', p, t, 'taints must be unique by key and effect pair', taintText(t)));
      return;
    }
    keys.add(key);
    seen.set(effect, keys);
  });
  return errs;
}

/** The taints of the legacy annotation as `json.Unmarshal` into `[]core.Taint` reads them, or why it cannot. */
function annotationTaints(text: string): JSONObject[] | string {
  const syntax = goJSONSyntaxError(text);
  if (syntax !== undefined) return syntax;
  const value: unknown = JSON.parse(text);
  if (value === null) return [];
  if (!Array.isArray(value)) return goUnmarshalTypeError(value, '[]core.Taint');
  for (const t of value) {
    if (t !== null && !isObject(t)) return goUnmarshalTypeError(t, 'core.Taint');
    // core.Taint has no JSON tags: its members are matched to the Go field names, case folded.
    const mismatch = isObject(t) ? goStringFieldMismatch(t, ['Key', 'Value', 'Effect']) : undefined;
    if (mismatch !== undefined) return goUnmarshalTypeError(mismatch.value, 'string', { struct: 'Taint', name: mismatch.name });
  }
  return value.map((t: unknown) => (isObject(t) ? t : {}));
}

/** `ValidateNodeSpecificAnnotations`: the legacy taints and preferAvoidPods annotations, when set. */
function nodeAnnotationErrors(o: KubeObject): FieldError[] {
  const annotations = o.metadata.annotations ?? {};
  const path = FieldPath.root('metadata', 'annotations');
  const errs: FieldError[] = [];
  const taintsText = Object.hasOwn(annotations, taintsAnnotation) ? annotations[taintsAnnotation] : '';
  if (taintsText !== '') {
    const taints = annotationTaints(taintsText);
    if (typeof taints === 'string') errs.push(invalid(path, taintsAnnotation, taints));
    else errs.push(...taintErrors(taints, path.child(taintsAnnotation)));
  }
  const avoidText = Object.hasOwn(annotations, avoidPodsAnnotation) ? annotations[avoidPodsAnnotation] : '';
  if (avoidText !== '') errs.push(...avoidPodsErrors(avoidText, path));
  return errs;
}

/** `ValidateAvoidPodsInNodeAnnotations`: the annotation a `v1.AvoidPods`, each entry naming a controller. */
function avoidPodsErrors(text: string, path: FieldPath): FieldError[] {
  const syntax = goJSONSyntaxError(text);
  const value: unknown = syntax === undefined ? JSON.parse(text) : undefined;
  const why = syntax ?? (value === null || isObject(value) ? undefined : goUnmarshalTypeError(value, 'v1.AvoidPods'));
  if (why !== undefined) return [invalid(path.child('AvoidPods'), avoidPodsAnnotation, why)];
  const entries = isObject(value) ? objects(value.preferAvoidPods) : [];
  return entries.flatMap((entry, i) => {
    const p = path.child(avoidPodsAnnotation).index(i).child('PodSignature');
    const signature = isObject(entry.podSignature) ? entry.podSignature : {};
    if (!isObject(signature.podController)) return [required(p, '')];
    return signature.podController.controller === false ? [invalid(p.child('PodController', 'Controller'), false, 'must point to a controller')] : [];
  });
}

/** `ValidateNodeResources`: each capacity and allocatable quantity not negative, whole for integer resources. */
function nodeResourceErrors(o: KubeObject): FieldError[] {
  const status = statusOf(o);
  return ['capacity', 'allocatable'].flatMap((list) => {
    const resources = isObject(status[list]) ? status[list] : {};
    return Object.keys(resources).sort().flatMap((name) => resourceQuantityErrors(name, resources[name], FieldPath.root('status', list, name)));
  });
}

/** `ValidateNode` past its metadata: annotations, taints, resources, swap, and the pod CIDRs (one per IP family). */
function validateNode(o: KubeObject): FieldError[] {
  const spec = specOf(o);
  const errs = [...nodeAnnotationErrors(o), ...taintErrors(objects(spec.taints), FieldPath.root('metadata', 'taints')), ...nodeResourceErrors(o)];
  const info = isObject(statusOf(o).nodeInfo) ? statusOf(o).nodeInfo as JSONObject : {};
  const swap = isObject(info.swap) ? info.swap.capacity : undefined;
  if (typeof swap === 'number' && swap <= 0) errs.push(invalid(FieldPath.root('metadata', 'nodeSwapStatus', 'capacity'), swap, 'must be greater than zero'));
  const cidrs = strings(spec.podCIDRs);
  const path = FieldPath.root('spec', 'podCIDRs');
  cidrs.forEach((cidr, i) => { if (!isCIDRSloppy(cidr)) errs.push(invalid(path.index(i), cidr, cidrMessage)); });
  if (cidrs.length > 1) {
    // netutils.IsDualStackCIDRStrings: the first CIDR that does not parse fails the check.
    const bad = cidrs.findIndex((c) => !isCIDRSloppy(c));
    if (bad >= 0) errs.push(internalError(path, `invalid PodCIDRs. failed to check with dual stack with error:invalid CIDR[${bad}]: <nil> (invalid CIDR address: ${cidrs[bad]})`));
    const families = new Set(cidrs.filter(isCIDRSloppy).map((c) => parseIP(c.slice(0, c.indexOf('/')))?.v4));
    const dualStack = bad < 0 && families.has(true) && families.has(false);
    if (!dualStack || cidrs.length > 2) errs.push(invalid(path, cidrs, 'may specify no more than one CIDR for each IP family'));
  }
  return errs;
}

/** `ValidateNodeUpdate` past its metadata: what `ValidateNode` checks again, addresses once each, fields fixed once set. */
function validateNodeUpdate(o: KubeObject, old: KubeObject): FieldError[] {
  const spec = specOf(o);
  const before = specOf(old);
  const errs = [...nodeAnnotationErrors(o), ...nodeResourceErrors(o)];
  const seen = new Set<string>();
  objects(statusOf(o).addresses).forEach((a, i) => {
    const printed = `{"Type":${goJSON(str(a.type))},"Address":${goJSON(str(a.address))}}`;
    if (seen.has(printed)) errs.push(new FieldError('FieldValueDuplicate', FieldPath.root('status', 'addresses').index(i), a, '', printed));
    seen.add(printed);
  });
  const oldCIDRs = strings(before.podCIDRs);
  const cidrs = strings(spec.podCIDRs);
  if (oldCIDRs.length > 0) {
    // One error per CIDR changed, or one for another count.
    const changed = oldCIDRs.length !== cidrs.length ? 1 : oldCIDRs.filter((c, i) => c !== cidrs[i]).length;
    for (let i = 0; i < changed; i++) errs.push(forbidden('spec.podCIDRs', podCIDRChange));
  }
  if (str(before.providerID) !== '' && str(before.providerID) !== str(spec.providerID)) errs.push(forbidden('spec.providerID', 'node updates may not change providerID except from "" to valid'));
  errs.push(...taintErrors(objects(spec.taints), FieldPath.root('metadata', 'taints')));
  if (str(spec.externalID) !== str(before.externalID)) errs.push(forbidden('spec.externalID', 'may not be updated'));
  return errs;
}

/** `nodeWarnings`: the deprecated external ID, pod CIDRs in a form a future release refuses. */
function nodeWarnings(o: KubeObject): string[] {
  const spec = specOf(o);
  const warnings = str(spec.externalID) !== '' ? ['spec.externalID: this field is deprecated, and is unused by Kubernetes'] : [];
  strings(spec.podCIDRs).forEach((c, i) => warnings.push(...cidrWarnings(FieldPath.root('spec', 'podCIDRs').index(i), c)));
  return warnings;
}

/** TaintNodesByCondition: a new node is not ready until it says so (unless it has the taint, whatever its value). */
function addNotReadyTaint(o: KubeObject): void {
  const spec = isObject(o.spec) ? o.spec : (o.spec = {});
  const taints = objects(spec.taints);
  if (taints.some((t) => str(t.key) === notReadyTaint && str(t.effect) === 'NoSchedule')) return;
  spec.taints = [...(Array.isArray(spec.taints) ? spec.taints : []), { key: notReadyTaint, effect: 'NoSchedule' }];
}

/** printNode's Status cell: Ready, NotReady or Unknown, then SchedulingDisabled for a cordoned node. */
function nodeStatusCell(o: KubeObject): string {
  const ready = objects(statusOf(o).conditions).filter((c) => c.type === 'Ready').at(-1);
  const status = [ready === undefined ? 'Unknown' : ready.status === 'True' ? 'Ready' : 'NotReady'];
  if (specOf(o).unschedulable === true) status.push('SchedulingDisabled');
  return status.join(',');
}

/** `findNodeRoles`: `node-role.kubernetes.io/<role>` labels and the `kubernetes.io/role` label's value, sorted. */
function nodeRoles(o: KubeObject): string {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(o.metadata.labels ?? {})) {
    if (k.startsWith(roleLabelPrefix) && k.length > roleLabelPrefix.length) roles.add(k.slice(roleLabelPrefix.length));
    else if (k === roleLabel && v !== '') roles.add(v);
  }
  return roles.size === 0 ? '<none>' : [...roles].sort().join(',');
}

/** The first address of a type, or `<none>`. */
function addressCell(type: string): (o: KubeObject) => string {
  return (o) => str(objects(statusOf(o).addresses).find((a) => a.type === type)?.address) || '<none>';
}

/** A `status.nodeInfo` member, or `<unknown>` when empty. */
function nodeInfoCell(member: string): (o: KubeObject) => string {
  return (o) => str(isObject(statusOf(o).nodeInfo) ? (statusOf(o).nodeInfo as JSONObject)[member] : undefined) || '<unknown>';
}

const node: BuiltinSpec = {
  names: { group: '', version: 'v1', resource: 'nodes', singular: 'node', kind: 'Node', namespaced: false, shortNames: ['no'], status: true, nameValidation: 'subdomain', kindSubresources: [proxySubresource('NodeProxyOptions')] },
  // printNode puts Age between Roles and Version.
  age: false,
  columns: [
    { def: { name: 'Status', type: 'string', priority: 0 }, cell: nodeStatusCell },
    { def: { name: 'Roles', type: 'string', priority: 0 }, cell: nodeRoles },
    { def: builtinAgeColumn, cell: ageCell },
    { def: { name: 'Version', type: 'string', priority: 0 }, cell: (o) => str(isObject(statusOf(o).nodeInfo) ? (statusOf(o).nodeInfo as JSONObject).kubeletVersion : undefined) },
  ],
  wide: [
    { def: { name: 'Internal-IP', type: 'string', priority: 1 }, cell: addressCell('InternalIP') },
    { def: { name: 'External-IP', type: 'string', priority: 1 }, cell: addressCell('ExternalIP') },
    { def: { name: 'OS-Image', type: 'string', priority: 1 }, cell: nodeInfoCell('osImage') },
    { def: { name: 'Kernel-Version', type: 'string', priority: 1 }, cell: nodeInfoCell('kernelVersion') },
    { def: { name: 'Container-Runtime', type: 'string', priority: 1 }, cell: nodeInfoCell('containerRuntimeVersion') },
  ],
  normalize: convertPodCIDRs,
  defaults: defaultNode,
  // The admission plugin, then the strategy's dropDisabledFields (RuntimeHandlers and Features are on in 1.34).
  prepareForCreate: (o) => {
    addNotReadyTaint(o);
    if (isObject(o.spec)) delete o.spec.configSource;
    if (isObject(o.status)) delete o.status.config;
  },
  prepareForUpdate: (o, old) => {
    if (isObject(o.spec) && !isObject(specOf(old).configSource)) delete o.spec.configSource;
  },
  dropStatusFields: (o, old) => {
    if (isObject(o.status) && !isObject(statusOf(old).config)) delete o.status.config;
  },
  // ValidateNode runs ValidateObjectMeta on every write of the main resource.
  updateValidatesMeta: true,
  validate: validateNode,
  validateUpdate: validateNodeUpdate,
  validateStatusUpdate: (o, old, meta) => [...meta, ...validateNodeUpdate(o, old)],
  warningsOnCreate: nodeWarnings,
  warningsOnUpdate: (o) => nodeWarnings(o),
};

/** The core/v1 Node kind the embedded server serves. */
export function nodeResourceTypes(): BuiltinResourceType[] {
  return [new BuiltinResourceType(node)];
}
