// core/v1 ReplicationControllers and PodTemplates, apps/v1 ControllerRevisions on both servers: the defaults
// (SetDefaults_ReplicationController: selector and labels from the template's labels, one replica; the pod
// template's defaults), the strategies (generation; an RC's status and scale; the PodTemplate's deleted object;
// no generation for a revision), ValidateReplicationController (which an update runs twice: each error twice
// in the causes), the non-convertible annotations, ValidateReplicationControllerStatus, the Scale of an RC,
// ValidatePodTemplate(Update), ValidateControllerRevisionCreate/Update (a revision's data compared as the JSON
// it was written as: a strategic merge patch or an apply rewrites it in Go's map order), the warnings (an RC's
// on update are its old template's), decode errors, the status.replicas field selector, a selecting watch,
// every patch type, protobuf bodies, the Tables, discovery and an RC's default orphaning
// (pkg/registry/core/replicationcontroller, pkg/registry/core/podtemplate, pkg/registry/apps/controllerrevision,
// pkg/apis/core/validation, pkg/apis/apps/validation, pkg/printers/internalversion). Every expected message
// is kube-apiserver 1.34.4's answer to the same request (the reference server runs the same test).
import { expect } from 'chai';
import { envelopeBytes, field, vfield } from '../../packages/apiserver/test/internal/protobufWriter.js';
import { APPLY, JSON_PATCH, MERGE, PROTOBUF, STRATEGIC, TABLE, answered, describeOnBothServers, refused, type Send } from './sender.js';

