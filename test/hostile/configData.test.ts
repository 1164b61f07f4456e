// How kube-apiserver 1.34.4 validates Secrets, ConfigMaps and a Namespace's finalizers (ValidateSecret,
// ValidateSecretUpdate, ValidateConfigMap, ValidateConfigMapUpdate, ValidateNamespace, and the namespace
// strategy): what each Secret type requires (a TLS secret's certificate and key, a docker config that is a
// JSON object, basic-auth and ssh-auth keys, a service account token's annotation), 1 MiB of data at most,
// a ConfigMap key in data or binaryData but not both, `immutable` kept once set (with the data), a Secret's
// type immutable, and a Namespace's own finalizers validated and kept beside `kubernetes`. kubekit checked
// keys only, let immutable ConfigMaps and Secrets change, and replaced a Namespace's finalizers. The
// expected answers are the reference's, recorded in fixtures/configData.json; to record them again:
// KUBEKIT_RECORD_CONFIGDATA=1 npx mocha test/hostile/configData.test.ts.
import { expect } from 'chai';
import { readFileSync, writeFileSync } from 'node:fs';
import { describeOnBothServers, type Send } from './sender.js';

const fixtureURL = new URL('./fixtures/configData.json', import.meta.url);
const b64 = (t: string): string => Buffer.from(t).toString('base64');

const secrets: Record<string, unknown>[] = [
  { type: 'kubernetes.io/tls', data: { 'tls.crt': b64('x') } },
  { type: 'kubernetes.io/tls', data: {} },
  { type: 'kubernetes.io/tls', stringData: { 'tls.crt': 'x', 'tls.key': 'y' } },
  { type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': b64('x') } },
  { type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': b64('[1]') } },
  { type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': b64('{"auths":{}}') } },
  { type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': b64('') } },
  { type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': b64('{"a":') } },
  { type: 'kubernetes.io/dockercfg', data: {} },
  { type: 'kubernetes.io/basic-auth', data: { username: b64('u') } },
  { type: 'kubernetes.io/basic-auth', data: {} },
  { type: 'kubernetes.io/service-account-token', data: {} },
  { type: 'kubernetes.io/service-account-token', metadata: { annotations: { 'kubernetes.io/service-account.name': 'default' } } },
  { type: 'kubernetes.io/ssh-auth', data: { 'ssh-privatekey': '' } },
  { type: 'bootstrap.kubernetes.io/token', data: {} },
  { type: 'Bad Type!', data: {} },
  { data: { big: Buffer.alloc(1_100_000).toString('base64') } },
];
const configMaps: Record<string, unknown>[] = [
  { data: { a: 'x' }, binaryData: { a: b64('y') } },
  { data: { big: 'x'.repeat(1_100_000) } },
];

async function run(s: Send, backend: 'kubekit' | 'reference'): Promise<void> {
  const ns = 'configdata';
  const created = await s('POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }));
  expect(created.status, created.text).to.equal(201);
  const answers: string[] = [];
  const answer = (status: number, text: string, ok = ''): string => `${status} ${status >= 400 ? String((JSON.parse(text) as { message: string }).message) : ok}`;
  const label = (v: unknown): string => JSON.stringify(v).slice(0, 200);
  for (const [i, x] of secrets.entries()) {
    const { metadata, ...rest } = x as { metadata?: Record<string, unknown> };
    const a = await s('POST', `/api/v1/namespaces/${ns}/secrets`, JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: `s${i}`, ...metadata }, ...rest }));
    answers.push(`secret ${label(x)}: ${answer(a.status, a.text)}`);
  }
  for (const [i, x] of configMaps.entries()) {
    const a = await s('POST', `/api/v1/namespaces/${ns}/configmaps`, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `c${i}` }, ...x }));
    answers.push(`configmap ${label(x)}: ${answer(a.status, a.text)}`);
  }
  const made = await s('POST', `/api/v1/namespaces/${ns}/configmaps`, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'imm' }, data: { a: '1' }, immutable: true }));
  expect(made.status, made.text).to.equal(201);
  for (const p of [{ data: { a: '2' } }, { immutable: false }, { metadata: { labels: { x: 'y' } } }, { binaryData: { b: b64('z') } }]) {
    const a = await s('PATCH', `/api/v1/namespaces/${ns}/configmaps/imm`, JSON.stringify(p), 'application/merge-patch+json');
    answers.push(`immutable configmap patched with ${label(p)}: ${answer(a.status, a.text)}`);
  }
  const madeSecret = await s('POST', `/api/v1/namespaces/${ns}/secrets`, JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'simm' }, data: { a: b64('1') }, immutable: true }));
  expect(madeSecret.status, madeSecret.text).to.equal(201);
  for (const p of [{ data: { a: b64('2') } }, { immutable: false }, { type: 'kubernetes.io/tls' }, { stringData: { a: '1' } }]) {
    const a = await s('PATCH', `/api/v1/namespaces/${ns}/secrets/simm`, JSON.stringify(p), 'application/merge-patch+json');
    answers.push(`immutable secret patched with ${label(p)}: ${answer(a.status, a.text)}`);
  }
  for (const [i, finalizers] of [['Bad Finalizer'], ['custom'], ['example.com/x', 'kubernetes'], ['example.com/y']].entries()) {
    const a = await s('POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: `${ns}-n${i}` }, spec: { finalizers } }));
    answers.push(`namespace with finalizers ${label(finalizers)}: ${answer(a.status, a.text, JSON.stringify((JSON.parse(a.text) as { spec: unknown }).spec ?? null))}`);
  }
  if (backend === 'reference' && process.env.KUBEKIT_RECORD_CONFIGDATA === '1') writeFileSync(fixtureURL, JSON.stringify({ answers }, null, 1) + '\n');
  const fixture = JSON.parse(readFileSync(fixtureURL, 'utf8')) as { answers: string[] };
  expect(answers).to.have.length(fixture.answers.length);
  answers.forEach((a, i) => expect(a, `answer ${i}`).to.equal(fixture.answers[i]));
}

describeOnBothServers('Secrets, ConfigMaps and Namespace finalizers', run);
