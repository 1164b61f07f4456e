// setControllerReference as controller-runtime's controllerutil.SetControllerReference
// (sigs.k8s.io/controller-runtime/pkg/controller/controllerutil, TestSetControllerReference cases).
// Regression for issue #16: it returned a copy, so calling it for its side effect (as in Go) did nothing.
import { expect } from 'chai';
import { KubeError, type KubeObject } from '@kubekit/core';
import { controllerReference, setControllerReference } from '@kubekit/controller';

const owner = (name = 'owner', uid = 'uid-1'): KubeObject =>
  ({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name, uid, namespace: 'default' } });
const child = (namespace = 'default', ownerReferences?: KubeObject['metadata']['ownerReferences']): KubeObject =>
  ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'job', namespace, ownerReferences } });

describe('setControllerReference', () => {
  it('sets the reference on the object itself and returns that object', () => {
    const job = child();
    const returned = setControllerReference(owner(), job);
    expect(returned).to.equal(job);
    expect(job.metadata.ownerReferences).to.deep.equal([
      { apiVersion: 'stable.example.com/v1', kind: 'CronTab', name: 'owner', uid: 'uid-1', controller: true, blockOwnerDeletion: true },
    ]);
  });

  it('keeps other owners and replaces a reference to the same owner (group, kind and name; a new uid or version replaces it)', () => {
    const other = { apiVersion: 'v1', kind: 'Secret', name: 's', uid: 'u-s' };
    const job = child('default', [other, { apiVersion: 'stable.example.com/v1beta1', kind: 'CronTab', name: 'owner', uid: 'uid-old' }]);
    setControllerReference(owner('owner', 'uid-new'), job);
    expect(job.metadata.ownerReferences).to.deep.equal([other, controllerReference(owner('owner', 'uid-new'))]);
    setControllerReference(owner('owner', 'uid-new'), job);
    expect(job.metadata.ownerReferences).to.have.length(2);
  });

  it('refuses a second controller and leaves the object unchanged', () => {
    const job = setControllerReference(owner('first'), child());
    const before = structuredClone(job);
    expect(() => setControllerReference(owner('second', 'uid-2'), job)).to.throw(KubeError, 'Object default/job is already owned by another CronTab controller first');
    expect(job).to.deep.equal(before);
  });

  it('refuses cross-namespace and namespaced-owns-cluster-scoped references with controller-runtime\'s messages', () => {
    expect(() => setControllerReference(owner(), child('other'))).to.throw(KubeError, "cross-namespace owner references are disallowed, owner's namespace default, obj's namespace other");
    expect(() => setControllerReference(owner(), { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns' } })).to.throw(KubeError, "cluster-scoped resource must not have a namespace-scoped owner, owner's namespace default");
    expect(setControllerReference({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns', uid: 'u' } }, child('any')).metadata.ownerReferences).to.have.length(1);
  });
});
