// A Pod as kube-apiserver 1.34.4 creates it: SetDefaults_Pod (pkg/apis/core/v1/defaults.go), the
// Priority and DefaultTolerationSeconds admission plugins (plugin/pkg/admission/priority,
// plugin/pkg/admission/defaulttolerationseconds) and GetPodQOS (pkg/apis/core/v1/helper/qos). Every
// expectation is the reference's answer to the same request (probed with test/differential's backends).
import { expect } from 'chai';
import type { ApiServer } from '@kubekit/apiserver';
import { Client, start, type Response } from './internal/client.js';

const pods = '/api/v1/namespaces/default/pods';
const notReady = { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 };
const unreachable = { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 };

describe('pods created as kube-apiserver 1.34.4 creates them', () => {
  let server: ApiServer;
  let client: Client;
  const create = (name: string, spec: Record<string, unknown>): Promise<Response> => client.post(pods, { metadata: { name }, spec });

  before(async () => {
    ({ server, client } = await start());
  });

  after(async () => {
    await server.close();
  });

  it('defaults the spec and its containers, tolerates unready nodes for 300 s and has no priority class', async () => {
    const r = await create('plain', { containers: [{ name: 'c', image: 'nginx:1.2', ports: [{ containerPort: 80 }], resources: { limits: { cpu: '1', memory: '1Gi' } } }], initContainers: [{ name: 'i', image: 'busybox@sha256:abc' }] });
    expect(r.status).to.equal(201);
    expect(r.body.metadata.generation).to.equal(1);
    expect(r.body.spec).to.deep.equal({
      containers: [{
        image: 'nginx:1.2', imagePullPolicy: 'IfNotPresent', name: 'c', ports: [{ containerPort: 80, protocol: 'TCP' }],
        // A limit without a request requests the limit.
        resources: { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '1', memory: '1Gi' } },
        terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File',
      }],
      initContainers: [{ image: 'busybox@sha256:abc', imagePullPolicy: 'IfNotPresent', name: 'i', resources: {}, terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' }],
      dnsPolicy: 'ClusterFirst', enableServiceLinks: true, preemptionPolicy: 'PreemptLowerPriority', priority: 0, restartPolicy: 'Always',
      schedulerName: 'default-scheduler', securityContext: {}, terminationGracePeriodSeconds: 30, tolerations: [notReady, unreachable],
    });
    // The init container requests nothing, so not every container limits CPU and memory.
    expect(r.body.status).to.deep.equal({ phase: 'Pending', qosClass: 'Burstable' });
  });

  // GetPodQOS counts positive quantities, whatever their size: the reference answers Burstable for a CPU
  // limit of 1e10000000 (kubekit's CEL quantities, limited to exponents of ±1000, read it as nothing and
  // answered BestEffort), and sums requests across containers exactly.
  it('classes pods by quantities of any size, summed across containers', async () => {
    const qos = async (name: string, containers: Record<string, unknown>[]): Promise<unknown> => (await create(name, { containers })).body.status?.qosClass;
    const c = (name: string, requests: Record<string, string>, limits: Record<string, string>): Record<string, unknown> => ({ name, image: 'nginx', resources: { requests, limits } });
    expect(await qos('q-huge', [c('c', {}, { cpu: '1e10000000' })])).to.equal('Burstable');
    expect(await qos('q-huge-both', [c('c', {}, { cpu: '1e10000000', memory: '1e100000' })])).to.equal('Guaranteed');
    expect(await qos('q-split', [c('a', { cpu: '0.5', memory: '512Mi' }, { cpu: '500m', memory: '0.5Gi' }), c('b', { cpu: '1500m', memory: '1Gi' }, { cpu: '1.5', memory: '1024Mi' })])).to.equal('Guaranteed');
    expect(await qos('q-apart', [c('a', { cpu: '1e200000', memory: '1' }, { cpu: '1e200000', memory: '1' }), c('b', { cpu: '1', memory: '1' }, { cpu: '1', memory: '1' })])).to.equal('Guaranteed');
    expect(await qos('q-zero', [c('a', { cpu: '0' }, { memory: '0' })])).to.equal('BestEffort');
  });

  it('adds only the tolerations the pod lacks (a toleration without key or effect covers the taint)', async () => {
    const own = [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists' }, { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoSchedule' }];
    expect((await create('some', { containers: [{ name: 'c', image: 'nginx' }], tolerations: own })).body.spec.tolerations).to.deep.equal([...own, notReady]);
    expect((await create('all', { containers: [{ name: 'c', image: 'nginx' }], tolerations: [{ operator: 'Exists' }] })).body.spec.tolerations).to.deep.equal([{ operator: 'Exists' }]);
  });

  it('takes priority from the priority class, and forbids a pod that gives its own or names a missing class', async () => {
    const critical = await create('critical', { containers: [{ name: 'c', image: 'nginx' }], priorityClassName: 'system-node-critical' });
    expect(critical.body.spec.priority).to.equal(2000001000);
    const cases: [string, Record<string, unknown>, string][] = [
      ['p5', { priority: 5 }, 'pods "p5" is forbidden: the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name'],
      ['p6', { priorityClassName: 'nope' }, 'pods "p6" is forbidden: no PriorityClass with name nope was found'],
      ['p8', { priorityClassName: 'system-cluster-critical', preemptionPolicy: 'Never' }, 'pods "p8" is forbidden: the string value of PreemptionPolicy (Never) must not be provided in pod spec; priority admission controller computed PreemptLowerPriority from the given PriorityClass name'],
    ];
    for (const [name, spec, message] of cases) {
      const r = await create(name, { containers: [{ name: 'c', image: 'nginx' }], ...spec });
      expect(r.status, name).to.equal(403);
      expect(r.body).to.deep.include({ reason: 'Forbidden', message, details: { name, kind: 'pods' } });
    }
    expect((await create('zero', { containers: [{ name: 'c', image: 'nginx' }], priority: 0 })).status).to.equal(201);
  });

  it('records the QoS class: CPU and memory only, zero quantities ignored, requests equal to limits for Guaranteed', async () => {
    const qos = async (name: string, ...resources: Record<string, unknown>[]): Promise<string> =>
      (await create(name, { containers: resources.map((r, i) => ({ name: `c${i}`, image: 'nginx', resources: r })) })).body.status.qosClass;
    expect(await qos('q1', { limits: { cpu: '1', memory: '1Gi' } })).to.equal('Guaranteed');
    expect(await qos('q2', { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '1000m' } })).to.equal('Guaranteed');
    expect(await qos('q3', { requests: { cpu: '0' } })).to.equal('BestEffort');
    expect(await qos('q4', { limits: { cpu: '1' } })).to.equal('Burstable');
    expect(await qos('q5', { requests: { 'example.com/gpu': '1' }, limits: { 'example.com/gpu': '1' } })).to.equal('BestEffort');
    expect(await qos('q6', { limits: { cpu: '1', memory: '1Gi' } }, { limits: { cpu: '2', memory: '1Gi' }, requests: { cpu: '1', memory: '1Gi' } })).to.equal('Burstable');
  });

  it('defaults probes, lifecycle handlers, field references and volumes (SetDefaults_Probe, _HTTPGetAction, _ObjectFieldSelector, _Volume)', async () => {
    const r = await create('probed', {
      volumes: [{ name: 'cm', configMap: { name: 'x' } }, { name: 's', secret: { secretName: 'y', defaultMode: 256 } }, { name: 'bare' }, { name: 'hp', hostPath: { path: '/tmp' } },
        { name: 'd', downwardAPI: { items: [{ path: 'n', fieldRef: { fieldPath: 'metadata.name' } }] } }, { name: 'p', projected: { sources: [{ configMap: { name: 'z' } }] } }],
      containers: [{
        name: 'c', image: 'nginx', readinessProbe: { httpGet: { path: '/', port: 80 } }, startupProbe: { exec: { command: ['true'] }, periodSeconds: 5 },
        lifecycle: { preStop: { httpGet: { path: '/stop', port: 80 } } }, env: [{ name: 'P', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
      }],
    });
    expect(r.status).to.equal(201);
    const c = r.body.spec.containers[0];
    expect(c.readinessProbe).to.deep.equal({ httpGet: { path: '/', port: 80, scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 });
    expect(c.startupProbe).to.deep.equal({ exec: { command: ['true'] }, timeoutSeconds: 1, periodSeconds: 5, successThreshold: 1, failureThreshold: 3 });
    expect(c.lifecycle.preStop.httpGet.scheme).to.equal('HTTP');
    expect(c.env[0].valueFrom.fieldRef).to.deep.equal({ apiVersion: 'v1', fieldPath: 'metadata.name' });
    expect(r.body.spec.volumes).to.deep.equal([
      { name: 'cm', configMap: { name: 'x', defaultMode: 420 } }, { name: 's', secret: { secretName: 'y', defaultMode: 256 } }, { name: 'bare', emptyDir: {} },
      { name: 'hp', hostPath: { path: '/tmp', type: '' } }, { name: 'd', downwardAPI: { items: [{ path: 'n', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } }], defaultMode: 420 } },
      { name: 'p', projected: { sources: [{ configMap: { name: 'z' } }], defaultMode: 420 } },
    ]);
  });

  it('counts a spec change in the generation, not a label change', async () => {
    await create('gen', { containers: [{ name: 'c', image: 'nginx' }] });
    expect((await client.patch(`${pods}/gen`, { spec: { activeDeadlineSeconds: 30 } })).body.metadata.generation).to.equal(2);
    expect((await client.patch(`${pods}/gen`, { metadata: { labels: { a: 'b' } } })).body.metadata.generation).to.equal(2);
  });
});
