// node.k8s.io/v1 RuntimeClasses on both servers: ValidateRuntimeClass and ValidateRuntimeClassUpdate
// (pkg/apis/node/validation), the decoder's type errors, warnings, patches, watch, the Table, protobuf and
// discovery (pkg/registry/node/runtimeclass); the RuntimeClass admission plugin on pods
// (plugin/pkg/admission/runtimeclass: the class must exist, its overhead and scheduling given to the pod) in
// the apiserver's plugin order (after Priority and DefaultTolerationSeconds); a pod's overhead and its
// pod-level resources validated (ValidatePodSpec's validateOverhead and validatePodResources, PodLevelResources
// on by default in 1.34). Every expected answer is kube-apiserver 1.34.4's to the same request (the reference
// server runs the same test). Go walks resource lists and node selectors in no fixed order: each request
// here has at most one error, and one warning, per such map.
import { expect } from 'chai';
import { envelopeBytes, field } from '../../packages/apiserver/test/internal/protobufWriter.js';
import { MERGE, PROTOBUF, answered, describeOnBothServers, refused, type Answer, type Send } from './sender.js';

const R = '/apis/node.k8s.io/v1/runtimeclasses';
const Pods = '/api/v1/namespaces/default/pods';
type Json = Record<string, unknown>;
const mk = (name: string, fields: Json = {}): string => JSON.stringify({ apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name }, ...fields });
const pod = (name: string, spec: Json = {}): string => JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec } });
const container = (name: string, resources: Json, more: Json = {}): Json => ({ name, image: 'nginx', resources, ...more });

interface RuntimeClass { metadata: { name: string; generation?: number; resourceVersion?: string }; handler: string; overhead?: Json; scheduling?: Json }
interface Pod { spec: { nodeSelector?: Json; tolerations?: Json[]; overhead?: Json; resources?: Json }; status: { qosClass: string } }

/** What a class is past its server-set metadata. */
const shape = (c: RuntimeClass): Json => {
  const { metadata: { name, generation }, handler, overhead, scheduling } = c;
  return { name, generation, handler, overhead, scheduling };
};
const forbidden = (a: Answer, message: string): void => {
  expect([a.status, a.message], a.text).to.deep.equal([403, message]);
};
const badRequest = (a: Answer, message: string): void => {
  expect([a.status, a.message], a.text).to.deep.equal([400, message]);
};
/** What the RuntimeClass plugin gives a pod: its node selector, tolerations and overhead (a dry run). */
const admitted = async (s: Send, name: string, spec: Json): Promise<Json> => {
  const { spec: got } = answered<Pod>(await s('POST', `${Pods}?dryRun=All`, pod(name, spec)), 201);
  return { nodeSelector: got.nodeSelector, tolerations: got.tolerations, overhead: got.overhead };
};
const notReady = { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 };
const unreachable = { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 };
const rfc1123Label = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

