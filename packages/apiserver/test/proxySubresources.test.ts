// The proxy subresources of pods, services and nodes. Everything the apiserver decides before it dials is
// compared with kube-apiserver 1.34.4 by the differential scenario builtin/proxy; here, what only the
// embedded server can show: where the apiserver would dial (a pod's global unicast IP, a service's endpoint
// that is a pod's, a node's address), it answers the proxy's 503 and proxies nothing.
import { expect } from 'chai';
import type { ApiServer } from '@kubekit/apiserver';
import { start, type Client } from './internal/client.js';

const merge = 'application/merge-patch+json';
const ns = '/api/v1/namespaces/default';

describe('proxy subresources', function () {
  this.timeout(30_000);
  let server: ApiServer;
  let client: Client;
  before(async () => {
    ({ server, client } = await start());
    await client.post(`${ns}/pods`, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'x', ports: [{ containerPort: 8080 }] }] } });
    await client.request('PATCH', `${ns}/pods/p/status`, { status: { podIP: '10.0.0.7', podIPs: [{ ip: '10.0.0.7' }, { ip: 'fd00::7' }] } }, merge);
  });
  after(() => server.close());

  const answer = async (method: string, path: string): Promise<[number, unknown, unknown]> => {
    const r = await client.request(method, path);
    return [r.status, r.body.reason, r.body.message];
  };

  it('answers a pod that could be reached with the proxy\'s 503, its first container port or the one asked for', async () => {
    const why = 'the embedded API server runs no pods: pod default/p cannot be reached';
    expect(await answer('GET', `${ns}/pods/p/proxy/healthz?x=1`)).to.deep.equal([503, 'ServiceUnavailable', `error trying to reach service: dial tcp 10.0.0.7:8080: ${why}`]);
    expect(await answer('POST', `${ns}/pods/p:9000/proxy/`)).to.deep.equal([503, 'ServiceUnavailable', `error trying to reach service: dial tcp 10.0.0.7:9000: ${why}`]);
    expect(await answer('GET', `${ns}/pods/https:p:/proxy/`)).to.deep.equal([503, 'ServiceUnavailable', `error trying to reach service: dial tcp 10.0.0.7:8080: ${why}`]);
    expect((await client.request('PROPFIND', `${ns}/pods/p/proxy/`)).status).to.equal(405);
  });

  it('answers a service whose endpoint is a pod of its namespace with that IP with the 503', async () => {
    await client.post(`${ns}/services`, { apiVersion: 'v1', kind: 'Service', metadata: { name: 'svc' }, spec: { ports: [{ name: 'web', port: 80, targetPort: 8080 }] } });
    await client.post(`${ns}/endpoints`, {
      apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'svc' },
      subsets: [{ addresses: [{ ip: '10.0.0.7', targetRef: { kind: 'Pod', namespace: 'default', name: 'p' } }], ports: [{ name: 'web', port: 8080 }] }],
    });
    const why = 'the embedded API server runs no pods: service default/svc cannot be reached';
    expect(await answer('GET', `${ns}/services/svc:web/proxy/`)).to.deep.equal([503, 'ServiceUnavailable', `error trying to reach service: dial tcp 10.0.0.7:8080: ${why}`]);
    expect(await answer('GET', `${ns}/services/svc:80/proxy/`)).to.deep.equal([503, 'ServiceUnavailable', `error trying to reach service: dial tcp 10.0.0.7:8080: ${why}`]);
    // No port name: no endpoint port matches the empty name.
    expect(await answer('GET', `${ns}/services/svc/proxy/`)).to.deep.equal([503, 'ServiceUnavailable', 'no endpoints available for service "svc"']);
  });

  it('answers a node with an address with the 503 of its kubelet\'s port, and refuses a loopback one', async () => {
    await client.post('/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } });
    await client.request('PATCH', '/api/v1/nodes/n1/status', { status: { addresses: [{ type: 'InternalIP', address: '10.0.1.1' }], daemonEndpoints: { kubeletEndpoint: { Port: 10255 } } } }, merge);
    const why = 'the embedded API server runs no kubelet: node n1 cannot be reached';
    expect(await answer('GET', '/api/v1/nodes/n1/proxy/metrics')).to.deep.equal([503, 'ServiceUnavailable', `error trying to reach service: dial tcp 10.0.1.1:10255: ${why}`]);
    expect(await answer('GET', '/api/v1/nodes/n1:4194/proxy/')).to.deep.equal([503, 'ServiceUnavailable', `error trying to reach service: dial tcp 10.0.1.1:4194: ${why}`]);
    await client.request('PATCH', '/api/v1/nodes/n1/status', { status: { addresses: [{ type: 'Hostname', address: 'localhost' }] } }, merge);
    expect(await answer('GET', '/api/v1/nodes/n1/proxy/')).to.deep.equal([400, 'BadRequest', 'address not allowed']);
  });

  it('lists the three in discovery with their options\' kinds', async () => {
    const resources = (await client.get('/api/v1')).body.resources as { name: string; kind: string; verbs: string[] }[];
    expect(resources.filter((r) => r.name.endsWith('/proxy')).map((r) => [r.name, r.kind, r.verbs.join(',')])).to.deep.equal([
      ['nodes/proxy', 'NodeProxyOptions', 'create,delete,get,patch,update'],
      ['pods/proxy', 'PodProxyOptions', 'create,delete,get,patch,update'],
      ['services/proxy', 'ServiceProxyOptions', 'create,delete,get,patch,update'],
    ]);
  });
});
