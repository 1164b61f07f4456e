import { expect } from 'chai';
import type { KubeObject } from '@kubekit/core';
import { bootstrapFlowControlObjects } from '../src/flowControlKinds.js';
import { RequestClassifier, isUnclassifiedLongRunning, type Classification } from '../src/requestClassifier.js';
import type { RequestDigest } from '../src/flowSchemaRules.js';
import { ObjectStore } from '../src/storage/objectStore.js';

const group = 'flowcontrol.apiserver.k8s.io';
const fsResource = { group, resource: 'flowschemas' };
const plResource = { group, resource: 'prioritylevelconfigurations' };
type Info = RequestDigest['info'];

const resource = (verb: string, resourceName: string, namespace = '', subresource = ''): Info => ({ isResourceRequest: true, path: '', verb, group: '', namespace, resource: resourceName, subresource });
const nonResource = (verb: string, path: string): Info => ({ isResourceRequest: false, path, verb, group: '', namespace: '', resource: '', subresource: '' });
const admin = { username: 'admin', groups: ['system:masters', 'system:authenticated'] };
const alice = { username: 'alice', groups: ['system:authenticated'] };

/** A store with the bootstrap objects, each with the UID `<kind>:<name>`. */
function bootstrapStore(): ObjectStore {
  const store = new ObjectStore();
  for (const o of bootstrapFlowControlObjects()) put(store, { ...o, metadata: { ...o.metadata } });
  return store;
}

function put(store: ObjectStore, o: KubeObject): void {
  const name = o.metadata.name ?? '';
  const uid = o.metadata.uid ?? `${o.kind === 'FlowSchema' ? 'fs' : 'pl'}:${name}`;
  store.create(o.kind === 'FlowSchema' ? fsResource : plResource, name, name, { ...o, metadata: { ...o.metadata, uid } });
}

const flowSchema = (name: string, precedence: number, priorityLevel: string, subjects: unknown[], uid?: string): KubeObject => ({
  apiVersion: `${group}/v1`, kind: 'FlowSchema', metadata: { name, ...(uid === undefined ? {} : { uid }) },
  spec: { priorityLevelConfiguration: { name: priorityLevel }, matchingPrecedence: precedence, rules: [{ subjects, nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] }] },
});
const priorityLevel = (name: string, uid?: string): KubeObject => ({ apiVersion: `${group}/v1`, kind: 'PriorityLevelConfiguration', metadata: { name, ...(uid === undefined ? {} : { uid }) }, spec: { type: 'Limited', limited: { limitResponse: { type: 'Reject' } } } });

/** `<flow schema uid> <priority level uid>` of a request, `-` when not classified. */
function uids(c: Classification | undefined): string {
  return c === undefined ? '-' : `${c.flowSchemaUID || '(none)'} ${c.priorityLevelUID || '(none)'}`;
}

