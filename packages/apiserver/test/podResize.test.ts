// The pods/resize subresource as kube-apiserver v1.34.4 serves it: podResizeStrategy (pkg/registry/core/pod/
// strategy.go) and ValidatePodResize (pkg/apis/core/validation), cases after upstream's TestValidatePodResize
// and TestPodResizePrepareForUpdate, with the LimitRanger and ResourceQuota plugins on a resize. Every expected
// message is the reference server's answer to the same request (the differential scenario builtin/pod-resize
// asks both).
import { expect } from 'chai';
import type { ApiServer } from '@kubekit/apiserver';
import { start, type Client } from './internal/client.js';

const strategic = 'application/strategic-merge-patch+json';
const jsonPatch = 'application/json-patch+json';
const merge = 'application/merge-patch+json';
const pods = '/api/v1/namespaces/default/pods';
const resources = { requests: { cpu: '100m', memory: '100Mi', 'ephemeral-storage': '1Gi' }, limits: { cpu: '200m', memory: '200Mi' } };

function pod(name: string, spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { app: 'r' }, ...metadata }, spec: { containers: [{ name: 'c', image: 'nginx', resources }], ...spec } };
}

interface Container { name: string; image: string; resources: { requests?: Record<string, string>; limits?: Record<string, string> }; resizePolicy?: unknown }