const RC = '/api/v1/namespaces/default/replicationcontrollers';
const PT = '/api/v1/namespaces/default/podtemplates';
const CR = '/apis/apps/v1/namespaces/default/controllerrevisions';
const subdomainRule = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const nameRule = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const containers = [{ name: 'c', image: 'nginx' }];
// A container as the pod template defaults write it (the image has no tag: Always).
const defaultedContainer = { name: 'c', image: 'nginx', resources: {}, terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', imagePullPolicy: 'Always' };
const podDefaults = { restartPolicy: 'Always', terminationGracePeriodSeconds: 30, dnsPolicy: 'ClusterFirst', securityContext: {}, schedulerName: 'default-scheduler' };
const archWarning = 'spec.template.spec.nodeSelector[beta.kubernetes.io/arch]: deprecated since v1.14; use "kubernetes.io/arch" instead';
const zoneWarning = 'spec.template.spec.nodeSelector[failure-domain.beta.kubernetes.io/zone]: deprecated since v1.17; use "topology.kubernetes.io/zone" instead';

interface Obj {
  metadata: { name: string; uid: string; resourceVersion: string; generation?: number; labels?: Record<string, string>; finalizers?: string[]; deletionTimestamp?: string; managedFields?: { manager: string; subresource?: string; fieldsV1: Record<string, unknown> }[] };
  spec: Record<string, unknown>;
  status: Record<string, unknown>;
  [member: string]: unknown;
}
interface Table {
  columnDefinitions: { name: string; type: string; priority: number }[];
  rows: { cells: unknown[] }[];
}

const rc = (name: string, spec: Record<string, unknown>, meta: Record<string, unknown> = {}): string => JSON.stringify({ apiVersion: 'v1', kind: 'ReplicationController', metadata: { name, ...meta }, spec });
const template = (labels: Record<string, string> | undefined, spec: Record<string, unknown> = {}): Record<string, unknown> => ({ ...(labels === undefined ? {} : { metadata: { labels } }), spec: { containers, ...spec } });
const table = async (s: Send, path: string): Promise<Table> => JSON.parse((await s('GET', path, undefined, undefined, TABLE)).text) as Table;
const names = async (s: Send, path: string): Promise<string[]> => answered<{ items: Obj[] }>(await s('GET', path)).items.map((o) => o.metadata.name);

/** The `k8s\0` envelope of a message, as text: the sender writes text, so every byte must be ASCII. */
function envelope(apiVersion: string, kind: string, raw: number[]): string {
  const bytes = envelopeBytes(apiVersion, kind, raw);
  if (bytes.some((b) => b >= 0x80)) throw new Error('keep the protobuf messages of this test below 128 bytes a field');
  return Buffer.from(bytes).toString('latin1');
}

async function replicationControllers(s: Send): Promise<void> {
  // Defaults: the selector and the labels from the template's labels, one replica, the pod defaults; status and generation.
  const a = answered<Obj>(await s('POST', RC, rc('a', { template: template({ app: 'a' }) })), 201);
  expect([a.metadata.labels, a.metadata.generation, a.spec, a.status]).to.deep.equal([
    { app: 'a' }, 1, { replicas: 1, selector: { app: 'a' }, template: { metadata: { labels: { app: 'a' } }, spec: { containers: [defaultedContainer], ...podDefaults } } }, { replicas: 0 },
  ]);
  const b = answered<Obj>(await s('POST', RC, rc('b', { replicas: 0, selector: { app: 'b' }, template: template({ app: 'b', more: '1' }) }, { labels: { x: 'y' } })), 201);
  expect([b.metadata.labels, b.spec.replicas, b.spec.selector]).to.deep.equal([{ x: 'y' }, 0, { app: 'b' }]);
  // A null replicas is defaulted; a status sent on create is dropped.
  const h = answered<Obj>(await s('POST', RC, JSON.stringify({ apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'h' }, spec: { replicas: null, selector: null, template: template({ a: 'b' }) }, status: { replicas: 5 } })), 201);
  expect([h.spec.replicas, h.spec.selector, h.status]).to.deep.equal([1, { a: 'b' }, { replicas: 0 }]);

  // ValidateReplicationController: every error, in order.
  refused(await s('POST', RC, rc('c', {})), 'ReplicationController "c" is invalid: [spec.selector: Required value, spec.template: Required value]');
  refused(await s('POST', RC, rc('D_x', { replicas: -1, minReadySeconds: -2, selector: { app: 'z' }, template: template({ app: 'a' }, { restartPolicy: 'Never', activeDeadlineSeconds: 5, containers: [] }) })),
    `ReplicationController "D_x" is invalid: [metadata.name: Invalid value: "D_x": ${subdomainRule}, spec.minReadySeconds: Invalid value: -2: must be greater than or equal to 0, spec.replicas: Invalid value: -1: must be greater than or equal to 0, spec.template.metadata.labels: Invalid value: {"app":"a"}: \`selector\` does not match template \`labels\`, spec.template.spec.containers: Required value, spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always", spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicationController is not Supported]`);
  // The selector's keys are not validated, the labels it gave the RC and the template's are.
  refused(await s('POST', RC, rc('e', { selector: { 'a b': 'c' }, template: template({ 'a b': 'c' }) })), `ReplicationController "e" is invalid: [metadata.labels: Invalid value: "a b": ${nameRule}, spec.template.labels: Invalid value: "a b": ${nameRule}]`);
  refused(await s('POST', RC, rc('e', { selector: {}, template: { metadata: {}, spec: { containers } } })), 'ReplicationController "e" is invalid: spec.selector: Required value');
  refused(await s('POST', RC, rc('e', { selector: { a: 'b' }, template: template(undefined) })), 'ReplicationController "e" is invalid: spec.template.metadata.labels: Invalid value: null: `selector` does not match template `labels`');
  refused(await s('POST', RC, rc('e', { selector: { a: 'b' }, template: template({}) })), 'ReplicationController "e" is invalid: spec.template.metadata.labels: Invalid value: {}: `selector` does not match template `labels`');
  refused(await s('POST', RC, rc('e', { selector: { a: 'b' }, template: null })), 'ReplicationController "e" is invalid: spec.template: Required value');
  refused(await s('POST', RC, rc('e', { selector: { a: 'b' }, template: template({ a: 'b' }, { ephemeralContainers: [{ name: 'e', image: 'i' }] }) })), 'ReplicationController "e" is invalid: spec.template.spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod template');
  refused(await s('POST', RC, '{"apiVersion":"v1","kind":"ReplicationController","metadata":{"name":"p"},"spec":{"selector":{"__proto__":"x"},"template":{"metadata":{"labels":{"__proto__":"x"}},"spec":{"containers":[{"name":"c","image":"i"}]}}}}'),
    `ReplicationController "p" is invalid: [metadata.labels: Invalid value: "__proto__": ${nameRule}, spec.template.labels: Invalid value: "__proto__": ${nameRule}]`);

  // Decoding into the Go type.
  const decode = async (body: string, query = ''): Promise<[number, string]> => {
    const r = await s('POST', RC + query, body);
    return [r.status, r.message];
  };
  const cannot = 'ReplicationController in version "v1" cannot be handled as a ReplicationController: ';
  expect(await decode('{"apiVersion":"v1","kind":"ReplicationController","metadata":{"name":"x"},"spec":{"replicas":"3"}}')).to.deep.equal([400, `${cannot}json: cannot unmarshal string into Go struct field ReplicationControllerSpec.spec.replicas of type int32`]);
  expect(await decode('{"apiVersion":"v1","kind":"ReplicationController","metadata":{"name":"x"},"spec":{"replicas":2147483648}}')).to.deep.equal([400, `${cannot}json: cannot unmarshal number 2147483648 into Go struct field ReplicationControllerSpec.spec.replicas of type int32`]);
  expect(await decode('{"apiVersion":"v1","kind":"ReplicationController","metadata":{"name":"x"},"spec":{"selector":[]}}')).to.deep.equal([400, `${cannot}json: cannot unmarshal array into Go struct field ReplicationControllerSpec.spec.selector of type map[string]string`]);
  expect(await decode('{"apiVersion":"v1","kind":"ReplicationController","metadata":{"name":"x"},"spec":{"selector":{"a":1}}}')).to.deep.equal([400, `${cannot}json: cannot unmarshal number into Go struct field ReplicationControllerSpec.spec.selector of type string`]);
  expect(await decode(rc('x', { x: 1, template: template({ a: 'b' }) }), '?fieldValidation=Strict')).to.deep.equal([400, `${cannot}strict decoding error: unknown field "spec.x"`]);

  // Warnings: the name, then the template's; an update that bumps the generation warns about the *old* template.
  const w = await s('POST', RC, rc('w.x', { template: template({ app: 'w' }, { nodeSelector: { 'beta.kubernetes.io/arch': 'amd64' } }) }));
  expect([w.status, w.warnings]).to.deep.equal([201, ['metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]', archWarning]]);
  const swapped = await s('PATCH', `${RC}/w.x`, JSON.stringify({ spec: { template: { spec: { nodeSelector: { 'beta.kubernetes.io/arch': null, 'failure-domain.beta.kubernetes.io/zone': 'z' } } } } }), STRATEGIC);
  expect([answered<Obj>(swapped).metadata.generation, swapped.warnings]).to.deep.equal([2, [archWarning]]);
  const relabelled = await s('PATCH', `${RC}/w.x`, JSON.stringify({ metadata: { labels: { q: 'r' } } }), MERGE);
  expect([answered<Obj>(relabelled).metadata.generation, relabelled.warnings]).to.deep.equal([2, []]);
  const rescaled = await s('PATCH', `${RC}/w.x`, JSON.stringify({ spec: { replicas: 2 } }), MERGE);
  expect([answered<Obj>(rescaled).metadata.generation, rescaled.warnings]).to.deep.equal([3, [zoneWarning]]);

  // Update: ValidateReplicationController and ValidateReplicationControllerUpdate both run; the message lists
  // each error once, the causes (with rest.BeforeUpdate's two label checks) list the label error four times.
  const twice = await s('PUT', `${RC}/a`, rc('a', { replicas: -1, selector: { app: 'zz' }, template: template({ app: 'a' }) }, { labels: { 'x y': '1' } }));
  refused(twice, `ReplicationController "a" is invalid: [metadata.labels: Invalid value: "x y": ${nameRule}, spec.replicas: Invalid value: -1: must be greater than or equal to 0, spec.template.metadata.labels: Invalid value: {"app":"a"}: \`selector\` does not match template \`labels\`]`);
  const causes = (JSON.parse(twice.text) as { details: { causes: { field: string }[] } }).details.causes.map((c) => c.field);
  expect(causes).to.deep.equal(['metadata.labels', 'metadata.labels', 'metadata.labels', 'spec.replicas', 'spec.template.metadata.labels', 'metadata.labels', 'spec.replicas', 'spec.template.metadata.labels']);
  const updated = answered<Obj>(await s('PUT', `${RC}/a`, rc('a', { replicas: 3, selector: { app: 'a', b: 'c' }, template: template({ app: 'a', b: 'c' }) })));
  expect([updated.metadata.generation, updated.metadata.labels, updated.status]).to.deep.equal([2, { app: 'a', b: 'c' }, { replicas: 0 }]);

  // An annotation `non-convertible.kubernetes.io/<field>` of the stored RC refuses updates: of the selector
  // when the field names one, any otherwise, through /scale too.
  answered(await s('POST', RC, rc('n', { template: template({ app: 'n' }) }, { annotations: { 'non-convertible.kubernetes.io/spec.selector': 'x' } })), 201);
  refused(await s('PATCH', `${RC}/n`, JSON.stringify({ spec: { selector: { app: 'n', b: 'c' }, template: template({ app: 'n', b: 'c' }) } }), MERGE), 'ReplicationController "n" is invalid: spec.selector: Invalid value: {"app":"n","b":"c"}: cannot update non-convertible selector');
  answered(await s('PATCH', `${RC}/n`, JSON.stringify({ metadata: { annotations: { 'non-convertible.kubernetes.io/spec.selector': null, 'non-convertible.kubernetes.io/foo': 'bar' } } }), MERGE));
  refused(await s('PATCH', `${RC}/n`, JSON.stringify({ metadata: { labels: { z: '1' } } }), MERGE), 'ReplicationController "n" is invalid: foo: Not found: "bar": unknown non-convertible field');
  refused(await s('PATCH', `${RC}/n/scale`, JSON.stringify({ spec: { replicas: 5 } }), MERGE), 'ReplicationController "n" is invalid: foo: Not found: "bar": unknown non-convertible field');
  answered(await s('PATCH', `${RC}/n/status`, JSON.stringify({ status: { replicas: 2 } }), MERGE));

  // /scale: the selector map as text; ValidateScale; 0 replicas (omitted by the Scale) leave no owner of spec.replicas.
  expect(answered<Obj>(await s('GET', `${RC}/a/scale`))).to.deep.include({ kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 3 }, status: { replicas: 0, selector: 'app=a,b=c' } });
  const scale = (replicas: number, meta: Record<string, unknown> = {}): string => JSON.stringify({ apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'a', namespace: 'default', ...meta }, spec: { replicas } });
  refused(await s('PUT', `${RC}/a/scale`, scale(-1)), 'Scale.autoscaling "a" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0');
  const uidConflict = await s('PUT', `${RC}/a/scale`, scale(2, { uid: 'bogus' }));
  expect([uidConflict.status, uidConflict.message]).to.deep.equal([409, `Operation cannot be fulfilled on replicationcontrollers "a": StorageError: invalid object, Code: 4, Key: /registry/controllers/default/a, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: bogus, UID in object meta: ${updated.metadata.uid}`]);
  expect(answered<Obj>(await s('PUT', `${RC}/a/scale`, scale(7))).spec).to.deep.equal({ replicas: 7 });
  expect(answered<Obj>(await s('PATCH', `${RC}/a/scale`, JSON.stringify([{ op: 'replace', path: '/spec/replicas', value: 2 }]), JSON_PATCH)).spec).to.deep.equal({ replicas: 2 });
  const conflict = await s('PATCH', `${RC}/a/scale?fieldManager=hpa`, JSON.stringify({ apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'a', namespace: 'default' }, spec: { replicas: 6 } }), APPLY);
  expect([conflict.status, conflict.message]).to.deep.equal([409, 'Apply failed with 1 conflict: conflict with "unknown" with subresource "scale" using autoscaling/v1: .spec.replicas']);
  expect(answered<Obj>(await s('PUT', `${RC}/a/scale`, scale(0))).spec).to.deep.equal({});
  const scaledDown = answered<Obj>(await s('GET', `${RC}/a`));
  expect([scaledDown.spec.replicas, scaledDown.metadata.generation, scaledDown.metadata.managedFields!.map((m) => [m.manager, m.subresource, Object.keys(m.fieldsV1['f:spec'] as object)])]).to.deep.equal([0, 5, [['unknown', undefined, ['f:selector', 'f:template']]]]);

  // /status: ValidateReplicationControllerStatus; the spec kept.
  refused(await s('PUT', `${RC}/a/status`, JSON.stringify({ ...scaledDown, status: { replicas: -1, fullyLabeledReplicas: 3, readyReplicas: 4, availableReplicas: 5, observedGeneration: -2 } })),
    'ReplicationController "a" is invalid: [status.replicas: Invalid value: -1: must be greater than or equal to 0, status.observedGeneration: Invalid value: -2: must be greater than or equal to 0, status.fullyLabeledReplicas: Invalid value: 3: cannot be greater than status.replicas, status.readyReplicas: Invalid value: 4: cannot be greater than status.replicas, status.availableReplicas: Invalid value: 5: cannot be greater than status.replicas, status.availableReplicas: Invalid value: 5: cannot be greater than readyReplicas]');
  const status = answered<Obj>(await s('PUT', `${RC}/a/status`, JSON.stringify({ ...scaledDown, spec: { replicas: 99 }, status: { replicas: 2, fullyLabeledReplicas: 2, readyReplicas: 2, availableReplicas: 1, observedGeneration: 5, conditions: [{ type: 'ReplicaFailure', status: 'True', reason: 'r' }] } })));
  expect([status.spec.replicas, status.metadata.generation, status.status]).to.deep.equal([0, 5, { replicas: 2, fullyLabeledReplicas: 2, readyReplicas: 2, availableReplicas: 1, observedGeneration: 5, conditions: [{ type: 'ReplicaFailure', status: 'True', lastTransitionTime: null, reason: 'r' }] }]);
  refused(await s('PATCH', `${RC}/a/status`, JSON.stringify({ status: { replicas: 1 } }), MERGE), 'ReplicationController "a" is invalid: [status.fullyLabeledReplicas: Invalid value: 2: cannot be greater than status.replicas, status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas]');
  // observedGeneration is an int64: one beyond 2^53 is held to the same rule (kubekit read it as 0).
  refused(await s('PATCH', `${RC}/a/status`, '{"status":{"observedGeneration":-9007199254740993}}', MERGE), 'ReplicationController "a" is invalid: status.observedGeneration: Invalid value: -9007199254740993: must be greater than or equal to 0');

  // Field selectors: status.replicas (and the metadata); nothing of the spec.
  expect(await names(s, `${RC}?fieldSelector=status.replicas%3D2`)).to.deep.equal(['a', 'n']);
  expect(await names(s, `${RC}?fieldSelector=status.replicas!%3D2,metadata.name!%3Dh`)).to.deep.equal(['b', 'w.x']);
  expect(await s('GET', `${RC}?fieldSelector=spec.replicas%3D0`)).to.deep.include({ status: 400, message: 'field label not supported: spec.replicas' });
  const events = (await s('GET', `${RC}?watch=true&fieldSelector=status.replicas%3D2&resourceVersion=${scaledDown.metadata.resourceVersion}&timeoutSeconds=1`)).text.split('\n').filter((l) => l !== '').map((l) => {
    const e = JSON.parse(l) as { type: string; object: Obj };
    return [e.type, e.object.metadata.name, e.object.status.replicas];
  });
  expect(events).to.deep.equal([['ADDED', 'a', 2]]);

  // Server-side apply: the applier owns what it sent; another manager takes replicas.
  answered(await s('PATCH', `${RC}/ap?fieldManager=m`, JSON.stringify({ apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'ap' }, spec: { replicas: 2, template: template({ app: 'ap' }) } }), APPLY), 201);
  const applied = answered<Obj>(await s('PATCH', `${RC}/ap?fieldManager=other&force=true`, JSON.stringify({ apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'ap' }, spec: { replicas: 5 } }), APPLY));
  expect([applied.spec.replicas, applied.spec.selector, applied.metadata.managedFields!.map((m) => m.manager)]).to.deep.equal([5, { app: 'ap' }, ['m', 'other']]);

  // The Table, with the wide columns, and a protobuf body.
  answered(await s('POST', RC, envelope('v1', 'ReplicationController', [...field(1, field(1, 'pb')), ...field(2, [...vfield(1, 0), ...field(2, [...field(1, 'app'), ...field(2, 'pb')]), ...field(3, [...field(1, field(11, [...field(1, 'app'), ...field(2, 'pb')])), ...field(2, field(2, [...field(1, 'c'), ...field(2, 'i:1')]))])])]), PROTOBUF), 201);
  const t = await table(s, RC);
  expect(t.columnDefinitions.map((c) => [c.name, c.type, c.priority])).to.deep.equal([['Name', 'string', 0], ['Desired', 'integer', 0], ['Current', 'integer', 0], ['Ready', 'integer', 0], ['Age', 'string', 0], ['Containers', 'string', 1], ['Images', 'string', 1], ['Selector', 'string', 1]]);
  expect(t.rows.map((r) => [...r.cells.slice(0, 4), ...r.cells.slice(5)])).to.deep.equal([
    ['a', 0, 2, 2, 'c', 'nginx', 'app=a,b=c'], ['ap', 5, 0, 0, 'c', 'nginx', 'app=ap'], ['b', 0, 0, 0, 'c', 'nginx', 'app=b'], ['h', 1, 0, 0, 'c', 'nginx', 'a=b'],
    ['n', 1, 2, 0, 'c', 'nginx', 'app=n'], ['pb', 0, 0, 0, 'c', 'i:1', 'app=pb'], ['w.x', 2, 0, 0, 'c', 'nginx', 'app=w'],
  ]);

  // Delete: v1 orphans the dependents by default (no warning, unlike a Job), through the orphan finalizer.
  const orphaned = await s('DELETE', `${RC}/b`);
  const marked = answered<Obj>(orphaned);
  expect([orphaned.warnings, marked.metadata.finalizers, typeof marked.metadata.deletionTimestamp]).to.deep.equal([[], ['orphan'], 'string']);
  const gone = answered<{ kind: string; details: Record<string, unknown> }>(await s('DELETE', `${RC}/pb`, JSON.stringify({ propagationPolicy: 'Background' })));
  expect([gone.kind, gone.details.name, gone.details.kind]).to.deep.equal(['Status', 'pb', 'replicationcontrollers']);
}

