// networking.k8s.io/v1 NetworkPolicies on both servers: the defaults (a port's protocol TCP, the policy
// types from the rules), ValidateNetworkPolicySpec (selectors, ports and port ranges, peers, IP blocks whose
// exceptions must be strict subsets, policy types), the CIDR warnings, generation per spec change and the
// Table (pkg/apis/networking/validation/validation.go, pkg/apis/networking/v1/defaults.go,
// pkg/registry/networking/networkpolicy/strategy.go). Every expected answer is kube-apiserver 1.34.4's to the
// same request (the reference server runs the same test).
import { expect } from 'chai';
import { answered, describeOnBothServers, type Answer, type Send } from './sender.js';

const P = '/apis/networking.k8s.io/v1/namespaces/default/networkpolicies';
type Json = Record<string, unknown>;
const mk = (name: string, spec: Json): string => JSON.stringify({ apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name }, spec });

interface Policy { metadata: { generation: number }; spec: Json }

const ok = (a: Answer, status = 200): Policy => answered<Policy>(a, status);

async function run(s: Send): Promise<void> {
  const created = ok(await s('POST', P, mk('a', { podSelector: { matchLabels: { app: 'web' } }, ingress: [{ from: [{ podSelector: {} }, { ipBlock: { cidr: '10.0.0.0/8', except: ['10.1.0.0/16'] } }], ports: [{ port: 80 }, { port: 'http' }] }] })), 201);
  expect(created.spec).to.deep.equal({"podSelector": {"matchLabels": {"app": "web"}}, "ingress": [{"ports": [{"protocol": "TCP", "port": 80}, {"protocol": "TCP", "port": "http"}], "from": [{"podSelector": {}}, {"ipBlock": {"cidr": "10.0.0.0/8", "except": ["10.1.0.0/16"]}}]}], "policyTypes": ["Ingress"]});
  expect(ok(await s('POST', P, mk('b', { egress: [{ to: [{ namespaceSelector: { matchLabels: { a: 'b' } } }] }] })), 201).spec).to.deep.equal({"podSelector": {}, "egress": [{"to": [{"namespaceSelector": {"matchLabels": {"a": "b"}}}]}], "policyTypes": ["Ingress", "Egress"]});
  expect(ok(await s('POST', P, JSON.stringify({ apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'c' } })), 201).spec).to.deep.equal({"podSelector": {}, "policyTypes": ["Ingress"]});

  const bad = await s('POST', P, mk('d', {
    podSelector: { matchExpressions: [{ key: 'a', operator: 'In' }] },
    ingress: [{
      ports: [{ protocol: 'ICMP', port: 0, endPort: 70000 }, { port: 100, endPort: 50 }, { port: 'Bad--', endPort: 5 }, { endPort: 5 }],
      from: [{}, { ipBlock: { cidr: '' } }, { ipBlock: { cidr: '10.0.0.0/16', except: ['10.0.0.0/8', '11.0.0.0/24', 'junk', '10.0.0.0/16'] }, podSelector: {} }, { ipBlock: { cidr: 'x/9' } }],
    }],
    egress: [{ to: [{ ipBlock: { cidr: '2001:db8::/32', except: ['2001:db8:1::/48', '10.0.0.0/24'] } }] }],
    policyTypes: ['Ingress', 'Egress', 'Other'],
  }));
  expect([bad.status, bad.message]).to.deep.equal([422, "NetworkPolicy.networking.k8s.io \"d\" is invalid: [spec.podSelector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn', spec.ingress[0].ports[0].protocol: Unsupported value: \"ICMP\": supported values: \"TCP\", \"UDP\", \"SCTP\", spec.ingress[0].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive, spec.ingress[0].ports[0].endPort: Invalid value: 70000: must be between 1 and 65535, inclusive, spec.ingress[0].ports[1].endPort: Invalid value: 100: must be greater than or equal to `port`, spec.ingress[0].ports[2].endPort: Invalid value: 5: may not be specified when `port` is non-numeric, spec.ingress[0].ports[2].port: Invalid value: \"Bad--\": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-), spec.ingress[0].ports[2].port: Invalid value: \"Bad--\": must not contain consecutive hyphens, spec.ingress[0].ports[2].port: Invalid value: \"Bad--\": must not begin or end with a hyphen, spec.ingress[0].ports[3].endPort: Invalid value: 5: may not be specified when `port` is not specified, spec.ingress[0].from[0]: Required value: must specify a peer, spec.ingress[0].from[1].ipBlock.cidr: Required value, spec.ingress[0].from[2].ipBlock.except[0]: Invalid value: \"10.0.0.0/8\": must be a strict subset of `cidr`, spec.ingress[0].from[2].ipBlock.except[1]: Invalid value: \"11.0.0.0/24\": must be a strict subset of `cidr`, spec.ingress[0].from[2].ipBlock.except[2]: Invalid value: \"junk\": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64), spec.ingress[0].from[2].ipBlock.except[3]: Invalid value: \"10.0.0.0/16\": must be a strict subset of `cidr`, spec.ingress[0].from[2]: Forbidden: may not specify both ipBlock and another peer, spec.ingress[0].from[3].ipBlock.cidr: Invalid value: \"x/9\": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64), spec.egress[0].to[0].ipBlock.except[1]: Invalid value: \"10.0.0.0/24\": must be a strict subset of `cidr`, spec.policyTypes: Invalid value: [\"Ingress\",\"Egress\",\"Other\"]: may not specify more than two policyTypes]"]);
  const types = await s('POST', P, mk('e', { policyTypes: ['Ingress', 'Sideways'] }));
  expect([types.status, types.message]).to.deep.equal([422, "NetworkPolicy.networking.k8s.io \"e\" is invalid: spec.policyTypes[1]: Unsupported value: \"Sideways\": supported values: \"Ingress\", \"Egress\""]);

  const warned = await s('POST', P, mk('f', { ingress: [{ from: [{ ipBlock: { cidr: '010.0.0.0/8', except: ['10.1.0.1/16'] } }] }] }));
  expect([warned.status, warned.warnings]).to.deep.equal([201, ["spec.ingress[0].from[0].ipBlock.cidr: non-standard CIDR value \"010.0.0.0/8\" will be considered invalid in a future Kubernetes release: use \"10.0.0.0/8\"", "spec.ingress[0].from[0].ipBlock.except[0]: CIDR value \"10.1.0.1/16\" is ambiguous in this context (should be \"10.1.0.0/16\" or \"10.1.0.1/32\"?)"]]);

  const put = ok(await s('PUT', `${P}/a`, JSON.stringify({ ...created, spec: { ...created.spec, policyTypes: ['Ingress', 'Egress'] } })));
  expect([put.metadata.generation, put.spec]).to.deep.equal([2, {"podSelector": {"matchLabels": {"app": "web"}}, "ingress": [{"ports": [{"protocol": "TCP", "port": 80}, {"protocol": "TCP", "port": "http"}], "from": [{"podSelector": {}}, {"ipBlock": {"cidr": "10.0.0.0/8", "except": ["10.1.0.0/16"]}}]}], "policyTypes": ["Ingress", "Egress"]}]);

  const table = await s('GET', P, undefined, undefined, 'application/json;as=Table;v=v1;g=meta.k8s.io');
  expect((JSON.parse(table.text) as { rows: { cells: unknown[] }[] }).rows.map((r) => r.cells.slice(0, 2))).to.deep.equal([["a", "app=web"], ["b", "<none>"], ["c", "<none>"], ["f", "<none>"]]);
}

describeOnBothServers('NetworkPolicies (networking.k8s.io/v1)', run);
