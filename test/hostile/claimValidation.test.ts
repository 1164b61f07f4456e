// How kube-apiserver 1.34.4 takes a PersistentVolumeClaim (the claims a StatefulSet's templates and every
// storage operator create): the strategy's data source handling (a dataSource of another kind dropped, a
// cross-namespace dataSourceRef dropped, each of dataSource and dataSourceRef filled from the other),
// ValidatePersistentVolumeClaimSpec (access modes, ReadWriteOncePod alone, a positive storage request,
// class names, volume modes, the selector, data sources that must match) and
// ValidatePersistentVolumeClaimUpdate (an immutable spec but for a storage class set where there was none,
// the beta annotation moved to the field, and a bound claim's request, which may not shrink to its capacity);
// and an ephemeral volume's claim template (its metadata limited to labels and annotations, its spec).
// kubekit checked access modes and the storage request only, and refused setting a storage class on a claim
// that had none. The expected answers are the reference's, recorded in fixtures/claimValidation.json; to
// record them again: KUBEKIT_RECORD_CLAIMS=1 npx mocha test/hostile/claimValidation.test.ts.
import { expect } from 'chai';
import { readFileSync, writeFileSync } from 'node:fs';
import { describeOnBothServers, type Send } from './sender.js';

const fixtureURL = new URL('./fixtures/claimValidation.json', import.meta.url);
const rwo = { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } };

const creates: Record<string, unknown>[] = [
  rwo,
  { accessModes: ['ReadWriteOnce', 'ReadWriteOncePod'], resources: { requests: { storage: '1Gi' } } },
  { accessModes: ['Bogus', 'ReadWriteOncePod'], resources: { requests: { storage: '1Gi' } } },
  { accessModes: [], resources: { requests: { storage: '1Gi' } } },
  { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '0' } } },
  { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '-1Gi' } } },
  { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '0.0' } } },
  { accessModes: ['ReadWriteOnce'], resources: { requests: { cpu: '1' } } },
  { ...rwo, storageClassName: 'Bad_Class' },
  { ...rwo, volumeMode: 'Weird' },
  { ...rwo, selector: { matchLabels: { 'bad key!': 'x' } } },
  { ...rwo, selector: { matchExpressions: [{ key: 'a', operator: 'In', values: [] }] } },
  { ...rwo, dataSource: { kind: 'PersistentVolumeClaim', name: '' } },
  { ...rwo, dataSource: { kind: 'VolumeSnapshot', name: 'snap' } },
  { ...rwo, dataSource: { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 'snap' } },
  { ...rwo, dataSource: { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 'snap' }, dataSourceRef: { apiGroup: 'x.io', kind: 'Y', name: 'z' } },
  { ...rwo, dataSourceRef: { kind: 'PersistentVolumeClaim', name: 'other', namespace: 'x' } },
  { ...rwo, dataSourceRef: { apiGroup: 'Bad_Group', kind: 'Thing', name: 'z' } },
  { ...rwo, dataSourceRef: { kind: 'Thing', name: 'z' } },
  { ...rwo, volumeAttributesClassName: 'Bad_VAC' },
  { ...rwo, volumeName: 'pv-1' },
  { resources: { requests: { storage: '1Gi' } } },
  { accessModes: ['ReadWriteOnce'] },
];

/** A claim (its spec and annotations), an optional status written first, then a merge patch. */
const updates: [Record<string, unknown>, Record<string, string> | undefined, Record<string, unknown> | undefined, Record<string, unknown>][] = [
  [rwo, undefined, undefined, { spec: { resources: { requests: { storage: '2Gi' } } } }],
  [rwo, undefined, undefined, { spec: { storageClassName: 'fast' } }],
  [{ ...rwo, storageClassName: 'fast' }, undefined, undefined, { spec: { storageClassName: 'slow' } }],
  [rwo, { 'volume.beta.kubernetes.io/storage-class': 'fast' }, undefined, { spec: { storageClassName: 'fast' } }],
  [rwo, { 'volume.beta.kubernetes.io/storage-class': 'fast' }, undefined, { spec: { storageClassName: 'slow' } }],
  [rwo, { 'volume.beta.kubernetes.io/storage-class': 'fast' }, undefined, { metadata: { annotations: { 'volume.beta.kubernetes.io/storage-class': 'slow' } } }],
  [rwo, undefined, undefined, { spec: { volumeName: 'pv-9' } }],
  [{ ...rwo, volumeName: 'pv-1' }, undefined, undefined, { spec: { volumeName: 'pv-2' } }],
  [rwo, undefined, undefined, { spec: { volumeMode: 'Block' } }],
  [rwo, undefined, undefined, { spec: { accessModes: ['ReadWriteMany'] } }],
  // (Growing a bound claim is left out: the PersistentVolumeClaimResize admission plugin allows it only when the
  // claim's StorageClass allows expansion, and kubekit serves no StorageClasses; it lets the expansion through.)
  [{ ...rwo, resources: { requests: { storage: '2Gi' } } }, undefined, { phase: 'Bound', capacity: { storage: '1Gi' } }, { spec: { resources: { requests: { storage: '1536Mi' } } } }],
  [{ ...rwo, resources: { requests: { storage: '2Gi' } } }, undefined, { phase: 'Bound', capacity: { storage: '1Gi' } }, { spec: { resources: { requests: { storage: '1Gi' } } } }],
  [rwo, undefined, { phase: 'Bound', capacity: { storage: '1Gi' } }, { spec: { volumeAttributesClassName: 'gold' } }],
  [{ ...rwo, dataSource: { kind: 'PersistentVolumeClaim', name: 'src' } }, undefined, undefined, { spec: { dataSourceRef: null } }],
];

