// apiregistration.k8s.io/v1 APIServices on both servers: the strategy (a local APIService created Available
// with reason Local, a service-backed one with an empty status; an update keeps the status, a /status write
// keeps the spec and labels; no generation; a PUT needs a resourceVersion), SetDefaults_ServiceReference
// (port 443), ValidateAPIService and its status validation (kube-aggregator's pkg/apis/apiregistration/validation,
// pkg/registry/apiservice), field selectors, the Table and discovery. Every expected message is
// kube-apiserver 1.34.4's answer to the same request (the reference server runs the same test).
import { expect } from 'chai';
import { MERGE, TABLE, answered, describeOnBothServers, eventually, refused, type Send } from './sender.js';

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

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const local = (spec: Record<string, unknown>): Record<string, unknown> => ({
  labels: { 'kube-aggregator.kubernetes.io/automanaged': 'onstart' }, spec,
  status: { conditions: [{ type: 'Available', status: 'True', reason: 'Local', message: 'Local APIServices are always available' }] },
});
/** An APIService's labels, spec and status, the condition's transition time left out. */
function shape(a: { status: number; text: string }): unknown {
  if (a.status !== 200) return a.status;
  const o = JSON.parse(a.text) as APIService;
  const conditions = o.status.conditions?.map(({ lastTransitionTime: _, ...c }) => c);
  return { labels: o.metadata.labels, spec: o.spec, status: conditions === undefined ? o.status : { conditions } };
}
const available = (a: { status: number; text: string }): unknown => (a.status === 200 ? (JSON.parse(a.text) as APIService).status.conditions?.find((c) => c.type === 'Available') : undefined);
const reasonOf = (a: { status: number; text: string }): string | undefined => (available(a) as { reason?: string } | undefined)?.reason;

