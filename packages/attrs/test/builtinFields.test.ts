import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import fc from 'fast-check';
import {
  builtinFieldGetter,
  builtinFieldLabels,
  builtinFieldSet,
  builtinKinds,
  builtinResourceFields,
  convertBuiltinFieldLabel,
  UnsupportedFieldLabelError,
} from '@kubekit/attrs';

// Upstream vectors: pkg/registry/core/pod/strategy_test.go TestMatchPod (kubernetes/kubernetes).
interface Vectors {
  cases: Array<{ id: string; name: string; upstream: string; kind: string; object: unknown; fieldSelector: string; expected: { matches: boolean } }>;
}
const vectors = JSON.parse(readFileSync(new URL('./fixtures/builtin_field_selectors.json', import.meta.url), 'utf8')) as Vectors;

function thrownBy(fn: () => unknown): UnsupportedFieldLabelError {
  try {
    fn();
  } catch (err) {
    expect(err).to.be.instanceOf(UnsupportedFieldLabelError);
    return err as UnsupportedFieldLabelError;
  }
  throw new Error('expected an UnsupportedFieldLabelError');
}

describe('builtinFieldSet', () => {
  // The vectors are single `field=value` terms; selectorMatcher.test.ts runs them through the parser too.
  for (const c of vectors.cases) {
    it(`does ${c.id} ${c.name} (${c.upstream})`, () => {
      const [field, value] = c.fieldSelector.split(/=(.*)/s);
      const set = builtinFieldSet('v1', c.kind)!(c.object);
      expect(set[field] === value).to.equal(c.expected.matches);
    });
  }

  it('computes the whole Pod field set, with its legacy conversions and fallbacks', () => {
    const pod = {
      metadata: { name: 'p', namespace: 'ns' },
      spec: { nodeName: 'n1', restartPolicy: 'Never', schedulerName: 's', serviceAccount: 'legacy-sa' },
      status: { phase: 'Running', podIPs: [{ ip: '10.0.0.1' }, { ip: 'fd00::1' }], nominatedNodeName: 'n2' },
    };
    expect(builtinFieldSet('v1', 'Pod')!(pod)).to.deep.equal({
      'metadata.name': 'p',
      'metadata.namespace': 'ns',
      'spec.nodeName': 'n1',
      'spec.restartPolicy': 'Never',
      'spec.schedulerName': 's',
      'spec.serviceAccountName': 'legacy-sa',
      'spec.hostNetwork': 'false',
      'status.phase': 'Running',
      'status.podIP': '10.0.0.1',
      'status.nominatedNodeName': 'n2',
    });
  });

  it('takes Pod status.podIP from status.podIP when set, as the v1 conversion does, else from podIPs[0]', () => {
    const fieldSet = builtinFieldSet('v1', 'Pod')!;
    expect(fieldSet({ status: { podIP: '1.1.1.1', podIPs: [{ ip: '2.2.2.2' }] } })['status.podIP']).to.equal('1.1.1.1');
    expect(fieldSet({ status: { podIP: '', podIPs: [{ ip: '2.2.2.2' }] } })['status.podIP']).to.equal('2.2.2.2');
    expect(fieldSet({ status: { podIPs: [] } })['status.podIP']).to.equal('');
    expect(fieldSet({ status: { podIPs: [{}] } })['status.podIP']).to.equal('');
    expect(fieldSet({ status: { podIPs: 'x' } })['status.podIP']).to.equal('');
    expect(fieldSet({})['status.podIP']).to.equal('');
  });

  it('prefers Pod spec.serviceAccountName over the deprecated spec.serviceAccount', () => {
    const fieldSet = builtinFieldSet('v1', 'Pod')!;
    expect(fieldSet({ spec: { serviceAccountName: 'a', serviceAccount: 'b' } })['spec.serviceAccountName']).to.equal('a');
  });

  it('prints booleans as "false" unless true and integers as their Go zero value when absent', () => {
    expect(builtinFieldSet('v1', 'Node')!({ metadata: { name: 'n' } })).to.deep.equal({ 'metadata.name': 'n', 'spec.unschedulable': 'false' });
    expect(builtinFieldSet('v1', 'Node')!({ spec: { unschedulable: true } })['spec.unschedulable']).to.equal('true');
    expect(builtinFieldSet('v1', 'Node')!({ spec: { unschedulable: 'true' } })['spec.unschedulable']).to.equal('false');
    expect(builtinFieldSet('v1', 'ReplicationController')!({ metadata: { name: 'r', namespace: 'ns' } })).to.deep.equal({
      'metadata.name': 'r', 'metadata.namespace': 'ns', 'status.replicas': '0',
    });
    expect(builtinFieldSet('v1', 'ReplicationController')!({ status: { replicas: 5 } })['status.replicas']).to.equal('5');
    expect(builtinFieldSet('apps/v1', 'ReplicaSet')!({ status: { replicas: 7 } })['status.replicas']).to.equal('7');
    expect(builtinFieldSet('apps/v1', 'ReplicaSet')!({ status: { replicas: 1.5 } })['status.replicas']).to.equal('0');
    expect(builtinFieldSet('apps/v1', 'ReplicaSet')!({ status: { replicas: 9007199254740993n } })['status.replicas']).to.equal('9007199254740993');
  });

  it('reads Job status.successful from status.succeeded (field selector/name mismatch)', () => {
    const fieldSet = builtinFieldSet('batch/v1', 'Job')!;
    expect(fieldSet({ metadata: { name: 'j', namespace: 'ns' }, status: { succeeded: 3 } })).to.deep.equal({
      'metadata.name': 'j', 'metadata.namespace': 'ns', 'status.successful': '3',
    });
    expect(fieldSet({ status: { successful: 3 } })['status.successful']).to.equal('0');
  });

  it('keeps the legacy name key of Namespace, PersistentVolume and PersistentVolumeClaim', () => {
    expect(builtinFieldSet('v1', 'Namespace')!({ metadata: { name: 'ns1' }, status: { phase: 'Active' } })).to.deep.equal({
      'metadata.name': 'ns1', 'status.phase': 'Active', name: 'ns1',
    });
    expect(builtinFieldSet('v1', 'PersistentVolume')!({ metadata: { name: 'pv' } })).to.deep.equal({ 'metadata.name': 'pv', name: 'pv' });
    expect(builtinFieldSet('v1', 'PersistentVolumeClaim')!({ metadata: { name: 'c', namespace: 'ns' } })).to.deep.equal({
      'metadata.name': 'c', 'metadata.namespace': 'ns', name: 'c',
    });
  });

  it('computes Event fields from core/v1 and events.k8s.io/v1 objects into the same keys', () => {
    const core = {
      metadata: { name: 'e', namespace: 'ns' },
      involvedObject: { kind: 'Pod', namespace: 'ns', name: 'p', uid: 'u-1', apiVersion: 'v1', resourceVersion: '7', fieldPath: 'spec.containers{c}' },
      reason: 'Started', reportingComponent: 'kubelet', source: { component: 'kubelet-src', host: 'n' }, type: 'Normal',
    };
    const expected = {
      'metadata.name': 'e', 'metadata.namespace': 'ns',
      'involvedObject.kind': 'Pod', 'involvedObject.namespace': 'ns', 'involvedObject.name': 'p', 'involvedObject.uid': 'u-1',
      'involvedObject.apiVersion': 'v1', 'involvedObject.resourceVersion': '7', 'involvedObject.fieldPath': 'spec.containers{c}',
      reason: 'Started', reportingComponent: 'kubelet', source: 'kubelet-src', type: 'Normal',
    };
    expect(builtinFieldSet('v1', 'Event')!(core)).to.deep.equal(expected);
    const eventsV1 = {
      metadata: { name: 'e', namespace: 'ns' },
      regarding: core.involvedObject, reason: 'Started', reportingController: 'kubelet', deprecatedSource: { component: 'kubelet-src' }, type: 'Normal',
    };
    expect(builtinFieldSet('events.k8s.io/v1', 'Event')!(eventsV1)).to.deep.equal(expected);
  });

  it('sets Event source to the reporting controller when the source component is empty', () => {
    expect(builtinFieldSet('v1', 'Event')!({ reportingComponent: 'ctrl' }).source).to.equal('ctrl');
    expect(builtinFieldSet('v1', 'Event')!({ source: { component: '' }, reportingComponent: 'ctrl' }).source).to.equal('ctrl');
    expect(builtinFieldSet('events.k8s.io/v1', 'Event')!({ reportingController: 'ctrl' }).source).to.equal('ctrl');
  });

  it('computes the other kinds with their own fields', () => {
    expect(builtinFieldSet('v1', 'Secret')!({ metadata: { name: 's', namespace: 'ns' }, type: 'Opaque' })).to.deep.equal({
      'metadata.name': 's', 'metadata.namespace': 'ns', type: 'Opaque',
    });
    expect(builtinFieldSet('v1', 'Service')!({ metadata: { name: 's' }, spec: { clusterIP: 'None', type: 'ClusterIP' } })).to.deep.equal({
      'metadata.name': 's', 'metadata.namespace': '', 'spec.clusterIP': 'None', 'spec.type': 'ClusterIP',
    });
    expect(builtinFieldSet('certificates.k8s.io/v1', 'CertificateSigningRequest')!({ metadata: { name: 'c' }, spec: { signerName: 'example.com/s' } }))
      .to.deep.equal({ 'metadata.name': 'c', 'spec.signerName': 'example.com/s' });
    expect(builtinFieldSet('resource.k8s.io/v1', 'ResourceSlice')!({ metadata: { name: 'r' }, spec: { nodeName: 'n', driver: 'd' } }))
      .to.deep.equal({ 'metadata.name': 'r', 'spec.nodeName': 'n', 'spec.driver': 'd' });
    expect(builtinFieldSet('certificates.k8s.io/v1beta1', 'PodCertificateRequest')!({ spec: { signerName: 's', podName: 'p', nodeName: 'n' } }))
      .to.deep.equal({ 'metadata.name': '', 'metadata.namespace': '', 'spec.signerName': 's', 'spec.podName': 'p', 'spec.nodeName': 'n' });
  });

  it('computes only metadata for kinds without their own field set, by scope', () => {
    expect(builtinFieldSet('apps/v1', 'Deployment')!({ metadata: { name: 'd', namespace: 'ns' } })).to.deep.equal({ 'metadata.name': 'd', 'metadata.namespace': 'ns' });
    expect(builtinFieldSet('rbac.authorization.k8s.io/v1', 'ClusterRole')!({ metadata: { name: 'c' } })).to.deep.equal({ 'metadata.name': 'c' });
    // The CRD strategy uses ObjectMetaFieldsSet(meta, true) although CRDs are cluster-scoped.
    expect(builtinFieldSet('apiextensions.k8s.io/v1', 'CustomResourceDefinition')!({ metadata: { name: 'c' } }))
      .to.deep.equal({ 'metadata.name': 'c', 'metadata.namespace': '' });
  });

  it('returns undefined for kinds it does not know', () => {
    expect(builtinFieldSet('v1', 'Shirt')).to.equal(undefined);
    expect(builtinFieldSet('v2', 'Pod')).to.equal(undefined);
  });

  it('never throws and yields strings on arbitrary JSON for every kind (property)', () => {
    fc.assert(fc.property(fc.constantFrom(...builtinKinds), fc.jsonValue(), (k, json) => {
      const set = builtinFieldSet(k.apiVersion, k.kind)!(json);
      expect(Object.keys(set)).to.deep.equal(k.fieldSetKeys);
      for (const v of Object.values(set)) expect(v).to.be.a('string');
    }));
  });
});

