// scheduling.k8s.io/v1 PriorityClasses on both servers: the system classes the apiserver creates at start
// (and refuses to delete), SetDefaults_PriorityClass, ValidatePriorityClass and ValidatePriorityClassUpdate,
// the decoder's type errors, the Table and discovery (pkg/registry/scheduling/priorityclass,
// pkg/apis/scheduling/validation); and the Priority admission plugin (plugin/pkg/admission/priority):
// at most one global default class, pods given their class's value and policy or the global default's.
// Every expected message is kube-apiserver 1.34.4's answer to the same request (the reference server runs
// the same test).
import { expect } from 'chai';
import { answered, describeOnBothServers, refused, type Answer, type Send } from './sender.js';

const P = '/apis/scheduling.k8s.io/v1/priorityclasses';
const Pods = '/api/v1/namespaces/default/pods';
type Json = Record<string, unknown>;
const mk = (name: string, fields: Json = {}): string => JSON.stringify({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, ...fields });
const pod = (name: string, spec: Json = {}): string => JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec } });

interface PriorityClass { apiVersion?: string; kind?: string; metadata: { name: string; generation?: number; resourceVersion?: string }; value: number; globalDefault?: boolean; description?: string; preemptionPolicy?: string }
interface Pod { spec: { priorityClassName?: string; priority?: number; preemptionPolicy?: string } }

/** What a class is past its server-set metadata. */
const shape = (c: PriorityClass): Json => {
  const { apiVersion: _apiVersion, kind: _kind, metadata: { name, generation }, ...rest } = c;
  return { name, generation, ...rest };
};
const forbidden = (a: Answer, message: string): void => {
  expect([a.status, a.message], a.text).to.deep.equal([403, message]);
};
const badRequest = (a: Answer, message: string): void => {
  expect([a.status, a.message], a.text).to.deep.equal([400, message]);
};

/**
 * The priority fields a new pod without a class would get, asked by a dry run until `expected` (at most
 * 10 s): the reference's plugin reads the classes through an informer, which sees a write a moment later.
 */