/** Ephemeral volumes' claim templates (ValidatePersistentVolumeClaimTemplate: labels and annotations only, then the spec). */
const ephemeral: Record<string, unknown>[] = [
  { spec: rwo },
  { metadata: { name: 'x', uid: 'u', labels: { 'bad key!': 'v' }, annotations: { a: 'b' }, finalizers: ['f'] }, spec: { ...rwo, resources: { requests: { storage: '0' } } } },
  { spec: { resources: { requests: { storage: '1Gi' } }, dataSource: { kind: 'Thing', name: 't' } } },
];

function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted((v as Record<string, unknown>)[k])]));
}

/** An answer: an error's message (without the apiserver's go-cmp diff, which kubekit words otherwise) and causes, or the spec and status. */
function normalized(status: number, body: Record<string, unknown>): string {
  // A data source's nil apiGroup: Go writes the pointer without omitempty as null, kubekit leaves it out
  // (kubekit does not write absent pointer members, see builtinGoJSON.ts).
  if (status < 400) return `${status} ${JSON.stringify(sorted({ spec: body.spec, status: body.status })).replaceAll('"apiGroup":null,', '')}`;
  const causes = (body.details as { causes?: unknown[] } | undefined)?.causes?.length ?? 0;
  return `${status} ${String(body.message).replace(/for bound claims\n[\s\S]*?(?=, [a-zA-Z.[\]]+: |\]$|$)/, 'for bound claims <diff>')} (${causes} causes)`;
}

async function run(s: Send, backend: 'kubekit' | 'reference'): Promise<void> {
  const ns = 'claimval';
  const created = await s('POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }));
  expect(created.status, created.text).to.equal(201);
  const answers: string[] = [];
  const post = async (name: string, spec: unknown, annotations?: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> => {
    const a = await s('POST', `/api/v1/namespaces/${ns}/persistentvolumeclaims`, JSON.stringify({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name, ...(annotations === undefined ? {} : { annotations }) }, spec }));
    return { status: a.status, body: JSON.parse(a.text) as Record<string, unknown> };
  };
  for (const [i, spec] of creates.entries()) {
    const a = await post(`c${i}`, spec);
    answers.push(`create ${JSON.stringify(spec)}: ${normalized(a.status, a.body)}`);
  }
  for (const [i, [spec, annotations, status, patch]] of updates.entries()) {
    const base = await post(`u${i}`, spec, annotations);
    expect(base.status, JSON.stringify(base.body)).to.equal(201);
    if (status !== undefined) {
      const st = await s('PATCH', `/api/v1/namespaces/${ns}/persistentvolumeclaims/u${i}/status`, JSON.stringify({ status }), 'application/merge-patch+json');
      expect(st.status, st.text).to.equal(200);
    }
    const a = await s('PATCH', `/api/v1/namespaces/${ns}/persistentvolumeclaims/u${i}`, JSON.stringify(patch), 'application/merge-patch+json');
    answers.push(`update ${JSON.stringify(spec)}${status === undefined ? '' : ` with status ${JSON.stringify(status)}`} by ${JSON.stringify(patch)}: ${normalized(a.status, JSON.parse(a.text) as Record<string, unknown>)}`);
  }
  for (const [i, template] of ephemeral.entries()) {
    const a = await s('POST', `/api/v1/namespaces/${ns}/pods`, JSON.stringify({
      apiVersion: 'v1', kind: 'Pod', metadata: { name: `e${i}` },
      spec: { containers: [{ name: 'c', image: 'x:1', volumeMounts: [{ name: 'scratch', mountPath: '/s' }] }], volumes: [{ name: 'scratch', ephemeral: { volumeClaimTemplate: template } }] },
    }));
    answers.push(`pod with an ephemeral volume of ${JSON.stringify(template)}: ${a.status}${a.status >= 400 ? ` ${String((JSON.parse(a.text) as { message: string }).message)}` : ''}`);
  }
  if (backend === 'reference' && process.env.KUBEKIT_RECORD_CLAIMS === '1') writeFileSync(fixtureURL, JSON.stringify({ answers }, null, 1) + '\n');
  const fixture = JSON.parse(readFileSync(fixtureURL, 'utf8')) as { answers: string[] };
  expect(answers).to.have.length(fixture.answers.length);
  answers.forEach((a, i) => expect(a, `answer ${i}`).to.equal(fixture.answers[i]));
}

describeOnBothServers('PersistentVolumeClaim data sources and validation', run);
