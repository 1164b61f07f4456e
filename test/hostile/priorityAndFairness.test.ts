// API Priority and Fairness classification on both servers: which FlowSchema and PriorityLevelConfiguration
// the `X-Kubernetes-PF-FlowSchema-UID` and `X-Kubernetes-PF-PriorityLevel-UID` headers of an answer name, for
// the same request by the same user with the same FlowSchemas. The UIDs differ between the servers, so the
// suite compares the names of the objects they belong to. Every expectation is kube-apiserver 1.34.4's answer
// (its config-consumer reads the objects through informers and applies a change some 100 ms after the write:
// hence `eventually` after each change).
import { expect } from 'chai';
import { MERGE, answered, describeOnBothServers, eventually, type Answer, type Send } from './sender.js';

const G = '/apis/flowcontrol.apiserver.k8s.io/v1';
const FS = `${G}/flowschemas`;
const PL = `${G}/prioritylevelconfigurations`;
const IMAGINED = '(no uid)';

interface Named { metadata: { name: string; uid: string }; status?: { conditions?: { type: string; status: string }[] } }

/** The names of the stored FlowSchemas and priority levels by UID. */
async function uidNames(s: Send): Promise<Map<string, string>> {
  const m = new Map<string, string>();
  for (const path of [FS, PL]) for (const o of answered<{ items: Named[] }>(await s('GET', path)).items) m.set(o.metadata.uid, o.metadata.name);
  return m;
}

/**
 * An answer's status and the names of its FlowSchema and priority level (`(no uid)` for a header that is empty,
 * an object the apiserver imagines; the UID itself for one no longer stored), or `-` without the headers.
 */
function classification(names: Map<string, string>, a: Answer): string {
  const [fs, pl] = [a.headers['x-kubernetes-pf-flowschema-uid'], a.headers['x-kubernetes-pf-prioritylevel-uid']];
  const name = (uid: string | string[] | undefined): string => (uid === undefined ? 'none' : uid === '' ? IMAGINED : names.get(String(uid)) ?? String(uid));
  return fs === undefined && pl === undefined ? `${a.status} -` : `${a.status} ${name(fs)}/${name(pl)}`;
}

const flowSchema = (name: string, precedence: number, priorityLevel: string, rules: unknown[]): string =>
  JSON.stringify({ apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'FlowSchema', metadata: { name }, spec: { priorityLevelConfiguration: { name: priorityLevel }, matchingPrecedence: precedence, rules } });
const priorityLevel = (name: string): string =>
  JSON.stringify({ apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'PriorityLevelConfiguration', metadata: { name }, spec: { type: 'Limited', limited: { limitResponse: { type: 'Reject' } } } });