describe('RequestClassifier', () => {
  it('classifies by the bootstrap FlowSchemas in order of precedence', () => {
    const classifier = new RequestClassifier(bootstrapStore());
    const at = (user: typeof alice, info: Info): string => uids(classifier.classify({ user, info }));
    expect([
      at(admin, resource('list', 'pods')),
      at(alice, nonResource('get', '/healthz')),
      at(alice, nonResource('head', '/healthz')),
      at({ username: 'system:anonymous', groups: ['system:unauthenticated'] }, nonResource('get', '/readyz/etcd')),
      at(alice, resource('get', 'configmaps', 'default')),
      at({ username: 'system:serviceaccount:kube-system:x', groups: ['system:serviceaccounts', 'system:authenticated'] }, resource('get', 'configmaps', 'default')),
      at({ username: 'system:serviceaccount:default:x', groups: ['system:serviceaccounts', 'system:authenticated'] }, resource('get', 'configmaps', 'default')),
      at({ username: 'system:kube-controller-manager', groups: ['system:authenticated'] }, resource('get', 'leases', 'kube-system')),
      at({ username: 'system:node:n', groups: ['system:nodes', 'system:authenticated'] }, resource('get', 'nodes')),
    ]).to.deep.equal([
      'fs:exempt pl:exempt', 'fs:probes pl:exempt', 'fs:global-default pl:global-default', 'fs:probes pl:exempt', 'fs:global-default pl:global-default',
      'fs:kube-system-service-accounts pl:workload-high', 'fs:service-accounts pl:workload-low', 'fs:kube-controller-manager pl:workload-high', 'fs:system-node-high pl:node-high',
    ]);
  });

  it('does not classify long-running requests other than watches', () => {
    const classifier = new RequestClassifier(bootstrapStore());
    const infos = [resource('create', 'pods', 'ns', 'exec'), resource('get', 'pods', 'ns', 'log'), resource('create', 'pods', 'ns', 'attach'), resource('create', 'pods', 'ns', 'portforward'),
      resource('get', 'services', 'ns', 'proxy'), resource('proxy', 'pods', 'ns'), nonResource('get', '/debug/pprof/heap'), resource('watch', 'pods'), nonResource('get', '/debug/pprof')];
    expect(infos.map((info) => [isUnclassifiedLongRunning(info), uids(classifier.classify({ user: admin, info }))])).to.deep.equal([
      [true, '-'], [true, '-'], [true, '-'], [true, '-'], [true, '-'], [true, '-'], [true, '-'], [false, 'fs:exempt pl:exempt'], [false, 'fs:exempt pl:exempt'],
    ]);
  });

  it('leaves out a dangling FlowSchema, breaks ties by name, and follows writes', () => {
    const store = bootstrapStore();
    const classifier = new RequestClassifier(store);
    const aliceAt = (): string => uids(classifier.classify({ user: alice, info: nonResource('get', '/version') }));
    put(store, flowSchema('mine', 500, 'mine', [{ kind: 'User', user: { name: 'alice' } }]));
    const dangling = aliceAt();
    put(store, priorityLevel('mine'));
    const inUse = aliceAt();
    put(store, flowSchema('b-tie', 500, 'mine', [{ kind: 'Group', group: { name: '*' } }]));
    put(store, flowSchema('a-tie', 500, 'mine', [{ kind: 'User', user: { name: '*' } }]));
    const tie = aliceAt();
    store.delete(fsResource, 'a-tie', 'a-tie');
    store.delete(plResource, 'mine', 'mine');
    const deleted = aliceAt();
    expect([dangling, inUse, tie, deleted]).to.deep.equal(['fs:global-default pl:global-default', 'fs:mine pl:mine', 'fs:a-tie pl:mine', 'fs:global-default pl:global-default']);
    classifier.close();
  });

  it('imagines missing mandatory FlowSchemas without a UID and keeps the UID of a deleted mandatory priority level', () => {
    const store = bootstrapStore();
    const classifier = new RequestClassifier(store);
    const at = (user: typeof alice): string => uids(classifier.classify({ user, info: resource('list', 'pods') }));
    // global-default narrowed: the catch-all takes alice.
    store.delete(fsResource, 'global-default', 'global-default');
    const catchAll = at(alice);
    store.delete(fsResource, 'catch-all', 'catch-all');
    const imagined = at(alice);
    store.delete(plResource, 'catch-all', 'catch-all');
    const retained = at(alice);
    put(store, priorityLevel('catch-all', 'new-catch-all'));
    const recreated = at(alice);
    store.delete(fsResource, 'exempt', 'exempt');
    store.delete(plResource, 'exempt', 'exempt');
    const exempt = at(admin);
    expect([catchAll, imagined, retained, recreated, exempt]).to.deep.equal(['fs:catch-all pl:catch-all', '(none) pl:catch-all', '(none) pl:catch-all', '(none) new-catch-all', '(none) pl:exempt']);
  });

  it('imagines a mandatory priority level it never saw without a UID, and falls back to the catch-all', () => {
    const store = new ObjectStore();
    const classifier = new RequestClassifier(store);
    // A user in neither system:authenticated nor system:unauthenticated matches nothing: the fallback.
    const nobody = { username: 'nobody', groups: [] };
    expect([uids(classifier.classify({ user: admin, info: resource('get', 'pods', 'ns') })), uids(classifier.classify({ user: nobody, info: resource('get', 'pods', 'ns') }))]).to.deep.equal(['(none) (none)', '(none) (none)']);
    put(store, priorityLevel('catch-all', 'c'));
    expect(classifier.classify({ user: nobody, info: nonResource('get', '/x') })).to.deep.equal({ flowSchemaName: 'catch-all', flowSchemaUID: '', priorityLevelName: 'catch-all', priorityLevelUID: 'c' });
  });
});
