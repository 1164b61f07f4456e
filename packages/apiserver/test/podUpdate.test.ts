// Pod updates as kube-apiserver 1.34.4 validates them: ValidatePodUpdate and
// ValidatePodSpecificAnnotationUpdates (pkg/apis/core/validation/validation.go), the pod strategy's
// PrepareForUpdate (pkg/registry/core/pod/strategy.go: status kept, generation per spec change) and the
// Priority and DefaultTolerationSeconds admission plugins on update. The vectors are cases of upstream's
// TestValidatePodUpdate (validation_test.go), named as there; every HTTP expectation is the reference
// server's answer to the same request (probed with test/differential's backends).
import { expect } from 'chai';
import type { ApiServer } from '@kubekit/apiserver';
import type { FieldError, KubeObject } from '@kubekit/core';
import { validatePod, validatePodUpdate } from '../src/podValidation.js';
import { Client, start } from './internal/client.js';

type Json = Record<string, unknown>;

/** A pod as podtest.MakePod makes it: one container, defaulted as the apiserver stores it (grace period 30 s). */
function makePod(spec: Json = {}, metadata: Json = {}): KubeObject {
  return {
    apiVersion: 'v1', kind: 'Pod', metadata: { name: 'foo', namespace: 'ns', ...metadata },
    spec: {
      containers: [{ name: 'ctr', image: 'image', imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File' }],
      restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', terminationGracePeriodSeconds: 30, ...spec,
    },
  } as KubeObject;
}

/** The errors ValidatePodUpdate gives (the checks shared with a create first, as validatePodMetadataAndSpec runs them). */
function updateErrors(now: KubeObject, old: KubeObject): string[] {
  return [...validatePod(now), ...validatePodUpdate(now, old)].map((e: FieldError) => e.toString());
}

const forbiddenSentence = 'spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

const toleration = (key: string, value: string, extra: Json = {}): Json => ({ key, value, ...extra });
const nodeAffinity = (terms: unknown[]): Json => ({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } } } });
const expression = (key: string, values: string[]): Json => ({ key, operator: 'In', values });