async function controllers(s: Send): Promise<void> {
  // The local APIServices of the built-in group-versions (kube-apiserver's table of priorities).
  expect(shape(await s('GET', `${A}/v1.`))).to.deep.equal(local({ version: 'v1', groupPriorityMinimum: 18000, versionPriority: 1 }));
  expect(shape(await s('GET', `${A}/v1.apps`))).to.deep.equal(local({ group: 'apps', version: 'v1', groupPriorityMinimum: 17800, versionPriority: 15 }));
  expect(shape(await s('GET', `${A}/v2.autoscaling`))).to.deep.equal(local({ group: 'autoscaling', version: 'v2', groupPriorityMinimum: 17500, versionPriority: 30 }));
  expect(shape(await s('GET', `${A}/v1.apiextensions.k8s.io`))).to.deep.equal(local({ group: 'apiextensions.k8s.io', version: 'v1', groupPriorityMinimum: 16700, versionPriority: 15 }));
  expect(shape(await s('GET', `${A}/v1.events.k8s.io`))).to.deep.equal(local({ group: 'events.k8s.io', version: 'v1', groupPriorityMinimum: 17750, versionPriority: 15 }));
  // None for the aggregator's own group.
  expect((await s('GET', `${A}/v1.apiregistration.k8s.io`)).status).to.equal(404);
  const names = answered<{ items: APIService[] }>(await s('GET', `${A}?labelSelector=kube-aggregator.kubernetes.io%2Fautomanaged%3Donstart`)).items.map((i) => i.metadata.name);
  expect(names).to.include.members(['v1.', 'v1.admissionregistration.k8s.io', 'v1.apps', 'v1.authentication.k8s.io', 'v1.authorization.k8s.io', 'v1.autoscaling', 'v1.batch', 'v1.certificates.k8s.io', 'v1.coordination.k8s.io', 'v1.discovery.k8s.io', 'v1.networking.k8s.io', 'v1.node.k8s.io', 'v1.policy', 'v1.rbac.authorization.k8s.io', 'v1.scheduling.k8s.io', 'v1.storage.k8s.io']);

  // A status write on a local APIService is undone by the availability controller (the transition time is new).
  const apps = answered<APIService>(await s('GET', `${A}/v1.apps`));
  answered(await s('PUT', `${A}/v1.apps/status`, JSON.stringify({ ...apps, status: { conditions: [{ type: 'Available', status: 'False', reason: 'X' }] } })));
  const undone = await eventually(() => s('GET', `${A}/v1.apps`), (a) => reasonOf(a) === 'Local');
  expect(shape(undone)).to.deep.equal(local({ group: 'apps', version: 'v1', groupPriorityMinimum: 17800, versionPriority: 15 }));

  // A CRD's served versions get an APIService (automanaged: true, priorities 1000 and 100), gone with the CRD.
  const version = (name: string, served: boolean): Record<string, unknown> => ({ name, served, storage: name === 'v1', schema: { openAPIV3Schema: { type: 'object' } } });
  answered(await s('POST', CRDS, JSON.stringify({
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.w.example.com' },
    spec: { group: 'w.example.com', scope: 'Namespaced', names: { plural: 'widgets', singular: 'widget', kind: 'Widget' }, versions: [version('v1', true), version('v2', false)] },
  })), 201);
  const registered = await eventually(() => s('GET', `${A}/v1.w.example.com`), (a) => a.status === 200);
  expect(shape(registered)).to.deep.equal({
    ...local({ group: 'w.example.com', version: 'v1', groupPriorityMinimum: 1000, versionPriority: 100 }), labels: { 'kube-aggregator.kubernetes.io/automanaged': 'true' },
  });
  expect((await s('GET', `${A}/v2.w.example.com`)).status).to.equal(404);
  answered(await s('DELETE', `${CRDS}/widgets.w.example.com`));
  expect((await eventually(() => s('GET', `${A}/v1.w.example.com`), (a) => a.status === 404)).status).to.equal(404);

  // A service-backed APIService: its Service, the port, the EndpointSlices (core/v1 Endpoints are not read).
  const name = 'v1.m.example.com';
  answered(await s('POST', A, mk(name, { group: 'm.example.com', version: 'v1', groupPriorityMinimum: 100, versionPriority: 10, service: { namespace: 'default', name: 'msvc', port: 8443 }, insecureSkipTLSVerify: true })), 201);
  const condition = async (reason: string): Promise<unknown> => available(await eventually(() => s('GET', `${A}/${name}`), (a) => reasonOf(a) === reason));
  const unavailable = (reason: string, message: string): Record<string, unknown> => ({ type: 'Available', status: 'False', reason, message });
  const withoutTime = (c: unknown): unknown => { const { lastTransitionTime: _, ...rest } = c as Record<string, unknown>; return rest; };
  const notFound = await condition('ServiceNotFound');
  expect(withoutTime(notFound)).to.deep.equal(unavailable('ServiceNotFound', 'service/msvc in "default" is not present'));
  const table = answered<{ rows: { cells: unknown[] }[] }>(await s('GET', `${A}/${name}`, undefined, undefined, TABLE));
  expect(table.rows[0].cells.slice(0, 3)).to.deep.equal([name, 'default/msvc', 'False (ServiceNotFound)']);
  answered(await s('POST', '/api/v1/namespaces/default/services', JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'msvc' }, spec: { ports: [{ name: 'https', port: 443, targetPort: 8443 }] } })), 201);
  expect(withoutTime(await condition('ServicePortError'))).to.deep.equal(unavailable('ServicePortError', 'service/msvc in "default" is not listening on port 8443'));
  const current = answered<APIService>(await s('GET', `${A}/${name}`));
  answered(await s('PUT', `${A}/${name}`, JSON.stringify({ ...current, spec: { ...current.spec, service: { namespace: 'default', name: 'msvc', port: 443 } } })));
  const noSlices = await condition('EndpointsNotFound');
  expect(withoutTime(noSlices)).to.deep.equal(unavailable('EndpointsNotFound', 'cannot find endpointslices for service/msvc in "default"'));
  // The status stayed False: the transition time is the first one's.
  expect((noSlices as { lastTransitionTime: string }).lastTransitionTime).to.equal((notFound as { lastTransitionTime: string }).lastTransitionTime);
  answered(await s('POST', '/api/v1/namespaces/default/endpoints', JSON.stringify({ apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'msvc' }, subsets: [{ addresses: [{ ip: '10.0.0.9' }], ports: [{ name: 'https', port: 8443 }] }] })), 201);
  answered(await s('POST', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices', JSON.stringify({
    apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 'msvc-1', labels: { 'kubernetes.io/service-name': 'msvc' } },
    addressType: 'IPv4', endpoints: [{ addresses: ['10.0.0.9'], conditions: { ready: false } }], ports: [{ name: 'https', port: 8443 }],
  })), 201);
  expect(withoutTime(await condition('MissingEndpoints'))).to.deep.equal(unavailable('MissingEndpoints', 'endpointslices for service/msvc in "default" have no addresses with port name "https"'));
  // A ready endpoint: the discovery check at the cluster IP fails (on kubekit, nothing answers there; the
  // reference's own answer depends on its host), reported as FailedDiscoveryCheck.
  const slice = answered<Record<string, unknown>>(await s('GET', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/msvc-1'));
  answered(await s('PUT', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/msvc-1', JSON.stringify({ ...slice, endpoints: [{ addresses: ['10.0.0.9'] }] })));
  const service = answered<{ spec: { clusterIP: string } }>(await s('GET', '/api/v1/namespaces/default/services/msvc'));
  const failed = await condition('FailedDiscoveryCheck') as { status: string; message: string };
  expect(failed.status).to.equal('False');
  expect(failed.message.startsWith(`failing or missing response from https://${service.spec.clusterIP}:443/apis/m.example.com/v1: `), failed.message).to.equal(true);
  answered(await s('DELETE', '/api/v1/namespaces/default/services/msvc'));
  expect(withoutTime(await condition('ServiceNotFound'))).to.deep.equal(unavailable('ServiceNotFound', 'service/msvc in "default" is not present'));

  // The group-version's paths go to the aggregator's proxy, which reaches no service: its 503, whatever the
  // verb; a version no APIService claims is the mux's 404.
  for (const [method, path] of [['GET', '/apis/m.example.com/v1'], ['GET', '/apis/m.example.com/v1/foos'], ['POST', '/apis/m.example.com/v1/namespaces/x/foos'], ['DELETE', '/apis/m.example.com/v1/foos/a']]) {
    const r = await s(method, path, method === 'POST' ? '{}' : undefined);
    expect([r.status, r.text], `${method} ${path}`).to.deep.equal([503, 'service unavailable\n']);
  }
  const other = await s('GET', '/apis/m.example.com/v2');
  expect([other.status, other.text]).to.deep.equal([404, '404 page not found\n']);
}

describeOnBothServers('apiregistration.k8s.io/v1 APIServices: the local ones, the CRDs\' and availability', controllers);