async function untilDefault(s: Send, expected: Json): Promise<void> {
  let got: Json = {};
  for (let i = 0; i < 100; i++) {
    const { spec } = answered<Pod>(await s('POST', `${Pods}?dryRun=All`, pod('probe')), 201);
    got = { priorityClassName: spec.priorityClassName, priority: spec.priority, preemptionPolicy: spec.preemptionPolicy };
    if (JSON.stringify(got) === JSON.stringify(expected)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(got).to.deep.equal(expected);
}

async function run(s: Send): Promise<void> {
  // The system classes, there from the start.
  const system = answered<{ items: PriorityClass[] }>(await s('GET', P)).items;
  expect(system.map(shape)).to.deep.equal([
    { name: 'system-cluster-critical', generation: 1, value: 2000000000, description: 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.', preemptionPolicy: 'PreemptLowerPriority' },
    { name: 'system-node-critical', generation: 1, value: 2000001000, description: 'Used for system critical pods that must not be moved from their current node.', preemptionPolicy: 'PreemptLowerPriority' },
  ]);
  forbidden(await s('DELETE', `${P}/system-node-critical`), 'priorityclasses.scheduling.k8s.io "system-node-critical" is forbidden: this is a system priority class and cannot be deleted');
  forbidden(await s('DELETE', `${P}/system-cluster-critical?dryRun=All`), 'priorityclasses.scheduling.k8s.io "system-cluster-critical" is forbidden: this is a system priority class and cannot be deleted');
  expect((await s('DELETE', `${P}/system-unknown`)).message).to.equal('priorityclasses.scheduling.k8s.io "system-unknown" not found');
  // Their description may change; their value may not.
  const node = system[1];
  expect(answered<PriorityClass>(await s('PUT', `${P}/system-node-critical`, JSON.stringify({ ...node, description: 'mine' }))).description).to.equal('mine');
  refused(await s('PATCH', `${P}/system-node-critical`, JSON.stringify({ value: 7 }), 'application/merge-patch+json'), 'PriorityClass.scheduling.k8s.io "system-node-critical" is invalid: value: Forbidden: may not be changed in an update.');

  // Created: generation 1, the policy defaulted; a namespace sent is dropped.
  expect(shape(answered(await s('POST', P, mk('high', { value: 1000, description: 'd' })), 201))).to.deep.equal({ name: 'high', generation: 1, value: 1000, description: 'd', preemptionPolicy: 'PreemptLowerPriority' });
  expect(shape(answered(await s('POST', P, JSON.stringify({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'never', namespace: 'default' }, value: 10, preemptionPolicy: 'Never' })), 201))).to.deep.equal({ name: 'never', generation: 1, value: 10, preemptionPolicy: 'Never' });
  expect(shape(answered(await s('POST', P, mk('zero', { preemptionPolicy: null })), 201))).to.deep.equal({ name: 'zero', generation: 1, value: 0, preemptionPolicy: 'PreemptLowerPriority' });
  expect(shape(answered(await s('POST', P, mk('lowest', { value: -2147483648 })), 201))).to.deep.equal({ name: 'lowest', generation: 1, value: -2147483648, preemptionPolicy: 'PreemptLowerPriority' });
  expect((await s('POST', P, mk('billion', { value: 1000000000 }))).status).to.equal(201);

  // ValidatePriorityClass: names with the system prefix, the value's range, the policy.
  refused(await s('POST', P, mk('too-high', { value: 1000000001 })), 'PriorityClass.scheduling.k8s.io "too-high" is invalid: value: Forbidden: maximum allowed value of a user defined priority is 1000000000');
  refused(await s('POST', P, mk('system-mine', { value: 5 })), "PriorityClass.scheduling.k8s.io \"system-mine\" is invalid: metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-mine is not a known system priority class");
  refused(await s('POST', P, mk('system-node-critical', { value: 5 })), "PriorityClass.scheduling.k8s.io \"system-node-critical\" is invalid: metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: value of system-node-critical PriorityClass must be 2000001000");
  refused(await s('POST', P, mk('system-cluster-critical', { value: 2000000000, globalDefault: true })), "PriorityClass.scheduling.k8s.io \"system-cluster-critical\" is invalid: metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: globalDefault of system-cluster-critical PriorityClass must be false");
  expect((await s('POST', P, mk('system-node-critical', { value: 2000001000 }))).message).to.equal('priorityclasses.scheduling.k8s.io "system-node-critical" already exists');
  refused(await s('POST', P, mk('System-x', { value: 2000000000, preemptionPolicy: 'Sometimes' })), "PriorityClass.scheduling.k8s.io \"System-x\" is invalid: [metadata.name: Invalid value: \"System-x\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), value: Forbidden: maximum allowed value of a user defined priority is 1000000000, preemptionPolicy: Unsupported value: \"Sometimes\": supported values: \"PreemptLowerPriority\", \"Never\"]");
  refused(await s('POST', P, mk('empty-policy', { value: 1, preemptionPolicy: '' })), 'PriorityClass.scheduling.k8s.io "empty-policy" is invalid: preemptionPolicy: Required value');

  // The decoder: an int32 value, a bool globalDefault, unknown fields under Strict.
  const cannot = 'PriorityClass in version "v1" cannot be handled as a PriorityClass: ';
  badRequest(await s('POST', P, mk('big', { value: 2147483648 })), `${cannot}json: cannot unmarshal number 2147483648 into Go struct field PriorityClass.value of type int32`);
  badRequest(await s('POST', P, mk('float', { value: 1.5 })), `${cannot}json: cannot unmarshal number 1.5 into Go struct field PriorityClass.value of type int32`);
  badRequest(await s('POST', P, mk('text', { value: '5' })), `${cannot}json: cannot unmarshal string into Go struct field PriorityClass.value of type int32`);
  badRequest(await s('POST', P, mk('yes', { value: 5, globalDefault: 'yes' })), `${cannot}json: cannot unmarshal string into Go struct field PriorityClass.globalDefault of type bool`);
  badRequest(await s('POST', `${P}?fieldValidation=Strict`, mk('strict', { value: 1, spec: {}, extra: 1 })), `${cannot}strict decoding error: unknown field "spec", unknown field "extra"`);

  // ValidatePriorityClassUpdate: value and policy fixed (a policy left out is the default again); the rest may change.
  const high = answered<PriorityClass>(await s('GET', `${P}/high`));
  refused(await s('PUT', `${P}/high`, JSON.stringify({ ...high, value: 11, preemptionPolicy: 'Never' })), 'PriorityClass.scheduling.k8s.io "high" is invalid: [value: Forbidden: may not be changed in an update., preemptionPolicy: Invalid value: "Never": field is immutable]');
  const never = answered<PriorityClass>(await s('GET', `${P}/never`));
  refused(await s('PUT', `${P}/never`, JSON.stringify({ ...never, preemptionPolicy: undefined })), 'PriorityClass.scheduling.k8s.io "never" is invalid: preemptionPolicy: Invalid value: "PreemptLowerPriority": field is immutable');
  refused(await s('PATCH', `${P}/never`, JSON.stringify({ preemptionPolicy: 'Bad' }), 'application/merge-patch+json'), 'PriorityClass.scheduling.k8s.io "never" is invalid: preemptionPolicy: Invalid value: "Bad": field is immutable');
  const described = answered<PriorityClass>(await s('PATCH', `${P}/high`, JSON.stringify({ description: 'changed', metadata: { labels: { tier: 'a' } } }), 'application/strategic-merge-patch+json'));
  expect([described.description, described.metadata.generation]).to.deep.equal(['changed', 1]);

  // Without a global default class, a pod without a class gets priority 0.
  await untilDefault(s, { priorityClassName: undefined, priority: 0, preemptionPolicy: 'PreemptLowerPriority' });
  // One global default class; a second is refused, made on create or on update, but the default may be written again.
  expect(answered<PriorityClass>(await s('POST', P, mk('fallback', { value: 100, globalDefault: true })), 201).globalDefault).to.equal(true);
  await untilDefault(s, { priorityClassName: 'fallback', priority: 100, preemptionPolicy: 'PreemptLowerPriority' });
  forbidden(await s('POST', P, mk('second', { value: 50, globalDefault: true })), 'priorityclasses.scheduling.k8s.io "second" is forbidden: PriorityClass fallback is already marked as default. Only one default can exist');
  forbidden(await s('PATCH', `${P}/high`, JSON.stringify({ globalDefault: true }), 'application/merge-patch+json'), 'priorityclasses.scheduling.k8s.io "high" is forbidden: PriorityClass fallback is already marked as default. Only one default can exist');
  // Validation comes first.
  refused(await s('POST', P, mk('Second', { value: 50, globalDefault: true })), "PriorityClass.scheduling.k8s.io \"Second\" is invalid: metadata.name: Invalid value: \"Second\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
  expect(answered<PriorityClass>(await s('PATCH', `${P}/fallback`, JSON.stringify({ description: 'the default', globalDefault: true }), 'application/merge-patch+json')).description).to.equal('the default');

  // Pods: their class's value and policy, or the default class's (with its name).
  const created = async (name: string, spec: Json = {}): Promise<Json> => {
    const { spec: got } = answered<Pod>(await s('POST', Pods, pod(name, spec)), 201);
    return { priorityClassName: got.priorityClassName, priority: got.priority, preemptionPolicy: got.preemptionPolicy };
  };
  expect(await created('p-high', { priorityClassName: 'high' })).to.deep.equal({ priorityClassName: 'high', priority: 1000, preemptionPolicy: 'PreemptLowerPriority' });
  expect(await created('p-never', { priorityClassName: 'never', priority: 10 })).to.deep.equal({ priorityClassName: 'never', priority: 10, preemptionPolicy: 'Never' });
  expect(await created('p-node', { priorityClassName: 'system-node-critical' })).to.deep.equal({ priorityClassName: 'system-node-critical', priority: 2000001000, preemptionPolicy: 'PreemptLowerPriority' });
  expect(await created('p-default')).to.deep.equal({ priorityClassName: 'fallback', priority: 100, preemptionPolicy: 'PreemptLowerPriority' });
  forbidden(await s('POST', Pods, pod('p-missing', { priorityClassName: 'missing' })), 'pods "p-missing" is forbidden: no PriorityClass with name missing was found');
  forbidden(await s('POST', Pods, pod('p-5', { priority: 5 })), 'pods "p-5" is forbidden: the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 100 from the given PriorityClass name');
  forbidden(await s('POST', Pods, pod('p-policy', { priorityClassName: 'never', preemptionPolicy: 'PreemptLowerPriority' })), 'pods "p-policy" is forbidden: the string value of PreemptionPolicy (PreemptLowerPriority) must not be provided in pod spec; priority admission controller computed Never from the given PriorityClass name');
  // Of two global defaults (a race could store them), the one with the lower value counts: here only one is.
  expect(answered<PriorityClass>(await s('PATCH', `${P}/fallback`, JSON.stringify({ globalDefault: false }), 'application/merge-patch+json')).globalDefault).to.equal(undefined);
  await untilDefault(s, { priorityClassName: undefined, priority: 0, preemptionPolicy: 'PreemptLowerPriority' });

  // Watched; what kubectl prints (the apiserver prints wide: the policy after Age); deleted.
  const watch = await s('GET', `${P}?watch=1&fieldSelector=metadata.name%3Dnever&timeoutSeconds=1`);
  expect(watch.text.trim().split('\n').map((l) => { const e = JSON.parse(l) as { type: string; object: PriorityClass }; return [e.type, e.object.metadata.name, e.object.value]; })).to.deep.equal([['ADDED', 'never', 10]]);
  const table = JSON.parse((await s('GET', P, undefined, undefined, 'application/json;as=Table;v=v1;g=meta.k8s.io')).text) as { columnDefinitions: { name: string; type: string; priority: number }[]; rows: { cells: unknown[] }[] };
  expect(table.columnDefinitions.map((c) => [c.name, c.type, c.priority])).to.deep.equal([['Name', 'string', 0], ['Value', 'integer', 0], ['Global-Default', 'boolean', 0], ['Age', 'string', 0], ['PreemptionPolicy', 'string', 0]]);
  expect(table.rows.map((r) => [...r.cells.slice(0, 3), r.cells[4]])).to.deep.equal([
    ['billion', 1000000000, false, 'PreemptLowerPriority'], ['fallback', 100, false, 'PreemptLowerPriority'], ['high', 1000, false, 'PreemptLowerPriority'],
    ['lowest', -2147483648, false, 'PreemptLowerPriority'], ['never', 10, false, 'Never'], ['system-cluster-critical', 2000000000, false, 'PreemptLowerPriority'],
    ['system-node-critical', 2000001000, false, 'PreemptLowerPriority'], ['zero', 0, false, 'PreemptLowerPriority'],
  ]);
  const deleted = JSON.parse((await s('DELETE', `${P}/zero`)).text) as { status: string; details: Json };
  expect([deleted.status, deleted.details.name, deleted.details.kind]).to.deep.equal(['Success', 'zero', 'priorityclasses']);
  expect((await s('GET', `${P}/zero`)).message).to.equal('priorityclasses.scheduling.k8s.io "zero" not found');
  badRequest(await s('GET', `${P}?fieldSelector=value%3D1`), '"value" is not a known field selector: only "metadata.name", "metadata.namespace"');

  const discovery = JSON.parse((await s('GET', '/apis/scheduling.k8s.io/v1')).text) as { resources: unknown[] };
  expect(discovery.resources).to.deep.equal([{ name: 'priorityclasses', singularName: 'priorityclass', namespaced: false, kind: 'PriorityClass', verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'], shortNames: ['pc'], storageVersionHash: '1QwjyaZjj3Y=' }]);

  // A collection DELETE is the generic store's: it takes the system classes too.
  const all = JSON.parse((await s('DELETE', P)).text) as { items: PriorityClass[] };
  expect(all.items.map((c) => c.metadata.name)).to.include.members(['system-cluster-critical', 'system-node-critical']);
  expect(answered<{ items: unknown[] }>(await s('GET', P)).items).to.deep.equal([]);
}

describeOnBothServers('PriorityClasses (scheduling.k8s.io/v1) and the Priority admission plugin', run);
