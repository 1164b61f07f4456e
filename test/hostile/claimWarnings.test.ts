// The warnings kube-apiserver 1.34.4 sends for persistent volume claim specs (pkg/api/persistentvolumeclaim:
// GetWarningsForPersistentVolumeClaim(Spec)): a storage request or limit that is not a whole number of bytes,
// and a claim's deprecated beta storage class annotation — for a PersistentVolumeClaim (on create and every
// update), an ephemeral volume's claim template in a pod spec (between the glusterfs and cephfs plugin
// warnings), and a StatefulSet's volume claim templates (on create, and on every update under a path with a
// capitalised `Spec`, as upstream writes it). kubekit sent none of them.
import { expect } from 'chai';
import { describeOnBothServers, type Answer, type Send } from './sender.js';

const ns = 'claimwarn';
const fractional = (path: string, value: string): string => `${path}: fractional byte value "${value}" is invalid, must be an integer`;

async function run(s: Send): Promise<void> {
  const ok = (a: Answer): Answer => {
    expect(a.status, a.text).to.be.oneOf([200, 201]);
    return a;
  };
  ok(await s('POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } })));

  const pod = ok(await s('POST', `/api/v1/namespaces/${ns}/pods`, JSON.stringify({
    apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' },
    spec: {
      containers: [{ name: 'c', image: 'x:1' }],
      volumes: [
        { name: 'g', glusterfs: { endpoints: 'e', path: 'p' } },
        { name: 'e', ephemeral: { volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1.5' }, limits: { storage: '2500m' } } } } } },
        { name: 'c', cephfs: { monitors: ['m'] } },
      ],
    },
  })));
  expect(pod.warnings).to.deep.equal([
    'spec.volumes[0].glusterfs: deprecated in v1.25, non-functional in v1.26+',
    fractional('spec.volumes[1].ephemeral.volumeClaimTemplate.spec.resources.requests[storage]', '1500m'),
    fractional('spec.volumes[1].ephemeral.volumeClaimTemplate.spec.resources.limits[storage]', '2500m'),
    'spec.volumes[2].cephfs: deprecated in v1.28, non-functional in v1.31+',
  ]);

  const beta = 'metadata.annotations[volume.beta.kubernetes.io/storage-class]: deprecated since v1.8; use "storageClassName" attribute instead';
  const claim = ok(await s('POST', `/api/v1/namespaces/${ns}/persistentvolumeclaims`, JSON.stringify({
    apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'pvc', annotations: { 'volume.beta.kubernetes.io/storage-class': 'fast' } },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '0.5Ki' } } },
  })));
  expect(claim.warnings).to.deep.equal([beta]);
  const claim2 = ok(await s('POST', `/api/v1/namespaces/${ns}/persistentvolumeclaims`, JSON.stringify({
    apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'pvc2' },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '100m' } } },
  })));
  expect(claim2.warnings).to.deep.equal([fractional('spec.resources.requests[storage]', '100m')]);
  // Every update warns again, whatever it changes.
  const relabelled = ok(await s('PATCH', `/api/v1/namespaces/${ns}/persistentvolumeclaims/pvc`, JSON.stringify({ metadata: { labels: { a: 'b' } } }), 'application/merge-patch+json'));
  expect(relabelled.warnings).to.deep.equal([beta]);

  const template = { metadata: { labels: { app: 's' } }, spec: { containers: [{ name: 'c', image: 'x:1' }] } };
  const set = ok(await s('POST', `/apis/apps/v1/namespaces/${ns}/statefulsets`, JSON.stringify({
    apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'set' },
    spec: {
      selector: { matchLabels: { app: 's' } }, serviceName: 's', template,
      volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1.5Gi' }, limits: { storage: '0.001' } } } }],
    },
  })));
  expect(set.warnings).to.deep.equal([fractional('spec.volumeClaimTemplates[0].resources.limits[storage]', '1m')]);
  const setRelabelled = ok(await s('PATCH', `/apis/apps/v1/namespaces/${ns}/statefulsets/set`, JSON.stringify({ metadata: { labels: { a: 'b' } } }), 'application/merge-patch+json'));
  expect(setRelabelled.warnings).to.deep.equal([fractional('spec.volumeClaimTemplates[0].Spec.resources.limits[storage]', '1m')]);
}

describeOnBothServers('the warnings of persistent volume claim specs', run);
