// apiregistration.k8s.io/v1 APIServices on both servers: the strategy (a local APIService created Available
// with reason Local, a service-backed one with an empty status; an update keeps the status, a /status write
// keeps the spec and labels; no generation; a PUT needs a resourceVersion), SetDefaults_ServiceReference
// (port 443), ValidateAPIService and its status validation (kube-aggregator's pkg/apis/apiregistration/validation,
// pkg/registry/apiservice), field selectors, the Table and discovery. Every expected message is
// kube-apiserver 1.34.4's answer to the same request (the reference server runs the same test).
import { expect } from 'chai';
import { MERGE, TABLE, answered, describeOnBothServers, refused, type Send } from './sender.js';

const A = '/apis/apiregistration.k8s.io/v1/apiservices';
const mk = (name: string, spec: Record<string, unknown>, more: Record<string, unknown> = {}): string =>
  JSON.stringify({ apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name, ...more }, spec });
const subdomainRule = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const dns1035Rule = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

interface APIService {
  metadata: { name: string; resourceVersion: string; generation?: number; labels?: Record<string, string> };
  spec: Record<string, unknown>;
  status: { conditions?: { type: string; status: string; reason?: string; message?: string; lastTransitionTime?: string | null }[] };
}

async function run(s: Send): Promise<void> {
  // A local APIService: Available at once, reason Local; no generation.
  const local = answered<APIService>(await s('POST', A, mk('v1.x.example.com', { group: 'x.example.com', version: 'v1', groupPriorityMinimum: 100, versionPriority: 10 }, { labels: { t: 'apisvc' } })), 201);
  expect(local.metadata.generation).to.equal(undefined);
  expect(local.status.conditions?.map(({ lastTransitionTime, ...c }) => [typeof lastTransitionTime, c])).to.deep.equal([
    ['string', { type: 'Available', status: 'True', reason: 'Local', message: 'Local APIServices are always available' }],
  ]);
  // A service-backed one: the port defaults to 443, the status sent is dropped.
  const backed = answered<APIService>(await s('POST', A, mk('v1beta1.y.example.com', { group: 'y.example.com', version: 'v1beta1', groupPriorityMinimum: 100, versionPriority: 10, service: { namespace: 'default', name: 'svc' }, caBundle: 'YWJj' }, { labels: { t: 'apisvc' } }).replace('}}', '}, "status": {"conditions": [{"type": "Available", "status": "True"}]}}')), 201);
  expect(backed.spec).to.deep.equal({ group: 'y.example.com', version: 'v1beta1', groupPriorityMinimum: 100, versionPriority: 10, service: { namespace: 'default', name: 'svc', port: 443 }, caBundle: 'YWJj' });

  // ValidateAPIService: every error, in its order.
  refused(await s('POST', A, mk('bad', { group: 'Bad_G', version: '1x', groupPriorityMinimum: 0, versionPriority: 2000, caBundle: 'YWJj', insecureSkipTLSVerify: true })),
    `APIService.apiregistration.k8s.io "bad" is invalid: [metadata.name: Invalid value: "bad": must be \`spec.version+"."+spec.group\`: "1x.Bad_G", spec.group: Invalid value: "Bad_G": ${subdomainRule}, spec.version: Invalid value: "1x": ${dns1035Rule}, spec.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000, spec.versionPriority: Invalid value: 2000: must be positive and less than 1000, spec.caBundle: Invalid value: "3 bytes": local APIServices may not have a caBundle, spec.insecureSkipTLSVerify: Invalid value: true: local APIServices may not have insecureSkipTLSVerify]`);
  refused(await s('POST', A, mk('a/b', { version: 'v2', service: { port: 70000 }, caBundle: 'YWJj', insecureSkipTLSVerify: true }, { finalizers: ['foo'] })),
    'APIService.apiregistration.k8s.io "a/b" is invalid: [metadata.name: Invalid value: "a/b": may not contain \'/\', spec.group: Required value: only v1 may have an empty group and it better be legacy kube, spec.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000, spec.versionPriority: Invalid value: 0: must be positive and less than 1000, spec.service.namespace: Required value, spec.service.name: Required value, spec.service.port: Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive, spec.insecureSkipTLSVerify: Invalid value: true: may not be true if caBundle is present]');
  // A generated name is held to the rule too.
  const generated = await s('POST', A, JSON.stringify({ apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { generateName: 'v1.' }, spec: { version: 'v1', group: '', groupPriorityMinimum: 1, versionPriority: 1 } }));
  expect(generated.status).to.equal(422);
  expect(generated.message).to.match(/^APIService\.apiregistration\.k8s\.io "v1\.[a-z0-9]{5}" is invalid: metadata\.name: Invalid value: "v1\.[a-z0-9]{5}": must be `spec\.version\+"\."\+spec\.group`: "v1\."$/);

  // Hostile input: an int32 beyond its range, a wrong type, null service, a __proto__ key.
  const huge = await s('POST', A, mk('v1.z', { version: 'v1', group: 'z', groupPriorityMinimum: 3000000000, versionPriority: 1 }));
  expect([huge.status, huge.message]).to.deep.equal([400, 'APIService in version "v1" cannot be handled as a APIService: json: cannot unmarshal number 3000000000 into Go struct field APIServiceSpec.spec.groupPriorityMinimum of type int32']);
  const wrongType = await s('POST', A, mk('v1.z', { version: 'v1', group: 'z', groupPriorityMinimum: 1, versionPriority: '1' }));
  expect(wrongType.status).to.equal(400);
  const hostile = answered<APIService>(await s('POST', A, '{"apiVersion":"apiregistration.k8s.io/v1","kind":"APIService","metadata":{"name":"v1.z","labels":{"t":"apisvc"}},"spec":{"version":"v1","group":"z","groupPriorityMinimum":20000,"versionPriority":1000,"service":null,"__proto__":{"polluted":1}}}'), 201);
  expect(hostile.spec).to.deep.equal({ group: 'z', version: 'v1', groupPriorityMinimum: 20000, versionPriority: 1000 });
  expect(({} as Record<string, unknown>).polluted).to.equal(undefined);

  // An update keeps the status; a PUT needs a resourceVersion.
  const changed = { ...local, spec: { ...local.spec, versionPriority: 11 }, status: { conditions: [{ type: 'X', status: 'True' }] } };
  const updated = answered<APIService>(await s('PUT', `${A}/v1.x.example.com`, JSON.stringify(changed)));
  expect([updated.spec.versionPriority, updated.status, updated.metadata.generation]).to.deep.equal([11, local.status, undefined]);
  const { resourceVersion: _, ...noVersion } = updated.metadata;
  refused(await s('PUT', `${A}/v1.x.example.com`, JSON.stringify({ ...updated, metadata: noVersion })),
    'apiservices.apiregistration.k8s.io "v1.x.example.com" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update');

  // /status: the conditions' statuses, then a write that keeps the spec and the labels.
  const statusWrite = { ...updated, spec: { ...updated.spec, versionPriority: 12 }, metadata: { ...updated.metadata, labels: { e: 'f' } } };
  refused(await s('PUT', `${A}/v1.x.example.com/status`, JSON.stringify({ ...statusWrite, status: { conditions: [{ type: 'Available', status: 'Maybe' }] } })),
    'APIService.apiregistration.k8s.io "v1.x.example.com" is invalid: status.conditions[0].status: Unsupported value: "Maybe": supported values: "True", "False", "Unknown"');
  // (The availability controller rewrites a local APIService's Available condition: another type is left alone.)
  const conditions = [...(local.status.conditions ?? []), { type: 'Extra', status: 'False', reason: 'R', message: 'm' }];
  const written = answered<APIService>(await s('PUT', `${A}/v1.x.example.com/status`, JSON.stringify({ ...statusWrite, status: { conditions } })));
  expect([written.spec.versionPriority, written.metadata.labels, written.status]).to.deep.equal([11, { t: 'apisvc' }, { conditions: [...(local.status.conditions ?? []), { type: 'Extra', status: 'False', lastTransitionTime: null, reason: 'R', message: 'm' }] }]);
  // An update of the spec that breaks it, by merge patch: the update validation.
  refused(await s('PATCH', `${A}/v1.x.example.com`, JSON.stringify({ spec: { group: 'other.example.com', groupPriorityMinimum: null } }), MERGE),
    'APIService.apiregistration.k8s.io "v1.x.example.com" is invalid: [metadata.name: Invalid value: "v1.x.example.com": must be `spec.version+"."+spec.group`: "v1.other.example.com", spec.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000]');

  // Field selectors: name and namespace (ObjectMetaFieldsSet of a namespaced kind), nothing else.
  const names = async (q: string): Promise<string[]> => answered<{ items: APIService[] }>(await s('GET', `${A}?labelSelector=t%3Dapisvc&${q}`)).items.map((i) => i.metadata.name);
  expect(await names('fieldSelector=metadata.name%3Dv1.z')).to.deep.equal(['v1.z']);
  expect(await names('fieldSelector=metadata.namespace%3D')).to.deep.equal(['v1.x.example.com', 'v1.z', 'v1beta1.y.example.com']);
  const badField = await s('GET', `${A}?fieldSelector=spec.group%3Dx`);
  expect([badField.status, badField.message]).to.deep.equal([400, '"spec.group" is not a known field selector: only "metadata.name", "metadata.namespace"']);

  // The Table: Service is Local or namespace/name; Available its status, with the reason unless True.
  const table = answered<{ columnDefinitions: { name: string; type: string; priority: number }[]; rows: { cells: unknown[] }[] }>(await s('GET', `${A}?labelSelector=t%3Dapisvc`, undefined, undefined, TABLE));
  expect(table.columnDefinitions.map((c) => [c.name, c.type, c.priority])).to.deep.equal([['Name', 'string', 0], ['Service', 'string', 0], ['Available', 'string', 0], ['Age', 'string', 0]]);
  expect(table.rows.map((r) => r.cells.slice(0, 2))).to.deep.equal([['v1.x.example.com', 'Local'], ['v1.z', 'Local'], ['v1beta1.y.example.com', 'default/svc']]);
  expect(table.rows[0].cells[2]).to.equal('True');

  // Discovery.
  const list = answered<{ resources: Record<string, unknown>[] }>(await s('GET', '/apis/apiregistration.k8s.io/v1'));
  expect(list.resources).to.deep.equal([
    { name: 'apiservices', singularName: 'apiservice', namespaced: false, kind: 'APIService', verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'], categories: ['api-extensions'], storageVersionHash: 'InPBPD7+PqM=' },
    { name: 'apiservices/status', singularName: '', namespaced: false, kind: 'APIService', verbs: ['get', 'patch', 'update'] },
  ]);
  const groups = answered<{ groups: { name: string; versions: unknown[]; preferredVersion: unknown }[] }>(await s('GET', '/apis'));
  expect(groups.groups.find((g) => g.name === 'apiregistration.k8s.io')).to.deep.equal({
    name: 'apiregistration.k8s.io', versions: [{ groupVersion: 'apiregistration.k8s.io/v1', version: 'v1' }], preferredVersion: { groupVersion: 'apiregistration.k8s.io/v1', version: 'v1' },
  });

  // Delete.
  answered(await s('DELETE', `${A}/v1.z`));
  expect((await s('GET', `${A}/v1.z`)).status).to.equal(404);
}

describeOnBothServers('apiregistration.k8s.io/v1 APIServices', run);
