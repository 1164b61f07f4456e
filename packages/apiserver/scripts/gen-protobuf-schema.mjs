#!/usr/bin/env node
// Generates src/internal/protobufSchema.ts: the field numbers, names and types of the protobuf messages
// reachable from the built-in kinds, their lists and the meta.k8s.io messages an answer is written in
// (Status, WatchEvent, PartialObjectMetadata), read from the `generated.proto` files of a k8s.io/api and
// a k8s.io/apimachinery checkout, and a k8s.io/kube-aggregator one for apiregistration.k8s.io (facts of the wire format); and, from the `generated.pb.go` files next to
// them, which fields the generated `Marshal` writes only when set (`if m.Field != nil`: pointers and
// byte slices), every other one being written even when empty.
//
// Usage: node packages/apiserver/scripts/gen-protobuf-schema.mjs <k8s.io/api dir> <k8s.io/apimachinery dir> <k8s.io/kube-aggregator dir>
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const [apiDir, machineryDir, aggregatorDir] = process.argv.slice(2);
if (apiDir === undefined || machineryDir === undefined || aggregatorDir === undefined) {
  console.error('usage: gen-protobuf-schema.mjs <k8s.io/api dir> <k8s.io/apimachinery dir> <k8s.io/kube-aggregator dir>');
  process.exit(1);
}
const files = {
  core: join(apiDir, 'core/v1/generated.proto'),
  apps: join(apiDir, 'apps/v1/generated.proto'),
  batch: join(apiDir, 'batch/v1/generated.proto'),
  rbac: join(apiDir, 'rbac/v1/generated.proto'),
  policy: join(apiDir, 'policy/v1/generated.proto'),
  networking: join(apiDir, 'networking/v1/generated.proto'),
  authorization: join(apiDir, 'authorization/v1/generated.proto'),
  authentication: join(apiDir, 'authentication/v1/generated.proto'),
  scheduling: join(apiDir, 'scheduling/v1/generated.proto'),
  certificates: join(apiDir, 'certificates/v1/generated.proto'),
  node: join(apiDir, 'node/v1/generated.proto'),
  events: join(apiDir, 'events/v1/generated.proto'),
  discovery: join(apiDir, 'discovery/v1/generated.proto'),
  autoscaling: join(apiDir, 'autoscaling/v1/generated.proto'),
  autoscalingv2: join(apiDir, 'autoscaling/v2/generated.proto'),
  admissionregistration: join(apiDir, 'admissionregistration/v1/generated.proto'),
  storage: join(apiDir, 'storage/v1/generated.proto'),
  resourcev1: join(apiDir, 'resource/v1/generated.proto'),
  coordination: join(apiDir, 'coordination/v1/generated.proto'),
  flowcontrol: join(apiDir, 'flowcontrol/v1/generated.proto'),
  apiregistration: join(aggregatorDir, 'pkg/apis/apiregistration/v1/generated.proto'),
  meta: join(machineryDir, 'pkg/apis/meta/v1/generated.proto'),
  resource: join(machineryDir, 'pkg/api/resource/generated.proto'),
  intstr: join(machineryDir, 'pkg/util/intstr/generated.proto'),
  runtime: join(machineryDir, 'pkg/runtime/generated.proto'),
};
const packages = {
  'k8s.io.api.core.v1': 'core', 'k8s.io.api.apps.v1': 'apps', 'k8s.io.api.batch.v1': 'batch', 'k8s.io.api.rbac.v1': 'rbac', 'k8s.io.api.policy.v1': 'policy', 'k8s.io.api.networking.v1': 'networking', 'k8s.io.api.scheduling.v1': 'scheduling', 'k8s.io.api.node.v1': 'node', 'k8s.io.api.certificates.v1': 'certificates', 'k8s.io.api.events.v1': 'events', 'k8s.io.api.discovery.v1': 'discovery',
  'k8s.io.api.autoscaling.v1': 'autoscaling', 'k8s.io.api.autoscaling.v2': 'autoscalingv2',
  'k8s.io.api.admissionregistration.v1': 'admissionregistration', 'k8s.io.api.storage.v1': 'storage', 'k8s.io.api.resource.v1': 'resourcev1', 'k8s.io.api.coordination.v1': 'coordination', 'k8s.io.api.flowcontrol.v1': 'flowcontrol',
  'k8s.io.api.authorization.v1': 'authorization', 'k8s.io.api.authentication.v1': 'authentication',
  'k8s.io.kube_aggregator.pkg.apis.apiregistration.v1': 'apiregistration',
  'k8s.io.apimachinery.pkg.apis.meta.v1': 'meta', 'k8s.io.apimachinery.pkg.api.resource': 'resource',
  'k8s.io.apimachinery.pkg.util.intstr': 'intstr', 'k8s.io.apimachinery.pkg.runtime': 'runtime',
};
const scalars = new Set(['string', 'int32', 'int64', 'bool', 'bytes', 'double', 'float', 'uint32', 'uint64', 'sint32', 'sint64', 'fixed32', 'fixed64']);
/** Messages with a JSON form of their own. */
const special = { 'meta.Time': 'time', 'meta.MicroTime': 'time', 'resource.Quantity': 'quantity', 'intstr.IntOrString': 'intstr', 'runtime.RawExtension': 'raw', 'meta.FieldsV1': 'raw', 'meta.Duration': 'duration', 'authentication.ExtraValue': 'strings', 'authorization.ExtraValue': 'strings', 'certificates.ExtraValue': 'strings' };

