// flowcontrol.apiserver.k8s.io/v1 FlowSchemas and PriorityLevelConfigurations on both servers: the
// objects the config-producer writes at start (fixtures/bootstrap-flowcontrol.json is the reference's
// listing) with the config-consumer's `Dangling` condition, the v1 defaults, ValidateFlowSchema and
// ValidatePriorityLevelConfiguration with several errors at once in the apiserver's order and words, the
// strategies (status dropped on create and kept by updates, the generation, the status strategy), the
// consumer's condition on a FlowSchema whose priority level is missing and then created, patches, a
// watch, the Tables, protobuf and discovery (pkg/registry/flowcontrol, pkg/apis/flowcontrol/validation,
// k8s.io/apiserver's util/flowcontrol/apf_controller.go). Every expected answer is kube-apiserver
// 1.34.4's to the same request (the reference server runs the same test).
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { FakeClock } from '@kubekit/core';
import { envelopeBytes, field, vfield } from '../../packages/apiserver/test/internal/protobufWriter.js';
import { APPLY, MERGE, PROTOBUF, STRATEGIC, TABLE, answerBytes, answered, describeOnBothServers, eventually, refused, type Answer, type Send } from './sender.js';

const G = '/apis/flowcontrol.apiserver.k8s.io/v1';
const FS = `${G}/flowschemas`;
const PL = `${G}/prioritylevelconfigurations`;
const producer = 'api-priority-and-fairness-config-producer-v1';
const consumer = 'api-priority-and-fairness-config-consumer-v1';
const subdomain = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const label = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

interface Entry { manager: string; operation: string; apiVersion: string; time?: string; fieldsType: string; fieldsV1: unknown; subresource?: string }
interface Stored {
  apiVersion?: string;
  kind?: string;
  metadata: { name: string; resourceVersion: string; generation?: number; labels?: Record<string, string>; annotations?: Record<string, string>; managedFields?: Entry[] };
  spec?: Record<string, unknown>;
  status?: { conditions?: Record<string, unknown>[] };
}
interface Table { columnDefinitions: { name: string; type: string; format: string }[]; rows: { cells: unknown[] }[] }
interface Fixture { objects: (Stored & { fieldsV1: unknown })[] }

const fixture = JSON.parse(readFileSync(new URL('../../packages/apiserver/fixtures/bootstrap-flowcontrol.json', import.meta.url), 'utf8')) as Fixture;
const flowSchema = (name: string, spec: unknown, more: Record<string, unknown> = {}): string => JSON.stringify({ apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'FlowSchema', metadata: { name }, spec, ...more });
const priorityLevel = (name: string, spec: unknown, more: Record<string, unknown> = {}): string => JSON.stringify({ apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'PriorityLevelConfiguration', metadata: { name }, spec, ...more });
const items = async (s: Send, path: string): Promise<Stored[]> => answered<{ items: Stored[] }>(await s('GET', path)).items;
const table = async (s: Send, path: string): Promise<[string[], unknown[][]]> => {
  const t = answered<Table>(await s('GET', path, undefined, undefined, TABLE));
  return [t.columnDefinitions.map((c) => `${c.name}:${c.type}:${c.format}`), t.rows.map((r) => r.cells.filter((_, i) => t.columnDefinitions[i].name !== 'Age'))];
};
/** The managed fields without their times. */
const managers = (o: Stored): Omit<Entry, 'time'>[] => (o.metadata.managedFields ?? []).map(({ time: _time, ...e }) => e);
/** The `Dangling` condition without its time. */
const danglingOf = (o: Stored): unknown => {
  const c = o.status?.conditions?.find((x) => x.type === 'Dangling');
  if (c === undefined) return undefined;
  const { lastTransitionTime: _t, ...rest } = c;
  return rest;
};
const found = (pl: string): unknown => ({ type: 'Dangling', status: 'False', reason: 'Found', message: `This FlowSchema references the PriorityLevelConfiguration object named "${pl}" and it exists` });
const notFound = (pl: string): unknown => ({ type: 'Dangling', status: 'True', reason: 'NotFound', message: `This FlowSchema references the PriorityLevelConfiguration object named "${pl}" but there is no such object` });
const danglingIs = async (s: Send, name: string, want: unknown): Promise<Stored> => {
  const a = await eventually(() => s('GET', `${FS}/${name}`), (x) => x.status === 200 && JSON.stringify(danglingOf(JSON.parse(x.text) as Stored)) === JSON.stringify(want), 30);
  const o = answered<Stored>(a);
  expect(danglingOf(o)).to.deep.equal(want);
  return o;
};