describe('pods/resize', function () {
  this.timeout(30_000);
  let server: ApiServer;
  let client: Client;
  const resize = (name: string, body: unknown, type = jsonPatch, query = '') => client.request('PATCH', `${pods}/${name}/resize${query}`, body, type);
  const cpu = (name: string, value: string, where = 'containers', i = 0) => resize(name, [{ op: 'replace', path: `/spec/${where}/${i}/resources/requests/cpu`, value }]);
  before(async () => {
    ({ server, client } = await start());
    for (const p of [
      pod('p'), pod('plr', { resources: { requests: { cpu: '1' } } }), pod('win', { os: { name: 'windows' } }),
      pod('mirror', { nodeName: 'n1' }, { annotations: { 'kubernetes.io/config.mirror': 'x' } }), pod('run'),
      pod('side', { initContainers: [{ name: 'side', image: 'x', restartPolicy: 'Always', resources: { requests: { cpu: '10m' } } }, { name: 'once', image: 'x', resources: { requests: { cpu: '10m' } } }] }),
      { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'be' }, spec: { containers: [{ name: 'c', image: 'x' }] } },
    ]) expect((await client.post(pods, p)).status).to.equal(201);
  });
  after(() => server.close());

  it('changes the containers\' CPU and memory only: the rest of the spec, the labels and the status stay, the generation grows', async () => {
    expect((await client.get(`${pods}/p/resize`)).body.kind).to.equal('Pod');
    const r = await resize('p', { metadata: { labels: { x: 'y' } }, spec: { containers: [{ name: 'c', image: 'busybox', resources: { requests: { cpu: '150m' } } }], activeDeadlineSeconds: 5 } }, strategic);
    expect(r.status).to.equal(200);
    expect(r.body.metadata.generation).to.equal(2);
    expect(r.body.metadata.labels).to.deep.equal({ app: 'r' });
    const c = (r.body.spec.containers as Container[])[0];
    expect(c.image).to.equal('nginx');
    expect(c.resources.requests).to.deep.equal({ cpu: '150m', memory: '100Mi', 'ephemeral-storage': '1Gi' });
    expect(r.body.spec.activeDeadlineSeconds).to.equal(undefined);
    expect(r.body.status.qosClass).to.equal('Burstable');
    // A request removed is defaulted from its limit again; another form of the same quantity is no change.
    const removed = await resize('p', [{ op: 'remove', path: '/spec/containers/0/resources/requests/memory' }, { op: 'replace', path: '/spec/containers/0/resources/requests/ephemeral-storage', value: '1024Mi' }]);
    expect(removed.status).to.equal(200);
    expect((removed.body.spec.containers as Container[])[0].resources.requests).to.deep.equal({ cpu: '150m', memory: '200Mi', 'ephemeral-storage': '1Gi' });
  });

  it('refuses what a resize may not change, in the apiserver\'s words', async () => {
    const message = async (r: Promise<{ status: number; body: Record<string, unknown> }>): Promise<unknown> => {
      const a = await r;
      expect(a.status).to.equal(422);
      return a.body.message;
    };
    expect(await message(resize('p', [{ op: 'remove', path: '/spec/containers/0/resources/limits' }]))).to.equal('Pod "p" is invalid: spec.containers[0].resources.limits: Forbidden: resource limits cannot be removed');
    expect(await message(resize('p', [{ op: 'replace', path: '/spec/containers/0/resources/requests', value: { cpu: '200m', memory: '200Mi' } }]))).to.equal('Pod "p" is invalid: [spec: Invalid value: "Burstable": Pod QOS Class may not change as a result of resizing, spec.containers[0].resources.requests: Forbidden: resource requests cannot be removed, spec: Forbidden: only cpu and memory resources are mutable]');
    expect(await message(resize('p', [{ op: 'replace', path: '/spec/containers/0/resources/requests/ephemeral-storage', value: '2Gi' }]))).to.equal('Pod "p" is invalid: spec: Forbidden: only cpu and memory resources are mutable');
    expect(await message(resize('p', [{ op: 'add', path: '/spec/containers/0/resizePolicy', value: [{ resourceName: 'cpu', restartPolicy: 'RestartContainer' }] }]))).to.equal('Pod "p" is invalid: spec: Forbidden: only cpu and memory resources are mutable');
    expect(await message(resize('p', [{ op: 'add', path: '/spec/containers/0/resizePolicy', value: [{ resourceName: 'gpu', restartPolicy: 'Maybe' }] }]))).to.equal('Pod "p" is invalid: [spec.containers[0].resizePolicy: Unsupported value: "gpu": supported values: "cpu", "memory", spec.containers[0].resizePolicy: Unsupported value: "Maybe": supported values: "NotRequired", "RestartContainer", spec: Forbidden: only cpu and memory resources are mutable]');
    expect(await message(resize('p', [{ op: 'replace', path: '/spec/containers/0/name', value: 'd' }]))).to.equal('Pod "p" is invalid: spec.containers[0].name: Forbidden: containers may not be renamed or reordered on resize');
    expect(await message(resize('p', [{ op: 'add', path: '/spec/containers/-', value: { name: 'e', image: 'x' } }]))).to.equal('Pod "p" is invalid: spec.containers: Forbidden: containers may not be added or removed on resize');
    expect(await message(cpu('p', '300m'))).to.equal('Pod "p" is invalid: spec.containers[0].resources.requests: Invalid value: "300m": must be less than or equal to cpu limit of 200m');
    // A resource named `__proto__` is a resource like any other (hostile differential seed 20261207, case 663):
    // it is no CPU or memory, so the container changed beyond them.
    expect((await client.post(pods, pod('proto', { containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: '100m' }, limits: { cpu: '200m' } } }] }))).status).to.equal(201);
    expect(await message(resize('proto', '{"spec":{"containers":[{"name":"c","resources":{"requests":{"__proto__":"1"}}}]}}', strategic))).to.equal('Pod "proto" is invalid: ['
      + 'spec.containers[0].resources.requests[__proto__]: Invalid value: "__proto__": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\'), '
      + 'spec.containers[0].resources.requests[__proto__]: Invalid value: "__proto__": must be a standard resource for containers, spec: Forbidden: only cpu and memory resources are mutable]');
    expect(await message(resize('be', { spec: { containers: [{ name: 'c', resources: { requests: { cpu: '1' } } }] } }, strategic))).to.equal('Pod "be" is invalid: spec: Invalid value: "BestEffort": Pod QOS Class may not change as a result of resizing');
  });

  it('refuses pods that cannot be resized at all, with that error alone', async () => {
    const refused = async (name: string, why: string): Promise<void> => {
      const r = await cpu(name, '150m');
      expect(r.status).to.equal(422);
      expect(r.body.message).to.equal(`Pod "${name}" is invalid: []: Forbidden: ${why}`);
      expect(r.body.details.causes).to.deep.equal([{ reason: 'FieldValueForbidden', message: `Forbidden: ${why}`, field: '[]' }]);
    };
    await refused('plr', 'pods with pod-level resources cannot be resized');
    await refused('win', 'windows pods cannot be resized');
    await refused('mirror', 'static pods cannot be resized');
    // The same path for ephemeral containers of a static pod.
    const e = await client.request('PATCH', `${pods}/mirror/ephemeralcontainers`, { spec: { ephemeralContainers: [{ name: 'd', image: 'x' }] } }, strategic);
    expect(e.body.message).to.equal('Pod "mirror" is invalid: []: Forbidden: static pods do not support ephemeral containers');
    // A running container whose status reports no resources: its node does not resize.
    const status = { containerStatuses: [{ name: 'c', image: 'nginx', imageID: '', ready: true, restartCount: 0, state: { running: { startedAt: '2026-01-01T00:00:00Z' } } }] };
    expect((await client.request('PATCH', `${pods}/run/status`, { status }, merge)).status).to.equal(200);
    expect((await cpu('run', '150m')).body.message).to.equal('Pod "run" is invalid: spec: Forbidden: Pod running on node without support for resize');
  });

  it('resizes sidecars only among the init containers', async () => {
    const ok = await cpu('side', '20m', 'initContainers', 0);
    expect(ok.status).to.equal(200);
    expect((ok.body.spec.initContainers as Container[]).map((c) => c.resources.requests?.cpu)).to.deep.equal(['20m', '10m']);
    expect((await cpu('side', '20m', 'initContainers', 1)).body.message).to.equal('Pod "side" is invalid: spec: Forbidden: resources for non-sidecar init containers are immutable');
    const both = await resize('side', [{ op: 'add', path: '/spec/initContainers/0/resources/requests/ephemeral-storage', value: '1Gi' }, { op: 'add', path: '/spec/containers/0/resources/requests/ephemeral-storage', value: '5Gi' }]);
    expect(both.body.message).to.equal('Pod "side" is invalid: [spec: Forbidden: only cpu and memory resources are mutable, spec: Forbidden: only cpu and memory resources for sidecar containers are mutable]');
    expect((await resize('side', [{ op: 'remove', path: '/spec/initContainers/0/resources/requests' }])).body.message).to.equal('Pod "side" is invalid: spec.initContainers[0].resources.requests: Forbidden: resource requests cannot be removed');
    const renamed = await resize('side', [{ op: 'replace', path: '/spec/initContainers/1/name', value: 'z' }, { op: 'replace', path: '/spec/containers/0/name', value: 'z' }]);
    expect(renamed.body.message).to.equal('Pod "side" is invalid: [spec.initContainers[1].name: Duplicate value: "z", spec.containers[0].name: Forbidden: containers may not be renamed or reordered on resize, spec.initContainers[1].name: Forbidden: initContainers may not be renamed or reordered on resize]');
  });

  it('serves get, patch and update only, and lists the subresource in discovery', async () => {
    expect((await client.request('POST', `${pods}/p/resize`, pod('p'))).status).to.equal(405);
    expect((await client.request('DELETE', `${pods}/p/resize`)).status).to.equal(405);
    expect((await client.request('PATCH', `${pods}/nope/resize`, {}, merge)).body.message).to.equal('pods "nope" not found');
    const put = await client.request('PUT', `${pods}/p/resize`, pod('p'));
    expect(put.status).to.equal(200);
    expect((put.body.spec.containers as Container[])[0].resources.requests).to.deep.equal(resources.requests);
    const discovery = await client.get('/api/v1');
    const entry = (discovery.body.resources as { name: string }[]).find((r) => r.name === 'pods/resize');
    expect(entry).to.deep.equal({ name: 'pods/resize', singularName: '', namespaced: true, kind: 'Pod', verbs: ['get', 'patch', 'update'] });
  });

  it('validates resize policies on create', async () => {
    const r = await client.post(pods, pod('rp', { restartPolicy: 'Never', containers: [{ name: 'c', image: 'x', resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'RestartContainer' }, { resourceName: 'cpu' }, { restartPolicy: 'NotRequired' }] }] }));
    expect(r.status).to.equal(422);
    expect(r.body.message).to.equal("Pod \"rp\" is invalid: [spec.containers[0].resizePolicy: Invalid value: \"RestartContainer\": must be 'NotRequired' when `restartPolicy` is 'Never', spec.containers[0].resizePolicy[1]: Duplicate value: \"cpu\", spec.containers[0].resizePolicy: Required value, spec.containers[0].resizePolicy: Invalid value: \"\": must be 'NotRequired' when `restartPolicy` is 'Never']");
  });

  it('is defaulted and checked by the LimitRanger, and charged its increase by the ResourceQuota', async () => {
    const ns = '/api/v1/namespaces/limits';
    expect((await client.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'limits' } })).status).to.equal(201);
    await client.post(`${ns}/pods`, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'nd' }, spec: { containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: '100m' }, limits: { cpu: '200m' } } }] } });
    await client.post(`${ns}/limitranges`, { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'l' }, spec: { limits: [{ type: 'Container', max: { cpu: '300m' }, default: { memory: '300Mi' }, defaultRequest: { memory: '100Mi' } }] } });
    const path = `${ns}/pods/nd/resize`;
    const set = (value: string, limit?: string) => client.request('PATCH', path, [
      { op: 'replace', path: '/spec/containers/0/resources/requests/cpu', value },
      ...(limit === undefined ? [] : [{ op: 'replace', path: '/spec/containers/0/resources/limits/cpu', value: limit }]),
    ], jsonPatch);
    const defaulted = await set('150m');
    expect(defaulted.status).to.equal(200);
    expect((defaulted.body.spec.containers as Container[])[0].resources).to.deep.equal({ requests: { cpu: '150m', memory: '100Mi' }, limits: { cpu: '200m', memory: '300Mi' } });
    expect(defaulted.body.metadata.annotations).to.equal(undefined);
    const over = await set('150m', '400m');
    expect([over.status, over.body.message]).to.deep.equal([403, 'pods "nd" is forbidden: maximum cpu usage per Container is 300m, but limit is 400m']);
    await client.post(`${ns}/resourcequotas`, { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec: { hard: { 'requests.cpu': '250m', 'limits.cpu': '1' } } });
    await client.request('PATCH', `${ns}/resourcequotas/q/status`, { status: { hard: { 'requests.cpu': '250m', 'limits.cpu': '1' }, used: { 'requests.cpu': '150m', 'limits.cpu': '200m' } } }, merge);
    expect((await set('200m')).status).to.equal(200);
    const exceeded = await set('260m', '260m');
    expect([exceeded.status, exceeded.body.message]).to.deep.equal([403, 'pods "nd" is forbidden: exceeded quota: q, requested: requests.cpu=60m, used: requests.cpu=200m, limited: requests.cpu=250m']);
    expect((await set('50m')).status).to.equal(200);
  });
});