describe('validatePodUpdate (upstream TestValidatePodUpdate)', () => {
  const image = (img: string): Json => ({ containers: [{ name: 'ctr', image: img, imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File' }] });
  const init = (img: string): Json => ({ initContainers: [{ name: 'init', image: img, imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File' }] });
  const two = { containers: [{ name: 'foo', image: 'foo:V1' }, { name: 'bar', image: 'bar:V1' }] };
  const gated = { schedulingGates: [{ name: 'baz' }] };
  // [test name, new pod, old pod, expected: '' for none, else a substring of one error]
  const vectors: [string, KubeObject, KubeObject, string][] = [
    ['nothing', makePod(), makePod(), ''],
    ['labels', makePod({}, { labels: { foo: 'bar' } }), makePod({}, { labels: { bar: 'foo' } }), ''],
    ['annotations', makePod({}, { annotations: { foo: 'bar' } }), makePod({}, { annotations: { bar: 'foo' } }), ''],
    ['less containers', makePod({ containers: [{ name: 'foo', image: 'foo:V2' }] }), makePod(two), 'spec.containers: Forbidden: pod updates may not add or remove containers'],
    ['more containers', makePod({ containers: [...two.containers, { name: 'baz', image: 'baz:V1' }] }), makePod(two), 'may not add or remove containers'],
    ['more init containers', makePod({ initContainers: [{ name: 'a', image: 'a' }, { name: 'b', image: 'b' }] }), makePod(init('a')), 'spec.initContainers: Forbidden: pod updates may not add or remove containers'],
    ['image change', makePod(image('foo:V2')), makePod(image('foo:V1')), ''],
    ['init container image change', makePod(init('foo:V2')), makePod(init('foo:V1')), ''],
    ['image change to empty', makePod(image('')), makePod(image('foo:V1')), 'spec.containers[0].image: Required value'],
    ['init container image change to empty', makePod(init('')), makePod(init('foo:V1')), 'spec.initContainers[0].image: Required value'],
    ['activeDeadlineSeconds no change, nil', makePod(), makePod(), ''],
    ['activeDeadlineSeconds no change, set', makePod({ activeDeadlineSeconds: 30 }), makePod({ activeDeadlineSeconds: 30 }), ''],
    ['activeDeadlineSeconds change to positive from nil', makePod({ activeDeadlineSeconds: 30 }), makePod(), ''],
    ['activeDeadlineSeconds change to smaller positive', makePod({ activeDeadlineSeconds: 10 }), makePod({ activeDeadlineSeconds: 30 }), ''],
    ['activeDeadlineSeconds change to larger positive', makePod({ activeDeadlineSeconds: 31 }), makePod({ activeDeadlineSeconds: 30 }), 'spec.activeDeadlineSeconds: Invalid value: 31: must be less than or equal to previous value'],
    ['activeDeadlineSeconds change to negative from nil', makePod({ activeDeadlineSeconds: -30 }), makePod(), 'spec.activeDeadlineSeconds: Invalid value: -30: must be between 0 and 2147483647, inclusive'],
    ['activeDeadlineSeconds change to negative from positive', makePod({ activeDeadlineSeconds: -30 }), makePod({ activeDeadlineSeconds: 30 }), 'must be between 1 and 2147483647, inclusive'],
    ['activeDeadlineSeconds change to zero from positive', makePod({ activeDeadlineSeconds: 0 }), makePod({ activeDeadlineSeconds: 30 }), 'spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive'],
    ['activeDeadlineSeconds change to zero from nil', makePod({ activeDeadlineSeconds: 0 }), makePod(), 'must be between 1 and 2147483647, inclusive'],
    ['activeDeadlineSeconds change to nil from positive', makePod(), makePod({ activeDeadlineSeconds: 30 }), 'spec.activeDeadlineSeconds: Invalid value: null: must not update from a positive integer to nil value'],
    ['cpu limit change', makePod({ containers: [{ name: 'ctr', image: 'image', resources: { limits: { cpu: '200m' } } }] }), makePod({ containers: [{ name: 'ctr', image: 'image', resources: { limits: { cpu: '100m' } } }] }), forbiddenSentence],
    ['memory request change', makePod({ containers: [{ name: 'ctr', image: 'image', resources: { requests: { memory: '200Mi' } } }] }), makePod({ containers: [{ name: 'ctr', image: 'image', resources: { requests: { memory: '100Mi' } } }] }), forbiddenSentence],
    ['port change', makePod({ containers: [{ name: 'ctr', image: 'image', ports: [{ containerPort: 81 }] }] }), makePod({ containers: [{ name: 'ctr', image: 'image', ports: [{ containerPort: 80 }] }] }), forbiddenSentence],
    ['existing toleration value modified in pod spec updates', makePod({ nodeName: 'node1', tolerations: [toleration('key1', 'value2')] }), makePod({ nodeName: 'node1', tolerations: [toleration('key1', 'value1')] }), 'spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds'],
    ['existing toleration value modified in pod spec updates with modified tolerationSeconds', makePod({ nodeName: 'node1', tolerations: [toleration('key1', 'value2', { operator: 'Equal', effect: 'NoExecute' })] }), makePod({ nodeName: 'node1', tolerations: [toleration('key1', 'value1', { operator: 'Equal', effect: 'NoExecute', tolerationSeconds: 10 })] }), 'spec.tolerations: Forbidden'],
    ['modified tolerationSeconds in existing toleration value in pod spec updates', makePod({ nodeName: 'node1', tolerations: [toleration('key1', 'value1', { operator: 'Equal', effect: 'NoExecute', tolerationSeconds: 10 })] }), makePod({ nodeName: 'node1', tolerations: [toleration('key1', 'value1', { operator: 'Equal', effect: 'NoExecute', tolerationSeconds: 20 })] }), ''],
    ['toleration modified in updates to an unscheduled pod', makePod({ tolerations: [toleration('key1', 'value2')] }), makePod({ tolerations: [toleration('key1', 'value1')] }), 'spec.tolerations: Forbidden'],
    ['tolerations unmodified in updates to a scheduled pod', makePod({ nodeName: 'node1', tolerations: [toleration('key1', 'value1')] }), makePod({ nodeName: 'node1', tolerations: [toleration('key1', 'value1')] }), ''],
    ['added valid new toleration to existing tolerations in pod spec updates', makePod({ nodeName: 'node1', tolerations: [toleration('key1', 'value1', { operator: 'Equal', effect: 'NoExecute', tolerationSeconds: 20 }), toleration('key2', 'value2', { operator: 'Equal', effect: 'NoExecute', tolerationSeconds: 30 })] }), makePod({ nodeName: 'node1', tolerations: [toleration('key1', 'value1', { operator: 'Equal', effect: 'NoExecute', tolerationSeconds: 10 })] }), ''],
    ['added invalid new toleration to existing tolerations in pod spec updates', makePod({ nodeName: 'node1', tolerations: [toleration('key1', 'value1', { operator: 'Equal', effect: 'NoExecute', tolerationSeconds: 20 }), toleration('key2', 'value2', { operator: 'Equal', effect: 'NoSchedule', tolerationSeconds: 30 })] }), makePod({ nodeName: 'node1', tolerations: [toleration('key1', 'value1', { operator: 'Equal', effect: 'NoExecute', tolerationSeconds: 10 })] }), 'spec.tolerations[1].effect'],
    ['removed nodeName from pod spec', makePod({ nodeName: 'foo' }), makePod(), forbiddenSentence],
    ['added mirror pod annotation', makePod({ nodeName: 'foo' }, { annotations: { 'kubernetes.io/config.mirror': '' } }), makePod({ nodeName: 'foo' }), 'metadata.annotations[kubernetes.io/config.mirror]: Forbidden: may not add mirror pod annotation'],
    ['removed mirror pod annotation', makePod({ nodeName: 'foo' }), makePod({ nodeName: 'foo' }, { annotations: { 'kubernetes.io/config.mirror': '' } }), 'metadata.annotations[kubernetes.io/config.mirror]: Forbidden: may not remove or update mirror pod annotation'],
    ['changed mirror pod annotation', makePod({ nodeName: 'foo' }, { annotations: { 'kubernetes.io/config.mirror': 'foo' } }), makePod({ nodeName: 'foo' }, { annotations: { 'kubernetes.io/config.mirror': 'bar' } }), 'may not remove or update mirror pod annotation'],
    ['changed priority class name', makePod({ priorityClassName: 'bar-priority' }), makePod({ priorityClassName: 'foo-priority' }), forbiddenSentence],
    ['removed priority class name', makePod(), makePod({ priorityClassName: 'foo-priority' }), forbiddenSentence],
    ['update termination grace period seconds', makePod({ terminationGracePeriodSeconds: 1 }), makePod({ terminationGracePeriodSeconds: -1 }), ''],
    ['update termination grace period seconds not 1', makePod({ terminationGracePeriodSeconds: 0 }), makePod({ terminationGracePeriodSeconds: -1 }), forbiddenSentence],
    ['update pod spec schedulingGates: add new scheduling gate', makePod({ schedulingGates: [{ name: 'foo' }] }), makePod(), "spec.schedulingGates[0].name: Forbidden: only deletion is allowed, but found new scheduling gate 'foo'"],
    ['update pod spec schedulingGates: mutating an existing scheduling gate', makePod({ schedulingGates: [{ name: 'bar' }] }), makePod({ schedulingGates: [{ name: 'foo' }] }), "found new scheduling gate 'bar'"],
    ['update pod spec schedulingGates: mutating an existing scheduling gate along with deletion', makePod({ schedulingGates: [{ name: 'baz' }] }), makePod({ schedulingGates: [{ name: 'foo' }, { name: 'bar' }] }), "found new scheduling gate 'baz'"],
    ['update pod spec schedulingGates: legal deletion', makePod(), makePod({ schedulingGates: [{ name: 'foo' }] }), ''],
    ['adding node selector is allowed for gated pods', makePod({ nodeSelector: { foo: 'bar' }, ...gated }), makePod(gated), ''],
    ['adding node selector is not allowed for non-gated pods', makePod({ nodeSelector: { foo: 'bar', foo2: 'bar2' } }), makePod({ nodeSelector: { foo: 'bar' } }), forbiddenSentence],
    ['removing node selector is not allowed for gated pods', makePod(gated), makePod({ nodeSelector: { foo: 'bar' }, ...gated }), 'spec.nodeSelector: Invalid value: null: only additions to spec.nodeSelector are allowed (no mutations or deletions)'],
    ['removing node selector is not allowed for non-gated pods', makePod(), makePod({ nodeSelector: { foo: 'bar' } }), forbiddenSentence],
    ['old pod spec has scheduling gate, new pod spec does not, and node selector is added', makePod({ nodeSelector: { foo: 'bar', foo2: 'bar2' } }), makePod({ nodeSelector: { foo: 'bar' }, ...gated }), ''],
    ['modifying value of existing node selector is not allowed', makePod({ nodeSelector: { foo: 'new value' }, ...gated }), makePod({ nodeSelector: { foo: 'bar' }, ...gated }), 'spec.nodeSelector: Invalid value: {"foo":"new value"}: only additions'],
    ['addition to nodeAffinity is allowed for gated pods', makePod({ ...nodeAffinity([{ matchExpressions: [expression('expr', ['foo']), expression('expr2', ['foo2'])] }]), ...gated }), makePod({ ...nodeAffinity([{ matchExpressions: [expression('expr', ['foo'])] }]), ...gated }), ''],
    ['addition to nodeAffinity is not allowed for non-gated pods', makePod(nodeAffinity([{ matchExpressions: [expression('expr', ['foo']), expression('expr2', ['foo2'])] }])), makePod(nodeAffinity([{ matchExpressions: [expression('expr', ['foo'])] }])), forbiddenSentence],
    ['nodeAffinity modification of item in MatchExpressions not allowed', makePod({ ...nodeAffinity([{ matchExpressions: [expression('expr', ['bar'])] }]), ...gated }), makePod({ ...nodeAffinity([{ matchExpressions: [expression('expr', ['foo'])] }]), ...gated }),
      'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]: Invalid value: {"MatchExpressions":[{"Key":"expr","Operator":"In","Values":["bar"]}],"MatchFields":null}: only additions are allowed (no mutations or deletions)'],
    ['nodeSelectorTerms addition on gated pod should fail', makePod({ ...nodeAffinity([{ matchExpressions: [expression('expr', ['foo'])] }, { matchExpressions: [expression('expr', ['foo2'])] }]), ...gated }), makePod({ ...nodeAffinity([{ matchExpressions: [expression('expr', ['foo'])] }]), ...gated }),
      'nodeSelectorTerms: Invalid value: [{"MatchExpressions":[{"Key":"expr","Operator":"In","Values":["foo"]}],"MatchFields":null},{"MatchExpressions":[{"Key":"expr","Operator":"In","Values":["foo2"]}],"MatchFields":null}]: no additions/deletions to non-empty NodeSelectorTerms list are allowed'],
    ['empty NodeSelectorTerm (selects nothing) cannot become populated (selects something)', makePod({ ...nodeAffinity([{ matchExpressions: [expression('expr', ['foo'])] }]), ...gated }), makePod({ ...nodeAffinity([{}]), ...gated }), 'only additions are allowed (no mutations or deletions)'],
    ['nil affinity can be mutated for gated pods', makePod({ ...nodeAffinity([{ matchExpressions: [expression('expr', ['foo'])] }]), ...gated }), makePod(gated), ''],
    ['the podAffinity cannot be updated on gated pods', makePod({ affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'foo', labelSelector: { matchLabels: { a: 'b' } } }] } }, ...gated }), makePod(gated), forbiddenSentence],
  ];
  for (const [name, now, old, expected] of vectors) {
    it(`${expected === '' ? 'accepts' : 'refuses'}: ${name}`, () => {
      const errs = updateErrors(now, old);
      if (expected === '') expect(errs).to.deep.equal([]);
      else expect(errs.some((e) => e.includes(expected)), `${JSON.stringify(errs)} should include ${expected}`).to.equal(true);
    });
  }

  it('names the changed fields after the sentence (where the apiserver prints a diff of its internal types)', () => {
    const errs = validatePodUpdate(makePod({ nodeName: 'n1', containers: [{ name: 'ctr', image: 'image', command: ['b'] }] }), makePod({ containers: [{ name: 'ctr', image: 'image', command: ['a'] }] }));
    expect(errs.map((e) => e.toString())).to.deep.equal([`${forbiddenSentence}\n(changed: spec.containers[0].command[0], spec.nodeName)`]);
    // Keys of maps are printed as keys.
    const limits = (cpu: string): Json => ({ containers: [{ name: 'ctr', image: 'image', resources: { limits: { cpu, 'example.com/gpu': '1' } } }], nodeSelector: { 'kubernetes.io/os': cpu } });
    expect(validatePodUpdate(makePod(limits('2')), makePod(limits('1'))).map((e) => e.detail.split('\n')[1])).to.deep.equal(['(changed: spec.containers[0].resources.limits[cpu], spec.nodeSelector[kubernetes.io/os])']);
  });

  it('reads serviceAccount as the alias of serviceAccountName, as the conversion to the internal type does', () => {
    expect(validatePodUpdate(makePod({ serviceAccountName: 'robot', serviceAccount: 'robot' }), makePod({ serviceAccountName: 'robot' }))).to.deep.equal([]);
    expect(validatePodUpdate(makePod({ serviceAccount: 'robot' }), makePod({ serviceAccountName: 'robot' }))).to.deep.equal([]);
    expect(validatePodUpdate(makePod({ serviceAccount: 'other' }), makePod({ serviceAccountName: 'robot' }))).to.have.length(1);
  });
});

describe('pod updates over HTTP, as kube-apiserver 1.34.4 answers them', () => {
  const pods = '/api/v1/namespaces/default/pods';
  let server: ApiServer;
  let client: Client;

  before(async () => {
    ({ server, client } = await start());
  });

  after(async () => {
    await server.close();
  });

  const create = async (name: string, spec: Json): Promise<Json> => {
    const r = await client.post(pods, { metadata: { name }, spec });
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    return r.body as Json;
  };
  const messageOf = (body: { message: string }): string => body.message.split('\n')[0];

  it('accepts a new image, a shorter deadline, an added toleration and new labels, one generation per spec change', async () => {
    await create('allowed', { containers: [{ name: 'c', image: 'nginx:1.2' }], activeDeadlineSeconds: 100, tolerations: [{ key: 'k', operator: 'Equal', value: 'v', effect: 'NoSchedule' }] });
    const img = await client.patch(`${pods}/allowed`, { spec: { containers: [{ name: 'c', image: 'nginx:1.3' }] } }, 'strategic');
    expect([img.status, img.body.metadata.generation, img.body.spec.containers[0].image]).to.deep.equal([200, 2, 'nginx:1.3']);
    const deadline = await client.patch(`${pods}/allowed`, { spec: { activeDeadlineSeconds: 50 } });
    expect([deadline.status, deadline.body.metadata.generation, deadline.body.spec.activeDeadlineSeconds]).to.deep.equal([200, 3, 50]);
    const added = await client.patch(`${pods}/allowed`, [{ op: 'add', path: '/spec/tolerations/-', value: { key: 'x', operator: 'Exists' } }], 'json');
    expect([added.status, added.body.metadata.generation, added.body.spec.tolerations.length]).to.deep.equal([200, 4, 4]);
    const seconds = await client.patch(`${pods}/allowed`, [{ op: 'replace', path: '/spec/tolerations/1/tolerationSeconds', value: 10 }], 'json');
    expect([seconds.status, seconds.body.metadata.generation]).to.deep.equal([200, 5]);
    const labels = await client.patch(`${pods}/allowed`, { metadata: { labels: { a: 'b' } } });
    expect([labels.status, labels.body.metadata.generation]).to.deep.equal([200, 5]);
  });

  it('refuses a changed command, env, nodeName, resources or port with the 422 on spec', async () => {
    await create('fixed', { containers: [{ name: 'c', image: 'nginx:1.2', command: ['a'] }] });
    const sentence = `Pod "fixed" is invalid: ${forbiddenSentence}`;
    const changes: [unknown, 'merge' | 'json' | 'strategic', string][] = [
      [{ spec: { containers: [{ name: 'c', command: ['b'] }] } }, 'strategic', 'spec.containers[0].command[0]'],
      [[{ op: 'add', path: '/spec/containers/0/env', value: [{ name: 'A', value: 'b' }] }], 'json', 'spec.containers[0].env'],
      [{ spec: { nodeName: 'n1' } }, 'merge', 'spec.nodeName'],
      [[{ op: 'add', path: '/spec/containers/0/resources', value: { limits: { cpu: '1' } } }], 'json', 'spec.containers[0].resources.limits, spec.containers[0].resources.requests'],
      [{ spec: { terminationGracePeriodSeconds: 1 } }, 'merge', 'spec.terminationGracePeriodSeconds'],
    ];
    for (const [patch, type, changed] of changes) {
      const r = await client.patch(`${pods}/fixed`, patch, type);
      expect(r.status, JSON.stringify(patch)).to.equal(422);
      expect(r.body.reason).to.equal('Invalid');
      expect(r.body.message).to.equal(`${sentence}\n(changed: ${changed})`);
      expect(r.body.details.causes).to.deep.equal([{ reason: 'FieldValueForbidden', field: 'spec', message: `Forbidden: ${forbiddenSentence.slice('spec: Forbidden: '.length)}\n(changed: ${changed})` }]);
    }
    const added = await client.patch(`${pods}/fixed`, [{ op: 'add', path: '/spec/containers/-', value: { name: 'd', image: 'x' } }], 'json');
    expect([added.status, added.body.message]).to.deep.equal([422, 'Pod "fixed" is invalid: spec.containers: Forbidden: pod updates may not add or remove containers']);
    expect((await client.get(`${pods}/fixed`)).body.metadata.generation).to.equal(1);
  });

  it('words activeDeadlineSeconds refusals as the apiserver does (the spec check and the update check both speak)', async () => {
    await create('deadline', { containers: [{ name: 'c', image: 'nginx' }], activeDeadlineSeconds: 100 });
    const cases: [unknown, string][] = [
      [200, 'Pod "deadline" is invalid: spec.activeDeadlineSeconds: Invalid value: 200: must be less than or equal to previous value'],
      [null, 'Pod "deadline" is invalid: spec.activeDeadlineSeconds: Invalid value: null: must not update from a positive integer to nil value'],
      [-1, 'Pod "deadline" is invalid: [spec.activeDeadlineSeconds: Invalid value: -1: must be between 1 and 2147483647, inclusive, spec.activeDeadlineSeconds: Invalid value: -1: must be between 0 and 2147483647, inclusive]'],
      [0, 'Pod "deadline" is invalid: spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive'],
      [3000000000, 'Pod "deadline" is invalid: [spec.activeDeadlineSeconds: Invalid value: 3000000000: must be between 1 and 2147483647, inclusive, spec.activeDeadlineSeconds: Invalid value: 3000000000: must be between 0 and 2147483647, inclusive]'],
    ];
    for (const [value, message] of cases) {
      const r = await client.patch(`${pods}/deadline`, { spec: { activeDeadlineSeconds: value } });
      expect([r.status, r.body.message], String(value)).to.deep.equal([422, message]);
    }
  });

  it('refuses a removed toleration and, in the same answer, the other changes', async () => {
    await create('tolerant', { containers: [{ name: 'c', image: 'nginx' }], tolerations: [{ key: 'k', operator: 'Exists' }] });
    const removed = await client.patch(`${pods}/tolerant`, [{ op: 'remove', path: '/spec/tolerations/0' }], 'json');
    expect([removed.status, removed.body.message]).to.deep.equal([422, 'Pod "tolerant" is invalid: spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds']);
    const both = await client.patch(`${pods}/tolerant`, { spec: { tolerations: [], hostname: 'h' } });
    expect(both.body.details.causes.map((c: { field: string; reason: string }) => [c.reason, c.field])).to.deep.equal([['FieldValueForbidden', 'spec.tolerations'], ['FieldValueForbidden', 'spec']]);
    expect(messageOf(both.body)).to.equal(`Pod "tolerant" is invalid: [spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds, ${forbiddenSentence}`);
  });

  it('compares a PUT after defaulting and admission: leaving out defaults, default tolerations and the priority changes nothing', async () => {
    const created = await create('put', { containers: [{ name: 'c', image: 'nginx:1.2', resources: { limits: { cpu: '1' } } }], tolerations: [{ key: 'k', operator: 'Exists' }] });
    const body = JSON.parse(JSON.stringify(created)) as { metadata: Json; spec: { containers: Json[] } & Json; status?: unknown };
    delete body.spec.containers[0].terminationMessagePath;
    body.spec.containers[0].resources = { limits: { cpu: '1000m' } };
    body.spec.tolerations = [{ key: 'k', operator: 'Exists' }];
    for (const f of ['priority', 'preemptionPolicy', 'enableServiceLinks', 'dnsPolicy']) delete body.spec[f];
    delete body.status;
    body.metadata.generation = 7;
    const r = await client.put(`${pods}/put`, body);
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    expect(r.body.metadata.generation).to.equal(1);
    // (It failed when the PUT came in a later second than the create: the field manager saw the default
    // tolerations go, and the time it gave was written. test/hostile/noopTimestamps.test.ts makes that certain.)
    expect(r.body.metadata.resourceVersion, `the no-op PUT wrote: ${JSON.stringify({ created, answer: r.body })}`).to.equal((created.metadata as Json).resourceVersion);
    expect(r.body.spec).to.deep.equal(created.spec);
    expect(r.body.status).to.deep.equal(created.status);
  });

  it('keeps the status on a PUT of the pod itself', async () => {
    const created = await create('status', { containers: [{ name: 'c', image: 'nginx' }] });
    const r = await client.put(`${pods}/status`, { ...created, status: { phase: 'Running' }, metadata: { ...(created.metadata as Json), labels: { a: 'b' } } });
    expect([r.status, r.body.status]).to.deep.equal([200, { phase: 'Pending', qosClass: 'BestEffort' }]);
  });

  it('lets a gated pod add node selectors and remove gates, never add one', async () => {
    const created = await create('gated', { containers: [{ name: 'c', image: 'nginx' }], schedulingGates: [{ name: 'a' }, { name: 'b' }], nodeSelector: { zone: 'z1' } });
    // applySchedulingGatedCondition (the strategy's PrepareForCreate), at the request's time.
    expect(created.status).to.deep.equal({
      phase: 'Pending', qosClass: 'BestEffort',
      conditions: [{ type: 'PodScheduled', status: 'False', lastProbeTime: null, lastTransitionTime: (created.metadata as Json).creationTimestamp, reason: 'SchedulingGated', message: 'Scheduling is blocked due to non-empty scheduling gates' }],
    });
    const add = await client.patch(`${pods}/gated`, { spec: { nodeSelector: { disk: 'ssd' } } });
    expect([add.status, add.body.spec.nodeSelector]).to.deep.equal([200, { disk: 'ssd', zone: 'z1' }]);
    const change = await client.patch(`${pods}/gated`, { spec: { nodeSelector: { zone: 'z2' } } });
    expect([change.status, change.body.message]).to.deep.equal([422, 'Pod "gated" is invalid: spec.nodeSelector: Invalid value: {"disk":"ssd","zone":"z2"}: only additions to spec.nodeSelector are allowed (no mutations or deletions)']);
    const affinity = (values: string[]): Json => ({ spec: nodeAffinity([{ matchExpressions: [expression('a', values)] }]) });
    expect((await client.patch(`${pods}/gated`, affinity(['b']))).status).to.equal(200);
    const mutated = await client.patch(`${pods}/gated`, affinity(['c']));
    expect([mutated.status, mutated.body.message]).to.deep.equal([422, 'Pod "gated" is invalid: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]: Invalid value: {"MatchExpressions":[{"Key":"a","Operator":"In","Values":["c"]}],"MatchFields":null}: only additions are allowed (no mutations or deletions)']);
    const removed = await client.patch(`${pods}/gated`, [{ op: 'remove', path: '/spec/schedulingGates/0' }], 'json');
    expect([removed.status, removed.body.spec.schedulingGates]).to.deep.equal([200, [{ name: 'b' }]]);
    // The apiserver reports the new gates in Go's map order (none fixed); kubekit in the list's order.
    const gates = await client.patch(`${pods}/gated`, { spec: { schedulingGates: [{ name: 'b' }, { name: 'c' }, { name: 'd' }] } });
    expect([gates.status, gates.body.message]).to.deep.equal([422, "Pod \"gated\" is invalid: [spec.schedulingGates[1].name: Forbidden: only deletion is allowed, but found new scheduling gate 'c', spec.schedulingGates[2].name: Forbidden: only deletion is allowed, but found new scheduling gate 'd']"]);
    // The last gate gone, node selection is fixed but this update may still add (the old pod was gated).
    const ungated = await client.patch(`${pods}/gated`, [{ op: 'remove', path: '/spec/schedulingGates' }, { op: 'add', path: '/spec/nodeSelector/x', value: 'y' }], 'json');
    expect(ungated.status).to.equal(200);
    expect((await client.patch(`${pods}/gated`, [{ op: 'add', path: '/spec/nodeSelector/w', value: 'v' }], 'json')).status).to.equal(422);
  });

  it('refuses added AppArmor and mirror pod annotations, and images with surrounding whitespace', async () => {
    await create('annotated', { containers: [{ name: 'c', image: 'nginx' }] });
    const apparmor = await client.patch(`${pods}/annotated`, { metadata: { annotations: { 'container.apparmor.security.beta.kubernetes.io/c': 'runtime/default' } } });
    expect([apparmor.status, apparmor.body.message]).to.deep.equal([422, 'Pod "annotated" is invalid: metadata.annotations[container.apparmor.security.beta.kubernetes.io/c]: Forbidden: may not add AppArmor annotations']);
    const mirror = await client.patch(`${pods}/annotated`, { metadata: { annotations: { 'kubernetes.io/config.mirror': 'x' } } });
    expect(mirror.body.message).to.equal('Pod "annotated" is invalid: [metadata.annotations[kubernetes.io/config.mirror]: Invalid value: "x": must set spec.nodeName if mirror pod annotation is set, metadata.annotations[kubernetes.io/config.mirror]: Forbidden: may not add mirror pod annotation]');
    expect(mirror.body.details.causes.map((c: { reason: string }) => c.reason)).to.deep.equal(['FieldValueInvalid', 'FieldValueForbidden', 'FieldValueInvalid']);
    const spaced = await client.patch(`${pods}/annotated`, [{ op: 'replace', path: '/spec/containers/0/image', value: ' x' }], 'json');
    expect([spaced.status, spaced.body.message, spaced.body.details.causes.length]).to.deep.equal([422, 'Pod "annotated" is invalid: spec.containers[0].image: Invalid value: " x": must not have leading or trailing whitespace', 2]);
    const empty = await client.patch(`${pods}/annotated`, [{ op: 'replace', path: '/spec/containers/0/image', value: '' }], 'json');
    expect([empty.status, empty.body.message, empty.body.details.causes.length]).to.deep.equal([422, 'Pod "annotated" is invalid: spec.containers[0].image: Required value', 2]);
  });

  it('takes labels and annotations through /status but keeps the spec, owner references and an omitted QoS class', async () => {
    await create('kubelet', { containers: [{ name: 'c', image: 'nginx' }], restartPolicy: 'Never' });
    const r = await client.patch(`${pods}/kubelet/status`, { metadata: { labels: { x: 'y' }, annotations: { z: 'w' }, ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'o', uid: '1' }] }, spec: { nodeName: 'n' }, status: { phase: 'Running', podIP: '10.0.0.1' } });
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    expect([r.body.metadata.labels, r.body.metadata.annotations, r.body.metadata.ownerReferences, r.body.spec.nodeName]).to.deep.equal([{ x: 'y' }, { z: 'w' }, undefined, undefined]);
    // podIP is the first of podIPs (Convert_v1_PodStatus_To_core_PodStatus and back).
    expect(r.body.status).to.deep.equal({ phase: 'Running', qosClass: 'BestEffort', podIP: '10.0.0.1', podIPs: [{ ip: '10.0.0.1' }] });
    const put = await client.put(`${pods}/kubelet/status`, { ...r.body, status: { phase: 'Running' } });
    expect([put.status, put.body.status]).to.deep.equal([200, { phase: 'Running', qosClass: 'BestEffort' }]);
  });

  it('validates /status writes as ValidatePodStatusUpdate does', async () => {
    await create('checked', { containers: [{ name: 'c', image: 'nginx' }], restartPolicy: 'Never' });
    const cases: [Json, string][] = [
      [{ qosClass: 'Guaranteed' }, 'status.qosClass: Invalid value: "Guaranteed": field is immutable'],
      [{ observedGeneration: -1 }, 'status.observedGeneration: Invalid value: -1: must be a non-negative integer'],
      [{ nominatedNodeName: 'Bad_Node' }, 'status.nominatedNodeName: Invalid value: "Bad_Node": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')'],
      [{ conditions: [{ type: 'Bad Type', status: 'True' }] }, 'status.conditions[0].Type: Invalid value: "Bad Type": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')'],
      [{ podIP: 'x', podIPs: [{ ip: 'x' }] }, 'status.podIPs[0]: Invalid value: "x": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'],
      [{ podIPs: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }] }, 'status.podIPs: Invalid value: [{"IP":"10.0.0.1"},{"IP":"10.0.0.2"}]: may specify no more than one IP for each IP family'],
    ];
    for (const [status, message] of cases) {
      const r = await client.patch(`${pods}/checked/status`, { status });
      expect([r.status, r.body.message], JSON.stringify(status)).to.deep.equal([422, `Pod "checked" is invalid: ${message}`]);
    }
    expect((await client.patch(`${pods}/checked/status`, { status: { podIPs: [{ ip: '10.0.0.1' }, { ip: 'fd00::1' }] } })).status).to.equal(200);
    const container = (state: Json): Json => ({ containerStatuses: [{ name: 'c', ready: false, restartCount: 0, image: 'nginx', imageID: '', state }] });
    expect((await client.patch(`${pods}/checked/status`, { status: container({ terminated: { exitCode: 0 } }) })).status).to.equal(200);
    const again = await client.patch(`${pods}/checked/status`, { status: container({ running: {} }) });
    expect([again.status, again.body.message]).to.deep.equal([422, 'Pod "checked" is invalid: status.containerStatuses[0].state: Forbidden: may not be transitioned to non-terminated state']);
  });

  it('validates the new metadata of a pod update twice, as ValidatePodUpdate does (four causes for one bad label)', async () => {
    await create('labelled', { containers: [{ name: 'c', image: 'nginx' }] });
    const r = await client.patch(`${pods}/labelled`, { metadata: { labels: { 'a b': 'c' } } });
    expect(r.status).to.equal(422);
    expect(r.body.details.causes).to.have.length(4);
  });

  it('validates tolerations, node name, host name and subdomain on create and the added tolerations on update (ValidateTolerations)', async () => {
    const cases: [Json, string][] = [
      [{ tolerations: [{ operator: 'Equal', value: 'x' }] }, 'spec.tolerations[0].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"'],
      [{ tolerations: [{ key: 'k', operator: 'Exists', tolerationSeconds: 5 }] }, 'spec.tolerations[0].effect: Invalid value: "": effect must be \'NoExecute\' when `tolerationSeconds` is set'],
      [{ tolerations: [{ key: 'k', operator: 'Exists', value: 'v' }] }, 'spec.tolerations[0].operator: Invalid value: "v": value must be empty when `operator` is \'Exists\''],
      [{ tolerations: [{ key: 'k', operator: 'Gt' }] }, 'spec.tolerations[0].operator: Unsupported value: "Gt": supported values: "Equal", "Exists"'],
      [{ tolerations: [{ key: 'k', operator: 'Exists', effect: 'Never' }] }, 'spec.tolerations[0].effect: Unsupported value: "Never": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"'],
      [{ hostname: 'a.b' }, 'spec.hostname: Invalid value: "a.b": must not contain dots'],
    ];
    for (const [spec, message] of cases) {
      const r = await client.post(pods, { metadata: { name: 'bad' }, spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec } });
      expect([r.status, r.body.message], JSON.stringify(spec)).to.deep.equal([422, `Pod "bad" is invalid: ${message}`]);
    }
    await create('tolerations', { containers: [{ name: 'c', image: 'nginx' }], tolerations: [{ key: 'k', operator: 'Exists' }] });
    const added = await client.patch(`${pods}/tolerations`, [{ op: 'add', path: '/spec/tolerations/-', value: { key: 'x', operator: 'Exists', effect: 'Never' } }], 'json');
    expect([added.status, added.body.message, added.body.details.causes.length]).to.deep.equal([422, 'Pod "tolerations" is invalid: spec.tolerations[3].effect: Unsupported value: "Never": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"', 2]);
  });

  it('writes serviceAccount as the copy of serviceAccountName, which wins (the PodSpec conversion both ways)', async () => {
    const alias = await create('alias', { containers: [{ name: 'c', image: 'nginx' }], serviceAccount: 'robot' });
    expect([(alias.spec as Json).serviceAccount, (alias.spec as Json).serviceAccountName]).to.deep.equal(['robot', 'robot']);
    const both = await create('both', { containers: [{ name: 'c', image: 'nginx' }], serviceAccount: 'a', serviceAccountName: 'b' });
    expect([(both.spec as Json).serviceAccount, (both.spec as Json).serviceAccountName]).to.deep.equal(['b', 'b']);
    // Dropping the alias, or changing it alone, changes nothing: no new resourceVersion.
    for (const serviceAccount of [null, 'other']) {
      const r = await client.patch(`${pods}/alias`, { spec: { serviceAccount } });
      expect([r.status, r.body.metadata.resourceVersion, r.body.spec.serviceAccountName]).to.deep.equal([200, (alias.metadata as Json).resourceVersion, 'robot']);
    }
  });

  it('stores a negative grace period as 1, as the conversion of a Pod does', async () => {
    const created = await create('grace', { containers: [{ name: 'c', image: 'nginx' }], terminationGracePeriodSeconds: -1 });
    expect((created.spec as Json).terminationGracePeriodSeconds).to.equal(1);
  });
});