describe('builtinFieldGetter', () => {
  it('reads single fields lazily, undefined outside the field set', () => {
    const get = builtinFieldGetter('v1', 'Pod')!({ spec: { hostNetwork: true } });
    expect(get('spec.hostNetwork')).to.equal('true');
    expect(get('status.podIPs')).to.equal(undefined);
    expect(builtinFieldGetter('v1', 'Nope')).to.equal(undefined);
  });
});

describe('builtinFieldLabels', () => {
  it('lists what each kind\'s conversion function accepts, legacy aliases included', () => {
    expect(builtinFieldLabels('v1', 'Pod')).to.deep.equal([
      'metadata.name', 'metadata.namespace', 'spec.nodeName', 'spec.restartPolicy', 'spec.schedulerName', 'spec.serviceAccountName',
      'spec.hostNetwork', 'status.phase', 'status.podIP', 'status.podIPs', 'status.nominatedNodeName', 'spec.host',
    ]);
    expect(builtinFieldLabels('v1', 'Node')).to.deep.equal(['metadata.name', 'spec.unschedulable']);
    expect(builtinFieldLabels('v1', 'Namespace')).to.deep.equal(['status.phase', 'metadata.name']);
    expect(builtinFieldLabels('v1', 'ConfigMap')).to.deep.equal(['metadata.name', 'metadata.namespace']);
    expect(builtinFieldLabels('apps/v1', 'ReplicaSet')).to.deep.equal(['metadata.name', 'metadata.namespace']);
    expect(builtinFieldLabels('batch/v1', 'Job')).to.deep.equal(['metadata.name', 'metadata.namespace', 'status.successful']);
    expect(builtinFieldLabels('v1', 'Shirt')).to.equal(undefined);
  });

  // KEP-4358 "Background: Field selection as it exists before this enhancement", one row per field
  // selector. Rows the apiserver does not actually accept are listed with the reason.
  const kepTable: Array<[string, string, string, string?]> = [
    ['apps/v1', 'ReplicaSet', 'status.replicas', 'apps/v1 registers no conversion (kubernetes/kubernetes#135136)'],
    ['v1', 'ReplicationController', 'status.replicas'],
    ['batch/v1', 'Job', 'status.successful'],
    ['certificates.k8s.io/v1', 'CertificateSigningRequest', 'spec.signerName'],
    ...['involvedObject.kind', 'involvedObject.namespace', 'involvedObject.name', 'involvedObject.uid', 'involvedObject.apiVersion',
      'involvedObject.resourceVersion', 'involvedObject.fieldPath', 'reason', 'reportingComponent', 'source', 'type']
      .map((f): [string, string, string] => ['v1', 'Event', f]),
    ['v1', 'Namespace', 'name', 'legacy field set key only'],
    ['v1', 'PersistentVolume', 'name', 'legacy field set key only'],
    ['v1', 'PersistentVolumeClaim', 'name', 'legacy field set key only'],
    ['v1', 'Namespace', 'status.phase'],
    ['v1', 'Node', 'spec.unschedulable'],
    ...['spec.nodeName', 'spec.restartPolicy', 'spec.schedulerName', 'spec.serviceAccountName', 'spec.hostNetwork', 'status.phase',
      'status.podIPs', 'status.podIP', 'status.nominatedNodeName'].map((f): [string, string, string] => ['v1', 'Pod', f]),
    ['v1', 'Secret', 'type'],
  ];
  for (const [apiVersion, kind, field, rejected] of kepTable) {
    it(`does ${rejected === undefined ? 'accept' : 'reject'} ${kind} ${field} as the apiserver does`, () => {
      expect(builtinFieldLabels(apiVersion, kind)!.includes(field)).to.equal(rejected === undefined);
      const k = builtinKinds.find((x) => x.apiVersion === apiVersion && x.kind === kind)!;
      if (rejected !== undefined) expect(k.fieldSetKeys).to.include(field);
    });
  }
});

