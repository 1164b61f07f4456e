/**
 * The serving and access kinds operators create: v1 Services (cluster IPs and node ports allocated,
 * their defaults), ServiceAccounts, PersistentVolumeClaims, and rbac.authorization.k8s.io/v1 Roles,
 * RoleBindings, ClusterRoles and ClusterRoleBindings (rule and `roleRef` validation, `roleRef`
 * immutable, and the storage's escalation check of rbacEscalation.ts) — with the Table columns of the
 * apiserver's printers.
 *
 * Nothing routes traffic or binds volumes: the objects are stored and shown.
 *
 * @see https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/core/validation/validation.go
 * @see https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/rbac/validation/validation.go
 */
import { FieldError, FieldPath, invalid, notSupported, required, type KubeObject } from '@kubekit/core';
import { BuiltinResourceType, createdAtColumn, type BuiltinSpec } from './builtinKinds.js';
import { childObject, isObject, setDefault, str, valueAt, type JSONObject } from './internal/own.js';
import { isDNS1123Subdomain, labelSelectorFromObject, validateLabelSelector, type LabelSelectorObject } from './internal/semantics.js';
import { pathSegmentErrors, validateObjectMeta, validateStrategyObjectMetaUpdate } from './objectMeta.js';
import { roundUpListToMilli } from './internal/resourceList.js';
import { pvcProtectionFinalizer } from './internal/claimProtection.js';
import { admitClaimStorageClass } from './storageKinds.js';
import type { ObjectStore } from './storage/objectStore.js';
import { cidrWarnings, claimSpecWarnings, ipWarnings, loadBalancerStatusWarnings } from './podWarnings.js';
import { prepareClaimSpec, validateClaim, validateClaimUpdate } from './claimValidation.js';
import { heldAddresses, storedServiceRanges } from './internal/serviceAddresses.js';
import { defaultService, ServiceAllocator, validateServiceCreate, validateServiceStatusUpdate, validateServiceUpdate } from './serviceValidation.js';
import { proxySubresource } from './proxySubresources.js';
import { RbacAuthorizer } from './rbacAuthorizer.js';
import { bindingEscalationGuard, roleEscalationGuard } from './rbacEscalation.js';

