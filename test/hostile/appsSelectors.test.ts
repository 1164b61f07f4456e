// How kube-apiserver 1.34.4 validates the selector of a Deployment, ReplicaSet, StatefulSet, DaemonSet and
// Job: ValidateLabelSelector's errors, the empty selector (Deployments, ReplicaSets and StatefulSets before
// the template, DaemonSets after it, Jobs never), a selector that does not convert ("invalid label selector"
// with no detail; a StatefulSet's with no words at all) and then no template checks, and a nil selector that
// matches no template. kubekit appended the parser's message to "invalid label selector", missed
// ValidateLabelSelector's own errors, and printed a selector with its members sorted (found by the hostile
// suite's Deployment family). The expected answers are the reference's, recorded in fixtures/appsSelectors.json.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { describeOnBothServers, type Send } from './sender.js';

interface Expected { kind: string; case: string; status: number; causes: string[] }
const fixture = JSON.parse(readFileSync(new URL('./fixtures/appsSelectors.json', import.meta.url), 'utf8')) as { answers: Expected[] };

const selectors: Record<string, unknown> = {
  'in-empty': { matchLabels: { app: 's' }, matchExpressions: [{ key: 'app', operator: 'In', values: [] }] },
  'bad-op': { matchLabels: { app: 's' }, matchExpressions: [{ key: 'app', operator: 'Foo', values: ['x'] }] },
  'bad-key': { matchLabels: { 'bad key': 'v' } },
  'bad-value': { matchLabels: { app: 'bad value' } },
  empty: {},
  nil: null,
  'exists-values': { matchExpressions: [{ key: 'app', operator: 'Exists', values: ['s'] }] },
  mismatch: { matchLabels: { app: 'other' } },
};
const kinds: Record<string, [string, string]> = { Deployment: ['apps/v1', 'deployments'], ReplicaSet: ['apps/v1', 'replicasets'], StatefulSet: ['apps/v1', 'statefulsets'], DaemonSet: ['apps/v1', 'daemonsets'], Job: ['batch/v1', 'jobs'] };

async function run(s: Send): Promise<void> {
  const created = await s('POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'sel' } }));
  expect(created.status, created.text).to.equal(201);
  expect(fixture.answers).to.have.length(40);
  for (const want of fixture.answers) {
    const [apiVersion, resource] = kinds[want.kind];
    const selector = selectors[want.case];
    const job = want.kind === 'Job';
    const spec = { ...(selector === null ? {} : { selector }), ...(job ? { manualSelector: true } : {}), template: { metadata: { labels: { app: 's' } }, spec: { ...(job ? { restartPolicy: 'Never' } : {}), containers: [{ name: 'c', image: 'x:1' }] } } };
    const a = await s('POST', `/apis/${apiVersion}/namespaces/sel/${resource}`, JSON.stringify({ apiVersion, kind: want.kind, metadata: { name: want.case }, spec }));
    const causes = a.status < 300 ? [] : ((JSON.parse(a.text) as { details?: { causes?: { field: string; message: string }[] } }).details?.causes ?? []).map((c) => `${c.field}: ${c.message}`).sort();
    expect([a.status, causes], `${want.kind} ${want.case}`).to.deep.equal([want.status, want.causes]);
  }
  // Template labels sent empty are an empty map to the validator ({}), left out they are nil (null).
  for (const [name, metadata, printed] of [['labels-empty', { labels: {} }, '{}'], ['labels-absent', {}, 'null']] as const) {
    const a = await s('POST', '/apis/apps/v1/namespaces/sel/deployments', JSON.stringify({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name }, spec: { selector: { matchLabels: { app: 's' } }, template: { metadata, spec: { containers: [{ name: 'c', image: 'x:1' }] } } } }));
    expect(a.message, name).to.equal(`Deployment.apps "${name}" is invalid: spec.template.metadata.labels: Invalid value: ${printed}: \`selector\` does not match template \`labels\``);
  }
  // The immutable selector is quoted as Go marshals a LabelSelector.
  const D = '/apis/apps/v1/namespaces/sel/deployments';
  const d = await s('POST', D, JSON.stringify({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'imm' }, spec: { selector: { matchLabels: { app: 's' } }, template: { metadata: { labels: { app: 's', b: 'c' } }, spec: { containers: [{ name: 'c', image: 'x:1' }] } } } }));
  expect(d.status, d.text).to.equal(201);
  const u = await s('PATCH', `${D}/imm`, JSON.stringify({ spec: { selector: { matchExpressions: [{ key: 'b', operator: 'In', values: ['c'] }] } } }), 'application/merge-patch+json');
  expect(u.message).to.equal('Deployment.apps "imm" is invalid: spec.selector: Invalid value: {"matchLabels":{"app":"s"},"matchExpressions":[{"key":"b","operator":"In","values":["c"]}]}: field is immutable');
}

describeOnBothServers('the selectors of the apps kinds and Jobs, validated in each kind\'s order', run);
