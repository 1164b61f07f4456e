// The built-in kinds' field selection, transcribed from kubernetes/kubernetes: the field label
// conversion functions (pkg/apis/<group>/<version>/conversion.go, or runtime's default conversion
// when a kind registers none) and the GetAttrs/ToSelectableFields functions (pkg/registry/...).
// Objects are read in their wire (JSON) form; where the apiserver computes a field from its internal
// type, the extractor replays the v1 → internal conversion (Pod `status.podIP`, `spec.hostNetwork`,
// `spec.serviceAccountName`; events.k8s.io `regarding`).
import { goQuote } from '@kubekit/core';
import type { FieldExtractor } from '../resourceFields.js';
import { boolValue, intValue, stringValue } from './goValue.js';
import { compileReader } from './jsonPath.js';

/** How a kind converts field labels. */
export interface LabelConversion {
  /** Accepted labels in the order the conversion function lists them. */
  labels: readonly string[];
  /** Accepted labels that are rewritten, label → field set key. */
  aliases?: Readonly<Record<string, string>>;
  /** The conversion function's error text for a rejected label. */
  error: (label: string, apiVersion: string, kind: string) => string;
}

/** One built-in kind in one or more API versions. */
export interface KindSpec {
  group: string;
  versions: readonly string[];
  kind: string;
  namespaced: boolean;
  /** `ObjectMetaFieldsSet(meta, hasNamespaceField)` when it differs from `namespaced`. */
  metadataNamespaceField?: boolean;
  /** Field set entries beyond the metadata ones. */
  fields?: ReadonlyArray<readonly [string, FieldExtractor]>;
  /** The kind's own conversion function; absent means runtime.DefaultMetaV1FieldSelectorConversion. */
  conversion?: LabelConversion;
  /** Legacy behaviour worth telling a user, per field label or field set key. */
  notes?: Readonly<Record<string, string>>;
}

/** `runtime.DefaultMetaV1FieldSelectorConversion`, used for every kind without its own function. */
export const defaultConversion: LabelConversion = {
  labels: ['metadata.name', 'metadata.namespace'],
  error: (label) => `${goQuote(label)} is not a known field selector: only "metadata.name", "metadata.namespace"`,
};

const notSupported = (label: string): string => `field label not supported: ${label}`;

const str = (...path: string[]): FieldExtractor => {
  const read = compileReader(path);
  return (o) => stringValue(read(o));
};
const bool = (...path: string[]): FieldExtractor => {
  const read = compileReader(path);
  return (o) => boolValue(read(o));
};
const int = (...path: string[]): FieldExtractor => {
  const read = compileReader(path);
  return (o) => intValue(read(o));
};
/** The first non-empty string of several fields (Go conversions that fall back to a second field). */
const firstOf = (...extractors: FieldExtractor[]): FieldExtractor => (o) => {
  for (const e of extractors) {
    const v = e(o);
    if (v !== '') return v;
  }
  return '';
};

const readPodIPs = compileReader(['status', 'podIPs']);
const readIp = compileReader(['ip']);
/** `status.podIP`: the internal PodIPs[0], which the v1 conversion takes from `podIP` when it is set. */
const podIP: FieldExtractor = firstOf(str('status', 'podIP'), (o) => {
  const ips = readPodIPs(o);
  return Array.isArray(ips) && ips.length > 0 ? stringValue(readIp(ips[0])) : '';
});

const eventInvolvedObject = (ref: string): Array<readonly [string, FieldExtractor]> =>
  ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'].map((f) => [`involvedObject.${f}`, str(ref, f)] as const);

const namespacedMetaOnly = (group: string, versions: readonly string[], ...kinds: string[]): KindSpec[] =>
  kinds.map((kind) => ({ group, versions, kind, namespaced: true }));
const clusterMetaOnly = (group: string, versions: readonly string[], ...kinds: string[]): KindSpec[] =>
  kinds.map((kind) => ({ group, versions, kind, namespaced: false }));