function list(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** `labels.FormatLabels`: `k=v,…` sorted, `<none>` when empty. */
function formatLabels(m: unknown): string {
  if (!isObject(m)) return '<none>';
  const keys = Object.keys(m).sort();
  return keys.length === 0 ? '<none>' : keys.map((k) => `${k}=${String(m[k])}`).join(',');
}

const servicesBucket = '/services';

function servicePorts(o: KubeObject): string {
  const ports = list(valueAt(o, 'spec', 'ports')).filter(isObject);
  if (ports.length === 0) return '<none>';
  return ports.map((p) => `${String(p.port)}${typeof p.nodePort === 'number' ? `:${p.nodePort}` : ''}/${String(p.protocol ?? 'TCP')}`).join(',');
}

function externalIP(o: KubeObject): string {
  const type = valueAt(o, 'spec', 'type');
  const external = list(valueAt(o, 'spec', 'externalIPs')).map(String);
  if (type === 'ExternalName') return String(valueAt(o, 'spec', 'externalName') ?? '');
  if (type === 'LoadBalancer') {
    const ingress = list(valueAt(o, 'status', 'loadBalancer', 'ingress')).filter(isObject).map((i) => String(i.ip ?? i.hostname ?? ''));
    const all = [...ingress, ...external];
    return all.length > 0 ? all.join(',') : '<pending>';
  }
  return external.length > 0 ? external.join(',') : '<none>';
}

function serviceSpec(allocator: ServiceAllocator): BuiltinSpec {
  return {
    names: { group: '', version: 'v1', resource: 'services', singular: 'service', kind: 'Service', namespaced: true, shortNames: ['svc'], categories: ['all'], status: true, nameValidation: 'dns1035', kindSubresources: [proxySubresource('ServiceProxyOptions')] },
    columns: [
      { def: { name: 'Type', type: 'string', priority: 0, description: 'type determines how the Service is exposed.' }, cell: (o) => String(valueAt(o, 'spec', 'type') ?? 'ClusterIP') },
      { def: { name: 'Cluster-IP', type: 'string', priority: 0, description: 'clusterIP is the IP address of the service.' }, cell: (o) => String(valueAt(o, 'spec', 'clusterIP') ?? '<none>') },
      { def: { name: 'External-IP', type: 'string', priority: 0, description: 'List of IP addresses for which nodes in the cluster will also accept traffic for this service.' }, cell: externalIP },
      { def: { name: 'Port(s)', type: 'string', priority: 0, description: 'The list of ports that are exposed by this service.' }, cell: servicePorts },
    ],
    wide: [{ def: { name: 'Selector', type: 'string', priority: 1, description: 'Route service traffic to pods with label keys and values matching this selector.' }, cell: (o) => formatLabels(valueAt(o, 'spec', 'selector')) }],
    defaults: defaultService,
    allowCreateOnUpdate: true,
    // The REST's ReturnDeletedObject.
    deleteReturnsObject: true,
    prepareForCreate: (o, _warnings, ctx) => {
      o.status = { loadBalancer: {} };
      // The allocator is the resource store's BeginCreate hook; the status store, copied from it before the
      // hooks were set, creates a Service (a PUT or an apply of /status) with nothing allocated.
      if (ctx.subresource !== 'status') allocator.allocateCreate(o, ctx.dryRun === true);
    },
    validateCreate: validateServiceCreate,
    warningsOnCreate: serviceWarnings,
    warningsOnUpdate: serviceWarnings,
    validateUpdate: validateServiceUpdate,
    validateStatusUpdate: (o, old, meta) => [...meta, ...validateServiceStatusUpdate(o, old)],
    warningsOnStatusUpdate: loadBalancerStatusWarnings,
  };
}

const serviceAccount: BuiltinSpec = {
  names: {
    group: '', version: 'v1', resource: 'serviceaccounts', singular: 'serviceaccount', kind: 'ServiceAccount', namespaced: true, shortNames: ['sa'], status: false, nameValidation: 'subdomain',
    kindSubresources: [{ subresource: 'token', group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest', verbs: ['create'] }],
  },
  columns: [{ def: { name: 'Secrets', type: 'string', priority: 0, description: 'Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use.' }, cell: (o) => list(o.secrets).length }],
  deleteReturnsObject: true,
};

const accessModeShort: Record<string, string> = { ReadWriteOnce: 'RWO', ReadOnlyMany: 'ROX', ReadWriteMany: 'RWX', ReadWriteOncePod: 'RWOP' };

/** `GetPersistentVolumeClaimClass`: the beta annotation, else `spec.storageClassName`, else `''`. */
export function storageClassOf(o: KubeObject): string {
  const annotated = o.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'];
  if (typeof annotated === 'string') return annotated;
  const name = valueAt(o, 'spec', 'storageClassName');
  return typeof name === 'string' ? name : '';
}

const persistentVolumeClaim = (store: ObjectStore | undefined): BuiltinSpec => ({
  names: { group: '', version: 'v1', resource: 'persistentvolumeclaims', singular: 'persistentvolumeclaim', kind: 'PersistentVolumeClaim', namespaced: true, shortNames: ['pvc'], status: true, nameValidation: 'subdomain' },
  deleteReturnsObject: true,
  columns: [
    { def: { name: 'Status', type: 'string', priority: 0, description: 'phase represents the current phase of PersistentVolumeClaim.' }, cell: (o) => String(valueAt(o, 'status', 'phase') ?? '') },
    { def: { name: 'Volume', type: 'string', priority: 0, description: 'volumeName is the binding reference to the PersistentVolume backing this claim.' }, cell: (o) => String(valueAt(o, 'spec', 'volumeName') ?? '') },
    { def: { name: 'Capacity', type: 'string', priority: 0, description: 'capacity represents the actual resources of the underlying volume.' }, cell: (o) => (valueAt(o, 'status', 'phase') === 'Bound' ? String(valueAt(o, 'status', 'capacity', 'storage') ?? '') : '') },
    { def: { name: 'Access Modes', type: 'string', priority: 0, description: 'accessModes contains the desired access modes the volume should have.' }, cell: (o) => list(valueAt(o, 'status', 'accessModes')).map((m) => accessModeShort[String(m)] ?? String(m)).join(',') },
    { def: { name: 'StorageClass', type: 'string', priority: 0, description: 'StorageClassName of the claim' }, cell: storageClassOf },
    { def: { name: 'VolumeAttributesClass', type: 'string', priority: 0, description: 'VolumeAttributesClass of the claim' }, cell: (o) => String(valueAt(o, 'status', 'currentVolumeAttributesClassName') ?? '<unset>') },
  ],
  wide: [{ def: { name: 'VolumeMode', type: 'string', priority: 1, description: 'volumeMode defines what type of volume is required by the claim.' }, cell: (o) => String(valueAt(o, 'spec', 'volumeMode') ?? '<unset>') }],
  defaults: (o) => {
    const spec = childObject(o, 'spec');
    setDefault(spec, 'volumeMode', 'Filesystem');
    // SetDefaults_ResourceList on the requested and reported quantities.
    if (isObject(spec.resources)) for (const list of ['limits', 'requests']) roundUpListToMilli(spec.resources[list]);
    if (isObject(o.status)) for (const list of ['capacity', 'allocatedResources']) roundUpListToMilli(o.status[list]);
  },
  prepareForCreate: (o) => {
    // The DefaultStorageClass admission plugin.
    if (store !== undefined) admitClaimStorageClass(o, store);
    o.status = { phase: 'Pending' };
    if (isObject(o.spec)) prepareClaimSpec(o.spec, undefined);
    // The StorageObjectInUseProtection admission plugin; the claim controller in controllers.ts removes it.
    const finalizers = o.metadata.finalizers ?? [];
    if (!finalizers.includes(pvcProtectionFinalizer)) o.metadata.finalizers = [...finalizers, pvcProtectionFinalizer];
  },
  prepareForUpdate: (o, old) => {
    if (isObject(o.spec)) prepareClaimSpec(o.spec, isObject(old.spec) ? old.spec : {});
  },
  validateCreate: validateClaim,
  validateUpdate: validateClaimUpdate,
  warningsOnCreate: claimWarnings,
  warningsOnUpdate: claimWarnings,
});

/** `GetWarningsForPersistentVolumeClaim`: the beta storage class annotation, and storage that is not a whole number of bytes. */
function claimWarnings(o: KubeObject): string[] {
  const annotations = o.metadata.annotations ?? {};
  const beta = 'volume.beta.kubernetes.io/storage-class';
  return [
    ...(Object.hasOwn(annotations, beta) ? [`${String(FieldPath.root('metadata', 'annotations').key(beta))}: deprecated since v1.8; use "storageClassName" attribute instead`] : []),
    ...claimSpecWarnings(FieldPath.root('spec'), o.spec),
  ];
}

const rbacGroup = 'rbac.authorization.k8s.io';

/** `ValidatePolicyRule` of each of a role's rules. */
function validateRules(o: KubeObject, namespaced: boolean): FieldError[] {
  const errs: FieldError[] = [];
  list(o.rules).forEach((rule, i) => {
    const p = FieldPath.root('rules').index(i);
    const r = isObject(rule) ? rule : {};
    if (list(r.verbs).length === 0) errs.push(required(p.child('verbs'), 'verbs must contain at least one value'));
    const urls = list(r.nonResourceURLs);
    if (urls.length > 0) {
      if (namespaced) errs.push(invalid(p.child('nonResourceURLs'), urls, 'namespaced rules cannot apply to non-resource URLs'));
      if (list(r.apiGroups).length > 0 || list(r.resources).length > 0 || list(r.resourceNames).length > 0) {
        errs.push(invalid(p.child('nonResourceURLs'), urls, 'rules cannot apply to both regular resources and non-resource URLs'));
      }
      return;
    }
    if (list(r.apiGroups).length === 0) errs.push(required(p.child('apiGroups'), 'resource rules must supply at least one api group'));
    if (list(r.resources).length === 0) errs.push(required(p.child('resources'), 'resource rules must supply at least one resource'));
  });
  return errs;
}

/**
 * A ClusterRole's aggregation rule (`ValidateClusterRole`): selectors required once the rule is there, each
 * a valid label selector. An update may keep label values its old selectors already had wrong
 * (`hasInvalidLabelValueInLabelSelector` of the strategy).
 */
function validateAggregationRule(o: KubeObject, old?: KubeObject): FieldError[] {
  const rule = o.aggregationRule;
  if (rule === undefined || rule === null) return [];
  const p = FieldPath.root('aggregationRule', 'clusterRoleSelectors');
  const selectors = isObject(rule) ? list(rule.clusterRoleSelectors) : [];
  const oldSelectors = old !== undefined && isObject(old.aggregationRule) ? list(old.aggregationRule.clusterRoleSelectors) : [];
  const allowInvalidLabelValueInSelector = oldSelectors.some((s) => validateLabelSelector(s as LabelSelectorObject, p).length > 0);
  const errs: FieldError[] = [];
  if (selectors.length === 0) errs.push(required(p, 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
  selectors.forEach((selector, i) => {
    errs.push(...validateLabelSelector(selector as LabelSelectorObject, p.index(i), { allowInvalidLabelValueInSelector }));
    try {
      labelSelectorFromObject(selector as LabelSelectorObject);
    } catch {
      // The converted selector, nil when it does not convert.
      errs.push(invalid(p.index(i), null, 'invalid label selector.'));
    }
  });
  return errs;
}

/** `ValidateRoleBinding` (`namespaced`) and `ValidateClusterRoleBinding` past the metadata. */
function validateBinding(o: KubeObject, namespaced: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  const ref = isObject(o.roleRef) ? o.roleRef : {};
  if (ref.apiGroup !== rbacGroup) errs.push(notSupported('roleRef.apiGroup', str(ref.apiGroup), [rbacGroup]));
  if (typeof ref.kind !== 'string' || !kinds.includes(ref.kind)) errs.push(notSupported('roleRef.kind', str(ref.kind), kinds));
  const refName = str(ref.name);
  if (refName === '') errs.push(required('roleRef.name', ''));
  // ValidateRBACName: a path segment name, as the RBAC objects' own names.
  else for (const msg of pathSegmentErrors(refName, false)) errs.push(invalid('roleRef.name', refName, msg));
  list(o.subjects).forEach((s, i) => errs.push(...validateSubject(isObject(s) ? s : {}, namespaced, FieldPath.root('subjects').index(i))));
  return errs;
}

/** `ValidateRoleBindingSubject`. */
function validateSubject(subject: JSONObject, namespaced: boolean, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(subject.name);
  const apiGroup = str(subject.apiGroup);
  if (name === '') errs.push(required(p.child('name'), ''));
  switch (subject.kind) {
    case 'ServiceAccount':
      // ValidateServiceAccountName.
      if (name !== '') for (const msg of isDNS1123Subdomain(name)) errs.push(invalid(p.child('name'), name, msg));
      if (apiGroup !== '') errs.push(notSupported(p.child('apiGroup'), apiGroup, ['']));
      if (!namespaced && str(subject.namespace) === '') errs.push(required(p.child('namespace'), ''));
      break;
    case 'User':
    case 'Group':
      if (apiGroup !== rbacGroup) errs.push(notSupported(p.child('apiGroup'), apiGroup, [rbacGroup]));
      break;
    default:
      errs.push(notSupported(p.child('kind'), str(subject.kind), ['ServiceAccount', 'User', 'Group']));
  }
  return errs;
}

function roleRefUnchanged(o: KubeObject, old: KubeObject): FieldError[] {
  // The structs compared field by field (a defaulted apiGroup is the same one, wherever the object holds it).
  const ref = isObject(o.roleRef) ? o.roleRef : {};
  const was = isObject(old.roleRef) ? old.roleRef : {};
  if (['apiGroup', 'kind', 'name'].every((k) => str(ref[k]) === str(was[k]))) return [];
  // The internal RoleRef has no JSON tags: Go prints its field names.
  const text = JSON.stringify({ APIGroup: String(ref.apiGroup ?? ''), Kind: String(ref.kind ?? ''), Name: String(ref.name ?? '') });
  return [new FieldError('FieldValueInvalid', 'roleRef', o.roleRef ?? null, 'cannot change roleRef', text)];
}

/**
 * The v1 defaults of a binding (rbac/v1 defaults.go): the roleRef's API group, and each subject's (none for a
 * service account, the RBAC group for a user or a group).
 */
function defaultBinding(o: KubeObject): void {
  const ref = isObject(o.roleRef) ? o.roleRef : (o.roleRef = {});
  if (str(ref.apiGroup) === '') ref.apiGroup = rbacGroup;
  for (const subject of list(o.subjects)) {
    if (!isObject(subject) || str(subject.apiGroup) !== '') continue;
    if (subject.kind === 'User' || subject.kind === 'Group') subject.apiGroup = rbacGroup;
  }
}

/**
 * The RBAC strategies' `ValidateUpdate`: `Validate<Kind>` of the new object, then `Validate<Kind>Update`, which
 * runs `Validate<Kind>` again before the metadata update and the binding's roleRef, so each error of the object
 * is in the causes twice (the message names it once), after rest.BeforeUpdate's generic checks.
 */
function rbacUpdate(namespaced: boolean, validate: (o: KubeObject, old?: KubeObject) => FieldError[], immutable?: (o: KubeObject, old: KubeObject) => FieldError[]): BuiltinSpec['validateWholeUpdate'] {
  const whole = (o: KubeObject, old: KubeObject): FieldError[] => [...validateObjectMeta(o.metadata, namespaced, 'pathSegment'), ...validate(o, old)];
  return (o, old, generic) => [
    ...generic,
    ...whole(o, old),
    ...whole(o, old), ...validateStrategyObjectMetaUpdate(o.metadata, old.metadata), ...(immutable?.(o, old) ?? []),
  ];
}

function subjectsOf(kind: string): (o: KubeObject) => string {
  return (o) => list(o.subjects).filter((s): s is JSONObject => isObject(s) && s.kind === kind)
    .map((s) => (kind === 'ServiceAccount' ? `${String(s.namespace ?? '')}/${String(s.name ?? '')}` : String(s.name ?? ''))).join(', ');
}

const bindingColumns = {
  columns: [{ def: { name: 'Role', type: 'string', priority: 0, description: 'RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace.' }, cell: (o: KubeObject) => `${String(valueAt(o, 'roleRef', 'kind') ?? '')}/${String(valueAt(o, 'roleRef', 'name') ?? '')}` }],
  wide: [
    { def: { name: 'Users', type: 'string', priority: 1, description: 'Users in the roleBinding' }, cell: subjectsOf('User') },
    { def: { name: 'Groups', type: 'string', priority: 1, description: 'Groups in the roleBinding' }, cell: subjectsOf('Group') },
    { def: { name: 'ServiceAccounts', type: 'string', priority: 1, description: 'ServiceAccounts in the roleBinding' }, cell: subjectsOf('ServiceAccount') },
  ],
};

const rbac = (resource: string, kind: string, namespaced: boolean): BuiltinSpec['names'] => ({
  group: rbacGroup, version: 'v1', resource, singular: resource.slice(0, -1), kind, namespaced, shortNames: [], status: false, nameValidation: 'pathSegment',
});

/**
 * The serving and access kinds (see the file comment); `store` lets Services avoid used addresses, taken
 * from `serviceRange` (an IPv4 CIDR, `10.96.0.0/12` by default).
 */
export function serviceResourceTypes(store?: ObjectStore, serviceRange?: string): BuiltinResourceType[] {
  const addresses = store === undefined ? undefined : { ranges: () => storedServiceRanges(store), held: (self: string | undefined) => heldAddresses(store, self) };
  // The RBAC storage's escalation check reads the stored roles and bindings.
  const authorizer = store === undefined ? undefined : new RbacAuthorizer(store);
  const allocator = new ServiceAllocator(store, servicesBucket, serviceRange, addresses);
  const serviceType = new BuiltinResourceType(serviceSpec(allocator));
  const prepare = serviceType.prepareForUpdate.bind(serviceType);
  serviceType.prepareForUpdate = (o, old, ctx) => {
    // The Service REST's beginUpdate runs before the strategy: kept values, IP families, allocations.
    if (ctx.subresource === '') allocator.allocateUpdate(o, old, ctx.dryRun === true);
    prepare(o, old, ctx);
    // The strategy's dropTypeDependentFields, after the status came back from the old object.
    if (ctx.subresource === '' && valueAt(o, 'spec', 'type') !== 'LoadBalancer' && isObject(o.status)) o.status = { ...o.status, loadBalancer: {} };
  };
  return [
    serviceType,
    new BuiltinResourceType(serviceAccount),
    new BuiltinResourceType(persistentVolumeClaim(store)),
    new BuiltinResourceType({
      names: rbac('roles', 'Role', true), allowCreateOnUpdate: true, age: false, columns: [createdAtColumn], validate: (o) => validateRules(o, true), validateWholeUpdate: rbacUpdate(true, (o) => validateRules(o, true)),
      guardWrite: authorizer === undefined ? undefined : roleEscalationGuard(authorizer, 'roles'),
    }),
    new BuiltinResourceType({
      names: rbac('rolebindings', 'RoleBinding', true), allowCreateOnUpdate: true, ...bindingColumns, defaults: defaultBinding, validate: (o) => validateBinding(o, true),
      validateWholeUpdate: rbacUpdate(true, (o) => validateBinding(o, true), roleRefUnchanged),
      guardWrite: authorizer === undefined ? undefined : bindingEscalationGuard(authorizer, 'rolebindings'),
    }),
    new BuiltinResourceType({
      names: rbac('clusterroles', 'ClusterRole', false), allowCreateOnUpdate: true, age: false, columns: [createdAtColumn], validate: (o) => [...validateRules(o, false), ...validateAggregationRule(o)],
      validateWholeUpdate: rbacUpdate(false, (o, old) => [...validateRules(o, false), ...validateAggregationRule(o, old)]),
      guardWrite: authorizer === undefined ? undefined : roleEscalationGuard(authorizer, 'clusterroles'),
    }),
    new BuiltinResourceType({
      names: rbac('clusterrolebindings', 'ClusterRoleBinding', false), allowCreateOnUpdate: true, ...bindingColumns, defaults: defaultBinding, validate: (o) => validateBinding(o, false),
      validateWholeUpdate: rbacUpdate(false, (o) => validateBinding(o, false), roleRefUnchanged),
      guardWrite: authorizer === undefined ? undefined : bindingEscalationGuard(authorizer, 'clusterrolebindings'),
    }),
  ];
}

/**
 * `GetWarningsForService` (on create and on every update): the deprecated topology hints annotation, cluster
 * and external IPs and the load balancer IP in a non-standard form, what a headless Service ignores, load
 * balancer source ranges that are ambiguous or in a non-standard form, and an external name or external IPs
 * the type ignores.
 */
function serviceWarnings(o: KubeObject): string[] {
  const warnings: string[] = [];
  const annotations = o.metadata.annotations ?? {};
  if (Object.hasOwn(annotations, 'service.kubernetes.io/topology-aware-hints')) {
    warnings.push('annotation service.kubernetes.io/topology-aware-hints is deprecated, please use service.kubernetes.io/topology-mode instead');
  }
  const spec = isObject(o.spec) ? o.spec : {};
  const text = (v: unknown): string => (typeof v === 'string' ? v : '');
  const clusterIP = text(spec.clusterIP);
  const clusterIPs = Array.isArray(spec.clusterIPs) ? spec.clusterIPs.map(text) : [];
  // helper.IsServiceIPSet: a cluster IP that is neither empty nor None.
  if (clusterIP !== '' && clusterIP !== 'None') clusterIPs.forEach((ip, i) => warnings.push(...ipWarnings(FieldPath.root('spec', 'clusterIPs').index(i), ip)));
  const externalIPs = Array.isArray(spec.externalIPs) ? spec.externalIPs.map(text) : [];
  if (spec.type === 'ClusterIP' && clusterIP === 'None') {
    if (text(spec.loadBalancerIP) !== '') warnings.push('spec.loadBalancerIP is ignored for headless services');
    if (externalIPs.length > 0) warnings.push('spec.externalIPs is ignored for headless services');
    if (spec.sessionAffinity !== 'None') warnings.push('spec.SessionAffinity is ignored for headless services');
  }
  externalIPs.forEach((ip, i) => warnings.push(...ipWarnings(FieldPath.root('spec', 'externalIPs').index(i), ip)));
  if (text(spec.loadBalancerIP) !== '') warnings.push(...ipWarnings(FieldPath.root('spec', 'loadBalancerIP'), text(spec.loadBalancerIP)));
  (Array.isArray(spec.loadBalancerSourceRanges) ? spec.loadBalancerSourceRanges.map(text) : []).forEach((r, i) => warnings.push(...cidrWarnings(FieldPath.root('spec', 'loadBalancerSourceRanges').index(i), r)));
  if (spec.type === 'ExternalName' && externalIPs.length > 0) warnings.push('spec.externalIPs is ignored when spec.type is "ExternalName"');
  if (spec.type !== 'ExternalName' && text(spec.externalName) !== '') warnings.push('spec.externalName is ignored when spec.type is not "ExternalName"');
  return warnings;
}