async function podTemplates(s: Send): Promise<void> {
  const pt = (name: string, rest: Record<string, unknown>): string => JSON.stringify({ apiVersion: 'v1', kind: 'PodTemplate', metadata: { name }, ...rest });
  // The template is a struct: always there, always defaulted; generation 1.
  const a = answered<Obj>(await s('POST', PT, pt('a', { template: { metadata: { labels: { app: 'a', b: 'c' } }, spec: { containers } } })), 201);
  expect([a.metadata.generation, a.template]).to.deep.equal([1, { metadata: { labels: { app: 'a', b: 'c' } }, spec: { containers: [defaultedContainer], ...podDefaults } }]);
  const f = answered<Obj>(await s('POST', PT, pt('f', { template: { spec: { restartPolicy: 'Never', activeDeadlineSeconds: 5, containers } } })), 201);
  expect(f.template).to.deep.equal({ metadata: {}, spec: { containers: [defaultedContainer], ...podDefaults, restartPolicy: 'Never', activeDeadlineSeconds: 5 } });
  const warned = await s('POST', PT, pt('b.c', { template: { metadata: { annotations: { 'scheduler.alpha.kubernetes.io/critical-pod': '' } }, spec: { nodeSelector: { 'beta.kubernetes.io/os': 'linux' }, containers: [...containers, { name: 'd', image: 'busybox' }] } } }));
  expect([warned.status, warned.warnings]).to.deep.equal([201, ['template.spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use "kubernetes.io/os" instead', 'template.metadata.annotations[scheduler.alpha.kubernetes.io/critical-pod]: non-functional in v1.16+; use the "priorityClassName" field instead']]);

  // ValidatePodTemplate: the name, then the template as a pod template (any restart policy, a deadline allowed).
  refused(await s('POST', PT, pt('e', {})), 'PodTemplate "e" is invalid: template.spec.containers: Required value');
  refused(await s('POST', PT, pt('e', { template: null })), 'PodTemplate "e" is invalid: template.spec.containers: Required value');
  refused(await s('POST', PT, pt('E_', { template: { metadata: { labels: { 'a b': 'c' }, annotations: { 'x y': '1' } }, spec: { restartPolicy: 'Sometimes', activeDeadlineSeconds: 0, containers: [{ name: 'c' }], ephemeralContainers: [{ name: 'e', image: 'i' }] } } })),
    `PodTemplate "E_" is invalid: [metadata.name: Invalid value: "E_": ${subdomainRule}, template.labels: Invalid value: "a b": ${nameRule}, template.annotations: Invalid value: "x y": ${nameRule}, template.spec.containers[0].image: Required value, template.spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never", template.spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive, template.spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod template]`);
  const cannot = 'PodTemplate in version "v1" cannot be handled as a PodTemplate: ';
  expect(await s('POST', PT, '{"metadata":{"name":"h"},"template":[]}')).to.deep.include({ status: 400, message: `${cannot}json: cannot unmarshal array into Go struct field PodTemplate.template of type v1.PodTemplateSpec` });
  expect(await s('POST', `${PT}?fieldValidation=Strict`, '{"metadata":{"name":"h"},"template":{"spec":{"containers":[{"name":"c","image":"i"}]}},"spec":{}}')).to.deep.include({ status: 400, message: `${cannot}strict decoding error: unknown field "spec"` });

  // Updates: the generation counts changes of the template; ValidatePodTemplateUpdate holds the template.
  expect(answered<Obj>(await s('PATCH', `${PT}/a`, JSON.stringify({ metadata: { labels: { x: 'y' } } }), MERGE)).metadata.generation).to.equal(1);
  expect(answered<Obj>(await s('PATCH', `${PT}/a`, JSON.stringify({ template: { metadata: { labels: { x: 'y' } } } }), MERGE)).metadata.generation).to.equal(2);
  const image = answered<Obj>(await s('PATCH', `${PT}/a`, JSON.stringify({ template: { spec: { containers: [{ name: 'c', image: 'nginx:2' }] } } }), STRATEGIC));
  expect([image.metadata.generation, (image.template as { spec: { containers: { image: string }[] } }).spec.containers[0].image]).to.deep.equal([3, 'nginx:2']);
  refused(await s('PATCH', `${PT}/a`, JSON.stringify([{ op: 'remove', path: '/template/spec/containers' }]), JSON_PATCH), 'PodTemplate "a" is invalid: template.spec.containers: Required value');
  refused(await s('PUT', `${PT}/a`, JSON.stringify({ ...image, metadata: { ...image.metadata, labels: { 'x y': 'z' } }, template: { spec: { containers: [] } } })), `PodTemplate "a" is invalid: [metadata.labels: Invalid value: "x y": ${nameRule}, template.spec.containers: Required value]`);
  const rewarned = await s('PATCH', `${PT}/b.c`, JSON.stringify({ template: { spec: { nodeSelector: { 'beta.kubernetes.io/os': null, 'failure-domain.beta.kubernetes.io/region': 'r' } } } }), STRATEGIC);
  expect(rewarned.warnings).to.deep.equal(['template.spec.nodeSelector[failure-domain.beta.kubernetes.io/region]: deprecated since v1.17; use "topology.kubernetes.io/region" instead', 'template.metadata.annotations[scheduler.alpha.kubernetes.io/critical-pod]: non-functional in v1.16+; use the "priorityClassName" field instead']);
  answered(await s('POST', PT, envelope('v1', 'PodTemplate', [...field(1, field(1, 'pb')), ...field(2, field(2, field(2, [...field(1, 'c'), ...field(2, 'i')])))]), PROTOBUF), 201);

  // The Table has no Age; the metadata alone is selectable; a DELETE answers the object.
  const t = await table(s, PT);
  expect(t.columnDefinitions.map((c) => [c.name, c.type, c.priority])).to.deep.equal([['Name', 'string', 0], ['Containers', 'string', 0], ['Images', 'string', 0], ['Pod Labels', 'string', 0]]);
  expect(t.rows.map((r) => r.cells)).to.deep.equal([['a', 'c', 'nginx:2', 'app=a,b=c,x=y'], ['b.c', 'c,d', 'nginx,busybox', '<none>'], ['f', 'c', 'nginx', '<none>'], ['pb', 'c', 'i', '<none>']]);
  expect(await s('GET', `${PT}?fieldSelector=template.metadata.name%3Da`)).to.deep.include({ status: 400, message: '"template.metadata.name" is not a known field selector: only "metadata.name", "metadata.namespace"' });
  expect(answered<Obj>(await s('DELETE', `${PT}/f`))).to.deep.include({ kind: 'PodTemplate', template: f.template });
  expect(answered<{ items: Obj[] }>(await s('DELETE', `${PT}?fieldSelector=metadata.name%3Dpb`)).items.map((o) => o.metadata.name)).to.deep.equal(['pb']);
}

