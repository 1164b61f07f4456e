import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FieldPath } from '@kubekit/core';
import type { KubeObject } from '@kubekit/core';
// The server first: builtinKinds.ts is loaded through it (a kind module loaded first meets an import cycle).
import { start } from './internal/client.js';
import { strictCIDRErrors } from '../src/serviceCIDRKinds.js';

describe('strictCIDRErrors', () => {
  // k8s.io/apimachinery/pkg/util/validation/ip_test.go, TestIsValidCIDR.
  const zeros = 'must not have leading 0s in IP or prefix length';
  const mapped = 'must not have an IPv4-mapped IPv6 address';
  const bits = 'must not have bits set beyond the prefix length';
  const cases: [string, string[]][] = [
    ['1.0.0.0/8', []], ['0.0.0.0/0', []], ['1.1.1.1/32', []], ['2001:4860:4860::/48', []], ['::/0', []], ['::1/128', []],
    ['2a00:79e0:2:0::/64', ['must be in canonical form ("2a00:79e0:2::/64")']],
    ['2001:DB8::/64', ['must be in canonical form ("2001:db8::/64")']],
    ['1.1.01.0/24', [zeros]], ['192.168.0.0/016', [zeros]],
    ['::ffff:1.1.1.0/24', [mapped]], ['::ffff:1.1.1.0/120', [mapped]],
    ['1.2.3.4/24', [bits]], ['2001:db8::1/64', [bits]],
    ...['', 'aaaaaaa', '1.2.3.4', '192.168.0.1/healthz', '192.168.0.1/0/99', '192.168.0.0/-16', '192.168.0.0/+16'].map((v): [string, string[]] => [v, ['must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)']]),
  ];
  for (const [value, want] of cases) {
    it(`answers ${JSON.stringify(value)} with ${want.length === 0 ? 'no error' : JSON.stringify(want)}`, () => {
      expect(strictCIDRErrors(FieldPath.root('cidr'), value).map((e) => e.detail)).to.deep.equal(want);
    });
  }
});

describe('ServiceIPAddresses', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'kubekit-servicecidr-'));
  });
  afterEach(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('writes at start the IPAddresses stored Services miss, and the default ServiceCIDR only once', async () => {
    const first = await start({ dataDir });
    try {
      const svc = await first.client.post('/api/v1/namespaces/default/services', { metadata: { name: 's' }, spec: { clusterIP: '10.96.0.50', ports: [{ port: 80 }] } });
      expect(svc.status).to.equal(201);
      // Deleted behind the allocator's back, as `kubectl delete ipaddress` would.
      expect((await first.client.request('DELETE', '/apis/networking.k8s.io/v1/ipaddresses/10.96.0.50')).status).to.equal(200);
    } finally {
      await first.server.close();
    }
    const second = await start({ dataDir });
    try {
      const ip = await second.client.get('/apis/networking.k8s.io/v1/ipaddresses/10.96.0.50');
      expect([ip.status, ip.body.spec]).to.deep.equal([200, { parentRef: { resource: 'services', namespace: 'default', name: 's' } }]);
      const cidrs = await second.client.get('/apis/networking.k8s.io/v1/servicecidrs');
      expect((cidrs.body.items as KubeObject[]).map((c) => [c.metadata.name, c.spec])).to.deep.equal([['kubernetes', { cidrs: ['10.96.0.0/12'] }]]);
    } finally {
      await second.server.close();
    }
  });
});