const everything = { resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'], clusterScope: true }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] };

describeOnBothServers('API Priority and Fairness: the X-Kubernetes-PF-* headers', async (s, _backend, server) => {
  const as = (user: string, groups: string[] = []): Send => (method, path, body, contentType, accept, headers = {}) =>
    s(method, path, body, contentType, accept, { ...headers, 'Impersonate-User': user, ...(groups.length > 0 ? { 'Impersonate-Group': groups.join(', ') } : {}) });
  /** The classification of each request, `[send, method, path]`, with the objects stored now. */
  const classify = async (cases: [Send, string, string][]): Promise<string[]> => {
    const names = await uidNames(s);
    const out: string[] = [];
    for (const [send, method, path] of cases) out.push(`${method} ${path}: ${classification(names, await send(method, path))}`);
    return out;
  };
  /** The classification of one request once it is `want` (at most 10 s: the reference's consumer is an informer). */
  const becomes = async (send: Send, method: string, path: string, want: string): Promise<void> => {
    let names = await uidNames(s);
    const a = await eventually(async () => {
      names = await uidNames(s);
      return send(method, path);
    }, (x) => classification(names, x) === want);
    expect(`${method} ${path}: ${classification(names, a)}`).to.equal(`${method} ${path}: ${want}`);
  };
  const anonymous = server.anonymous;
  const alice = as('alice');

  // Who gets which bootstrap FlowSchema, and which requests get no headers: a 401 (before the filter), a
  // refused impersonation (before it too), a long-running request that is not a watch (exec, attach, log,
  // portforward and proxy subresources, the proxy verb, /debug/pprof/). A 403 of the authorizer, a 404 and
  // the public endpoints are classified.
  expect(await classify([
    [s, 'GET', '/api/v1/namespaces'], [s, 'GET', '/healthz'], [s, 'GET', '/version'], [s, 'GET', '/openapi/v2'], [s, 'GET', '/apis'], [s, 'GET', '/nope'],
    [s, 'OPTIONS', '/api/v1/namespaces'], [s, 'GET', '/api/v1/namespaces?watch=true&timeoutSeconds=1'],
    [anonymous, 'GET', '/healthz'], [anonymous, 'GET', '/readyz'], [anonymous, 'GET', '/livez/ping'], [anonymous, 'HEAD', '/healthz'], [anonymous, 'GET', '/version'],
    [anonymous, 'GET', '/api'], [anonymous, 'GET', '/api/v1/namespaces'],
    [server.as('not-a-token'), 'GET', '/api/v1/namespaces'], [server.as('not-a-token'), 'GET', '/healthz'],
    [alice, 'GET', '/api/v1/namespaces'], [alice, 'GET', '/healthz'], [alice, 'GET', '/version'], [alice, 'GET', '/api/v1/namespaces?watch=true&timeoutSeconds=1'],
    [as('system:serviceaccount:default:foo'), 'GET', '/api/v1/namespaces/default/configmaps'],
    [as('system:serviceaccount:kube-system:foo'), 'GET', '/api/v1/namespaces/default/configmaps'],
    [as('system:kube-controller-manager'), 'GET', '/api/v1/namespaces/default/configmaps'],
    [as('system:kube-scheduler'), 'GET', '/api/v1/namespaces/default/configmaps'],
    [as('system:node:n1', ['system:nodes']), 'GET', '/api/v1/nodes'], [as('system:node:n1', ['system:nodes']), 'GET', '/api/v1/namespaces/default/pods'],
    [as('system:anonymous'), 'GET', '/api/v1/namespaces'], [as('bob', ['system:masters']), 'GET', '/api/v1/namespaces'],
    [(m, p) => anonymous(m, p, undefined, undefined, undefined, { 'Impersonate-User': 'x' }), 'GET', '/api/v1/namespaces'],
    [(m, p) => s(m, p, undefined, undefined, undefined, { 'Impersonate-Group': 'x' }), 'GET', '/api/v1/namespaces'],
    [s, 'POST', '/api/v1/namespaces/default/pods/x/exec?command=ls'], [s, 'POST', '/api/v1/namespaces/default/pods/x/attach'], [s, 'GET', '/api/v1/namespaces/default/pods/x/log'],
    [s, 'POST', '/api/v1/namespaces/default/pods/x/portforward'], [s, 'GET', '/api/v1/namespaces/default/services/x/proxy/'], [s, 'GET', '/api/v1/nodes/x/proxy'],
    [s, 'GET', '/api/v1/proxy/namespaces/default/pods/x'], [alice, 'GET', '/api/v1/namespaces/default/pods/x/log'], [s, 'GET', '/debug/pprof/'],
    [alice, 'GET', '/api/v1/watch/namespaces/default/configmaps?timeoutSeconds=1'], [s, 'GET', '/api/v1/watch'],
  ])).to.deep.equal([
    'GET /api/v1/namespaces: 200 exempt/exempt', 'GET /healthz: 200 exempt/exempt', 'GET /version: 200 exempt/exempt', 'GET /openapi/v2: 200 exempt/exempt', 'GET /apis: 200 exempt/exempt', 'GET /nope: 404 exempt/exempt',
    'OPTIONS /api/v1/namespaces: 405 exempt/exempt', 'GET /api/v1/namespaces?watch=true&timeoutSeconds=1: 200 exempt/exempt',
    'GET /healthz: 200 probes/exempt', 'GET /readyz: 200 probes/exempt', 'GET /livez/ping: 403 probes/exempt', 'HEAD /healthz: 403 global-default/global-default', 'GET /version: 200 global-default/global-default',
    'GET /api: 403 global-default/global-default', 'GET /api/v1/namespaces: 403 global-default/global-default',
    'GET /api/v1/namespaces: 401 -', 'GET /healthz: 401 -',
    'GET /api/v1/namespaces: 403 global-default/global-default', 'GET /healthz: 200 probes/exempt', 'GET /version: 200 global-default/global-default', 'GET /api/v1/namespaces?watch=true&timeoutSeconds=1: 403 global-default/global-default',
    'GET /api/v1/namespaces/default/configmaps: 403 service-accounts/workload-low',
    'GET /api/v1/namespaces/default/configmaps: 403 kube-system-service-accounts/workload-high',
    'GET /api/v1/namespaces/default/configmaps: 200 kube-controller-manager/workload-high',
    'GET /api/v1/namespaces/default/configmaps: 403 kube-scheduler/workload-high',
    'GET /api/v1/nodes: 403 system-node-high/node-high', 'GET /api/v1/namespaces/default/pods: 403 system-nodes/system',
    'GET /api/v1/namespaces: 403 global-default/global-default', 'GET /api/v1/namespaces: 200 exempt/exempt',
    'GET /api/v1/namespaces: 403 -',
    'GET /api/v1/namespaces: 500 -',
    'POST /api/v1/namespaces/default/pods/x/exec?command=ls: 404 -', 'POST /api/v1/namespaces/default/pods/x/attach: 404 -', 'GET /api/v1/namespaces/default/pods/x/log: 404 -',
    'POST /api/v1/namespaces/default/pods/x/portforward: 404 -', 'GET /api/v1/namespaces/default/services/x/proxy/: 404 -', 'GET /api/v1/nodes/x/proxy: 404 -',
    'GET /api/v1/proxy/namespaces/default/pods/x: 404 -', 'GET /api/v1/namespaces/default/pods/x/log: 403 -', 'GET /debug/pprof/: 404 -',
    'GET /api/v1/watch/namespaces/default/configmaps?timeoutSeconds=1: 403 global-default/global-default', 'GET /api/v1/watch: 500 -',
  ]);

  // A service account's own token: its FlowSchema, and the probes for the health endpoints.
  answered(await s('POST', '/api/v1/namespaces/default/serviceaccounts', JSON.stringify({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'bot' } })), 201);
  const token = answered<{ status: { token: string } }>(await s('POST', '/api/v1/namespaces/default/serviceaccounts/bot/token', JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} })), 201).status.token;
  const bot = server.as(token);
  expect(await classify([[bot, 'GET', '/api/v1/namespaces/default/configmaps'], [bot, 'GET', '/healthz'], [bot, 'GET', '/api']])).to.deep.equal([
    'GET /api/v1/namespaces/default/configmaps: 403 service-accounts/workload-low', 'GET /healthz: 200 probes/exempt', 'GET /api: 200 service-accounts/workload-low',
  ]);

  // A FlowSchema above global-default whose priority level is missing is dangling and left out (the
  // condition shows the consumer has seen it); the level's creation puts it in use, its deletion out again.
  answered(await s('POST', FS, flowSchema('alice-fs', 200, 'alice-pl', [{ subjects: [{ kind: 'User', user: { name: 'alice' } }], ...everything }])), 201);
  await eventually(() => s('GET', `${FS}/alice-fs`), (a) => a.status === 200 && (JSON.parse(a.text) as Named).status?.conditions?.some((c) => c.type === 'Dangling' && c.status === 'True') === true);
  expect(await classify([[alice, 'GET', '/api/v1/namespaces']])).to.deep.equal(['GET /api/v1/namespaces: 403 global-default/global-default']);
  answered(await s('POST', PL, priorityLevel('alice-pl')), 201);
  await becomes(alice, 'GET', '/api/v1/namespaces', '403 alice-fs/alice-pl');
  answered(await s('DELETE', `${PL}/alice-pl`));
  await becomes(alice, 'GET', '/api/v1/namespaces', '403 global-default/global-default');
  answered(await s('POST', PL, priorityLevel('alice-pl')), 201);
  await becomes(alice, 'GET', '/version', '200 alice-fs/alice-pl');
  // Changed rules: only non-resource requests of alice now.
  answered(await s('PATCH', `${FS}/alice-fs`, JSON.stringify({ spec: { rules: [{ subjects: [{ kind: 'User', user: { name: 'alice' } }], nonResourceRules: everything.nonResourceRules }] } }), MERGE));
  await becomes(alice, 'GET', '/api/v1/namespaces', '403 global-default/global-default');
  expect(await classify([[alice, 'GET', '/version']])).to.deep.equal(['GET /version: 200 alice-fs/alice-pl']);
  answered(await s('DELETE', `${FS}/alice-fs`));
  await becomes(alice, 'GET', '/version', '200 global-default/global-default');

  // Ties of precedence go by name; non-resource URLs match themselves and the paths below them.
  answered(await s('POST', FS, flowSchema('tie-b', 300, 'alice-pl', [{ subjects: [{ kind: 'Group', group: { name: '*' } }], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/tie/*'] }] }])), 201);
  answered(await s('POST', FS, flowSchema('tie-a', 300, 'alice-pl', [{ subjects: [{ kind: 'User', user: { name: '*' } }], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/tie'] }] }])), 201);
  // Resource rules: a subresource form, cluster scope, namespaces (a Namespace is in its own namespace), groups.
  const rules: [string, unknown[]][] = [
    ['r-status', [{ subjects: [{ kind: 'User', user: { name: 'alice' } }], resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods/status'], namespaces: ['*'] }] }]],
    ['r-cluster', [{ subjects: [{ kind: 'User', user: { name: 'alice' } }], resourceRules: [{ verbs: ['list'], apiGroups: [''], resources: ['namespaces', 'nodes'], clusterScope: true }] }]],
    ['r-default', [{ subjects: [{ kind: 'User', user: { name: 'alice' } }], resourceRules: [{ verbs: ['get', 'list'], apiGroups: ['', 'apps'], resources: ['*'], namespaces: ['default'] }] }]],
    ['r-team', [{ subjects: [{ kind: 'ServiceAccount', serviceAccount: { namespace: 'team', name: '*' } }], ...everything }]],
    ['r-bot', [{ subjects: [{ kind: 'ServiceAccount', serviceAccount: { namespace: 'other', name: 'bot' } }], resourceRules: everything.resourceRules }]],
    ['r-urls', [{ subjects: [{ kind: 'Group', group: { name: 'system:authenticated' } }], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/apis/*', '/openapi'] }] }]],
  ];
  for (const [i, [name, r]] of rules.entries()) answered(await s('POST', FS, flowSchema(name, 150 + i, 'workload-low', r)), 201);
  await becomes(alice, 'GET', '/openapi/v2', '200 r-urls/workload-low');
  await becomes(alice, 'GET', '/tie/x', '403 tie-a/alice-pl');
  expect(await classify([
    [alice, 'GET', '/tie'], [alice, 'GET', '/tiex'], [alice, 'POST', '/tie/x'],
    [alice, 'GET', '/api/v1/namespaces/kube-system/pods/x/status'], [alice, 'GET', '/api/v1/namespaces/kube-system/pods/x'],
    [alice, 'GET', '/api/v1/namespaces'], [alice, 'GET', '/api/v1/nodes'], [alice, 'GET', '/api/v1/pods'],
    [alice, 'GET', '/api/v1/namespaces/default'], [alice, 'GET', '/api/v1/namespaces/kube-system'], [alice, 'GET', '/api/v1/namespaces/default/status'],
    [alice, 'GET', '/api/v1/namespaces/default/configmaps'], [alice, 'GET', '/apis/apps/v1/namespaces/default/deployments'], [alice, 'GET', '/apis/batch/v1/namespaces/default/jobs'],
    [alice, 'GET', '/api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=1'],
    [as('system:serviceaccount:team:x'), 'GET', '/api/v1/nodes'], [as('system:serviceaccount:team:x'), 'GET', '/version'], [as('system:serviceaccount:teamx:x'), 'GET', '/api/v1/nodes'],
    [as('system:serviceaccount:other:bot'), 'GET', '/api/v1/nodes'], [as('system:serviceaccount:other:bot'), 'GET', '/version'], [as('system:serviceaccount:other:bot2'), 'GET', '/api/v1/nodes'],
    [alice, 'GET', '/apis'], [alice, 'GET', '/apis/apps'], [alice, 'GET', '/openapi'], [alice, 'GET', '/api'],
  ])).to.deep.equal([
    'GET /tie: 403 tie-a/alice-pl', 'GET /tiex: 403 global-default/global-default', 'POST /tie/x: 403 global-default/global-default',
    'GET /api/v1/namespaces/kube-system/pods/x/status: 403 r-status/workload-low', 'GET /api/v1/namespaces/kube-system/pods/x: 403 global-default/global-default',
    'GET /api/v1/namespaces: 403 r-cluster/workload-low', 'GET /api/v1/nodes: 403 r-cluster/workload-low', 'GET /api/v1/pods: 403 global-default/global-default',
    'GET /api/v1/namespaces/default: 403 r-default/workload-low', 'GET /api/v1/namespaces/kube-system: 403 global-default/global-default', 'GET /api/v1/namespaces/default/status: 403 r-default/workload-low',
    'GET /api/v1/namespaces/default/configmaps: 403 r-default/workload-low', 'GET /apis/apps/v1/namespaces/default/deployments: 403 r-default/workload-low', 'GET /apis/batch/v1/namespaces/default/jobs: 403 global-default/global-default',
    'GET /api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=1: 403 global-default/global-default',
    'GET /api/v1/nodes: 403 r-team/workload-low', 'GET /version: 200 r-team/workload-low', 'GET /api/v1/nodes: 403 service-accounts/workload-low',
    'GET /api/v1/nodes: 403 r-bot/workload-low', 'GET /version: 200 service-accounts/workload-low', 'GET /api/v1/nodes: 403 service-accounts/workload-low',
    'GET /apis: 200 global-default/global-default', 'GET /apis/apps: 200 r-urls/workload-low', 'GET /openapi: 404 r-urls/workload-low', 'GET /api: 200 global-default/global-default',
  ]);

  // A FlowSchema may not come before exempt (only exempt has precedence 1): system:masters stays exempt.
  answered(await s('POST', FS, flowSchema('aaa', 2, 'alice-pl', [{ subjects: [{ kind: 'Group', group: { name: 'system:masters' } }, { kind: 'User', user: { name: 'dave' } }], ...everything }])), 201);
  await becomes(as('dave'), 'GET', '/version', '200 aaa/alice-pl');
  expect(await classify([[s, 'GET', '/version'], [as('dave', ['system:masters']), 'GET', '/version']])).to.deep.equal(['GET /version: 200 exempt/exempt', 'GET /version: 200 exempt/exempt']);

  // With global-default narrowed (no longer kept up to date by the producer), the catch-all takes the rest.
  answered(await s('PATCH', `${FS}/global-default`, JSON.stringify({ metadata: { annotations: { 'apf.kubernetes.io/autoupdate-spec': 'false' } }, spec: { rules: [{ subjects: [{ kind: 'User', user: { name: 'nobody' } }], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/x'] }] }] } }), MERGE));
  await becomes(alice, 'GET', '/api/v1/pods', '403 catch-all/catch-all');
  expect(await classify([[as('system:anonymous'), 'GET', '/api/v1/namespaces'], [anonymous, 'GET', '/version']])).to.deep.equal(['GET /api/v1/namespaces: 403 catch-all/catch-all', 'GET /version: 200 catch-all/catch-all']);

  // The mandatory objects deleted (the producer stores them again within a minute): a missing FlowSchema is
  // imagined without a UID, a missing priority level keeps the UID it had.
  // The producer may store one again in the middle of the sequence (the reference's poll is real time): the
  // sequence is then played again from the start (deleting what is there, the level's UID the last one seen),
  // at most three times; a poll comes once a minute, the sequence takes about a second.
  const lastLevelUID = new Map<string, string>();
  const deleteLevel = async (name: string): Promise<string> => {
    const current = await s('GET', `${PL}/${name}`);
    if (current.status === 200) lastLevelUID.set(name, (JSON.parse(current.text) as Named).metadata.uid);
    expect([200, 404], current.text).to.include((await s('DELETE', `${PL}/${name}`)).status);
    return lastLevelUID.get(name)!;
  };
  const deleteFlowSchema = async (name: string): Promise<void> => {
    const d = await s('DELETE', `${FS}/${name}`);
    expect([200, 404], d.text).to.include(d.status);
  };
  for (let attempt = 1; ; attempt++) {
    try {
      await deleteFlowSchema('catch-all');
      await becomes(alice, 'GET', '/api/v1/pods', `403 ${IMAGINED}/catch-all`);
      const catchAllLevel = await deleteLevel('catch-all');
      await becomes(alice, 'GET', '/api/v1/pods', `403 ${IMAGINED}/${catchAllLevel}`);
      await deleteFlowSchema('exempt');
      await becomes(s, 'GET', '/api/v1/namespaces', `200 ${IMAGINED}/exempt`);
      const exemptLevel = await deleteLevel('exempt');
      await becomes(s, 'GET', '/api/v1/namespaces', `200 ${IMAGINED}/${exemptLevel}`);
      break;
    } catch (err) {
      if (attempt >= 3) throw err;
    }
  }
}, { token: 'kubekit-apf-test' });
