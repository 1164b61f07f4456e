// The `kubernetes` Service of the default namespace on both servers, as kube-apiserver 1.34.4's bootstrap
// controller keeps it (pkg/controlplane/controller/kubernetesservice): there once the server is up, on the
// first address of the service range with its IPAddress, port 443 named https to the server's own port, the
// labels component=apiserver and provider=kubernetes, the managed fields of the controller's create (its
// manager is the server binary's name: `kube-apiserver` on kubekit, the reference's binary on the
// reference); no Endpoints (the reference runs with --endpoint-reconciler-type=none); created again within
// 10 s of being deleted, with a new uid. Every expected answer is the reference's (kubekit runs with its
// service range, 10.0.0.0/24).
import { expect } from 'chai';
import { answered, describeOnBothServers, eventually, type Send, type ServerAccess } from './sender.js';

const SVC = '/api/v1/namespaces/default/services/kubernetes';

interface Service {
  metadata: { uid: string; labels?: Record<string, string>; managedFields?: { manager: string; operation: string; apiVersion: string; fieldsV1: unknown; subresource?: string }[] };
  spec: Record<string, unknown> & { ports: { targetPort: number }[] };
  status: unknown;
}

async function run(s: Send, server: ServerAccess): Promise<void> {
  const port = Number(new URL(server.url).port);
  // The reference's controller creates it once the server is ready, a moment after it answers.
  const svc = answered<Service>(await eventually(() => s('GET', SVC), (a) => a.status === 200));
  expect([svc.metadata.labels, svc.spec, svc.status]).to.deep.equal([
    { component: 'apiserver', provider: 'kubernetes' },
    {
      ports: [{ name: 'https', protocol: 'TCP', port: 443, targetPort: port }], clusterIP: '10.0.0.1', clusterIPs: ['10.0.0.1'], type: 'ClusterIP', sessionAffinity: 'None',
      ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack', internalTrafficPolicy: 'Cluster',
    },
    { loadBalancer: {} },
  ]);
  const [entry] = svc.metadata.managedFields ?? [];
  expect(entry.manager).to.match(/^kube-apiserver/);
  expect([svc.metadata.managedFields?.length, entry.operation, entry.apiVersion, entry.subresource, entry.fieldsV1]).to.deep.equal([1, 'Update', 'v1', undefined, {
    'f:metadata': { 'f:labels': { '.': {}, 'f:component': {}, 'f:provider': {} } },
    'f:spec': {
      'f:clusterIP': {}, 'f:internalTrafficPolicy': {}, 'f:ipFamilyPolicy': {},
      'f:ports': { '.': {}, 'k:{"port":443,"protocol":"TCP"}': { '.': {}, 'f:name': {}, 'f:port': {}, 'f:protocol': {}, 'f:targetPort': {} } },
      'f:sessionAffinity': {}, 'f:type': {},
    },
  }]);
  const ip = answered<{ spec: unknown; metadata: { labels: unknown } }>(await s('GET', '/apis/networking.k8s.io/v1/ipaddresses/10.0.0.1'));
  expect([ip.spec, ip.metadata.labels]).to.deep.equal([
    { parentRef: { resource: 'services', namespace: 'default', name: 'kubernetes' } },
    { 'ipaddress.kubernetes.io/ip-family': 'IPv4', 'ipaddress.kubernetes.io/managed-by': 'ipallocator.k8s.io' },
  ]);
  expect((await s('GET', '/api/v1/namespaces/default/endpoints/kubernetes')).status).to.equal(404);
  // Another Service may not take its address (a dry run would: its allocator checks only the range).
  const taken = await s('POST', '/api/v1/namespaces/default/services', JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'x' }, spec: { clusterIP: '10.0.0.1', ports: [{ port: 80 }] } }));
  expect([taken.status, taken.message]).to.deep.equal([422, 'Service "x" is invalid: spec.clusterIPs: Invalid value: ["10.0.0.1"]: failed to allocate IP 10.0.0.1: provided IP is already allocated']);

  // Deleted, it is back within the controller's interval (10 s; waited for up to 30 s), a new object.
  const deleted = answered<Service>(await s('DELETE', SVC));
  expect(deleted.metadata.uid).to.equal(svc.metadata.uid);
  const back = await eventually(() => s('GET', SVC), (a) => a.status === 200, 30);
  const again = answered<Service>(back);
  expect(again.metadata.uid).to.not.equal(svc.metadata.uid);
  expect([again.spec.clusterIP, again.spec.ports]).to.deep.equal(['10.0.0.1', svc.spec.ports]);
}

describeOnBothServers('the kubernetes Service of the default namespace', async (s, _backend, server) => run(s, server), { serviceClusterIPRange: '10.0.0.0/24' });