async function controllerRevisions(s: Send): Promise<void> {
  // A controller to own them (the reference has no garbage collector, kubekit's would remove revisions of a missing owner).
  const sts = answered<Obj>(await s('POST', '/apis/apps/v1/namespaces/default/statefulsets', JSON.stringify({ metadata: { name: 'web' }, spec: { selector: { matchLabels: { app: 'web' } }, template: template({ app: 'web' }) } })), 201);
  const owner = { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: sts.metadata.uid, controller: true };
  const cr = (name: string, rest: Record<string, unknown>, meta: Record<string, unknown> = {}): string => JSON.stringify({ apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name, ...meta }, ...rest });
  // No generation; data is atomic to the field manager.
  const a = answered<Obj>(await s('POST', CR, cr('a', { data: { spec: { template: { x: 1 } } }, revision: 3 }, { ownerReferences: [owner] })), 201);
  expect([a.metadata.generation, a.data, a.revision, a.metadata.managedFields![0].fieldsV1]).to.deep.equal([undefined, { spec: { template: { x: 1 } } }, 3, { 'f:data': {}, 'f:metadata': { 'f:ownerReferences': { '.': {}, [`k:{"uid":"${sts.metadata.uid}"}`]: {} } }, 'f:revision': {} }]);
  // An int64 revision is kept exactly.
  const big = await s('POST', CR, cr('big', { data: {} }).replace('"data":{}', '"data":{},"revision":9007199254740993'));
  expect(big.status, big.text).to.equal(201);
  expect(big.text.replace(/\s/g, '')).to.include('"revision":9007199254740993');

  // ValidateControllerRevisionCreate.
  refused(await s('POST', CR, cr('c', {})), 'ControllerRevision.apps "c" is invalid: data: Required value: data is mandatory');
  refused(await s('POST', CR, '{"metadata":{"name":"c"},"data":{},"revision":-9007199254740993}'), 'ControllerRevision.apps "c" is invalid: revision: Invalid value: -9007199254740993: must be greater than or equal to 0');
  refused(await s('POST', CR, cr('c', { data: null, revision: -1 })), 'ControllerRevision.apps "c" is invalid: [revision: Invalid value: -1: must be greater than or equal to 0, data: Required value: data is mandatory]');
  refused(await s('POST', CR, cr('C_', { data: 'str', revision: -1 })), `ControllerRevision.apps "C_" is invalid: [metadata.name: Invalid value: "C_": ${subdomainRule}, revision: Invalid value: -1: must be greater than or equal to 0, data: Required value: data must be a valid JSON object]`);
  refused(await s('POST', CR, cr('c', { data: [1] })), 'ControllerRevision.apps "c" is invalid: data: Required value: data must be a valid JSON object');
  refused(await s('POST', CR, cr('c', { data: 5 })), 'ControllerRevision.apps "c" is invalid: data: Required value: data must be a valid JSON object');
  refused(await s('POST', CR, envelope('apps/v1', 'ControllerRevision', [...field(1, field(1, 'pb')), ...field(2, field(1, '[1]'))]), PROTOBUF), 'ControllerRevision.apps "pb" is invalid: data: Required value: data must be a valid JSON object');
  const cannot = 'ControllerRevision in version "v1" cannot be handled as a ControllerRevision: json: cannot unmarshal ';
  expect(await s('POST', CR, '{"metadata":{"name":"e"},"revision":"1","data":{}}')).to.deep.include({ status: 400, message: `${cannot}string into Go struct field ControllerRevision.revision of type int64` });
  expect(await s('POST', CR, '{"metadata":{"name":"e"},"revision":1.5,"data":{}}')).to.deep.include({ status: 400, message: `${cannot}number 1.5 into Go struct field ControllerRevision.revision of type int64` });
  expect(await s('POST', CR, '{"metadata":{"name":"e"},"revision":9223372036854775808,"data":{}}')).to.deep.include({ status: 400, message: `${cannot}number 9223372036854775808 into Go struct field ControllerRevision.revision of type int64` });

  // ValidateControllerRevisionUpdate: the revision may change, not below 0; the data may not change at all.
  expect(answered<Obj>(await s('PATCH', `${CR}/a`, JSON.stringify({ metadata: { labels: { x: 'y' } }, revision: 4 }), MERGE)).revision).to.equal(4);
  refused(await s('PATCH', `${CR}/a`, JSON.stringify({ revision: -4 }), MERGE), 'ControllerRevision.apps "a" is invalid: revision: Invalid value: -4: must be greater than or equal to 0');
  refused(await s('PATCH', `${CR}/a`, JSON.stringify({ data: { spec: { template: { x: 2 } } } }), MERGE), 'ControllerRevision.apps "a" is invalid: data: Invalid value: {"spec":{"template":{"x":2}}}: field is immutable');
  refused(await s('PATCH', `${CR}/a`, JSON.stringify([{ op: 'replace', path: '/data', value: 'q' }]), JSON_PATCH), 'ControllerRevision.apps "a" is invalid: data: Invalid value: "q": field is immutable');
  refused(await s('PATCH', `${CR}/a`, JSON.stringify({ data: { spec: null } }), STRATEGIC), 'ControllerRevision.apps "a" is invalid: data: Invalid value: {}: field is immutable');
  // The data is compared as written: the same members in another order are a change. A strategic merge patch
  // or an apply goes through a map (keys sorted), which refuses data not written in that order; a merge patch
  // keeps it as it is.
  const unsorted = answered<Obj>(await s('POST', CR, cr('u', { data: { b: 1, a: [1, 2, { z: null }] } })), 201);
  refused(await s('PUT', `${CR}/u`, JSON.stringify({ ...unsorted, data: { a: [1, 2, { z: null }], b: 1 } })), 'ControllerRevision.apps "u" is invalid: data: Invalid value: {"a":[1,2,{"z":null}],"b":1}: field is immutable');
  expect(answered<Obj>(await s('PUT', `${CR}/u`, JSON.stringify({ ...unsorted, metadata: { ...unsorted.metadata, labels: { q: 'r' } } }))).metadata.labels).to.deep.equal({ q: 'r' });
  expect(answered<Obj>(await s('PATCH', `${CR}/u`, JSON.stringify({ metadata: { labels: { q: 's' } } }), MERGE)).metadata.labels).to.deep.equal({ q: 's' });
  refused(await s('PATCH', `${CR}/u`, JSON.stringify({ metadata: { labels: { q: 't' } } }), STRATEGIC), 'ControllerRevision.apps "u" is invalid: data: Invalid value: {"a":[1,2,{"z":null}],"b":1}: field is immutable');
  refused(await s('PATCH', `${CR}/u?fieldManager=m`, JSON.stringify({ apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'u', labels: { m: 't' } } }), APPLY), 'ControllerRevision.apps "u" is invalid: data: Invalid value: {"a":[1,2,{"z":null}],"b":1}: field is immutable');
  expect(answered<Obj>(await s('PATCH', `${CR}/a`, JSON.stringify({ metadata: { labels: { x: 'z' } } }), STRATEGIC)).metadata.labels).to.deep.equal({ x: 'z' });
  answered(await s('PATCH', `${CR}/ap?fieldManager=m`, JSON.stringify({ apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'ap' }, data: { k: 'v' }, revision: 1 }), APPLY), 201);
  expect(answered<Obj>(await s('PATCH', `${CR}/ap?fieldManager=m`, JSON.stringify({ apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'ap' }, data: { k: 'v' }, revision: 2 }), APPLY)).revision).to.equal(2);
  refused(await s('PATCH', `${CR}/ap?fieldManager=m`, JSON.stringify({ apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'ap' }, data: { k: 'w' }, revision: 2 }), APPLY), 'ControllerRevision.apps "ap" is invalid: data: Invalid value: {"k":"w"}: field is immutable');

  // The Table: the controller owner as kind.group/name, the revision a number in a string column.
  const rcA = answered<Obj>(await s('GET', `${RC}/a`));
  answered(await s('POST', CR, cr('rc', { data: { a: 1 } }, { ownerReferences: [{ ...owner, controller: false }, { apiVersion: 'v1', kind: 'ReplicationController', name: 'a', uid: rcA.metadata.uid, controller: true }] })), 201);
  answered(await s('POST', CR, cr('w', { data: { a: 1 } }, { ownerReferences: [{ ...owner, apiVersion: 'example.com/v1beta1', kind: 'Widget', name: 'wid', uid: 'u2' }] })), 201);
  const t = await table(s, CR);
  expect(t.columnDefinitions.map((c) => [c.name, c.type])).to.deep.equal([['Name', 'string'], ['Controller', 'string'], ['Revision', 'string'], ['Age', 'string']]);
  expect(t.rows.map((r) => r.cells.slice(0, 3)).filter((r) => r[0] !== 'big')).to.deep.equal([['a', 'statefulset.apps/web', 4], ['ap', '<none>', 2], ['rc', 'replicationcontroller/a', 0], ['u', '<none>', 0], ['w', 'widget.example.com/wid', 0]]);
  // The int64 revision in full (the test's JSON.parse would round it: the text is read).
  expect((await s('GET', `${CR}/big`, undefined, undefined, TABLE)).text.replace(/\s/g, '')).to.match(/"cells":\["big","[^"]*",9007199254740993,/);
  expect(await s('GET', `${CR}?fieldSelector=revision%3D3`)).to.deep.include({ status: 400, message: '"revision" is not a known field selector: only "metadata.name", "metadata.namespace"' });
  const deleted = answered<{ kind: string; details: Record<string, unknown> }>(await s('DELETE', `${CR}/u`));
  expect([deleted.kind, deleted.details.group, deleted.details.kind]).to.deep.equal(['Status', 'apps', 'controllerrevisions']);
}

