// The eviction subresource of Pods on both servers (pkg/registry/core/pod/storage/eviction.go, kube-apiserver
// 1.34.4): a pending pod goes whatever its budgets say; a running one goes only if its one
// PodDisruptionBudget has a disruption to give (taken from its status, the pod recorded in disruptedPods,
// the DisruptionAllowed condition when none is left), else a 429 naming the budget; a budget not observed
// yet is a 429 with Retry-After 10; two budgets are a 500; an unready pod goes when the budget is healthy
// enough; the pod gets the DisruptionTarget condition and is deleted gracefully; the Eviction's
// deleteOptions (preconditions, dry run, grace period) apply; its kind, name, namespace and fields are
// checked as the decoder does; no other verb has a route; discovery lists it. kubekit answered 404 before;
// every expected answer here is kube-apiserver 1.34.4's to the same request.
import { expect } from 'chai';
import { answered, describeOnBothServers, type Answer, type Send } from './sender.js';

const NS = 'default';
const P = `/api/v1/namespaces/${NS}/pods`;
const B = `/apis/policy/v1/namespaces/${NS}/poddisruptionbudgets`;
const mergePatch = 'application/merge-patch+json';
const success = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };

type Json = Record<string, unknown>;
interface Pod { metadata: { resourceVersion: string; deletionTimestamp?: string; deletionGracePeriodSeconds?: number }; status: { conditions?: Json[] } }
interface Budget { metadata: { managedFields: { manager: string; operation: string; subresource?: string; fieldsV1: Json }[] }; status: Json }

const eviction = (name: string, more: Json = {}): string => JSON.stringify({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: NS }, ...more });

/** A pod a node runs, with the phase and readiness a kubelet would report. */
async function runningPod(s: Send, name: string, ready = true, labels: Record<string, string> = { app: 'x' }): Promise<void> {
  answered(await s('POST', P, JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name, labels }, spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'nginx' }] } })), 201);
  answered(await s('PATCH', `${P}/${name}/status`, JSON.stringify({ status: { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] } }), mergePatch));
}

/** Expects a failure with this status and message (or a message matching a pattern). */
function failed(a: Answer, status: number, message: string | RegExp): void {
  expect(a.status, a.text).to.equal(status);
  if (typeof message === 'string') expect(a.message).to.equal(message);
  else expect(a.message).to.match(message);
}

const evicted = (a: Answer): void => {
  expect([a.status, JSON.parse(a.text)]).to.deep.equal([201, success]);
};
const withoutTimes = (v: unknown): unknown => JSON.parse(JSON.stringify(v).replace(/"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"/g, '"T"'));

