// The pull policy kube-apiserver 1.34.4 defaults (SetDefaults_Container) depends on how
// parsers.ParseImageName reads the image: `Always` for a `latest` tag or for neither tag nor digest, and
// `IfNotPresent` otherwise, also for an image that does not parse (uppercase in the repository, `a//b`, a
// tag over 128 characters, a digest of an unknown algorithm or the wrong length). kubekit guessed from the
// last colon: it gave `Always` to images that do not parse and `IfNotPresent` to `a:latest@sha256:…`.
import { expect } from 'chai';
import { describeOnBothServers, type Send } from './sender.js';

const zeros = (n: number): string => '0'.repeat(n);
const expected: [string, 'Always' | 'IfNotPresent'][] = [
  ['nginx', 'Always'], ['Nginx', 'IfNotPresent'], [`a:latest@sha256:${zeros(64)}`, 'Always'], [`a@sha256:${zeros(64)}`, 'IfNotPresent'], ['a@sha256:abc', 'IfNotPresent'],
  ['UPPER/x:1', 'IfNotPresent'], ['UPPER/x', 'Always'], ['a//b', 'IfNotPresent'], ['localhost:5000/x', 'Always'], [`x:${'a'.repeat(129)}`, 'IfNotPresent'],
  [`a@sha512:${zeros(128)}`, 'IfNotPresent'], [`a@md5:${zeros(32)}`, 'IfNotPresent'], ['a.b', 'Always'], ['a__b', 'Always'], ['a___b', 'IfNotPresent'],
  ['[::1]:5000/x', 'Always'], ['example.com/a/B:1', 'IfNotPresent'], ['example.com/a:latest', 'Always'],
];

async function run(s: Send): Promise<void> {
  const created = await s('POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'pull' } }));
  expect(created.status, created.text).to.equal(201);
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: expected.map(([image], i) => ({ name: `c${i}`, image })) } };
  const a = await s('POST', '/api/v1/namespaces/pull/pods?dryRun=All', JSON.stringify(pod));
  expect(a.status, a.text).to.equal(201);
  const containers = (JSON.parse(a.text) as { spec: { containers: { image: string; imagePullPolicy: string }[] } }).spec.containers;
  expect(containers.map((c) => [c.image, c.imagePullPolicy])).to.deep.equal(expected);
}

describeOnBothServers('the image pull policy defaulted from how the image reference parses', run);