async function bootstrapObjects(s: Send): Promise<void> {
  // The consumer writes its conditions a moment after the producer's creates.
  await eventually(() => s('GET', FS), (a) => a.status === 200 && (JSON.parse(a.text) as { items: Stored[] }).items.filter((o) => danglingOf(o) !== undefined).length === 11, 30);
  const [levels, schemas] = [await items(s, PL), await items(s, FS)];
  const expected = (kind: string): string[] => fixture.objects.filter((o) => o.kind === kind).map((o) => o.metadata.name).sort();
  expect([levels.map((o) => o.metadata.name), schemas.map((o) => o.metadata.name)]).to.deep.equal([expected('PriorityLevelConfiguration'), expected('FlowSchema')]);
  expect(levels.map((o) => o.metadata.name)).to.deep.equal(['catch-all', 'exempt', 'global-default', 'leader-election', 'node-high', 'system', 'workload-high', 'workload-low']);
  for (const o of [...levels, ...schemas]) {
    const want = fixture.objects.find((f) => f.metadata.name === o.metadata.name && f.kind === (o === levels.find((l) => l === o) ? 'PriorityLevelConfiguration' : 'FlowSchema'))!;
    expect([o.metadata.annotations, o.metadata.generation, o.spec], o.metadata.name).to.deep.equal([{ 'apf.kubernetes.io/autoupdate-spec': 'true' }, 1, want.spec]);
    const producerEntry = { manager: producer, operation: 'Update', apiVersion: 'flowcontrol.apiserver.k8s.io/v1', fieldsType: 'FieldsV1', fieldsV1: want.fieldsV1 };
    if (levels.includes(o)) {
      expect([o.status, managers(o)], o.metadata.name).to.deep.equal([{}, [producerEntry]]);
    } else {
      expect([danglingOf(o), managers(o)], o.metadata.name).to.deep.equal([found(String((o.spec?.priorityLevelConfiguration as { name: string }).name)), [
        { manager: consumer, operation: 'Apply', apiVersion: 'flowcontrol.apiserver.k8s.io/v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:status': { 'f:conditions': { 'k:{"type":"Dangling"}': { '.': {}, 'f:lastTransitionTime': {}, 'f:message': {}, 'f:reason': {}, 'f:status': {}, 'f:type': {} } } } }, subresource: 'status' },
        producerEntry,
      ]]);
    }
  }
  const exempt = levels.find((o) => o.metadata.name === 'exempt');
  expect(exempt?.spec).to.deep.equal({ type: 'Exempt', exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 } });

  // The Tables: FlowSchemas in the order of matching precedence, then name; MissingPL after Age.
  const [fsColumns, fsRows] = await table(s, FS);
  expect([fsColumns, fsRows]).to.deep.equal([
    ['Name:string:name', 'PriorityLevel:string:', 'MatchingPrecedence:string:', 'DistinguisherMethod:string:', 'Age:string:', 'MissingPL:string:'],
    [['exempt', 'exempt', 1, '<none>', 'False'], ['probes', 'exempt', 2, '<none>', 'False'], ['system-leader-election', 'leader-election', 100, 'ByUser', 'False'],
      ['system-node-high', 'node-high', 400, 'ByUser', 'False'], ['system-nodes', 'system', 500, 'ByUser', 'False'], ['kube-controller-manager', 'workload-high', 800, 'ByNamespace', 'False'],
      ['kube-scheduler', 'workload-high', 800, 'ByNamespace', 'False'], ['kube-system-service-accounts', 'workload-high', 900, 'ByNamespace', 'False'],
      ['service-accounts', 'workload-low', 9000, 'ByUser', 'False'], ['global-default', 'global-default', 9900, 'ByUser', 'False'], ['catch-all', 'catch-all', 10000, 'ByUser', 'False']],
  ]);
  const [plColumns, plRows] = await table(s, PL);
  expect([plColumns, plRows]).to.deep.equal([
    ['Name:string:name', 'Type:string:', 'NominalConcurrencyShares:string:', 'Queues:string:', 'HandSize:string:', 'QueueLengthLimit:string:', 'Age:string:'],
    [['catch-all', 'Limited', 5, '<none>', '<none>', '<none>'], ['exempt', 'Exempt', '<none>', '<none>', '<none>', '<none>'], ['global-default', 'Limited', 20, 128, 6, 50],
      ['leader-election', 'Limited', 10, 16, 4, 50], ['node-high', 'Limited', 40, 64, 6, 50], ['system', 'Limited', 30, 64, 6, 50], ['workload-high', 'Limited', 40, 128, 6, 50], ['workload-low', 'Limited', 100, 128, 6, 50]],
  ]);

  // Discovery: cluster-scoped, with /status, no short names or categories; the local APIService.
  const discovery = answered<{ resources: unknown[] }>(await s('GET', G)).resources;
  expect(discovery).to.deep.equal([
    { name: 'flowschemas', singularName: 'flowschema', namespaced: false, kind: 'FlowSchema', verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'], storageVersionHash: 'GJVAJZSZBIw=' },
    { name: 'flowschemas/status', singularName: '', namespaced: false, kind: 'FlowSchema', verbs: ['get', 'patch', 'update'] },
    { name: 'prioritylevelconfigurations', singularName: 'prioritylevelconfiguration', namespaced: false, kind: 'PriorityLevelConfiguration', verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'], storageVersionHash: 'Kir5PVfvNeI=' },
    { name: 'prioritylevelconfigurations/status', singularName: '', namespaced: false, kind: 'PriorityLevelConfiguration', verbs: ['get', 'patch', 'update'] },
  ]);
  const apiService = answered<{ spec: unknown }>(await s('GET', '/apis/apiregistration.k8s.io/v1/apiservices/v1.flowcontrol.apiserver.k8s.io'));
  expect(apiService.spec).to.deep.equal({ group: 'flowcontrol.apiserver.k8s.io', version: 'v1', groupPriorityMinimum: 16100, versionPriority: 21 });

  // The group serves v1 alone; the OpenAPI v3 document of the version; field selectors on the name only.
  const groupVersions = answered<{ versions: { groupVersion: string }[]; preferredVersion: { groupVersion: string } }>(await s('GET', '/apis/flowcontrol.apiserver.k8s.io'));
  expect([groupVersions.versions.map((v) => v.groupVersion), groupVersions.preferredVersion.groupVersion]).to.deep.equal([['flowcontrol.apiserver.k8s.io/v1'], 'flowcontrol.apiserver.k8s.io/v1']);
  const openapi = answered<{ components: { schemas: Record<string, { 'x-kubernetes-group-version-kind'?: unknown }> } }>(await s('GET', '/openapi/v3/apis/flowcontrol.apiserver.k8s.io/v1'));
  expect([openapi.components.schemas['io.k8s.api.flowcontrol.v1.FlowSchema']?.['x-kubernetes-group-version-kind'], Object.keys(openapi.components.schemas).filter((k) => k.startsWith('io.k8s.api.flowcontrol.v1.')).length])
    .to.deep.equal([[{ group: 'flowcontrol.apiserver.k8s.io', kind: 'FlowSchema', version: 'v1' }], 23]);
  expect((await items(s, `${FS}?fieldSelector=metadata.name%3Dprobes`)).map((o) => o.metadata.name)).to.deep.equal(['probes']);
  const selector = await s('GET', `${PL}?fieldSelector=spec.type%3DExempt`);
  expect([selector.status, selector.message]).to.deep.equal([400, '"spec.type" is not a known field selector: only "metadata.name", "metadata.namespace"']);
  // A body of a version the scheme knows but does not serve.
  const older = await s('POST', PL, JSON.stringify({ apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta3', kind: 'PriorityLevelConfiguration', metadata: { name: 'old' }, spec: { type: 'Limited', limited: { limitResponse: { type: 'Reject' } } } }));
  expect([older.status, older.message]).to.deep.equal([400, 'the API version in the data (flowcontrol.apiserver.k8s.io/v1beta3) does not match the expected API version (flowcontrol.apiserver.k8s.io/v1)']);
  // Protobuf: a bootstrap object read as protobuf.
  const pb = await s('GET', `${PL}/exempt`, undefined, undefined, PROTOBUF);
  expect([pb.status, answerBytes(pb).contentType, answerBytes(pb).bytes.includes('flowcontrol.apiserver.k8s.io/v1')]).to.deep.equal([200, PROTOBUF, true]);
}

async function writes(s: Send): Promise<void> {
  // The watch is read at the end, from the resourceVersion before the create: a watch running beside the writes
  // missed the last of them when a slow machine took longer than its timeout (CI, on the reference).
  const before = answered<{ metadata: { resourceVersion: string } }>(await s('GET', `${FS}?fieldSelector=metadata.name%3Dmine`)).metadata.resourceVersion;
  // Defaults: a matching precedence of 1000; the status given is dropped.
  const created = answered<Stored>(await s('POST', FS, flowSchema('mine', { priorityLevelConfiguration: { name: 'global-default' }, rules: [{ subjects: [{ kind: 'User', user: { name: 'alice' } }], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }] }] }, { status: { conditions: [{ type: 'X', status: 'True' }] } })), 201);
  expect([created.metadata.generation, created.spec, created.status]).to.deep.equal([1, { priorityLevelConfiguration: { name: 'global-default' }, matchingPrecedence: 1000, rules: [{ subjects: [{ kind: 'User', user: { name: 'alice' } }], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }] }] }, {}]);
  await danglingIs(s, 'mine', found('global-default'));
  const level = answered<Stored>(await s('POST', PL, priorityLevel('mine', { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: {} } } })), 201);
  expect([level.metadata.generation, level.spec, level.status]).to.deep.equal([1, { type: 'Limited', limited: { nominalConcurrencyShares: 30, limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 8, queueLengthLimit: 50 } }, lendablePercent: 0 } }, {}]);
  const rejecting = answered<Stored>(await s('POST', PL, priorityLevel('rejecting', { type: 'Limited', limited: { nominalConcurrencyShares: 0, limitResponse: { type: 'Reject' }, borrowingLimitPercent: 10 } })), 201);
  expect(rejecting.spec).to.deep.equal({ type: 'Limited', limited: { nominalConcurrencyShares: 0, limitResponse: { type: 'Reject' }, lendablePercent: 0, borrowingLimitPercent: 10 } });

  // Updates: a spec change bumps the generation, the status is kept; a same spec does not.
  const updated = answered<Stored>(await s('PATCH', `${FS}/mine`, JSON.stringify({ spec: { matchingPrecedence: 500, distinguisherMethod: { type: 'ByNamespace' } }, status: { conditions: [] } }), MERGE));
  expect([updated.metadata.generation, updated.spec?.matchingPrecedence, danglingOf(updated)]).to.deep.equal([2, 500, found('global-default')]);
  const labelled = answered<Stored>(await s('PATCH', `${FS}/mine`, JSON.stringify({ metadata: { labels: { a: 'b' } } }), STRATEGIC));
  expect(labelled.metadata.generation).to.equal(2);
  // The status strategy: the old metadata (labels too) and spec, the new status.
  const status = answered<Stored>(await s('PATCH', `${FS}/mine/status`, JSON.stringify({ metadata: { labels: { c: 'd' } }, spec: { matchingPrecedence: 7 }, status: { conditions: [{ type: 'Other', status: 'True', reason: 'R' }] } }), STRATEGIC));
  expect([status.metadata.labels, status.metadata.generation, status.spec?.matchingPrecedence, status.status?.conditions?.map((c) => c.type)]).to.deep.equal([{ a: 'b' }, 2, 500, ['Other', 'Dangling']]);
  // The whole ObjectMeta is the old one (newFlowSchema.ObjectMeta = oldFlowSchema.ObjectMeta), generateName included.
  const named = answered<Stored & { metadata: { generateName?: string } }>(await s('PATCH', `${FS}/mine/status`, JSON.stringify({ metadata: { generateName: 'renamed-' } }), MERGE));
  expect(named.metadata.generateName).to.equal(undefined);
  refused(await s('PATCH', `${FS}/mine/status`, JSON.stringify({ status: { conditions: [{ type: 'Other', status: 'False' }, { type: 'Other' }, { status: 'True' }] } }), MERGE),
    'FlowSchema.flowcontrol.apiserver.k8s.io "mine" is invalid: [status.conditions[1].type: Duplicate value: "Other", status.conditions[2].type: Required value]');
  const applied = answered<Stored>(await s('PATCH', `${PL}/mine?fieldManager=ctl&force=true`, JSON.stringify({ apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'PriorityLevelConfiguration', metadata: { name: 'mine' }, spec: { type: 'Limited', limited: { nominalConcurrencyShares: 7, limitResponse: { type: 'Queue', queuing: { queues: 32 } } } } }), APPLY));
  expect([applied.metadata.generation, applied.spec]).to.deep.equal([2, { type: 'Limited', limited: { nominalConcurrencyShares: 7, limitResponse: { type: 'Queue', queuing: { queues: 32, handSize: 8, queueLengthLimit: 50 } }, lendablePercent: 0 } }]);

  // The consumer: a missing priority level is Dangling, and no longer once it is created.
  answered(await s('POST', FS, flowSchema('orphan', { priorityLevelConfiguration: { name: 'later' }, matchingPrecedence: 300 })), 201);
  await danglingIs(s, 'orphan', notFound('later'));
  const [, rows] = await table(s, `${FS}?fieldSelector=metadata.name%3Dorphan`);
  expect(rows).to.deep.equal([['orphan', 'later', 300, '<none>', 'True']]);
  answered(await s('POST', PL, priorityLevel('later', { type: 'Limited', limited: { limitResponse: { type: 'Reject' } } })), 201);
  await danglingIs(s, 'orphan', found('later'));
  answered(await s('DELETE', `${PL}/later`));
  const orphan = await danglingIs(s, 'orphan', notFound('later'));
  expect(managers(orphan).map((e) => `${e.operation}:${e.subresource ?? ''}`)).to.deep.equal(['Apply:status', 'Update:']);
  expect(managers(orphan)[0].manager).to.equal(consumer);

  // A create by server-side apply: the fields it manages (lists of rules and subjects are atomic).
  const appliedFS = answered<Stored>(await s('PATCH', `${FS}/applied?fieldManager=ctl`, JSON.stringify({ apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'FlowSchema', metadata: { name: 'applied' }, spec: { priorityLevelConfiguration: { name: 'mine' }, distinguisherMethod: { type: 'ByUser' }, rules: [{ subjects: [{ kind: 'Group', group: { name: 'g' } }], resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], clusterScope: true }] }] } }), APPLY), 201);
  expect([appliedFS.spec, managers(appliedFS)]).to.deep.equal([
    { priorityLevelConfiguration: { name: 'mine' }, matchingPrecedence: 1000, distinguisherMethod: { type: 'ByUser' }, rules: [{ subjects: [{ kind: 'Group', group: { name: 'g' } }], resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], clusterScope: true, namespaces: null }] }] },
    [{ manager: 'ctl', operation: 'Apply', apiVersion: 'flowcontrol.apiserver.k8s.io/v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:distinguisherMethod': { 'f:type': {} }, 'f:priorityLevelConfiguration': { 'f:name': {} }, 'f:rules': {} } } }],
  ]);
  // Protobuf bodies.
  const body = Buffer.from(envelopeBytes('flowcontrol.apiserver.k8s.io/v1', 'FlowSchema', [...field(1, field(1, 'pb')), ...field(2, [...field(1, field(1, 'exempt')), ...vfield(2, 5)])])).toString('latin1');
  const fromProtobuf = answered<Stored>(await s('POST', FS, body, PROTOBUF), 201);
  expect(fromProtobuf.spec).to.deep.equal({ priorityLevelConfiguration: { name: 'exempt' }, matchingPrecedence: 5 });

  // The watch: the create, the spec change, the label, the consumer's and the user's status writes.
  const watched = await s('GET', `${FS}?watch=true&fieldSelector=metadata.name%3Dmine&resourceVersion=${before}&timeoutSeconds=1`);
  const events = watched.text.split('\n').filter((l) => l !== '').map((l) => (JSON.parse(l) as { type: string }).type);
  expect(events).to.deep.equal(['ADDED', 'MODIFIED', 'MODIFIED', 'MODIFIED', 'MODIFIED']);
}