async function run(s: Send): Promise<void> {
  // A pending pod (no kubelet ever started it) is deleted whatever its budgets say.
  answered(await s('POST', P, JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'pending', labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } })), 201);
  evicted(await s('POST', `${P}/pending/eviction`, eviction('pending')));
  expect((await s('GET', `${P}/pending`)).status).to.equal(404);

  // A running pod without a budget: the DisruptionTarget condition, then the graceful deletion (30 s).
  await runningPod(s, 'a');
  evicted(await s('POST', `${P}/a/eviction`, eviction('a')));
  const a = answered<Pod>(await s('GET', `${P}/a`));
  expect([a.metadata.deletionTimestamp !== undefined, a.metadata.deletionGracePeriodSeconds]).to.deep.equal([true, 30]);
  expect(withoutTimes(a.status.conditions)).to.deep.equal([
    { type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: null },
    { type: 'DisruptionTarget', status: 'True', lastProbeTime: null, lastTransitionTime: 'T', reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting' },
  ]);
  // Being deleted already: evicted again, nothing changes.
  evicted(await s('POST', `${P}/a/eviction`, eviction('a')));

  // A budget whose status nobody wrote yet (no disruption controller runs): 429, come back in 10 s.
  answered(await s('POST', B, JSON.stringify({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'pdb' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'x' } } } })), 201);
  await runningPod(s, 'b');
  const unobserved = await s('POST', `${P}/b/eviction`, eviction('b'));
  expect([unobserved.status, JSON.parse(unobserved.text)]).to.deep.equal([429, {
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: "Cannot evict pod as it would violate the pod's disruption budget.", reason: 'TooManyRequests',
    details: { causes: [{ reason: 'DisruptionBudget', message: 'The disruption budget pdb is still being processed by the server.' }], retryAfterSeconds: 10 }, code: 429,
  }]);
  const budgetStatus = async (status: Json): Promise<void> => void answered(await s('PATCH', `${B}/pdb/status`, JSON.stringify({ status }), mergePatch));
  await budgetStatus({ observedGeneration: 1, disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1 });
  const none = await s('POST', `${P}/b/eviction`, eviction('b'));
  expect([none.status, JSON.parse(none.text)]).to.deep.equal([429, {
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: "Cannot evict pod as it would violate the pod's disruption budget.", reason: 'TooManyRequests',
    details: { causes: [{ reason: 'DisruptionBudget', message: 'The disruption budget pdb needs 1 healthy pods and has 1 currently' }] }, code: 429,
  }]);

  // Two disruptions to give: a dry run takes none; then b and c take one each, the last with the condition.
  await budgetStatus({ disruptionsAllowed: 2, currentHealthy: 3, desiredHealthy: 1, expectedPods: 3 });
  evicted(await s('POST', `${P}/b/eviction`, eviction('b', { deleteOptions: { dryRun: ['All'] } })));
  expect(answered<Budget>(await s('GET', `${B}/pdb`)).status).to.deep.equal({ observedGeneration: 1, disruptionsAllowed: 2, currentHealthy: 3, desiredHealthy: 1, expectedPods: 3 });
  evicted(await s('POST', `${P}/b/eviction`, eviction('b')));
  const afterB = answered<Budget>(await s('GET', `${B}/pdb`));
  expect(withoutTimes(afterB.status)).to.deep.equal({ observedGeneration: 1, disruptedPods: { b: 'T' }, disruptionsAllowed: 1, currentHealthy: 3, desiredHealthy: 1, expectedPods: 3 });
  // The apiserver's own status update (its loopback client's name: kube-apiserver, with a suffix in the reference build).
  const own = afterB.metadata.managedFields.filter((m) => m.manager.startsWith('kube-apiserver'));
  expect(own.map((m) => [m.operation, m.subresource, m.fieldsV1])).to.deep.equal([['Update', 'status', { 'f:status': { 'f:disruptedPods': { '.': {}, 'f:b': {} }, 'f:disruptionsAllowed': {} } }]]);
  await runningPod(s, 'c');
  evicted(await s('POST', `${P}/c/eviction`, eviction('c')));
  expect(withoutTimes(answered<Budget>(await s('GET', `${B}/pdb`)).status)).to.deep.equal({
    observedGeneration: 1, disruptedPods: { b: 'T', c: 'T' }, disruptionsAllowed: 0, currentHealthy: 3, desiredHealthy: 1, expectedPods: 3,
    conditions: [{ type: 'DisruptionAllowed', status: 'False', observedGeneration: 1, lastTransitionTime: 'T', reason: 'InsufficientPods', message: '' }],
  });
  // An unready pod goes without a disruption while the budget has enough healthy pods.
  await runningPod(s, 'd', false);
  evicted(await s('POST', `${P}/d/eviction`, eviction('d')));

  // Two budgets select the pod: the handler's 500, a Status without a reason.
  answered(await s('POST', B, JSON.stringify({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'pdb2' }, spec: { maxUnavailable: 1, selector: { matchLabels: { app: 'x' } } } })), 201);
  await runningPod(s, 'f');
  const two = await s('POST', `${P}/f/eviction`, eviction('f'));
  expect([two.status, JSON.parse(two.text)]).to.deep.equal([500, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.', code: 500 }]);

  // The Eviction's deleteOptions, on a pod no budget selects.
  await runningPod(s, 'h', true, { app: 'y' });
  const rv = answered<Pod>(await s('GET', `${P}/h`)).metadata.resourceVersion;
  failed(await s('POST', `${P}/h/eviction`, eviction('h', { deleteOptions: { preconditions: { resourceVersion: '1' } } })), 409, `Operation cannot be fulfilled on Pod "h": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${rv}). The object might have been modified`);
  failed(await s('POST', `${P}/h/eviction`, eviction('h', { deleteOptions: { preconditions: { uid: 'nope' } } })), 409, /^Operation cannot be fulfilled on Pod "h": the UID in the precondition \(nope\) does not match the UID in record \(.*\)\. The object might have been deleted and then recreated$/);
  evicted(await s('POST', `${P}/h/eviction?dryRun=All`, eviction('h', { deleteOptions: { dryRun: [] } })));
  const mismatch = await s('POST', `${P}/h/eviction?dryRun=All`, eviction('h', { deleteOptions: { dryRun: ['Bogus'] } }));
  expect([mismatch.status, JSON.parse(mismatch.text)]).to.deep.equal([500, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Non-matching dry-run options in request and content: [All] and [Bogus]', code: 500 }]);
  failed(await s('POST', `${P}/h/eviction`, eviction('h', { deleteOptions: { propagationPolicy: 'Sideways' } })), 422, 'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"');
  failed(await s('POST', `${P}/h/eviction`, eviction('h', { deleteOptions: { ignoreStoreReadErrorWithClusterBreakingPotential: true } })), 422, 'Eviction.policy "h" is invalid: deleteOptions.ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: can not be set for pod eviction, try after removing the option');

  // The body: its kind, name and namespace, unknown fields, its JSON shape.
  failed(await s('POST', `${P}/h/eviction`, JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'h' } })), 400, 'Pod in version "v1" cannot be handled as a Eviction: converting (v1.Pod) to (policy.Eviction): unknown conversion');
  failed(await s('POST', `${P}/h/eviction`, eviction('other')), 400, 'name in URL does not match name in Eviction object');
  failed(await s('POST', `${P}/h/eviction`, JSON.stringify({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'h', namespace: 'other' } })), 400, 'the namespace of the provided object does not match the namespace sent on the request');
  const strict = await s('POST', `${P}/h/eviction?fieldValidation=Strict`, JSON.stringify({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'h' }, bogus: 1 }));
  failed(strict, 400, 'Eviction in version "v1" cannot be handled as a Eviction: strict decoding error: unknown field "bogus"');
  failed(await s('POST', `${P}/h/eviction`, '[1]'), 400, /^the object provided is unrecognized \(must be of type Eviction\): couldn't get version\/kind; json parse error: json: cannot unmarshal array into Go value of type struct/);
  failed(await s('POST', `${P}/h/eviction`, eviction('h', { deleteOptions: { gracePeriodSeconds: 'x' } })), 400, 'Eviction in version "v1" cannot be handled as a Eviction: json: cannot unmarshal string into Go struct field DeleteOptions.deleteOptions.gracePeriodSeconds of type int64');
  for (const m of ['GET', 'PUT', 'PATCH', 'DELETE']) {
    expect((await s(m, `${P}/h/eviction`, m === 'GET' || m === 'DELETE' ? undefined : '{}', m === 'PATCH' ? mergePatch : undefined)).status, m).to.equal(405);
  }
  failed(await s('POST', `${P}//eviction`, eviction('')), 400, 'name must be provided');
  expect((await s('POST', `${P}/missing/eviction`, eviction('missing'))).message).to.equal('pods "missing" not found');

  // Without kind and apiVersion, and with unknown fields (warned): evicted, with its grace period.
  const loose = await s('POST', `${P}/h/eviction`, JSON.stringify({ metadata: { name: 'h' }, deleteOptions: { gracePeriodSeconds: 5 }, bogus: 1 }));
  expect([loose.status, loose.warnings]).to.deep.equal([201, ['unknown field "bogus"']]);
  expect(answered<Pod>(await s('GET', `${P}/h`)).metadata.deletionGracePeriodSeconds).to.equal(5);

  // The condition is written through the status store, whose strategy warns of the pod's addresses: the
  // eviction answers with those warnings (once each), a dry run without them.
  answered(await s('POST', P, JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'ip' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } })), 201);
  const ipWarning = (ip: string, canonical: string): string => `status.podIPs[0].ip: non-standard IP address "${ip}" will be considered invalid in a future Kubernetes release: use "${canonical}"`;
  answered(await s('PATCH', `${P}/ip/status`, JSON.stringify({ status: { podIP: '010.1.1.1', podIPs: [{ ip: '010.1.1.1' }] } }), mergePatch));
  const dry = await s('POST', `${P}/ip/eviction?dryRun=All`, eviction('ip'));
  expect([dry.status, dry.warnings]).to.deep.equal([201, []]);
  const warned = await s('POST', `${P}/ip/eviction`, JSON.stringify({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'ip' }, metadata2: 1 }));
  expect([warned.status, warned.warnings]).to.deep.equal([201, ['unknown field "metadata2"', ipWarning('010.1.1.1', '10.1.1.1')]]);

  // Discovery: pods/eviction creates policy/v1 Evictions.
  const legacy = answered<{ resources: Json[] }>(await s('GET', '/api/v1'));
  expect(legacy.resources.find((r) => r.name === 'pods/eviction')).to.deep.equal({ name: 'pods/eviction', singularName: '', namespaced: true, group: 'policy', version: 'v1', kind: 'Eviction', verbs: ['create'] });
  const aggregated = answered<{ items: { versions: { resources: { resource: string; subresources: Json[] }[] }[] }[] }>(await s('GET', '/api', undefined, undefined, 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList'));
  const pods = aggregated.items[0].versions[0].resources.find((r) => r.resource === 'pods')!;
  expect(pods.subresources.find((x) => x.subresource === 'eviction')).to.deep.equal({ subresource: 'eviction', responseKind: { group: 'policy', version: 'v1', kind: 'Eviction' }, verbs: ['create'] });
  expect(pods.subresources.find((x) => x.subresource === 'status')).to.deep.equal({ subresource: 'status', responseKind: { group: '', version: '', kind: 'Pod' }, verbs: ['get', 'patch', 'update'] });
}

describeOnBothServers('the eviction subresource of Pods', run);