async function classes(s: Send): Promise<void> {
  // Created as given: no generation, no defaults; quantities canonical (1.5 is 1500m, 1n stays).
  expect(shape(answered(await s('POST', R, mk('runc', { handler: 'runc' })), 201))).to.deep.equal({ name: 'runc', generation: undefined, handler: 'runc', overhead: undefined, scheduling: undefined });
  const small = await s('POST', R, mk('small', { handler: 'h', overhead: { podFixed: { cpu: '1n', memory: '1.5' } }, scheduling: { nodeSelector: { 'beta.kubernetes.io/arch': 'x' } } }));
  expect(shape(answered(small, 201))).to.deep.equal({ name: 'small', generation: undefined, handler: 'h', overhead: { podFixed: { cpu: '1n', memory: '1500m' } }, scheduling: { nodeSelector: { 'beta.kubernetes.io/arch': 'x' } } });
  expect(small.warnings).to.deep.equal(['scheduling.nodeSelector: deprecated since v1.14; use "kubernetes.io/arch" instead']);
  // Empty overhead and scheduling are kept as such (their members are omitted when empty).
  expect(shape(answered(await s('POST', R, mk('empty', { handler: 'h', overhead: { podFixed: {} }, scheduling: { nodeSelector: {}, tolerations: [] } })), 201))).to.deep.equal({ name: 'empty', generation: undefined, handler: 'h', overhead: {}, scheduling: {} });
  // A namespace sent is dropped; a PUT creates.
  expect(shape(answered(await s('POST', R, JSON.stringify({ apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: 'ns', namespace: 'default' }, handler: 'h' })), 201)).name).to.equal('ns');
  expect(shape(answered(await s('PUT', `${R}/put`, mk('put', { handler: 'x' })), 201)).handler).to.equal('x');

  // ValidateRuntimeClass: the handler, the overhead as a container's limits (reported at overhead.limits),
  // the node selector's labels, the tolerations (reported under scheduling.tolerations.tolerations) and their duplicates.
  refused(await s('POST', R, mk('none')), `RuntimeClass.node.k8s.io "none" is invalid: handler: Invalid value: "": ${rfc1123Label}`);
  refused(await s('POST', R, mk('long', { handler: 'x'.repeat(64) })), `RuntimeClass.node.k8s.io "long" is invalid: handler: Invalid value: "${'x'.repeat(64)}": must be no more than 63 characters`);
  refused(await s('POST', R, mk('Bad', {
    handler: 'Bad_H', overhead: { podFixed: { cpu: '-1' } },
    scheduling: { nodeSelector: { 'bad key!': 'v' }, tolerations: [{ key: 'k', operator: 'Exists', value: 'x' }, { key: 'k', operator: 'Exists', value: 'x' }, { operator: 'Equal' }, { key: 'a', tolerationSeconds: 5, effect: 'NoSchedule' }] },
  })), "RuntimeClass.node.k8s.io \"Bad\" is invalid: [metadata.name: Invalid value: \"Bad\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), "
    + `handler: Invalid value: "Bad_H": ${rfc1123Label}, overhead.limits[cpu]: Invalid value: "-1": must be greater than or equal to 0, `
    + "scheduling.nodeSelector: Invalid value: \"bad key!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), "
    + "scheduling.tolerations.tolerations[0].operator: Invalid value: \"x\": value must be empty when `operator` is 'Exists', scheduling.tolerations.tolerations[1].operator: Invalid value: \"x\": value must be empty when `operator` is 'Exists', "
    + 'scheduling.tolerations.tolerations[2].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys", '
    + "scheduling.tolerations.tolerations[3].effect: Invalid value: \"NoSchedule\": effect must be 'NoExecute' when `tolerationSeconds` is set, "
    + 'scheduling.tolerations[1]: Duplicate value: {"Key":"k","Operator":"Exists","Value":"x","Effect":"","TolerationSeconds":null}]');
  // Duplicates by key, operator, value and effect: the seconds do not count, but are printed.
  refused(await s('POST', R, mk('dup', { handler: 'h', scheduling: { tolerations: [{ key: 'a', operator: 'Equal', value: 'b', effect: 'NoExecute' }, { key: 'a', operator: 'Equal', value: 'b', effect: 'NoExecute', tolerationSeconds: 3 }] } })),
    'RuntimeClass.node.k8s.io "dup" is invalid: scheduling.tolerations[1]: Duplicate value: {"Key":"a","Operator":"Equal","Value":"b","Effect":"NoExecute","TolerationSeconds":3}');
  for (const [name, message] of [
    ['foo', 'overhead.limits[foo]: Invalid value: "foo": must be a standard resource type or fully qualified, overhead.limits[foo]: Invalid value: "foo": must be a standard resource for containers'],
    ['pods', 'overhead.limits[pods]: Invalid value: "pods": must be a standard resource for containers, overhead.limits[pods]: Invalid value: "1500m": must be an integer'],
    ['example.com/x', 'overhead.limits[example.com/x]: Invalid value: "1500m": must be an integer'],
    ['hugepages-2Mi', 'overhead.limits[hugepages-2Mi]: Invalid value: "1500m": 1500m is not positive integer multiple of hugepages-2Mi, overhead: Forbidden: HugePages require cpu or memory'],
  ]) {
    const a = await s('POST', R, mk('q', { handler: 'h', overhead: { podFixed: { [name]: '1.5' } } }));
    expect([a.status, a.message], a.text).to.deep.equal([422, message.includes(', ') ? `RuntimeClass.node.k8s.io "q" is invalid: [${message}]` : `RuntimeClass.node.k8s.io "q" is invalid: ${message}`]);
  }
  expect(answered<RuntimeClass>(await s('POST', `${R}?dryRun=All`, mk('native', { handler: 'h', overhead: { podFixed: { 'kubernetes.io/x': '1', 'ephemeral-storage': '1Gi' } } })), 201).overhead).to.deep.equal({ podFixed: { 'ephemeral-storage': '1Gi', 'kubernetes.io/x': '1' } });

  // The decoder.
  const cannot = 'RuntimeClass in version "v1" cannot be handled as a RuntimeClass: ';
  badRequest(await s('POST', R, mk('t1', { handler: 7 })), `${cannot}json: cannot unmarshal number into Go struct field RuntimeClass.handler of type string`);
  badRequest(await s('POST', R, mk('t2', { handler: 'h', overhead: { podFixed: 'x' } })), `${cannot}json: cannot unmarshal string into Go struct field Overhead.overhead.podFixed of type v1.ResourceList`);
  badRequest(await s('POST', R, mk('t3', { handler: 'h', scheduling: { nodeSelector: { a: 1 } } })), `${cannot}json: cannot unmarshal number into Go struct field Scheduling.scheduling.nodeSelector of type string`);
  badRequest(await s('POST', R, mk('t4', { handler: 'h', scheduling: { tolerations: [{ key: 'x', tolerationSeconds: 'y' }] } })), `${cannot}json: cannot unmarshal string into Go struct field Toleration.scheduling.tolerations.tolerationSeconds of type int64`);
  badRequest(await s('POST', `${R}?fieldValidation=Strict`, mk('t5', { handler: 'h', spec: {}, __proto__x: 1 })), `${cannot}strict decoding error: unknown field "spec", unknown field "__proto__x"`);
  // A quantity as a JSON number is taken; a __proto__ label key is a (bad) key, a constructor one a good one.
  expect(answered<RuntimeClass>(await s('POST', R, mk('num', { handler: 'h', overhead: { podFixed: { cpu: 5 } } })), 201).overhead).to.deep.equal({ podFixed: { cpu: '5' } });
  refused(await s('POST', R, '{"apiVersion":"node.k8s.io/v1","kind":"RuntimeClass","metadata":{"name":"proto"},"handler":"h","scheduling":{"nodeSelector":{"__proto__":"x"}}}'),
    "RuntimeClass.node.k8s.io \"proto\" is invalid: scheduling.nodeSelector: Invalid value: \"__proto__\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')");
  const proto = answered<RuntimeClass>(await s('POST', R, '{"apiVersion":"node.k8s.io/v1","kind":"RuntimeClass","metadata":{"name":"proto"},"handler":"h","scheduling":{"nodeSelector":{"constructor":"x"}}}'), 201);
  expect(Object.entries(proto.scheduling?.nodeSelector as Json)).to.deep.equal([['constructor', 'x']]);

  // ValidateRuntimeClassUpdate: the handler is immutable; an update needs a resourceVersion; the rest may change.
  const runc = answered<RuntimeClass>(await s('GET', `${R}/runc`));
  refused(await s('PUT', `${R}/runc`, JSON.stringify({ ...runc, handler: 'other' })), 'RuntimeClass.node.k8s.io "runc" is invalid: handler: Invalid value: "other": field is immutable');
  refused(await s('PATCH', `${R}/runc`, JSON.stringify({ handler: 'BAD' }), MERGE), `RuntimeClass.node.k8s.io "runc" is invalid: [handler: Invalid value: "BAD": ${rfc1123Label}, handler: Invalid value: "BAD": field is immutable]`);
  refused(await s('PUT', `${R}/runc`, mk('runc', { handler: 'runc' })), 'runtimeclasses.node.k8s.io "runc" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update');
  const patched = await s('PATCH', `${R}/runc`, JSON.stringify({ scheduling: { nodeSelector: { 'failure-domain.beta.kubernetes.io/zone': 'z' } } }), 'application/strategic-merge-patch+json');
  expect(answered<RuntimeClass>(patched).scheduling).to.deep.equal({ nodeSelector: { 'failure-domain.beta.kubernetes.io/zone': 'z' } });
  expect(patched.warnings).to.deep.equal(['scheduling.nodeSelector: deprecated since v1.17; use "topology.kubernetes.io/zone" instead']);
  expect(answered<RuntimeClass>(await s('PATCH', `${R}/runc`, JSON.stringify([{ op: 'replace', path: '/scheduling/nodeSelector', value: { zone: 'a' } }]), 'application/json-patch+json')).scheduling).to.deep.equal({ nodeSelector: { zone: 'a' } });
  const applied = await s('PATCH', `${R}/applied?fieldManager=me`, JSON.stringify({ apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: 'applied' }, handler: 'kata', overhead: { podFixed: { memory: '64Mi' } } }), 'application/apply-patch+yaml');
  expect(shape(answered(applied, 201))).to.deep.equal({ name: 'applied', generation: undefined, handler: 'kata', overhead: { podFixed: { memory: '64Mi' } }, scheduling: undefined });
  refused(await s('PATCH', `${R}/applied?fieldManager=me`, JSON.stringify({ apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: 'applied' }, handler: 'gvisor' }), 'application/apply-patch+yaml'), 'RuntimeClass.node.k8s.io "applied" is invalid: handler: Invalid value: "gvisor": field is immutable');

  // A protobuf body (kubekit answers in JSON only).
  const pb = Buffer.from(envelopeBytes('node.k8s.io/v1', 'RuntimeClass', [...field(1, field(1, 'pb')), ...field(2, 'wasm'), ...field(4, field(1, [...field(1, 'zone'), ...field(2, 'b')]))])).toString('latin1');
  expect(shape(answered(await s('POST', R, pb, PROTOBUF), 201))).to.deep.equal({ name: 'pb', generation: undefined, handler: 'wasm', overhead: undefined, scheduling: { nodeSelector: { zone: 'b' } } });

  // Field selectors, watch, the Table, discovery, delete.
  badRequest(await s('GET', `${R}?fieldSelector=handler%3Dh`), '"handler" is not a known field selector: only "metadata.name", "metadata.namespace"');
  expect(answered<{ items: RuntimeClass[] }>(await s('GET', `${R}?fieldSelector=metadata.name%3Druntimeclass-none`)).items).to.deep.equal([]);
  const watch = await s('GET', `${R}?watch=1&fieldSelector=metadata.name%3Dsmall&timeoutSeconds=1`);
  expect(watch.text.trim().split('\n').map((l) => { const e = JSON.parse(l) as { type: string; object: RuntimeClass }; return [e.type, e.object.metadata.name, e.object.handler]; })).to.deep.equal([['ADDED', 'small', 'h']]);
  const table = JSON.parse((await s('GET', R, undefined, undefined, 'application/json;as=Table;v=v1;g=meta.k8s.io')).text) as { columnDefinitions: { name: string; type: string; format: string; priority: number }[]; rows: { cells: unknown[] }[] };
  expect(table.columnDefinitions.map((c) => [c.name, c.type, c.format, c.priority])).to.deep.equal([['Name', 'string', 'name', 0], ['Handler', 'string', '', 0], ['Age', 'string', '', 0]]);
  expect(table.rows.map((r) => r.cells.slice(0, 2))).to.deep.equal([['applied', 'kata'], ['empty', 'h'], ['ns', 'h'], ['num', 'h'], ['pb', 'wasm'], ['proto', 'h'], ['put', 'x'], ['runc', 'runc'], ['small', 'h']]);
  const discovery = JSON.parse((await s('GET', '/apis/node.k8s.io/v1')).text) as { resources: unknown[] };
  expect(discovery.resources).to.deep.equal([{ name: 'runtimeclasses', singularName: 'runtimeclass', namespaced: false, kind: 'RuntimeClass', verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'], storageVersionHash: 'WQTu1GL3T2Q=' }]);
  const group = JSON.parse((await s('GET', '/apis/node.k8s.io')).text) as Json;
  expect(group).to.deep.equal({ kind: 'APIGroup', apiVersion: 'v1', name: 'node.k8s.io', versions: [{ groupVersion: 'node.k8s.io/v1', version: 'v1' }], preferredVersion: { groupVersion: 'node.k8s.io/v1', version: 'v1' } });
  const deleted = JSON.parse((await s('DELETE', `${R}/put`)).text) as { status: string; details: Json };
  expect([deleted.status, deleted.details.name, deleted.details.group, deleted.details.kind]).to.deep.equal(['Success', 'put', 'node.k8s.io', 'runtimeclasses']);
  expect((await s('GET', `${R}/put`)).message).to.equal('runtimeclasses.node.k8s.io "put" not found');
}

async function podsWithClasses(s: Send): Promise<void> {
  answered(await s('POST', R, mk('oh', {
    handler: 'h', overhead: { podFixed: { cpu: '250m', memory: '120Mi' } },
    scheduling: { nodeSelector: { zone: 'a' }, tolerations: [{ key: 'gpu', operator: 'Exists', effect: 'NoSchedule' }, { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 100 }] },
  })), 201);
  answered(await s('POST', R, mk('plain', { handler: 'h' })), 201);
  answered(await s('POST', R, mk('emptyoh', { handler: 'h', overhead: {}, scheduling: {} })), 201);
  answered(await s('POST', R, mk('tiny', { handler: 'h', overhead: { podFixed: { cpu: '1n' } } })), 201);

  // The class must exist (the plugin's words; before the pod's validation, after the Priority plugin).
  forbidden(await s('POST', Pods, pod('p-missing', { runtimeClassName: 'missing' })), 'pods "p-missing" is forbidden: pod rejected: RuntimeClass "missing" not found');
  forbidden(await s('POST', Pods, pod('p-invalid', { runtimeClassName: 'missing', containers: [{ name: 'c' }] })), 'pods "p-invalid" is forbidden: pod rejected: RuntimeClass "missing" not found');
  forbidden(await s('POST', Pods, pod('p-both', { runtimeClassName: 'missing', priorityClassName: 'missing' })), 'pods "p-both" is forbidden: no PriorityClass with name missing was found');
  const empty = await s('POST', Pods, pod('p-empty', { runtimeClassName: '' }));
  expect([empty.status, empty.message]).to.deep.equal([500, 'resource name may not be empty']);

  // The overhead and the scheduling: the node selector merged, the tolerations merged after the default ones
  // (the class's not-ready toleration is within the default one), the pod's own overhead if it is the class's.
  expect(await admitted(s, 'p1', { runtimeClassName: 'oh' })).to.deep.equal({ nodeSelector: { zone: 'a' }, tolerations: [notReady, unreachable, { key: 'gpu', operator: 'Exists', effect: 'NoSchedule' }], overhead: { cpu: '250m', memory: '120Mi' } });
  expect(await admitted(s, 'p2', { runtimeClassName: 'oh', nodeSelector: { zone: 'a', other: 'x' }, tolerations: [{ key: 'gpu', operator: 'Exists', effect: 'NoSchedule' }, { key: 'gpu', operator: 'Exists' }] }))
    .to.deep.equal({ nodeSelector: { other: 'x', zone: 'a' }, tolerations: [{ key: 'gpu', operator: 'Exists' }, notReady, unreachable], overhead: { cpu: '250m', memory: '120Mi' } });
  expect(await admitted(s, 'p3', { runtimeClassName: 'oh', nodeSelector: {}, overhead: { cpu: '0.25', memory: '125829120' } })).to.deep.equal({ nodeSelector: { zone: 'a' }, tolerations: [notReady, unreachable, { key: 'gpu', operator: 'Exists', effect: 'NoSchedule' }], overhead: { cpu: '250m', memory: '120Mi' } });
  expect(await admitted(s, 'p4', { runtimeClassName: 'emptyoh' })).to.deep.equal({ nodeSelector: undefined, tolerations: [notReady, unreachable], overhead: undefined });
  expect(await admitted(s, 'p5', { runtimeClassName: 'plain' })).to.deep.equal({ nodeSelector: undefined, tolerations: [notReady, unreachable], overhead: undefined });
  // The class's 1n is the pod's 1m, as the stored pod is read back.
  expect(await admitted(s, 'p6', { runtimeClassName: 'tiny' })).to.deep.equal({ nodeSelector: undefined, tolerations: [notReady, unreachable], overhead: { cpu: '1m' } });
  expect(await admitted(s, 'p-proto', { runtimeClassName: 'proto', nodeSelector: { a: 'b' } })).to.deep.equal({ nodeSelector: { a: 'b', constructor: 'x' }, tolerations: [notReady, unreachable], overhead: undefined });
  forbidden(await s('POST', Pods, pod('p7', { runtimeClassName: 'oh', nodeSelector: { zone: 'b' } })), 'pods "p7" is forbidden: conflict: runtimeClass.scheduling.nodeSelector[zone] = a; pod.spec.nodeSelector[zone] = b');
  forbidden(await s('POST', Pods, pod('p8', { runtimeClassName: 'oh', overhead: { cpu: '1' } })), 'pods "p8" is forbidden: pod rejected: Pod\'s Overhead doesn\'t match RuntimeClass\'s defined Overhead');
  forbidden(await s('POST', Pods, pod('p9', { runtimeClassName: 'oh', overhead: { cpu: '-1' } })), 'pods "p9" is forbidden: pod rejected: Pod\'s Overhead doesn\'t match RuntimeClass\'s defined Overhead');
  forbidden(await s('POST', Pods, pod('p10', { runtimeClassName: 'emptyoh', overhead: { cpu: '1' } })), 'pods "p10" is forbidden: pod rejected: Pod\'s Overhead doesn\'t match RuntimeClass\'s defined Overhead');
  forbidden(await s('POST', Pods, pod('p11', { runtimeClassName: 'tiny', overhead: { cpu: '1m' } })), 'pods "p11" is forbidden: pod rejected: Pod\'s Overhead doesn\'t match RuntimeClass\'s defined Overhead');
  // An overhead without a class that has one: refused by Validate, after the pod's validation.
  forbidden(await s('POST', Pods, pod('p12', { overhead: { cpu: '1' } })), 'pods "p12" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead');
  forbidden(await s('POST', Pods, pod('p13', { runtimeClassName: 'plain', overhead: { memory: '1Mi' } })), 'pods "p13" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead');
  // An empty overhead is a non-nil map to the plugin (omitempty drops it only when the pod is written); null is none.
  forbidden(await s('POST', Pods, pod('p13', { overhead: {} })), 'pods "p13" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead');
  forbidden(await s('POST', Pods, pod('p13', { runtimeClassName: 'plain', overhead: {} })), 'pods "p13" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead');
  expect(answered<{ spec: Record<string, unknown> }>(await s('POST', `${Pods}?dryRun=All`, pod('p13', { overhead: null })), 201).spec).to.not.have.property('overhead');
  refused(await s('POST', Pods, pod('p14', { runtimeClassName: 'plain', overhead: { cpu: '-1' } })), 'Pod "p14" is invalid: spec.overhead.limits[cpu]: Invalid value: "-1": must be greater than or equal to 0');
  refused(await s('POST', Pods, pod('p15', { overhead: { foo: '1' } })), 'Pod "p15" is invalid: [spec.overhead.limits[foo]: Invalid value: "foo": must be a standard resource type or fully qualified, spec.overhead.limits[foo]: Invalid value: "foo": must be a standard resource for containers]');

  // Only creates: an update keeps what the pod was given, even once its class is gone.
  answered(await s('POST', Pods, pod('kept', { runtimeClassName: 'oh' })), 201);
  expect(answered<Pod>(await s('PATCH', `${Pods}/kept`, JSON.stringify({ metadata: { labels: { a: 'b' } } }), MERGE)).spec.overhead).to.deep.equal({ cpu: '250m', memory: '120Mi' });
  answered(await s('DELETE', `${R}/oh`));
  expect(answered<Pod>(await s('PATCH', `${Pods}/kept`, JSON.stringify({ metadata: { labels: { a: 'c' } } }), MERGE)).spec.nodeSelector).to.deep.equal({ zone: 'a' });
}

async function podLevelResources(s: Send): Promise<void> {
  const create = (name: string, spec: Json): Promise<Answer> => s('POST', `${Pods}?dryRun=All`, pod(name, spec));
  // Defaults (defaultHugePagePodLimits, then defaultPodRequests): with pod-level limits, a CPU or memory request
  // left out is the containers' requests together (init containers and sidecars counted), else the limit; a
  // hugepages limit left out is the containers' together, unless the pod requests it.
  const defaulted = async (name: string, spec: Json): Promise<unknown> => answered<Pod>(await create(name, spec), 201).spec.resources;
  expect(await defaulted('d1', { resources: { limits: { cpu: '2', memory: '2Gi' } }, containers: [container('a', { requests: { cpu: '300m', memory: '100Mi' } }), container('b', { limits: { cpu: '500m' } })] }))
    .to.deep.equal({ limits: { cpu: '2', memory: '2Gi' }, requests: { cpu: '800m', memory: '100Mi' } });
  expect(await defaulted('d2', { resources: { limits: { cpu: '2' } }, initContainers: [container('i', { requests: { cpu: '1500m' } }), container('s', { requests: { cpu: '100m' } }, { restartPolicy: 'Always' })], containers: [container('a', { requests: { cpu: '300m' } })] }))
    .to.deep.equal({ limits: { cpu: '2' }, requests: { cpu: '1500m' } });
  expect(await defaulted('d3', { resources: { limits: { cpu: '1' }, requests: { memory: '10Mi' } }, containers: [container('a', { requests: { memory: '5Mi' } })] }))
    .to.deep.equal({ limits: { cpu: '1' }, requests: { cpu: '1', memory: '10Mi' } });
  expect(await defaulted('d4', { resources: { limits: { memory: '1Gi' } }, containers: [container('a', { limits: { 'hugepages-2Mi': '4Mi', memory: '100Mi' } }), container('b', { limits: { 'hugepages-2Mi': '2Mi', memory: '100Mi' } })] }))
    .to.deep.equal({ limits: { 'hugepages-2Mi': '6Mi', memory: '1Gi' }, requests: { 'hugepages-2Mi': '6Mi', memory: '200Mi' } });
  // A hugepages request the pod makes keeps its limit from being defaulted, and a request without a limit of
  // a resource that cannot be overcommitted is refused.
  refused(await create('d5', { resources: { requests: { memory: '1Gi', 'hugepages-2Mi': '2Mi' } }, containers: [container('a', { limits: { 'hugepages-2Mi': '2Mi', memory: '100Mi' } })] }),
    'Pod "d5" is invalid: spec.resources.limits: Required value: Limit must be set for non overcommitable resources');
  expect(await defaulted('d6', { resources: { requests: { memory: '1Gi' } }, containers: [container('a', { limits: { 'hugepages-1Gi': '1Gi', memory: '100Mi' } })] }))
    .to.deep.equal({ limits: { 'hugepages-1Gi': '1Gi' }, requests: { 'hugepages-1Gi': '1Gi', memory: '1Gi' } });
  // The containers' requests together, the init containers' at least, the sidecars added to both.
  refused(await create('r1', { resources: { requests: { cpu: '100m' } }, containers: [container('a', { requests: { cpu: '100m' } }), container('b', { requests: { cpu: '50m' } })] }),
    'Pod "r1" is invalid: spec.resources.requests[cpu]: Invalid value: "100m": must be greater than or equal to aggregate container requests of 150m');
  refused(await create('r2', { resources: { requests: { memory: '100Mi' } }, containers: [container('a', { requests: { memory: '100Mi' } }), container('b', { requests: { memory: '1Mi' } })] }),
    'Pod "r2" is invalid: spec.resources.requests[memory]: Invalid value: "100Mi": must be greater than or equal to aggregate container requests of 101Mi');
  refused(await create('r3', { resources: { requests: { cpu: '1' } }, initContainers: [container('i', { requests: { cpu: '2' } })] }),
    'Pod "r3" is invalid: spec.resources.requests[cpu]: Invalid value: "1": must be greater than or equal to aggregate container requests of 2');
  refused(await create('r4', { resources: { requests: { cpu: '1' } }, initContainers: [container('s', { requests: { cpu: '500m' } }, { restartPolicy: 'Always' })], containers: [container('a', { requests: { cpu: '600m' } })] }),
    'Pod "r4" is invalid: spec.resources.requests[cpu]: Invalid value: "1": must be greater than or equal to aggregate container requests of 1100m');
  const ok = answered<Pod>(await create('r5', { resources: { requests: { cpu: '1' } }, initContainers: [container('i', { requests: { cpu: '500m' } })], containers: [container('a', { requests: { cpu: '600m' } })] }), 201);
  expect([ok.spec.resources, ok.status.qosClass]).to.deep.equal([{ requests: { cpu: '1' } }, 'Burstable']);
  expect(answered<Pod>(await create('r6', { resources: { requests: { cpu: '150m' } }, containers: [container('a', { requests: { cpu: '100m' } }), container('b', { requests: { cpu: '50m' } })] }), 201).spec.resources).to.deep.equal({ requests: { cpu: '150m' } });
  expect(answered<Pod>(await create('r7', { resources: {} }), 201).status.qosClass).to.equal('BestEffort');
  // A container's limit above the pod's (a limit given alone is the container's request too).
  refused(await create('r8', { resources: { limits: { cpu: '1' }, requests: { cpu: '1' } }, containers: [container('a', { limits: { cpu: '2' } })] }),
    'Pod "r8" is invalid: [spec.resources.requests[cpu]: Invalid value: "1": must be greater than or equal to aggregate container requests of 2, spec.resources.containers[0][cpu].limits: Invalid value: "2": must be less than or equal to pod limits of 1]');
  // Names and values: CPU, memory and hugepages only; requests not above limits.
  refused(await create('r9', { resources: { requests: { 'ephemeral-storage': '1Gi' } } }), 'Pod "r9" is invalid: spec.resources.requests[ephemeral-storage]: Unsupported value: "ephemeral-storage": supported values: "cpu", "hugepages-", "memory"');
  refused(await create('r10', { resources: { requests: { cpu: '1' }, limits: { cpu: '500m' } } }), 'Pod "r10" is invalid: spec.resources.requests: Invalid value: "1": must be less than or equal to cpu limit of 500m');
  refused(await create('r11', { resources: { requests: { cpu: '-1' } } }), 'Pod "r11" is invalid: spec.resources.requests[cpu]: Invalid value: "-1": must be greater than or equal to 0');
  refused(await create('r12', { os: { name: 'windows' }, resources: { requests: { cpu: '1' } } }), 'Pod "r12" is invalid: spec.resources: Forbidden: may not be set for a windows pod');
}

describeOnBothServers('RuntimeClasses (node.k8s.io/v1), the RuntimeClass admission plugin, pod overhead and pod-level resources', async (s) => {
  await classes(s);
  await podsWithClasses(s);
  await podLevelResources(s);
});
