// What a DELETE answers, on both servers: the deleted object for the kinds whose storage sets
// ReturnDeletedObject (pkg/registry/*/storage/storage.go of kube-apiserver 1.34.4: Pods, PodTemplates,
// Services, ServiceAccounts, PersistentVolumeClaims, PersistentVolumes, ResourceQuotas, Namespaces and the
// storage.k8s.io StorageClasses, CSIDrivers, VolumeAttributesClasses, CSINodes and VolumeAttachments, not
// CSIStorageCapacities), a Status of success with the name, kind and uid for the others; an
// object that finalizers keep is answered as it is, its deletionTimestamp set, whatever the kind. Every
// expected answer is the reference's.
import { expect } from 'chai';
import { answered, describeOnBothServers, type Send } from './sender.js';

interface Answered { kind: string; metadata?: { name?: string; deletionTimestamp?: string }; details?: { name: string; kind: string; group?: string } }

const NS = '/api/v1/namespaces/default';
const SK = '/apis/storage.k8s.io/v1';

async function run(s: Send): Promise<void> {
  const created: [string, string, Record<string, unknown>][] = [
    [`${NS}/configmaps`, 'configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'd' } }],
    [`${NS}/secrets`, 'secrets', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'd' } }],
    [`${NS}/services`, 'services', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'd' }, spec: { ports: [{ port: 80 }] } }],
    [`${NS}/serviceaccounts`, 'serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'd' } }],
    [`${NS}/persistentvolumeclaims`, 'persistentvolumeclaims', { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'd' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
    ['/api/v1/persistentvolumes', 'persistentvolumes', { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'd' }, spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/d' } } }],
    [`${NS}/podtemplates`, 'podtemplates', { apiVersion: 'v1', kind: 'PodTemplate', metadata: { name: 'd' }, template: { spec: { containers: [{ name: 'c', image: 'i' }] } } }],
    [`${NS}/resourcequotas`, 'resourcequotas', { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'd' }, spec: { hard: { pods: '5' } } }],
    [`${NS}/endpoints`, 'endpoints', { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'd' } }],
    [`${NS}/limitranges`, 'limitranges', { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'd' }, spec: { limits: [{ type: 'Container', max: { cpu: '2' } }] } }],
    ['/apis/apps/v1/namespaces/default/controllerrevisions', 'controllerrevisions', { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'd' }, data: {}, revision: 1 }],
    ['/apis/rbac.authorization.k8s.io/v1/clusterroles', 'clusterroles', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'd' } }],
    [`${SK}/storageclasses`, 'storageclasses', { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'd' }, provisioner: 'example.com/p' }],
    [`${SK}/csidrivers`, 'csidrivers', { apiVersion: 'storage.k8s.io/v1', kind: 'CSIDriver', metadata: { name: 'd' }, spec: {} }],
    [`${SK}/volumeattributesclasses`, 'volumeattributesclasses', { apiVersion: 'storage.k8s.io/v1', kind: 'VolumeAttributesClass', metadata: { name: 'd' }, driverName: 'example.com', parameters: { a: 'b' } }],
    [`${SK}/csinodes`, 'csinodes', { apiVersion: 'storage.k8s.io/v1', kind: 'CSINode', metadata: { name: 'd' }, spec: { drivers: [] } }],
    [`${SK}/volumeattachments`, 'volumeattachments', { apiVersion: 'storage.k8s.io/v1', kind: 'VolumeAttachment', metadata: { name: 'd' }, spec: { attacher: 'example.com', nodeName: 'n', source: { persistentVolumeName: 'pv' } } }],
    [`${SK}/namespaces/default/csistoragecapacities`, 'csistoragecapacities', { apiVersion: 'storage.k8s.io/v1', kind: 'CSIStorageCapacity', metadata: { name: 'd' }, storageClassName: 'sc' }],
  ];
  const returned = new Set(['services', 'serviceaccounts', 'persistentvolumeclaims', 'persistentvolumes', 'podtemplates', 'resourcequotas', 'storageclasses', 'csidrivers', 'volumeattributesclasses', 'csinodes', 'volumeattachments']);
  for (const [collection, resource, body] of created) {
    answered(await s('POST', collection, JSON.stringify(body)), 201);
    // A dry run answers as the delete would.
    const dry = answered<Answered>(await s('DELETE', `${collection}/d?dryRun=All`));
    const a = answered<Answered>(await s('DELETE', `${collection}/d`));
    for (const answer of [dry, a]) {
      if (returned.has(resource)) expect([answer.kind, answer.metadata?.name], resource).to.deep.equal([body.kind, 'd']);
      else expect([answer.kind, answer.details?.name, answer.details?.kind], resource).to.deep.equal(['Status', 'd', resource]);
    }
  }
  // A ConfigMap that a finalizer keeps is answered as an object too.
  answered(await s('POST', `${NS}/configmaps`, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kept', finalizers: ['example.com/x'] } })), 201);
  const kept = answered<Answered>(await s('DELETE', `${NS}/configmaps/kept`));
  expect([kept.kind, typeof kept.metadata?.deletionTimestamp]).to.deep.equal(['ConfigMap', 'string']);
}

describeOnBothServers('the answer to a DELETE: the object or a Status', async (s) => run(s));
