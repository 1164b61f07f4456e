import { expect } from 'chai';
import { KubeError } from '@kubekit/core';
import { decodeProtobuf } from '../src/internal/protobuf.js';
import { envelopeBytes, field, varint, vfield } from './internal/protobufWriter.js';

function envelope(apiVersion: string, kind: string, raw: number[]): Uint8Array {
  return Uint8Array.from(envelopeBytes(apiVersion, kind, raw));
}

describe('decodeProtobuf', () => {
  it('decodes a ConfigMap as kubectl create configmap sends it', () => {
    const meta = [...field(1, 'settings'), ...field(2, ''), ...field(3, 'team-a'), ...field(11, [...field(1, 'app'), ...field(2, 'web')])];
    const raw = [...field(1, meta), ...field(2, [...field(1, 'mode'), ...field(2, 'fast')]), ...field(3, [...field(1, 'bin'), ...field(2, [1, 2, 3])])];
    expect(decodeProtobuf(envelope('v1', 'ConfigMap', raw))).to.deep.equal({
      apiVersion: 'v1', kind: 'ConfigMap',
      metadata: { name: 'settings', namespace: 'team-a', labels: { app: 'web' } },
      data: { mode: 'fast' }, binaryData: { bin: 'AQID' },
    });
  });

  it('decodes Secret data as base64 and a Namespace spec', () => {
    const secret = decodeProtobuf(envelope('v1', 'Secret', [...field(1, field(1, 's')), ...field(2, [...field(1, 'pw'), ...field(2, 'hunter2')]), ...field(3, 'Opaque')]));
    expect(secret).to.deep.include({ data: { pw: Buffer.from('hunter2').toString('base64') }, type: 'Opaque' });
    const ns = decodeProtobuf(envelope('v1', 'Namespace', [...field(1, field(1, 'team-a')), ...field(2, field(1, 'kubernetes'))]));
    expect(ns).to.deep.equal({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' }, spec: { finalizers: ['kubernetes'] } });
  });

  it('decodes the kinds of the generated schema (apps/v1 Deployment): nested messages, maps, int-or-string, zero values dropped', () => {
    const selector = field(2, field(1, [...field(1, 'app'), ...field(2, 'web')]));
    const container = [...field(1, 'nginx'), ...field(2, 'nginx:1.25'), ...field(6, vfield(3, 80))];
    const template = field(3, [...field(1, field(11, [...field(1, 'app'), ...field(2, 'web')])), ...field(2, field(2, container))]);
    // maxSurge as a string IntOrString (type 1, strVal 3); paused=false (field 7) is a Go zero value.
    const strategy = field(4, [...field(1, 'RollingUpdate'), ...field(2, field(2, [...vfield(1, 1), ...field(3, '30%')]))]);
    const spec = field(2, [...vfield(1, 3), ...selector, ...template, ...strategy, ...vfield(7, 0)]);
    const d = decodeProtobuf(envelope('apps/v1', 'Deployment', [...field(1, field(1, 'web')), ...spec]));
    expect(d).to.deep.equal({
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' },
      spec: {
        replicas: 3, selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.25', ports: [{ containerPort: 80 }] }] } },
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '30%' } },
      },
    });
  });

  it('decodes a ResourceQuota as kubectl create quota sends it: a map of quantities and repeated scopes', () => {
    const entry = (k: string, q: string): number[] => field(1, [...field(1, k), ...field(2, field(1, q))]);
    const spec = field(2, [...entry('pods', '2'), ...entry('cpu', '1500m'), ...field(2, 'BestEffort'), ...field(2, 'NotTerminating')]);
    expect(decodeProtobuf(envelope('v1', 'ResourceQuota', [...field(1, field(1, 'q')), ...spec]))).to.deep.equal({
      apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec: { hard: { pods: '2', cpu: '1500m' }, scopes: ['BestEffort', 'NotTerminating'] },
    });
  });

  it('decodes a negative int32 (sign-extended to 10 bytes) exactly: a PriorityClass as kubectl create priorityclass sends it', () => {
    const minusFive = [...varint(2 * 8), 0xfb, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01];
    const pc = decodeProtobuf(envelope('scheduling.k8s.io/v1', 'PriorityClass', [...field(1, field(1, 'batch-low')), ...minusFive, ...field(4, 'low'), ...field(5, 'Never')]));
    expect(pc).to.deep.equal({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'batch-low' }, value: -5, description: 'low', preemptionPolicy: 'Never' });
  });

  it('decodes a CertificateSigningRequest: its request bytes as the base64 JSON carries them, a map of string lists', () => {
    const pem = '-----BEGIN CERTIFICATE REQUEST-----\n';
    const spec = [...field(1, pem), ...field(7, 'example.com/signer'), ...vfield(8, 600), ...field(5, 'client auth'), ...field(6, [...field(1, 'k'), ...field(2, field(1, 'v'))])];
    const csr = decodeProtobuf(envelope('certificates.k8s.io/v1', 'CertificateSigningRequest', [...field(1, field(1, 'c')), ...field(2, spec)]));
    expect(csr).to.deep.equal({
      apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name: 'c' },
      spec: { request: Buffer.from(pem).toString('base64'), signerName: 'example.com/signer', expirationSeconds: 600, usages: ['client auth'], extra: { k: ['v'] } },
    });
  });

  it('decodes a ValidatingAdmissionPolicyBinding, the rules Go embeds inline merged into their parent', () => {
    const rule = [...field(1, 'configmaps'), ...field(2, [...field(1, 'CREATE'), ...field(2, [...field(1, ''), ...field(2, 'v1'), ...field(3, 'configmaps'), ...field(4, '*')])])];
    const spec = [...field(1, 'p'), ...field(2, [...field(1, 'limits'), ...field(4, 'Deny')]), ...field(3, [...field(3, rule), ...field(7, 'Exact')]), ...field(4, 'Deny'), ...field(4, 'Audit')];
    expect(decodeProtobuf(envelope('admissionregistration.k8s.io/v1', 'ValidatingAdmissionPolicyBinding', [...field(1, field(1, 'b')), ...field(2, spec)]))).to.deep.equal({
      apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'b' },
      spec: {
        policyName: 'p', paramRef: { name: 'limits', parameterNotFoundAction: 'Deny' }, validationActions: ['Deny', 'Audit'],
        matchResources: { resourceRules: [{ resourceNames: ['configmaps'], operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'], scope: '*' }], matchPolicy: 'Exact' },
      },
    });
  });

  it('keeps the false conditions, zero port and empty port name an EndpointSlice sends (pointers Go writes when set)', () => {
    const endpoint = [...field(1, '10.0.0.1'), ...field(2, [...vfield(1, 0), ...vfield(2, 1), ...vfield(3, 0)])];
    const port = [...field(1, ''), ...field(2, 'TCP'), ...vfield(3, 0)];
    const slice = decodeProtobuf(envelope('discovery.k8s.io/v1', 'EndpointSlice', [...field(1, field(1, 's')), ...field(2, endpoint), ...field(3, port), ...field(4, 'IPv4')]));
    expect(slice).to.deep.equal({
      apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 's' }, addressType: 'IPv4',
      endpoints: [{ addresses: ['10.0.0.1'], conditions: { ready: false, serving: true, terminating: false } }], ports: [{ name: '', protocol: 'TCP', port: 0 }],
    });
  });

  it("merges the members Go embeds inline into their object (a Volume's source, an IngressRule's value, a key selector's name)", () => {
    // Regression: they came out as `ingressRuleValue`, `volumeSource`, `localObjectReference` members, which
    // strict decoding then refused as unknown fields (kubectl create ingress failed).
    const backend = field(2, field(4, [...field(1, 'web'), ...field(2, vfield(2, 80))]));
    const httpPath = [...field(1, '/'), ...field(3, 'Prefix'), ...backend];
    const rule = [...field(1, 'site.example.com'), ...field(2, field(1, field(1, httpPath)))];
    const ingress = decodeProtobuf(envelope('networking.k8s.io/v1', 'Ingress', [...field(1, field(1, 'site')), ...field(2, [...field(4, 'nginx'), ...field(3, rule)])]));
    expect(ingress).to.deep.equal({
      apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name: 'site' },
      spec: { ingressClassName: 'nginx', rules: [{ host: 'site.example.com', http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'web', port: { number: 80 } } } }] } }] },
    });
    // A Volume (field 1 of PodSpec) whose source is a ConfigMap (field 19 of VolumeSource) named by its LocalObjectReference.
    const volume = [...field(1, 'settings'), ...field(2, field(19, field(1, field(1, 'app-config'))))];
    const pod = decodeProtobuf(envelope('v1', 'Pod', [...field(1, field(1, 'p')), ...field(2, [...field(1, volume), ...field(2, [...field(1, 'c'), ...field(2, 'nginx')])])]));
    expect((pod.spec as { volumes: unknown[] }).volumes).to.deep.equal([{ name: 'settings', configMap: { name: 'app-config' } }]);
  });

  it('keeps a ReplicationController\'s zero replicas (a pointer) and reads a ControllerRevision\'s data as the JSON of its RawExtension', () => {
    const rc = decodeProtobuf(envelope('v1', 'ReplicationController', [...field(1, field(1, 'r')), ...field(2, [...vfield(1, 0), ...vfield(4, 0), ...field(2, [...field(1, 'app'), ...field(2, 'r')])])]));
    expect(rc).to.deep.equal({ apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'r' }, spec: { replicas: 0, selector: { app: 'r' } } });
    const revision = decodeProtobuf(envelope('apps/v1', 'ControllerRevision', [...field(1, field(1, 'c')), ...field(2, field(1, '{"b":1,"a":[2]}')), ...vfield(3, 7)]));
    expect(revision).to.deep.equal({ apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'c' }, data: { b: 1, a: [2] }, revision: 7 });
  });

  it('answers other kinds with 415 and garbage with 400', () => {
    expect(() => decodeProtobuf(envelope('v1', 'Node', field(1, field(1, 'n'))))).to.throw(KubeError).with.property('reason', 'UnsupportedMediaType');
    expect(() => decodeProtobuf(Uint8Array.from([1, 2, 3, 4]))).to.throw(KubeError).with.property('reason', 'BadRequest');
  });
});