const messages = {};
for (const [short, file] of Object.entries(files)) {
  let current;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const m = /^message (\w+) \{/.exec(line);
    if (m) { current = `${short}.${m[1]}`; messages[current] = []; continue; }
    if (line.startsWith('}')) { current = undefined; continue; }
    if (current === undefined) continue;
    const f = /^\s*(optional|repeated)?\s*(map<\s*([\w.]+)\s*,\s*([\w.]+)\s*>|[\w.]+)\s+(\w+)\s*=\s*(\d+);/.exec(line);
    if (!f) continue;
    const resolve = (t) => {
      if (scalars.has(t)) return t;
      const dot = t.lastIndexOf('.');
      if (dot < 0) return `${short}.${t}`;
      const pkg = packages[t.slice(1, dot)];
      if (pkg === undefined) throw new Error(`unknown package of ${t}`);
      return `${pkg}.${t.slice(dot + 1)}`;
    };
    const type = f[3] !== undefined ? `map:${resolve(f[4])}` : resolve(f[2]);
    messages[current].push([Number(f[6]), f[5], type, f[1] === 'repeated' ? 1 : 0]);
  }
}

/**
 * The field numbers the generated code writes only when set, by message: a Go struct's fields read from
 * the package's sources (`Name Type \`... protobuf:"bytes,3,..."\``), and the `if m.Name != nil {` of its
 * `MarshalToSizedBuffer` in generated.pb.go.
 */
