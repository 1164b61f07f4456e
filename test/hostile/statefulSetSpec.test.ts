// How kube-apiserver 1.34.4 validates a StatefulSet's spec beyond its template (ValidateStatefulSetSpec and
// ValidateStatefulSetUpdate): the claim retention policy, the volume claim templates (as claim specs, on
// create only), `ordinals.start`, the service name (on create only), and on update everything but replicas,
// ordinals, template, update strategy, revision history limit, claim retention and minReadySeconds
// immutable. kubekit checked none of these, and let an update change the service name or the claim
// templates, which a cluster refuses. The expected answers are the reference's, recorded in
// fixtures/statefulSetSpec.json; to record them again: KUBEKIT_RECORD_STATEFULSETS=1 npx mocha test/hostile/statefulSetSpec.test.ts.
import { expect } from 'chai';
import { readFileSync, writeFileSync } from 'node:fs';
import { describeOnBothServers, type Send } from './sender.js';

const fixtureURL = new URL('./fixtures/statefulSetSpec.json', import.meta.url);
const claim = (spec: Record<string, unknown>): Record<string, unknown> => ({ metadata: { name: 'data' }, spec });
const base = (more: Record<string, unknown> = {}): Record<string, unknown> => ({
  selector: { matchLabels: { app: 's' } }, serviceName: 's',
  template: { metadata: { labels: { app: 's' } }, spec: { containers: [{ name: 'c', image: 'x:1' }] } },
  ...more,
});

const creates: Record<string, unknown>[] = [
  base({ volumeClaimTemplates: [claim({ accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } })] }),
  base({ volumeClaimTemplates: [claim({ resources: { requests: { storage: '0' } } })] }),
  base({ volumeClaimTemplates: [claim({ accessModes: ['Bogus'], resources: {}, volumeMode: 'Weird', dataSource: { kind: 'Thing', name: 'x' } })] }),
  base({ persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Keep', whenScaled: 'Delete' } }),
  base({ serviceName: 'Bad_Service' }),
  base({ ordinals: { start: -1 } }),
  base({ podManagementPolicy: 'Random', minReadySeconds: -1 }),
];

const updates: [Record<string, unknown>, Record<string, unknown>][] = [
  [base(), { spec: { replicas: 3, minReadySeconds: 5, revisionHistoryLimit: 2, ordinals: { start: 1 } } }],
  [base(), { spec: { serviceName: 'other' } }],
  [base(), { spec: { podManagementPolicy: 'Parallel' } }],
  [base({ volumeClaimTemplates: [claim({ accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } })] }), { spec: { volumeClaimTemplates: [claim({ accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '2Gi' } } })] } }],
  [base(), { spec: { persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Retain' } } }],
  [base(), { spec: { persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Nope' } } }],
  [base(), { spec: { selector: { matchLabels: { app: 's', x: 'y' } }, template: { metadata: { labels: { app: 's', x: 'y' } } } } }],
  [base(), { spec: { updateStrategy: { type: 'OnDelete', rollingUpdate: null } } }],
];

async function run(s: Send, backend: 'kubekit' | 'reference'): Promise<void> {
  const ns = 'stsspec';
  const created = await s('POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }));
  expect(created.status, created.text).to.equal(201);
  const answers: string[] = [];
  const post = async (name: string, spec: unknown): Promise<{ status: number; body: Record<string, unknown> }> => {
    const a = await s('POST', `/apis/apps/v1/namespaces/${ns}/statefulsets`, JSON.stringify({ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name }, spec }));
    return { status: a.status, body: JSON.parse(a.text) as Record<string, unknown> };
  };
  const answer = (status: number, body: Record<string, unknown>): string => `${status}${status >= 400 ? ` ${String(body.message)}` : ''}`;
  for (const [i, spec] of creates.entries()) {
    const a = await post(`c${i}`, spec);
    answers.push(`create ${JSON.stringify(spec)}: ${answer(a.status, a.body)}`);
  }
  for (const [i, [spec, patch]] of updates.entries()) {
    const b = await post(`u${i}`, spec);
    expect(b.status, JSON.stringify(b.body)).to.equal(201);
    const a = await s('PATCH', `/apis/apps/v1/namespaces/${ns}/statefulsets/u${i}`, JSON.stringify(patch), 'application/strategic-merge-patch+json');
    answers.push(`update by ${JSON.stringify(patch)}: ${answer(a.status, JSON.parse(a.text) as Record<string, unknown>)}`);
  }
  if (backend === 'reference' && process.env.KUBEKIT_RECORD_STATEFULSETS === '1') writeFileSync(fixtureURL, JSON.stringify({ answers }, null, 1) + '\n');
  const fixture = JSON.parse(readFileSync(fixtureURL, 'utf8')) as { answers: string[] };
  expect(answers).to.have.length(fixture.answers.length);
  answers.forEach((a, i) => expect(a, `answer ${i}`).to.equal(fixture.answers[i]));
}

describeOnBothServers('StatefulSet specs: claim templates, retention, service name, immutable fields', run);
