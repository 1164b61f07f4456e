// The pods/ephemeralcontainers subresource as kube-apiserver v1.34.4 serves it: podEphemeralContainersStrategy
// (pkg/registry/core/pod/strategy.go) and ValidatePodEphemeralContainersUpdate (pkg/apis/core/validation),
// cases after upstream's TestValidatePodEphemeralContainersUpdate. Every expected message is the reference
// server's answer to the same request (the differential scenario builtin/pod-ephemeral-containers asks both).
import { expect } from 'chai';
import type { ApiServer } from '@kubekit/apiserver';
import { start, type Client } from './internal/client.js';

const strategic = 'application/strategic-merge-patch+json';
const jsonPatch = 'application/json-patch+json';
const pods = '/api/v1/namespaces/default/pods';
const ephemeral = `${pods}/web/ephemeralcontainers`;

describe('pods/ephemeralcontainers', function () {
  this.timeout(30_000);
  let server: ApiServer;
  let client: Client;
  before(async () => {
    ({ server, client } = await start());
    await client.post(pods, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
  });
  after(() => server.close());

  it('reads the pod and adds an ephemeral container, defaulted, with a new generation', async () => {
    expect((await client.get(ephemeral)).body.kind).to.equal('Pod');
    const r = await client.request('PATCH', ephemeral, { spec: { ephemeralContainers: [{ name: 'debug', image: 'busybox', stdin: true, targetContainerName: 'c' }] } }, strategic);
    expect(r.status).to.equal(200);
    expect(r.body.metadata.generation).to.equal(2);
    expect(r.body.spec.ephemeralContainers).to.deep.equal([{
      name: 'debug', image: 'busybox', stdin: true, targetContainerName: 'c', resources: {},
      terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', imagePullPolicy: 'Always',
    }]);
  });

  it('changes nothing but the ephemeral containers (the rest of the spec and the labels stay)', async () => {
    const r = await client.request('PATCH', ephemeral, { metadata: { labels: { app: 'other' } }, spec: { containers: [{ name: 'c', image: 'other' }], ephemeralContainers: [{ name: 'debug2', image: 'busybox' }] } }, strategic);
    expect(r.status).to.equal(200);
    expect(r.body.metadata.labels).to.deep.equal({ app: 'web' });
    expect(r.body.spec.containers[0].image).to.equal('nginx');
    expect((r.body.spec.ephemeralContainers as { name: string }[]).map((c) => c.name)).to.deep.equal(['debug2', 'debug']);
  });

  it('refuses an invalid ephemeral container in the apiserver\'s words and order', async () => {
    const r = await client.request('PATCH', ephemeral, { spec: { ephemeralContainers: [{ name: 'Bad_Name', image: 'busybox', ports: [{ containerPort: 80 }], volumeMounts: [{ name: 'x', mountPath: '/x', subPath: 'y' }] }] } }, strategic);
    expect(r.status).to.equal(422);
    expect(r.body.message).to.equal('Pod "web" is invalid: [spec.ephemeralContainers[0].name: Invalid value: "Bad_Name": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\', and must start and end with an alphanumeric character (e.g. \'my-name\',  or \'123-abc\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?\'), spec.ephemeralContainers[0].volumeMounts[0].name: Not found: "x", spec.ephemeralContainers[0].ports: Forbidden: cannot be set for an Ephemeral Container, spec.ephemeralContainers[0].volumeMounts[0].subPath: Forbidden: cannot be set for an Ephemeral Container]');
    const target = await client.request('PATCH', ephemeral, { spec: { ephemeralContainers: [{ name: 'debug3', image: 'busybox', targetContainerName: 'nope' }] } }, strategic);
    expect(target.body.message).to.equal('Pod "web" is invalid: spec.ephemeralContainers[0].targetContainerName: Not found: "nope"');
  });

  it('refuses changing or removing an existing ephemeral container', async () => {
    const changed = await client.request('PATCH', ephemeral, [{ op: 'replace', path: '/spec/ephemeralContainers/1/image', value: 'alpine' }], jsonPatch);
    expect(changed.status).to.equal(422);
    // The apiserver follows the sentence with a go-cmp diff; kubekit names the changed fields.
    expect(changed.body.message).to.equal('Pod "web" is invalid: spec.ephemeralContainers: Forbidden: existing ephemeral containers "debug" may not be changed\n(changed: image)');
    const removed = await client.request('PATCH', ephemeral, [{ op: 'remove', path: '/spec/ephemeralContainers/0' }], jsonPatch);
    expect(removed.body.message).to.equal('Pod "web" is invalid: spec.ephemeralContainers: Forbidden: existing ephemeral containers "debug2" may not be removed\n');
  });

  it('serves get, patch and update only, and lists the subresource in discovery', async () => {
    expect((await client.request('DELETE', ephemeral)).status).to.equal(405);
    expect((await client.post(ephemeral, {})).status).to.equal(405);
    expect((await client.get(`${pods}/nope/ephemeralcontainers`)).body.message).to.equal('pods "nope" not found');
    const resources = (await client.get('/api/v1')).body.resources as { name: string; verbs: string[] }[];
    expect(resources.find((r) => r.name === 'pods/ephemeralcontainers')).to.deep.include({ kind: 'Pod', verbs: ['get', 'patch', 'update'] });
  });
});
