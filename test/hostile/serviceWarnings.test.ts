// The warnings kube-apiserver 1.34.4 sends for a Service (pkg/api/service/warnings.go, on create and on every
// update): the deprecated topology hints annotation, what a headless Service ignores, external and load
// balancer IPs in a non-standard form, ambiguous or non-standard load balancer source ranges, and an external
// name or external IPs the type ignores. kubekit sent none.
import { expect } from 'chai';
import { describeOnBothServers, type Send } from './sender.js';

async function run(s: Send): Promise<void> {
  const created = await s('POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'svcwarn' } }));
  expect(created.status, created.text).to.equal(201);
  const services: [string, Record<string, unknown>, Record<string, string> | undefined, string[]][] = [
    ['headless', { clusterIP: 'None', selector: { a: 'b' }, ports: [{ port: 80 }], loadBalancerIP: '1.2.3.4', externalIPs: ['5.6.7.8'], sessionAffinity: 'ClientIP' }, { 'service.kubernetes.io/topology-aware-hints': 'auto' }, [
      'annotation service.kubernetes.io/topology-aware-hints is deprecated, please use service.kubernetes.io/topology-mode instead',
      'spec.loadBalancerIP is ignored for headless services', 'spec.externalIPs is ignored for headless services', 'spec.SessionAffinity is ignored for headless services',
    ]],
    ['clusterip', { selector: { a: 'b' }, ports: [{ port: 80 }], externalName: 'example.com', externalIPs: ['010.0.0.1', '2001:DB8::1'] }, undefined, [
      'spec.externalIPs[0]: non-standard IP address "010.0.0.1" will be considered invalid in a future Kubernetes release: use "10.0.0.1"',
      'spec.externalIPs[1]: IPv6 address "2001:DB8::1" should be in RFC 5952 canonical format ("2001:db8::1")',
      'spec.externalName is ignored when spec.type is not "ExternalName"',
    ]],
    ['external', { type: 'ExternalName', externalName: 'example.com', externalIPs: ['1.2.3.4'] }, undefined, ['spec.externalIPs is ignored when spec.type is "ExternalName"']],
    ['lb', { type: 'LoadBalancer', selector: { a: 'b' }, ports: [{ port: 80 }], loadBalancerIP: '::ffff:1.2.3.4' }, undefined, [
      'spec.loadBalancerIP: non-standard IP address "::ffff:1.2.3.4" will be considered invalid in a future Kubernetes release: use "1.2.3.4"',
    ]],
    // GetWarningsForCIDR on the source ranges (untrimmed: a padded value, which validation trims, gets none).
    ['ranges', {
      type: 'LoadBalancer', selector: { a: 'b' }, ports: [{ port: 80 }],
      loadBalancerSourceRanges: ['10.0.0.1/8', '010.0.0.0/8', '2001:DB8::/32', '::ffff:1.2.3.0/120', '10.0.0.0/08', ' 10.0.0.0/8', '1.2.3.4/32', '2001:db8::1/64', '::ffff:1.2.3.4/128', '2001:0db8::/32', '1.2.3.0/24', '010.0.0.1/8', '::ffff:10.0.0.0/100', '0.0.0.0/0', '::/0'],
    }, undefined, [
      'spec.loadBalancerSourceRanges[0]: CIDR value "10.0.0.1/8" is ambiguous in this context (should be "10.0.0.0/8" or "10.0.0.1/32"?)',
      'spec.loadBalancerSourceRanges[1]: non-standard CIDR value "010.0.0.0/8" will be considered invalid in a future Kubernetes release: use "10.0.0.0/8"',
      'spec.loadBalancerSourceRanges[2]: IPv6 CIDR value "2001:DB8::/32" should be in RFC 5952 canonical format ("2001:db8::/32")',
      'spec.loadBalancerSourceRanges[3]: non-standard CIDR value "::ffff:1.2.3.0/120" will be considered invalid in a future Kubernetes release: use "1.2.3.0/24"',
      'spec.loadBalancerSourceRanges[4]: non-standard CIDR value "10.0.0.0/08" will be considered invalid in a future Kubernetes release: use "10.0.0.0/8"',
      'spec.loadBalancerSourceRanges[7]: CIDR value "2001:db8::1/64" is ambiguous in this context (should be "2001:db8::/64" or "2001:db8::1/128"?)',
      'spec.loadBalancerSourceRanges[8]: non-standard CIDR value "::ffff:1.2.3.4/128" will be considered invalid in a future Kubernetes release: use "1.2.3.4/32"',
      'spec.loadBalancerSourceRanges[9]: IPv6 CIDR value "2001:0db8::/32" should be in RFC 5952 canonical format ("2001:db8::/32")',
      'spec.loadBalancerSourceRanges[11]: CIDR value "010.0.0.1/8" is ambiguous in this context (should be "10.0.0.0/8" or "10.0.0.1/32"?)',
      'spec.loadBalancerSourceRanges[11]: non-standard CIDR value "010.0.0.1/8" will be considered invalid in a future Kubernetes release: use "10.0.0.0/8"',
      'spec.loadBalancerSourceRanges[12]: CIDR value "::ffff:10.0.0.0/100" is ambiguous in this context (should be "0.0.0.0/4" or "10.0.0.0/128"?)',
      'spec.loadBalancerSourceRanges[12]: non-standard CIDR value "::ffff:10.0.0.0/100" will be considered invalid in a future Kubernetes release: use "0.0.0.0/4"',
    ]],
  ];
  for (const [name, spec, annotations, warnings] of services) {
    const a = await s('POST', '/api/v1/namespaces/svcwarn/services', JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name, ...(annotations === undefined ? {} : { annotations }) }, spec }));
    expect(a.status, a.text).to.equal(201);
    expect(a.warnings, name).to.deep.equal(warnings);
  }
  // Every update warns again, whatever it changes.
  const u = await s('PATCH', '/api/v1/namespaces/svcwarn/services/external', JSON.stringify({ metadata: { labels: { x: 'y' } } }), 'application/merge-patch+json');
  expect([u.status, u.warnings]).to.deep.equal([200, ['spec.externalIPs is ignored when spec.type is "ExternalName"']]);
}

describeOnBothServers('the warnings of Services', run);