async function validation(s: Send): Promise<void> {
  refused(await s('POST', FS, flowSchema('Bad_FS', {
    matchingPrecedence: 1, distinguisherMethod: { type: 'ByX' }, priorityLevelConfiguration: { name: 'Bad_PL' },
    rules: [
      { subjects: [{ kind: 'ServiceAccount', serviceAccount: { name: 'Bad_SA', namespace: '' }, user: { name: 'u' } }, { kind: 'Robot' }, { kind: 'User' }, { kind: 'Group', group: { name: '' }, serviceAccount: { name: 'x', namespace: 'y' } }] },
      { subjects: [], resourceRules: [{ verbs: ['*', 'get'], apiGroups: [], resources: ['*', 'pods'], namespaces: ['Bad_NS'] }, { verbs: ['fly'], apiGroups: ['*', 'apps'], resources: [], namespaces: ['*', 'x'] }, { verbs: [], apiGroups: ['x'], resources: ['y'] }],
        nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['healthz', '/a b', '/a//b', '/a*', ''] }, { verbs: ['*'], nonResourceURLs: ['*', '/x'] }, { verbs: ['get'], nonResourceURLs: [] }] },
    ],
  })), `FlowSchema.flowcontrol.apiserver.k8s.io "Bad_FS" is invalid: [metadata.name: Invalid value: "Bad_FS": ${subdomain}, spec.matchingPrecedence: Invalid value: 1: only the schema named 'exempt' may have matchingPrecedence 1, spec.distinguisherMethod.type: Unsupported value: {"Type":"ByX"}: supported values: "ByNamespace", "ByUser", spec.priorityLevelConfiguration.name: Invalid value: "Bad_PL": ${subdomain}, `
    + `spec.rules[0].subjects[0].serviceAccount.name: Invalid value: "Bad_SA": ${subdomain}, spec.rules[0].subjects[0].serviceAccount.namespace: Required value: must specify namespace for service account, spec.rules[0].subjects[0].user: Forbidden: user is forbidden when subject kind is not 'User', spec.rules[0].subjects[1].kind: Unsupported value: "Robot": supported values: "Group", "ServiceAccount", "User", spec.rules[0].subjects[2].user: Required value: user is required when subject kind is 'User', spec.rules[0].subjects[3].group.name: Required value, spec.rules[0].subjects[3].serviceAccount: Forbidden: serviceAccount is forbidden when subject kind is not 'ServiceAccount', spec.rules[0]: Required value: at least one of resourceRules and nonResourceRules has to be non-empty, `
    + `spec.rules[1].subjects: Required value: subjects must contain at least one value, spec.rules[1].resourceRules[0].verbs: Invalid value: ["*","get"]: if '*' is present, must not specify other verbs, spec.rules[1].resourceRules[0].apiGroups: Required value: resource rules must supply at least one api group, spec.rules[1].resourceRules[0].resources: Invalid value: ["*","pods"]: if '*' is present, must not specify other resources, spec.rules[1].resourceRules[0].namespaces[0]: Invalid value: "Bad_NS": each member of this list must be '*' or a DNS-1123 label; ${label}, `
    + `spec.rules[1].resourceRules[1].verbs: Unsupported value: ["fly"]: supported values: "create", "delete", "deletecollection", "get", "list", "patch", "proxy", "update", "watch", spec.rules[1].resourceRules[1].apiGroups: Invalid value: ["*","apps"]: if '*' is present, must not specify other api groups, spec.rules[1].resourceRules[1].resources: Required value: resource rules must supply at least one resource, spec.rules[1].resourceRules[1].namespaces: Invalid value: ["*","x"]: if '*' is present, must not specify other namespaces, `
    + 'spec.rules[1].resourceRules[2].verbs: Required value: verbs must contain at least one value, spec.rules[1].resourceRules[2].namespaces: Required value: resource rules that are not cluster scoped must supply at least one namespace, '
    + 'spec.rules[1].nonResourceRules[0].nonResourceURLs[0]: Invalid value: "healthz": must start with slash, spec.rules[1].nonResourceRules[0].nonResourceURLs[1]: Invalid value: "/a b": must not contain white-space, spec.rules[1].nonResourceRules[0].nonResourceURLs[2]: Invalid value: "/a//b": must not contain double slash, spec.rules[1].nonResourceRules[0].nonResourceURLs[3]: Invalid value: "/a*": wildcard can only do suffix matching, spec.rules[1].nonResourceRules[0].nonResourceURLs[4]: Invalid value: "": must not be empty, '
    + 'spec.rules[1].nonResourceRules[1].nonResourceURLs: Invalid value: ["*","/x"]: if \'*\' is present, must not specify other non-resource URLs, spec.rules[1].nonResourceRules[2].nonResourceURLs: Required value: nonResourceURLs must contain at least one value]');
  refused(await s('POST', FS, flowSchema('big', { matchingPrecedence: 10001, priorityLevelConfiguration: {} })),
    'FlowSchema.flowcontrol.apiserver.k8s.io "big" is invalid: [spec.matchingPrecedence: Invalid value: 10001: must not be greater than 10000, spec.priorityLevelConfiguration.name: Required value: must reference a priority level]');
  refused(await s('POST', FS, flowSchema('neg', { matchingPrecedence: -3, priorityLevelConfiguration: { name: 'x' } })),
    'FlowSchema.flowcontrol.apiserver.k8s.io "neg" is invalid: spec.matchingPrecedence: Invalid value: -3: must be a positive value');

  refused(await s('POST', PL, JSON.stringify({ apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'PriorityLevelConfiguration', metadata: { name: 'a', annotations: { 'flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares': '' } }, spec: { type: 'Exempt', limited: { limitResponse: { type: 'Reject' } }, exempt: { nominalConcurrencyShares: -1, lendablePercent: 101 } } })),
    'PriorityLevelConfiguration.flowcontrol.apiserver.k8s.io "a" is invalid: [metadata.annotations: Forbidden: annotation \'flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares\' is forbidden, spec.type: Invalid value: "Exempt": must be \'Exempt\' if and only if `name` is \'exempt\', spec.limited: Forbidden: must be nil if the type is not Limited, spec.exempt.nominalConcurrencyShares: Invalid value: -1: must be a non-negative integer, spec.exempt.lendablePercent: Invalid value: 101: must be between 0 and 100, inclusive]');
  refused(await s('POST', PL, priorityLevel('b', { type: 'Limited', exempt: {}, limited: { nominalConcurrencyShares: -2, limitResponse: { type: 'Queue', queuing: { queues: 20000000, handSize: -1, queueLengthLimit: -4 } }, lendablePercent: -1, borrowingLimitPercent: -5 } })),
    'PriorityLevelConfiguration.flowcontrol.apiserver.k8s.io "b" is invalid: [spec.exempt: Forbidden: must be nil if the type is Limited, spec.limited.nominalConcurrencyShares: Invalid value: -2: must be a non-negative integer, spec.limited.limitResponse.queuing.queueLengthLimit: Invalid value: -4: must be positive, spec.limited.limitResponse.queuing.queues: Invalid value: 20000000: must not be greater than 10000000, spec.limited.limitResponse.queuing.handSize: Invalid value: -1: must be positive, spec.limited.lendablePercent: Invalid value: -1: must be between 0 and 100, inclusive, spec.limited.borrowingLimitPercent: Invalid value: -5: if specified, must be a non-negative integer]');
  refused(await s('POST', PL, priorityLevel('c', { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: { queues: 128, handSize: 20 } } } })),
    'PriorityLevelConfiguration.flowcontrol.apiserver.k8s.io "c" is invalid: spec.limited.limitResponse.queuing.handSize: Invalid value: 20: required entropy bits of deckSize 128 and handSize 20 should not be greater than 60');
  refused(await s('POST', PL, priorityLevel('d', { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: { queues: 4, handSize: 5 } } } })),
    'PriorityLevelConfiguration.flowcontrol.apiserver.k8s.io "d" is invalid: spec.limited.limitResponse.queuing.handSize: Invalid value: 5: should not be greater than queues (4)');
  refused(await s('POST', PL, priorityLevel('e', { type: 'Limited', limited: { limitResponse: { type: 'Reject', queuing: {} } } })),
    'PriorityLevelConfiguration.flowcontrol.apiserver.k8s.io "e" is invalid: spec.limited.limitResponse.queuing: Forbidden: must be nil if limited.limitResponse.type is not Limited');
  refused(await s('POST', PL, priorityLevel('f', { type: 'Limited', limited: { limitResponse: { type: 'Queue' } } })),
    'PriorityLevelConfiguration.flowcontrol.apiserver.k8s.io "f" is invalid: spec.limited.limitResponse.queuing: Required value: must not be empty if limited.limitResponse.type is Limited');
  refused(await s('POST', PL, priorityLevel('g', { type: 'Limited', limited: {} })),
    'PriorityLevelConfiguration.flowcontrol.apiserver.k8s.io "g" is invalid: spec.limited.limitResponse.type: Unsupported value: "": supported values: "Queue", "Reject"');
  refused(await s('POST', PL, priorityLevel('h', { type: 'Limited' })),
    'PriorityLevelConfiguration.flowcontrol.apiserver.k8s.io "h" is invalid: spec.limited: Required value: must not be empty when type is Limited');
  refused(await s('POST', PL, priorityLevel('i', { type: 'Other' })),
    'PriorityLevelConfiguration.flowcontrol.apiserver.k8s.io "i" is invalid: spec.type: Unsupported value: "Other": supported values: "Exempt", "Limited"');
  refused(await s('POST', PL, priorityLevel('exempt2', {})),
    'PriorityLevelConfiguration.flowcontrol.apiserver.k8s.io "exempt2" is invalid: spec.type: Unsupported value: "": supported values: "Exempt", "Limited"');
  // Decoding into the Go types.
  const decoded = async (path: string, body: string): Promise<[number, string]> => {
    const a = await s('POST', path, body);
    return [a.status, a.message];
  };
  expect(await decoded(FS, flowSchema('t1', { matchingPrecedence: 'x', priorityLevelConfiguration: { name: 'p' } }))).to.deep.equal([400, 'FlowSchema in version "v1" cannot be handled as a FlowSchema: json: cannot unmarshal string into Go struct field FlowSchemaSpec.spec.matchingPrecedence of type int32']);
  expect(await decoded(PL, priorityLevel('t2', { type: 'Limited', limited: { nominalConcurrencyShares: 3000000000, limitResponse: { type: 'Reject' } } }))).to.deep.equal([400, 'PriorityLevelConfiguration in version "v1" cannot be handled as a PriorityLevelConfiguration: json: cannot unmarshal number 3000000000 into Go struct field LimitedPriorityLevelConfiguration.spec.limited.nominalConcurrencyShares of type int32']);
  expect(await decoded(FS, flowSchema('t3', { priorityLevelConfiguration: { name: 'p' }, rules: [{ subjects: [{ kind: 'User', user: 'alice' }] }] }))).to.deep.equal([400, 'FlowSchema in version "v1" cannot be handled as a FlowSchema: json: cannot unmarshal string into Go struct field Subject.spec.rules.subjects.user of type v1.UserSubject']);
  // The mandatory objects' specs are fixed (the exempt level's `exempt` member aside), printed as the internal types.
  refused(await s('PATCH', `${FS}/catch-all`, JSON.stringify({ spec: { matchingPrecedence: 9999 } }), MERGE),
    'FlowSchema.flowcontrol.apiserver.k8s.io "catch-all" is invalid: spec: Invalid value: {"PriorityLevelConfiguration":{"Name":"catch-all"},"MatchingPrecedence":9999,"DistinguisherMethod":{"Type":"ByUser"},"Rules":[{"Subjects":[{"Kind":"Group","User":null,"Group":{"Name":"system:unauthenticated"},"ServiceAccount":null},{"Kind":"Group","User":null,"Group":{"Name":"system:authenticated"},"ServiceAccount":null}],"ResourceRules":[{"Verbs":["*"],"APIGroups":["*"],"Resources":["*"],"ClusterScope":true,"Namespaces":["*"]}],"NonResourceRules":[{"Verbs":["*"],"NonResourceURLs":["*"]}]}]}: spec of \'catch-all\' must equal the fixed value');
  refused(await s('PATCH', `${PL}/catch-all`, JSON.stringify({ spec: { limited: { nominalConcurrencyShares: 6, borrowingLimitPercent: 3 } } }), MERGE),
    'PriorityLevelConfiguration.flowcontrol.apiserver.k8s.io "catch-all" is invalid: spec: Invalid value: {"Type":"Limited","Limited":{"NominalConcurrencyShares":6,"LimitResponse":{"Type":"Reject","Queuing":null},"LendablePercent":0,"BorrowingLimitPercent":3},"Exempt":null}: spec of \'catch-all\' must equal the fixed value');
  refused(await s('PATCH', `${PL}/exempt`, JSON.stringify({ spec: { exempt: { lendablePercent: 10 }, limited: { limitResponse: { type: 'Reject' } } } }), MERGE),
    'PriorityLevelConfiguration.flowcontrol.apiserver.k8s.io "exempt" is invalid: [spec.limited: Forbidden: must be nil if the type is not Limited, spec: Invalid value: {"Type":"Exempt","Limited":{"NominalConcurrencyShares":30,"LimitResponse":{"Type":"Reject","Queuing":null},"LendablePercent":0,"BorrowingLimitPercent":null},"Exempt":{"NominalConcurrencyShares":0,"LendablePercent":10}}: spec of \'exempt\' except the \'spec.exempt\' field must equal the fixed value]');
  // An empty list the request sent is an empty slice there, `[]` (hostile differential seed 20261205),
  // through every way of writing it; one nothing sent is `null`.
  const mandatory = (spec: string): string => `FlowSchema.flowcontrol.apiserver.k8s.io "exempt" is invalid: spec: Invalid value: ${spec}: spec of 'exempt' must equal the fixed value`;
  refused(await s('PATCH', `${FS}/exempt?dryRun=All`, '{"spec":{"rules":[]}}', STRATEGIC), mandatory('{"PriorityLevelConfiguration":{"Name":"exempt"},"MatchingPrecedence":1,"DistinguisherMethod":null,"Rules":[]}'));
  refused(await s('PATCH', `${FS}/exempt?dryRun=All`, '{"spec":{"rules":[],"matchingPrecedence":2}}', MERGE), mandatory('{"PriorityLevelConfiguration":{"Name":"exempt"},"MatchingPrecedence":2,"DistinguisherMethod":null,"Rules":[]}'));
  refused(await s('PATCH', `${FS}/exempt?dryRun=All&fieldManager=x&force=true`, flowSchema('exempt', { priorityLevelConfiguration: { name: 'exempt' }, rules: [] }), APPLY), mandatory('{"PriorityLevelConfiguration":{"Name":"exempt"},"MatchingPrecedence":1,"DistinguisherMethod":null,"Rules":[]}'));
  refused(await s('POST', `${FS}?dryRun=All`, flowSchema('exempt', { priorityLevelConfiguration: { name: 'exempt' }, matchingPrecedence: 1, rules: [{ subjects: [{ kind: 'Group', group: { name: 'system:masters' } }], resourceRules: [{ verbs: ['*'], apiGroups: [], resources: ['*'], namespaces: [] }] }] })),
    'FlowSchema.flowcontrol.apiserver.k8s.io "exempt" is invalid: [spec.rules[0].resourceRules[0].apiGroups: Required value: resource rules must supply at least one api group, spec.rules[0].resourceRules[0].namespaces: Required value: resource rules that are not cluster scoped must supply at least one namespace, spec: Invalid value: {"PriorityLevelConfiguration":{"Name":"exempt"},"MatchingPrecedence":1,"DistinguisherMethod":null,"Rules":[{"Subjects":[{"Kind":"Group","User":null,"Group":{"Name":"system:masters"},"ServiceAccount":null}],"ResourceRules":[{"Verbs":["*"],"APIGroups":[],"Resources":["*"],"ClusterScope":false,"Namespaces":[]}],"NonResourceRules":null}]}: spec of \'exempt\' must equal the fixed value]');
  const exempt = answered<{ metadata: { generation: number }; spec: unknown }>(await s('PATCH', `${PL}/exempt`, JSON.stringify({ spec: { exempt: { nominalConcurrencyShares: 3 } } }), MERGE));
  expect([exempt.metadata.generation, exempt.spec]).to.deep.equal([2, { type: 'Exempt', exempt: { nominalConcurrencyShares: 3, lendablePercent: 0 } }]);
  // An update validates as a create does (metadata included).
  refused(await s('PATCH', `${PL}/global-default`, JSON.stringify({ spec: { limited: { lendablePercent: 200 } } }), MERGE),
    'PriorityLevelConfiguration.flowcontrol.apiserver.k8s.io "global-default" is invalid: spec.limited.lendablePercent: Invalid value: 200: must be between 0 and 100, inclusive');
}

