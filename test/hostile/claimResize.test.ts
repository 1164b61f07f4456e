// The PersistentVolumeClaimResize admission plugin (plugin/pkg/admission/storage/persistentvolume/resize),
// on both servers: a bound claim's storage request may grow only when the claim names the same class before
// and after, that class is stored, and it sets `allowVolumeExpansion: true`; otherwise the plugin's 403, a
// dry run included. The same size written otherwise, a shrink, and a write of `/status` are not its concern.
// kubekit let every bound claim grow. Every expected answer is kube-apiserver 1.34.4's.
import { expect } from 'chai';
import { MERGE, answered, describeOnBothServers, eventually, type Send } from './sender.js';

const SC = '/apis/storage.k8s.io/v1/storageclasses';
const P = '/api/v1/namespaces/default/persistentvolumeclaims';
const refusedResize = (name: string): [number, string] => [403, `persistentvolumeclaims "${name}" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize`];

async function run(s: Send): Promise<void> {
  for (const [name, expansion] of [['fast', true], ['slow', undefined], ['off', false]] as const) {
    answered(await s('POST', SC, JSON.stringify({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name }, provisioner: 'example.com/p', allowVolumeExpansion: expansion })), 201);
  }
  const requested = async (name: string, size: string, query = ''): Promise<[number, string]> => {
    const a = await s('PATCH', `${P}/${name}${query}`, JSON.stringify({ spec: { resources: { requests: { storage: size } } } }), MERGE);
    return [a.status, a.status === 200 ? (JSON.parse(a.text) as { spec: { resources: { requests: { storage: string } } } }).spec.resources.requests.storage : a.message];
  };
  for (const [name, storageClassName] of [['a', 'fast'], ['b', 'slow'], ['c', undefined], ['d', 'off'], ['e', 'gone'], ['f', 'fast']] as const) {
    answered(await s('POST', P, JSON.stringify({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName } })), 201);
    answered(await s('PATCH', `${P}/${name}/status`, JSON.stringify({ status: { phase: 'Bound', capacity: { storage: '1Gi' } } }), MERGE));
  }
  // The reference's plugin reads the classes from an informer: on a loaded machine the class made a moment ago
  // may not be there yet (the claim is then refused as if the class did not allow expansion). Wait until it is.
  await eventually(() => s('PATCH', `${P}/a?dryRun=All`, JSON.stringify({ spec: { resources: { requests: { storage: '2Gi' } } } }), MERGE), (a) => a.status === 200, 30);
  expect(await requested('a', '2Gi', '?dryRun=All')).to.deep.equal([200, '2Gi']);
  expect(await requested('a', '2Gi')).to.deep.equal([200, '2Gi']);
  expect(await requested('a', '2048Mi')).to.deep.equal([200, '2Gi']);
  expect(await requested('b', '2Gi')).to.deep.equal(refusedResize('b'));
  expect(await requested('b', '2Gi', '?dryRun=All')).to.deep.equal(refusedResize('b'));
  expect(await requested('c', '2Gi')).to.deep.equal(refusedResize('c'));
  expect(await requested('d', '2Gi')).to.deep.equal(refusedResize('d'));
  expect(await requested('e', '2Gi')).to.deep.equal(refusedResize('e'));
  // A shrink is validation's business (not below the capacity), and a /status write keeps the spec.
  expect((await requested('b', '512Mi'))[0]).to.equal(422);
  const status = answered<{ spec: { resources: { requests: { storage: string } } } }>(await s('PATCH', `${P}/b/status`, JSON.stringify({ spec: { resources: { requests: { storage: '5Gi' } } } }), MERGE));
  expect(status.spec.resources.requests.storage).to.equal('1Gi');
  // The class is read at the time of the request: once deleted, its claims no longer grow.
  answered(await s('DELETE', `${SC}/fast`));
  // Once the reference's informer has seen the deletion.
  await eventually(() => s('PATCH', `${P}/f?dryRun=All`, JSON.stringify({ spec: { resources: { requests: { storage: '2Gi' } } } }), MERGE), (a) => a.status === 403, 30);
  expect(await requested('f', '2Gi')).to.deep.equal(refusedResize('f'));
  const forbidden = JSON.parse((await s('PATCH', `${P}/b`, JSON.stringify({ spec: { resources: { requests: { storage: '3Gi' } } } }), MERGE)).text) as { reason: string; details: unknown };
  expect([forbidden.reason, forbidden.details]).to.deep.equal(['Forbidden', { name: 'b', kind: 'persistentvolumeclaims' }]);
}

describeOnBothServers('PersistentVolumeClaimResize: a bound claim grows only in a class that allows expansion', run);