describe('convertBuiltinFieldLabel', () => {
  it('rewrites Pod spec.host to spec.nodeName and events.k8s.io labels to the core field set keys', () => {
    expect(convertBuiltinFieldLabel('v1', 'Pod', 'spec.host', 'n1')).to.deep.equal(['spec.nodeName', 'n1']);
    expect(convertBuiltinFieldLabel('v1', 'Pod', 'status.phase', 'Running')).to.deep.equal(['status.phase', 'Running']);
    expect(convertBuiltinFieldLabel('events.k8s.io/v1', 'Event', 'regarding.name', 'p')).to.deep.equal(['involvedObject.name', 'p']);
    expect(convertBuiltinFieldLabel('events.k8s.io/v1', 'Event', 'reportingController', 'c')).to.deep.equal(['reportingComponent', 'c']);
  });

  it('answers with each kind\'s own error text', () => {
    const cases: Array<[string, string, string, string]> = [
      ['v1', 'Pod', 'spec.nodename', 'field label not supported: spec.nodename'],
      ['v1', 'Node', 'metadata.namespace', 'field label not supported: metadata.namespace'],
      ['v1', 'Namespace', 'name', 'field label not supported: name'],
      ['v1', 'Event', 'involvedObject.foo', 'field label not supported: involvedObject.foo'],
      ['events.k8s.io/v1', 'Event', 'involvedObject.name', 'field label not supported: involvedObject.name'],
      // In the field set (ToSelectableFields) but not among AddFieldLabelConversionsForEvent's labels (kube-apiserver 1.34.4).
      ['events.k8s.io/v1', 'Event', 'source', 'field label not supported: source'],
      ['v1', 'Secret', 'data', 'field label not supported: data'],
      ['v1', 'Service', 'spec.ports', 'field label not supported: spec.ports'],
      ['batch/v1', 'Job', 'status.succeeded', 'field label "status.succeeded" not supported for Job'],
      ['certificates.k8s.io/v1', 'CertificateSigningRequest', 'spec.username', 'field label not supported: spec.username'],
      ['resource.k8s.io/v1beta1', 'ResourceSlice', 'spec.pool', 'field label not supported for resource.k8s.io/v1beta1, Kind=ResourceSlice: spec.pool'],
      ['v1', 'PersistentVolume', 'name', '"name" is not a known field selector: only "metadata.name", "metadata.namespace"'],
      ['apps/v1', 'ReplicaSet', 'status.replicas', '"status.replicas" is not a known field selector: only "metadata.name", "metadata.namespace"'],
      ['networking.k8s.io/v1', 'Ingress', 'foo.bar', '"foo.bar" is not a known field selector: only "metadata.name", "metadata.namespace"'],
      ['example.com/v1', 'Unknown', 'spec.x', '"spec.x" is not a known field selector: only "metadata.name", "metadata.namespace"'],
      ['v1', 'ConfigMap', 'a"b', '"a\\"b" is not a known field selector: only "metadata.name", "metadata.namespace"'],
    ];
    for (const [apiVersion, kind, label, message] of cases) {
      const err = thrownBy(() => convertBuiltinFieldLabel(apiVersion, kind, label, 'v'));
      expect(err.message, `${apiVersion} ${kind} ${label}`).to.equal(message);
      expect(err.code).to.equal(400);
      expect(err.label).to.equal(label);
    }
  });

  it('accepts metadata.namespace through the default conversion even for cluster-scoped kinds', () => {
    expect(convertBuiltinFieldLabel('v1', 'PersistentVolume', 'metadata.namespace', '')).to.deep.equal(['metadata.namespace', '']);
    expect(convertBuiltinFieldLabel('example.com/v1', 'Unknown', 'metadata.name', 'a')).to.deep.equal(['metadata.name', 'a']);
  });
});

describe('builtinResourceFields', () => {
  it('is built once per kind and shared', () => {
    expect(builtinResourceFields('v1', 'Pod')).to.equal(builtinResourceFields('v1', 'Pod'));
    expect(builtinResourceFields('v1', 'Pod')!.labelAliases).to.deep.equal({ 'spec.host': 'spec.nodeName' });
  });
});

describe('builtinKinds', () => {
  it('lists every kind once per API version with its labels, field set keys and notes', () => {
    const keys = builtinKinds.map((k) => `${k.apiVersion} ${k.kind}`);
    expect(new Set(keys).size).to.equal(keys.length);
    const pod = builtinKinds.find((k) => k.apiVersion === 'v1' && k.kind === 'Pod')!;
    expect(pod.conversion).to.equal('custom');
    expect(pod.namespaced).to.equal(true);
    expect(pod.notes['spec.hostNetwork']).to.match(/"false"/);
    expect(pod.fieldSetKeys).to.not.include('status.podIPs');
    expect(builtinKinds.find((k) => k.kind === 'Deployment')!.conversion).to.equal('default');
    expect(Object.isFrozen(builtinKinds)).to.equal(true);
  });
});