async function discovery(s: Send): Promise<void> {
  const verbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
  const core = JSON.parse((await s('GET', '/api/v1')).text) as { resources: { name: string }[] };
  expect(core.resources.filter((r) => /^(replicationcontrollers|podtemplates)/.test(r.name))).to.deep.equal([
    { name: 'podtemplates', singularName: 'podtemplate', namespaced: true, kind: 'PodTemplate', verbs, storageVersionHash: 'LIXB2x4IFpk=' },
    { name: 'replicationcontrollers', singularName: 'replicationcontroller', namespaced: true, kind: 'ReplicationController', verbs, shortNames: ['rc'], categories: ['all'], storageVersionHash: 'Jond2If31h0=' },
    { name: 'replicationcontrollers/scale', singularName: '', namespaced: true, group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] },
    { name: 'replicationcontrollers/status', singularName: '', namespaced: true, kind: 'ReplicationController', verbs: ['get', 'patch', 'update'] },
  ]);
  const apps = JSON.parse((await s('GET', '/apis/apps/v1')).text) as { resources: { name: string }[] };
  expect(apps.resources.filter((r) => r.name === 'controllerrevisions')).to.deep.equal([{ name: 'controllerrevisions', singularName: 'controllerrevision', namespaced: true, kind: 'ControllerRevision', verbs, storageVersionHash: '85nkx63pcBU=' }]);
  // `kubectl get all`: of the three, ReplicationControllers only.
  const aggregated = JSON.parse((await s('GET', '/api', undefined, undefined, 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList')).text) as { items: { versions: { resources: { resource: string; categories?: string[] }[] }[] }[] };
  expect(aggregated.items[0].versions[0].resources.filter((r) => r.resource === 'replicationcontrollers' || r.resource === 'podtemplates').map((r) => [r.resource, r.categories])).to.deep.equal([['podtemplates', undefined], ['replicationcontrollers', ['all']]]);
}

/**
 * What was fixed with these kinds for others: the storage keys a failed uid precondition quotes
 * (ReplicationControllers are stored under `controllers`, and, where kubekit had only the Services' special
 * prefix, Nodes under `minions`, Endpoints under `services/endpoints`, Ingresses under `ingress`:
 * `SpecialDefaultResourcePrefixes`), and int64 status counts beyond 2^53.
 */
async function fixedWithThem(s: Send): Promise<void> {
  const conflict = async (path: string, body: Record<string, unknown>, query = ''): Promise<string> => {
    const created = answered<Obj>(await s('POST', path, JSON.stringify(body)), 201);
    const name = (body.metadata as { name: string }).name;
    const r = await s('PUT', `${path}/${name}${query}`, JSON.stringify({ ...body, metadata: { name, uid: 'bogus' } }));
    expect(r.status, r.text).to.equal(409);
    return r.message.replace(created.metadata.uid, 'UID');
  };
  const precondition = 'ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: bogus, UID in object meta: UID';
  expect(await conflict('/api/v1/nodes', { metadata: { name: 'key' } })).to.equal(`Operation cannot be fulfilled on nodes "key": StorageError: invalid object, Code: 4, Key: /registry/minions/key, ${precondition}`);
  expect(await conflict('/api/v1/namespaces/default/endpoints', { metadata: { name: 'key' } })).to.equal(`Operation cannot be fulfilled on endpoints "key": StorageError: invalid object, Code: 4, Key: /registry/services/endpoints/default/key, ${precondition}`);
  const ingress = { metadata: { name: 'key' }, spec: { defaultBackend: { service: { name: 's', port: { number: 80 } } } } };
  expect(await conflict('/apis/networking.k8s.io/v1/namespaces/default/ingresses', ingress, '?dryRun=All')).to.equal(`Operation cannot be fulfilled on ingresses.networking.k8s.io "key": StorageError: invalid object, Code: 4, Key: /ingress/default/key, ${precondition}`);
  // Fixed with the RC's status: an apps kind's int64 observedGeneration beyond 2^53 is held to its rule too.
  answered(await s('POST', '/apis/apps/v1/namespaces/default/deployments', JSON.stringify({ metadata: { name: 'og' }, spec: { selector: { matchLabels: { app: 'og' } }, template: template({ app: 'og' }) } })), 201);
  refused(await s('PATCH', '/apis/apps/v1/namespaces/default/deployments/og/status', '{"status":{"observedGeneration":-9007199254740993}}', MERGE), 'Deployment.apps "og" is invalid: status.observedGeneration: Invalid value: -9007199254740993: must be greater than or equal to 0');
}

describeOnBothServers('ReplicationControllers, PodTemplates (core/v1) and ControllerRevisions (apps/v1)', async (s) => {
  await replicationControllers(s);
  await podTemplates(s);
  await controllerRevisions(s);
  await discovery(s);
  await fixedWithThem(s);
});