/**
 * The producer's poll, once a minute after start (the reference's `PollImmediateUntil(time.Minute)`): a
 * deleted bootstrap object is created again, a changed spec the annotation keeps up to date is put back,
 * one marked `false` is left alone, and an object marked `true` that is no bootstrap object is deleted.
 * kubekit's server runs on a fake clock moved a minute on; the reference is waited for.
 */
async function producerPoll(s: Send, backend: 'kubekit' | 'reference'): Promise<void> {
  answered(await s('DELETE', `${FS}/catch-all`));
  answered(await s('DELETE', `${PL}/workload-low`));
  const changed = answered<Stored>(await s('PATCH', `${PL}/global-default`, JSON.stringify({ spec: { limited: { nominalConcurrencyShares: 21 } } }), MERGE));
  expect(changed.metadata.generation).to.equal(2);
  answered(await s('PATCH', `${PL}/node-high`, JSON.stringify({ metadata: { annotations: { 'apf.kubernetes.io/autoupdate-spec': 'false' } }, spec: { limited: { nominalConcurrencyShares: 41 } } }), MERGE));
  answered(await s('POST', PL, JSON.stringify({ apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'PriorityLevelConfiguration', metadata: { name: 'unwanted', annotations: { 'apf.kubernetes.io/autoupdate-spec': 'true' } }, spec: { type: 'Limited', limited: { limitResponse: { type: 'Reject' } } } })), 201);
  answered(await s('POST', PL, JSON.stringify({ apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'PriorityLevelConfiguration', metadata: { name: 'kept' }, spec: { type: 'Limited', limited: { limitResponse: { type: 'Reject' } } } })), 201);
  if (backend === 'kubekit') await pollClock.advance(60_000);
  const done = (a: Answer): boolean => a.status === 200 && (JSON.parse(a.text) as { items: Stored[] }).items.some((o) => o.metadata.name === 'workload-low') && !(JSON.parse(a.text) as { items: Stored[] }).items.some((o) => o.metadata.name === 'unwanted');
  await eventually(() => s('GET', PL), done, 90);
  const levels = await items(s, PL);
  expect(levels.map((o) => o.metadata.name)).to.deep.equal(['catch-all', 'exempt', 'global-default', 'kept', 'leader-election', 'node-high', 'system', 'workload-high', 'workload-low']);
  const level = (name: string): Stored => levels.find((o) => o.metadata.name === name)!;
  const fixed = fixture.objects.find((o) => o.metadata.name === 'global-default' && o.kind === 'PriorityLevelConfiguration')!;
  expect([level('global-default').metadata.generation, level('global-default').spec]).to.deep.equal([3, fixed.spec]);
  expect(managers(level('global-default')).map((e) => e.manager)).to.include(producer);
  expect([level('node-high').metadata.generation, (level('node-high').spec?.limited as { nominalConcurrencyShares: number }).nominalConcurrencyShares]).to.deep.equal([2, 41]);
  expect([level('workload-low').metadata.generation, managers(level('workload-low')).map((e) => e.manager)]).to.deep.equal([1, [producer]]);
  const catchAll = await danglingIs(s, 'catch-all', found('catch-all'));
  expect(catchAll.metadata.generation).to.equal(1);
}

describeOnBothServers('flow control: the bootstrap objects', async (s) => bootstrapObjects(s));
describeOnBothServers('flow control: writes, strategies and the Dangling condition', async (s) => writes(s));
describeOnBothServers('flow control: validation', async (s) => validation(s));
const pollClock = new FakeClock(Date.now());
describeOnBothServers('flow control: the producer\'s poll', async (s, backend) => producerPoll(s, backend), { clock: pollClock });