const legacyName = 'legacy field set key: "This is a bug, but we need to support it for backward compatibility." It holds metadata.name, but the apiserver does not accept it as a field label.';

/** Every built-in kind kubekit knows, grouped by API group. */
export const kindSpecs: readonly KindSpec[] = [
  // core/v1
  {
    group: '', versions: ['v1'], kind: 'Pod', namespaced: true,
    fields: [
      ['spec.nodeName', str('spec', 'nodeName')],
      ['spec.restartPolicy', str('spec', 'restartPolicy')],
      ['spec.schedulerName', str('spec', 'schedulerName')],
      ['spec.serviceAccountName', firstOf(str('spec', 'serviceAccountName'), str('spec', 'serviceAccount'))],
      ['spec.hostNetwork', bool('spec', 'hostNetwork')],
      ['status.phase', str('status', 'phase')],
      ['status.podIP', podIP],
      ['status.nominatedNodeName', str('status', 'nominatedNodeName')],
    ],
    conversion: {
      labels: ['metadata.name', 'metadata.namespace', 'spec.nodeName', 'spec.restartPolicy', 'spec.schedulerName',
        'spec.serviceAccountName', 'spec.hostNetwork', 'status.phase', 'status.podIP', 'status.podIPs',
        'status.nominatedNodeName', 'spec.host'],
      aliases: { 'spec.host': 'spec.nodeName' },
      error: notSupported,
    },
    notes: {
      'spec.host': 'accepted for old v1 clients and rewritten to spec.nodeName',
      'spec.hostNetwork': 'set to "false" when the field is omitted (internally spec.securityContext.hostNetwork)',
      'spec.serviceAccountName': 'falls back to the deprecated spec.serviceAccount',
      'status.podIP': 'status.podIPs[0].ip (status.podIP when set); "" when the pod has no IP',
      'status.podIPs': 'accepted, but not in the field set: it always reads as ""',
    },
  },
  {
    group: '', versions: ['v1'], kind: 'Node', namespaced: false,
    fields: [['spec.unschedulable', bool('spec', 'unschedulable')]],
    conversion: { labels: ['metadata.name', 'spec.unschedulable'], error: notSupported },
    notes: { 'spec.unschedulable': 'fmt.Sprint(bool): "false" when omitted' },
  },
  {
    group: '', versions: ['v1'], kind: 'ReplicationController', namespaced: true,
    fields: [['status.replicas', int('status', 'replicas')]],
    conversion: { labels: ['metadata.name', 'metadata.namespace', 'status.replicas'], error: notSupported },
    notes: { 'status.replicas': 'strconv.Itoa: "0" when omitted' },
  },
  {
    group: '', versions: ['v1'], kind: 'Event', namespaced: true,
    fields: [
      ...eventInvolvedObject('involvedObject'),
      ['reason', str('reason')],
      ['reportingComponent', str('reportingComponent')],
      ['source', firstOf(str('source', 'component'), str('reportingComponent'))],
      ['type', str('type')],
    ],
    conversion: {
      labels: ['involvedObject.kind', 'involvedObject.namespace', 'involvedObject.name', 'involvedObject.uid',
        'involvedObject.apiVersion', 'involvedObject.resourceVersion', 'involvedObject.fieldPath', 'reason',
        'reportingComponent', 'source', 'type', 'metadata.namespace', 'metadata.name'],
      error: notSupported,
    },
    notes: { source: 'source.component, or reportingComponent when source.component is empty' },
  },
  {
    group: '', versions: ['v1'], kind: 'Namespace', namespaced: false,
    fields: [['status.phase', str('status', 'phase')], ['name', str('metadata', 'name')]],
    conversion: { labels: ['status.phase', 'metadata.name'], error: notSupported },
    notes: { name: legacyName },
  },
  {
    group: '', versions: ['v1'], kind: 'Secret', namespaced: true,
    fields: [['type', str('type')]],
    conversion: { labels: ['type', 'metadata.namespace', 'metadata.name'], error: notSupported },
  },
  {
    group: '', versions: ['v1'], kind: 'Service', namespaced: true,
    fields: [['spec.clusterIP', str('spec', 'clusterIP')], ['spec.type', str('spec', 'type')]],
    conversion: { labels: ['metadata.namespace', 'metadata.name', 'spec.clusterIP', 'spec.type'], error: notSupported },
  },
  {
    group: '', versions: ['v1'], kind: 'PersistentVolume', namespaced: false,
    fields: [['name', str('metadata', 'name')]],
    notes: { name: legacyName },
  },
  {
    group: '', versions: ['v1'], kind: 'PersistentVolumeClaim', namespaced: true,
    fields: [['name', str('metadata', 'name')]],
    notes: { name: legacyName },
  },
  ...namespacedMetaOnly('', ['v1'], 'ConfigMap', 'Endpoints', 'LimitRange', 'PodTemplate', 'ResourceQuota', 'ServiceAccount'),
  ...clusterMetaOnly('', ['v1'], 'ComponentStatus'),

  // apps/v1
  {
    group: 'apps', versions: ['v1'], kind: 'ReplicaSet', namespaced: true,
    fields: [['status.replicas', int('status', 'replicas')]],
    notes: { 'status.replicas': 'in the field set, but apps/v1 registers no conversion for it, so the apiserver rejects it as a field label (kubernetes/kubernetes#135136)' },
  },
  ...namespacedMetaOnly('apps', ['v1'], 'Deployment', 'DaemonSet', 'StatefulSet', 'ControllerRevision'),

  // batch/v1
  {
    group: 'batch', versions: ['v1'], kind: 'Job', namespaced: true,
    fields: [['status.successful', int('status', 'succeeded')]],
    conversion: {
      labels: ['metadata.name', 'metadata.namespace', 'status.successful'],
      error: (label) => `field label ${goQuote(label)} not supported for Job`,
    },
    notes: { 'status.successful': 'status.succeeded (strconv.Itoa: "0" when omitted)' },
  },
  ...namespacedMetaOnly('batch', ['v1'], 'CronJob'),

  // certificates.k8s.io
  {
    group: 'certificates.k8s.io', versions: ['v1'], kind: 'CertificateSigningRequest', namespaced: false,
    fields: [['spec.signerName', str('spec', 'signerName')]],
    conversion: { labels: ['metadata.name', 'spec.signerName'], error: notSupported },
  },
  {
    group: 'certificates.k8s.io', versions: ['v1alpha1', 'v1beta1'], kind: 'ClusterTrustBundle', namespaced: false,
    fields: [['spec.signerName', str('spec', 'signerName')]],
    conversion: { labels: ['metadata.name', 'spec.signerName'], error: notSupported },
  },
  {
    group: 'certificates.k8s.io', versions: ['v1alpha1', 'v1beta1', 'v1'], kind: 'PodCertificateRequest', namespaced: true,
    fields: [
      ['spec.signerName', str('spec', 'signerName')],
      ['spec.podName', str('spec', 'podName')],
      ['spec.nodeName', str('spec', 'nodeName')],
    ],
    conversion: { labels: ['metadata.name', 'spec.signerName', 'spec.podName', 'spec.nodeName'], error: notSupported },
    notes: { 'metadata.namespace': 'in the field set, but not accepted as a field label' },
  },

  // events.k8s.io/v1: the same internal Event, so the same field set keys; its own labels map onto them.
  {
    group: 'events.k8s.io', versions: ['v1'], kind: 'Event', namespaced: true,
    fields: [
      ...eventInvolvedObject('regarding'),
      ['reason', str('reason')],
      ['reportingComponent', str('reportingController')],
      ['source', firstOf(str('deprecatedSource', 'component'), str('reportingController'))],
      ['type', str('type')],
    ],
    conversion: {
      labels: ['reason', 'regarding.kind', 'regarding.namespace', 'regarding.name', 'regarding.uid', 'regarding.apiVersion',
        'regarding.resourceVersion', 'regarding.fieldPath', 'reportingController', 'type', 'metadata.namespace',
        'metadata.name'],
      aliases: {
        'regarding.kind': 'involvedObject.kind',
        'regarding.namespace': 'involvedObject.namespace',
        'regarding.name': 'involvedObject.name',
        'regarding.uid': 'involvedObject.uid',
        'regarding.apiVersion': 'involvedObject.apiVersion',
        'regarding.resourceVersion': 'involvedObject.resourceVersion',
        'regarding.fieldPath': 'involvedObject.fieldPath',
        reportingController: 'reportingComponent',
      },
      error: notSupported,
    },
    notes: {
      source: 'deprecatedSource.component, or reportingController when that is empty; in the field set, but not a label events.k8s.io/v1 accepts (AddFieldLabelConversionsForEvent)',
      reportingController: 'rewritten to the core/v1 name reportingComponent',
    },
  },

  // resource.k8s.io
  {
    group: 'resource.k8s.io', versions: ['v1beta1', 'v1beta2', 'v1'], kind: 'ResourceSlice', namespaced: false,
    fields: [['spec.nodeName', str('spec', 'nodeName')], ['spec.driver', str('spec', 'driver')]],
    conversion: {
      labels: ['metadata.name', 'spec.nodeName', 'spec.driver'],
      error: (label, apiVersion, kind) => `field label not supported for ${apiVersion}, Kind=${kind}: ${label}`,
    },
  },
  ...clusterMetaOnly('resource.k8s.io', ['v1beta1', 'v1beta2', 'v1'], 'DeviceClass'),
  ...namespacedMetaOnly('resource.k8s.io', ['v1beta1', 'v1beta2', 'v1'], 'ResourceClaim', 'ResourceClaimTemplate'),

  // Kinds whose field set is only metadata and whose labels go through the default conversion.
  ...namespacedMetaOnly('autoscaling', ['v1', 'v2'], 'HorizontalPodAutoscaler'),
  ...namespacedMetaOnly('policy', ['v1'], 'PodDisruptionBudget'),
  ...namespacedMetaOnly('networking.k8s.io', ['v1'], 'Ingress', 'NetworkPolicy'),
  ...clusterMetaOnly('networking.k8s.io', ['v1'], 'IngressClass', 'IPAddress', 'ServiceCIDR'),
  ...namespacedMetaOnly('discovery.k8s.io', ['v1'], 'EndpointSlice'),
  ...namespacedMetaOnly('rbac.authorization.k8s.io', ['v1'], 'Role', 'RoleBinding'),
  ...clusterMetaOnly('rbac.authorization.k8s.io', ['v1'], 'ClusterRole', 'ClusterRoleBinding'),
  ...clusterMetaOnly('storage.k8s.io', ['v1'], 'StorageClass', 'CSIDriver', 'CSINode', 'VolumeAttachment', 'VolumeAttributesClass'),
  ...namespacedMetaOnly('storage.k8s.io', ['v1'], 'CSIStorageCapacity'),
  ...clusterMetaOnly('scheduling.k8s.io', ['v1'], 'PriorityClass'),
  ...namespacedMetaOnly('coordination.k8s.io', ['v1'], 'Lease'),
  ...clusterMetaOnly('node.k8s.io', ['v1'], 'RuntimeClass'),
  ...clusterMetaOnly('admissionregistration.k8s.io', ['v1'], 'MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration',
    'ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding'),
  { group: 'apiextensions.k8s.io', versions: ['v1'], kind: 'CustomResourceDefinition', namespaced: false, metadataNamespaceField: true },
  ...clusterMetaOnly('apiregistration.k8s.io', ['v1'], 'APIService'),
  ...clusterMetaOnly('flowcontrol.apiserver.k8s.io', ['v1'], 'FlowSchema', 'PriorityLevelConfiguration'),
];