function optionalFields(short, protoFile) {
  const dir = dirname(protoFile);
  const numbers = new Map();
  for (const file of readdirSync(dir)) {
    if (!file.endsWith('.go') || file.endsWith('_test.go')) continue;
    let struct;
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      const t = /^type (\w+) struct \{/.exec(line);
      if (t) { struct = t[1]; continue; }
      if (line.startsWith('}')) { struct = undefined; continue; }
      if (struct === undefined) continue;
      const f = /^\s+(?:(\w+)\s+[^`]*|\*?(?:\w+\.)?(\w+)\s*)`[^`]*protobuf:"\w+,(\d+),/.exec(line);
      if (f) numbers.set(`${struct}.${f[1] ?? f[2]}`, Number(f[3]));
    }
  }
  const optional = {};
  const pb = readFileSync(join(dir, 'generated.pb.go'), 'utf8');
  for (const m of pb.matchAll(/^func \(m \*(\w+)\) MarshalToSizedBuffer\(dAtA \[\]byte\) \(int, error\) \{\n([\s\S]*?)\n\}/gm)) {
    const set = new Set();
    for (const c of m[2].matchAll(/^\tif m\.(\w+) != nil \{/gm)) {
      const n = numbers.get(`${m[1]}.${c[1]}`);
      if (n === undefined) throw new Error(`no field number of ${m[1]}.${c[1]} in ${dir}`);
      set.add(n);
    }
    optional[`${short}.${m[1]}`] = set;
  }
  return optional;
}
const optional = {};
for (const [short, file] of Object.entries(files)) {
  if (short === 'resource' || short === 'intstr') continue;
  Object.assign(optional, optionalFields(short, file));
}
const kinds = {
  'apps/v1/Deployment': 'apps.Deployment', 'apps/v1/StatefulSet': 'apps.StatefulSet', 'apps/v1/DaemonSet': 'apps.DaemonSet', 'apps/v1/ReplicaSet': 'apps.ReplicaSet', 'apps/v1/ControllerRevision': 'apps.ControllerRevision',
  'batch/v1/Job': 'batch.Job', 'batch/v1/CronJob': 'batch.CronJob',
  'v1/Service': 'core.Service', 'v1/ServiceAccount': 'core.ServiceAccount', 'v1/PersistentVolumeClaim': 'core.PersistentVolumeClaim', 'v1/Pod': 'core.Pod', 'v1/Endpoints': 'core.Endpoints', 'v1/ResourceQuota': 'core.ResourceQuota', 'v1/LimitRange': 'core.LimitRange', 'v1/PersistentVolume': 'core.PersistentVolume',
  'v1/ReplicationController': 'core.ReplicationController', 'v1/PodTemplate': 'core.PodTemplate', 'v1/Binding': 'core.Binding',
  'rbac.authorization.k8s.io/v1/Role': 'rbac.Role', 'rbac.authorization.k8s.io/v1/RoleBinding': 'rbac.RoleBinding',
  'rbac.authorization.k8s.io/v1/ClusterRole': 'rbac.ClusterRole', 'rbac.authorization.k8s.io/v1/ClusterRoleBinding': 'rbac.ClusterRoleBinding',
  'policy/v1/PodDisruptionBudget': 'policy.PodDisruptionBudget', 'policy/v1/Eviction': 'policy.Eviction',
  'networking.k8s.io/v1/Ingress': 'networking.Ingress', 'networking.k8s.io/v1/IngressClass': 'networking.IngressClass', 'networking.k8s.io/v1/NetworkPolicy': 'networking.NetworkPolicy', 'networking.k8s.io/v1/ServiceCIDR': 'networking.ServiceCIDR', 'networking.k8s.io/v1/IPAddress': 'networking.IPAddress',
  'authorization.k8s.io/v1/SubjectAccessReview': 'authorization.SubjectAccessReview', 'authorization.k8s.io/v1/LocalSubjectAccessReview': 'authorization.LocalSubjectAccessReview',
  'authorization.k8s.io/v1/SelfSubjectAccessReview': 'authorization.SelfSubjectAccessReview', 'authorization.k8s.io/v1/SelfSubjectRulesReview': 'authorization.SelfSubjectRulesReview',
  'authentication.k8s.io/v1/TokenReview': 'authentication.TokenReview', 'authentication.k8s.io/v1/TokenRequest': 'authentication.TokenRequest', 'authentication.k8s.io/v1/SelfSubjectReview': 'authentication.SelfSubjectReview',
  'scheduling.k8s.io/v1/PriorityClass': 'scheduling.PriorityClass',
  'certificates.k8s.io/v1/CertificateSigningRequest': 'certificates.CertificateSigningRequest',
  'node.k8s.io/v1/RuntimeClass': 'node.RuntimeClass',
  'storage.k8s.io/v1/StorageClass': 'storage.StorageClass', 'storage.k8s.io/v1/VolumeAttributesClass': 'storage.VolumeAttributesClass', 'storage.k8s.io/v1/CSIDriver': 'storage.CSIDriver',
  'storage.k8s.io/v1/CSINode': 'storage.CSINode', 'storage.k8s.io/v1/CSIStorageCapacity': 'storage.CSIStorageCapacity', 'storage.k8s.io/v1/VolumeAttachment': 'storage.VolumeAttachment',
  'resource.k8s.io/v1/DeviceClass': 'resourcev1.DeviceClass', 'resource.k8s.io/v1/ResourceClaim': 'resourcev1.ResourceClaim',
  'resource.k8s.io/v1/ResourceClaimTemplate': 'resourcev1.ResourceClaimTemplate', 'resource.k8s.io/v1/ResourceSlice': 'resourcev1.ResourceSlice',
  'flowcontrol.apiserver.k8s.io/v1/FlowSchema': 'flowcontrol.FlowSchema', 'flowcontrol.apiserver.k8s.io/v1/PriorityLevelConfiguration': 'flowcontrol.PriorityLevelConfiguration',
  'events.k8s.io/v1/Event': 'events.Event',
  'discovery.k8s.io/v1/EndpointSlice': 'discovery.EndpointSlice',
  'autoscaling/v1/HorizontalPodAutoscaler': 'autoscaling.HorizontalPodAutoscaler', 'autoscaling/v2/HorizontalPodAutoscaler': 'autoscalingv2.HorizontalPodAutoscaler',
  'admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy': 'admissionregistration.ValidatingAdmissionPolicy',
  'admissionregistration.k8s.io/v1/ValidatingAdmissionPolicyBinding': 'admissionregistration.ValidatingAdmissionPolicyBinding',
  'apiregistration.k8s.io/v1/APIService': 'apiregistration.APIService',
};
// The other messages an answer is written in: the served kinds requests do not send as protobuf (ConfigMap,
// Secret and Namespace have decoders of their own), each kind's list, a scale subresource's Scale, and
// meta.k8s.io's.
const answers = {
  'v1/ConfigMap': 'core.ConfigMap', 'v1/Secret': 'core.Secret', 'v1/Namespace': 'core.Namespace', 'v1/Node': 'core.Node', 'v1/Event': 'core.Event',
  'v1/ComponentStatus': 'core.ComponentStatus',
  'coordination.k8s.io/v1/Lease': 'coordination.Lease',
  'admissionregistration.k8s.io/v1/MutatingWebhookConfiguration': 'admissionregistration.MutatingWebhookConfiguration',
  'admissionregistration.k8s.io/v1/ValidatingWebhookConfiguration': 'admissionregistration.ValidatingWebhookConfiguration',
  'v1/Status': 'meta.Status', 'meta.k8s.io/v1/WatchEvent': 'meta.WatchEvent',
  'meta.k8s.io/v1/PartialObjectMetadata': 'meta.PartialObjectMetadata', 'meta.k8s.io/v1/PartialObjectMetadataList': 'meta.PartialObjectMetadataList',
  'meta.k8s.io/v1beta1/PartialObjectMetadata': 'meta.PartialObjectMetadata', 'meta.k8s.io/v1beta1/PartialObjectMetadataList': 'meta.PartialObjectMetadataList',
  'autoscaling/v1/Scale': 'autoscaling.Scale',
};
for (const [kind, message] of [...Object.entries(kinds), ...Object.entries(answers)]) {
  if (messages[`${message}List`] !== undefined) answers[`${kind}List`] = `${message}List`;
}
const reachable = new Set();
const queue = [...Object.values(kinds), ...Object.values(answers)];
while (queue.length > 0) {
  const name = queue.pop();
  if (reachable.has(name) || special[name] !== undefined) continue;
  if (messages[name] === undefined) throw new Error(`unknown message ${name}`);
  reachable.add(name);
  for (const [, , type] of messages[name]) {
    const t = type.startsWith('map:') ? type.slice(4) : type;
    if (!scalars.has(t)) queue.push(t);
  }
}
// Members Go embeds with `json:",inline"` (a Volume's VolumeSource, an IngressRule's IngressRuleValue, a
// key selector's LocalObjectReference): the Go struct of the message has no JSON member of that name, its
// members are the embedded message's. Their JSON name is written as '' (the decoder merges them).
const goJSON = JSON.parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'builtin-go-json.json'), 'utf8'));
const goPackages = { core: 'io.k8s.api.core.v1.', apps: 'io.k8s.api.apps.v1.', batch: 'io.k8s.api.batch.v1.', rbac: 'io.k8s.api.rbac.v1.', policy: 'io.k8s.api.policy.v1.', networking: 'io.k8s.api.networking.v1.', scheduling: 'io.k8s.api.scheduling.v1.', node: 'io.k8s.api.node.v1.', certificates: 'io.k8s.api.certificates.v1.', events: 'io.k8s.api.events.v1.', discovery: 'io.k8s.api.discovery.v1.', admissionregistration: 'io.k8s.api.admissionregistration.v1.', autoscaling: 'io.k8s.api.autoscaling.v1.', autoscalingv2: 'io.k8s.api.autoscaling.v2.', storage: 'io.k8s.api.storage.v1.', resourcev1: 'io.k8s.api.resource.v1.', coordination: 'io.k8s.api.coordination.v1.', apiregistration: 'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.', meta: 'io.k8s.apimachinery.pkg.apis.meta.v1.' };
const out = {};
for (const name of [...reachable].sort()) {
  const [pkg, short] = name.split('.');
  const struct = goPackages[pkg] === undefined ? undefined : goJSON.structs[goPackages[pkg] + short];
  if (optional[name] === undefined) throw new Error(`no MarshalToSizedBuffer of ${name}`);
  out[name] = messages[name].map(([n, json, type, repeated]) => [n, struct !== undefined && !Object.hasOwn(struct, json) && messages[type] !== undefined && repeated === 0 ? '' : json, type, repeated, optional[name].has(n) ? 1 : 0]);
}
const lines = [
  '// Generated by packages/apiserver/scripts/gen-protobuf-schema.mjs from the generated.proto files of',
  '// k8s.io/api, k8s.io/apimachinery and k8s.io/kube-aggregator: field number, JSON name, type, repeated. Do not edit.',
  '',
  '/**',
  ' * A field: number, JSON name (\'\' for a member Go embeds inline), type (a scalar, `map:<value type>`, or a',
  ' * message name), repeated (1), and whether the generated code writes it only when set (1: a pointer or a',
  ' * byte slice, `if m.Field != nil`; 0: written even when empty).',
  ' */',
  'export type ProtobufField = readonly [number, string, string, number, number];',
  '',
  '/** The messages with a JSON form of their own. */',
  `export const protobufSpecialMessages: Readonly<Record<string, string>> = ${JSON.stringify(special)};`,
  '',
  '/** The top-level message of each kind, by `apiVersion/kind`. */',
  `export const protobufKinds: Readonly<Record<string, string>> = ${JSON.stringify(kinds, null, 2)};`,
  '',
  '/** The message of each other kind an answer is written in (the other served kinds, lists, Scale, meta.k8s.io\'s), by `apiVersion/kind`. */',
  `export const protobufAnswerKinds: Readonly<Record<string, string>> = ${JSON.stringify(answers, null, 2)};`,
  '',
  '/** The messages, by package-qualified name. */',
  'export const protobufMessages: Readonly<Record<string, readonly ProtobufField[]>> = {',
  ...Object.entries(out).map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)},`),
  '};',
  '',
];
const target = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'internal', 'protobufSchema.ts');
writeFileSync(target, lines.join('\n'));
console.log(`wrote ${Object.keys(out).length} messages to ${target}`);
