// A strategic merge patch's result is not decoded but converted into the kind's Go type with
// runtime.DefaultUnstructuredConverter.FromUnstructuredWithValidation (apiserver handlers/patch.go,
// strategicPatchObject → applyPatchToObject; apimachinery runtime/converter.go fromUnstructured), which has
// words of its own and converts integers as Go does. Every answer below is kube-apiserver 1.34.4's,
// asked with the same requests (the hostile differential suite, seed 20261228, found the first of them).
import { expect } from 'chai';
import type { ApiServer } from '@kubekit/apiserver';
import { Client, start } from './internal/client.js';

const cms = '/api/v1/namespaces/default/configmaps';
const pods = '/api/v1/namespaces/default/pods';
const deployments = '/apis/apps/v1/namespaces/default/deployments';
const P = `${pods}/p`;
const C = `${cms}/a`;
const D = `${deployments}/d`;

/** [what is patched, the patch (or its text), the converter's words in the 422 on `patch`]. */
const refused: [string, unknown, string][] = [
  [P, { spec: 'x' }, 'cannot restore struct from: string'],
  [C, { metadata: { labels: 'x' } }, 'cannot restore map from string'],
  [P, { spec: { containers: [{ name: 'c', ports: [{ containerPort: '80' }] }] } }, 'unrecognized type: int32'],
  [P, { spec: { containers: [{ name: 'c', ports: [{ containerPort: 1.5 }] }] } }, 'cannot convert float64 to int32'],
  [P, { metadata: { creationTimestamp: 5 } }, 'json: cannot unmarshal number into Go value of type string'],
  [P, { metadata: { creationTimestamp: 'yesterday' } }, 'parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"'],
  [P, { spec: { containers: [{ name: 'c', resources: { limits: { cpu: { a: 1 } } } }] } }, "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"],
  [P, { spec: { containers: [{ name: 'c', resources: { limits: { cpu: true } } }] } }, "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"],
  [P, { spec: { priority: true } }, 'unrecognized type: int32'],
  [P, { spec: { enableServiceLinks: 'yes' } }, 'unrecognized type: bool'],
  [C, { binaryData: { k: '!!!' } }, 'error decoding from json: illegal base64 data at input byte 0'],
  [C, { binaryData: { k: 5 } }, 'cannot restore slice from int64'],
  [C, { binaryData: { k: ['a'] } }, 'unrecognized type: uint8'],
  [C, { binaryData: { k: [1.5] } }, 'cannot convert float64 to uint8'],
  [C, { metadata: { uid: 5 } }, 'cannot convert int64 to types.UID'],
  // The first failure in the struct's declaration order: metadata before data, immutable before data.
  [C, { metadata: { labels: { a: 5 } }, data: { x: 5 } }, 'cannot convert int64 to string'],
  [C, { data: { x: 5 }, immutable: 'x' }, 'unrecognized type: bool'],
  [C, { data: { x: { a: 'b' } } }, 'unrecognized type: string'],
  [C, { data: { nw: ['a'] } }, 'unrecognized type: string'],
  [C, { data: { x: false } }, 'unrecognized type: string'],
  [C, { data: { nw: 5 } }, 'cannot convert int64 to string'],
  [C, '{"data":{"__proto__":{"polluted":"yes"}}}', 'unrecognized type: string'],
  [C, { data: { nw: { $retainKeys: [] } } }, 'unrecognized type: string'],
  [C, { data: { nw: {} } }, 'unrecognized type: string'],
  [C, { binaryData: { nw: { a: 'b' } } }, 'cannot restore slice from map'],
  [D, { spec: { strategy: { rollingUpdate: { maxSurge: { a: 1 } } } } }, 'json: cannot unmarshal object into Go value of type int32'],
  [D, { spec: { strategy: { rollingUpdate: { maxSurge: 1.5 } } } }, 'json: cannot unmarshal number 1.5 into Go value of type int32'],
  [D, { spec: { strategy: { rollingUpdate: { maxSurge: 4294967296 } } } }, 'json: cannot unmarshal number 4294967296 into Go value of type int32'],
  [D, { spec: { strategy: { rollingUpdate: { maxSurge: true } } } }, 'json: cannot unmarshal bool into Go value of type int32'],
  [P, { spec: { containers: [{ name: 'c', image: 1.5 }] } }, 'unrecognized type: string'],
  [P, { spec: { activeDeadlineSeconds: '5' } }, 'unrecognized type: int64'],
  [P, { spec: { activeDeadlineSeconds: 5.5 } }, 'cannot convert float64 to int64'],
  [P, { spec: { tolerations: 'x' } }, 'cannot restore slice from string'],
  [P, { spec: { tolerations: [5] } }, 'cannot restore struct from: int64'],
  [P, { spec: { nodeSelector: [] } }, 'cannot restore map from slice'],
  [P, { spec: { containers: [{ name: 'c', env: [{ name: 'E', value: 5 }] }] } }, 'cannot convert int64 to string'],
  [C, { metadata: { managedFields: [{ manager: 5 }] } }, 'cannot convert int64 to string'],
  [P, { spec: { overhead: 'x' } }, 'cannot restore map from string'],
  [P, { spec: { containers: [{ name: 'c', securityContext: { runAsUser: false } }] } }, 'unrecognized type: int64'],
  [C, { metadata: { deletionGracePeriodSeconds: 'x' } }, 'unrecognized type: int64'],
  [P, { spec: { activeDeadlineSeconds: { a: 1 } } }, 'unrecognized type: int64'],
  [P, { spec: { containers: { a: 1 } } }, 'cannot restore slice from map'],
];

describe('strategic merge patch: the result converted into the Go type, as kube-apiserver 1.34.4 converts it', () => {
  let server: ApiServer;
  let client: Client;

  before(async () => {
    ({ server, client } = await start());
    expect((await client.post(cms, { metadata: { name: 'a', labels: { l: 'v' } }, data: { x: '1' } })).status).to.equal(201);
    expect((await client.post(pods, { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i' }] } })).status).to.equal(201);
    expect((await client.post(deployments, {
      metadata: { name: 'd' },
      spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } },
    })).status).to.equal(201);
  });

  after(() => server.close());

  it('refuses values the converter cannot convert, in its words, and stores nothing', async () => {
    const before = await Promise.all([P, C, D].map(async (path) => (await client.get(path)).body.metadata.resourceVersion as string));
    for (const [path, patch, message] of refused) {
      const text = typeof patch === 'string' ? patch : JSON.stringify(patch);
      const r = await client.request('PATCH', path, text, 'application/strategic-merge-patch+json');
      expect(r.status, text).to.equal(422);
      expect(r.body.details.causes, text).to.have.length(1);
      expect(r.body.details.causes[0].field, text).to.equal('patch');
      expect(r.body.details.causes[0].message, text).to.match(/^Invalid value: "map\[.*\]": /);
      expect(r.body.details.causes[0].message.replace(/^Invalid value: "(?:[^"\\]|\\.)*": /, ''), text).to.equal(message);
    }
    const after = await Promise.all([P, C, D].map(async (path) => (await client.get(path)).body.metadata.resourceVersion as string));
    expect(after).to.deep.equal(before);
  });

  it('still decodes a merge patch of the same values, in encoding/json\'s words', async () => {
    const r = await client.patch(C, { data: { x: 5 } }, 'merge');
    expect(r.body.details.causes[0].message).to.match(/json: cannot unmarshal number into Go struct field ConfigMap\.data of type string$/);
  });

  it('converts integers as Go converts them: wrapped to the field\'s size', async () => {
    const smp = 'application/strategic-merge-patch+json';
    const d = await client.request('PATCH', D, JSON.stringify({ spec: { replicas: 4294967298, template: { spec: { containers: [{ name: 'c', ports: [{ containerPort: 4294967377 }] }] } } } }), smp);
    expect(d.status).to.equal(200);
    expect([d.body.spec.replicas, d.body.spec.template.spec.containers[0].ports]).to.deep.equal([2, [{ containerPort: 81, protocol: 'TCP' }]]);
    expect((await client.request('PATCH', D, '{"spec":{"replicas":-4294967295}}', smp)).body.spec.replicas).to.equal(1);
    // Beyond int64, a float64: amd64's truncation gives 1<<63, whose low 32 bits are 0.
    expect((await client.request('PATCH', D, '{"spec":{"replicas":9223372036854775807000}}', smp)).body.spec.replicas).to.equal(0);
    // Bytes given as a list of numbers are bytes, written in base64.
    const c = await client.request('PATCH', C, '{"binaryData":{"k":[1,258,-1]}}', smp);
    expect([c.status, c.body.binaryData]).to.deep.equal([200, { k: 'AQL/' }]);
  });

  // strategicpatch/patch.go mergeMap: where the original holds no value of the patch value's type, the
  // patch's value is taken with its nulls discarded and its directives removed (removeDirectives): a
  // map holding `$patch`, whatever its value, takes its key away. kubekit merged it into an empty map.
  it('takes a patch value with nothing of its type to merge into without its nulls and directives', async () => {
    const smp = 'application/strategic-merge-patch+json';
    expect((await client.post(cms, { metadata: { name: 'd', labels: { l: 'v' } }, data: { x: '1', y: '2' } })).status).to.equal(201);
    expect((await client.post(cms, { metadata: { name: 'e' } })).status).to.equal(201);
    const cases: [string, string, unknown][] = [
      ['d', '{"data":{"nw":{"$patch":"delete"}}}', { x: '1', y: '2' }],
      ['d', '{"data":{"x":{"$patch":"delete"}}}', { y: '2' }],
      ['d', '{"data":{"nw":{"$patch":"replace","a":"b"}}}', { y: '2' }],
      ['d', '{"data":{"nw":{"$patch":"bogus"}}}', { y: '2' }],
      ['e', '{"data":{"nw":{"$patch":"delete"}}}', undefined],
      ['e', '{"data":{"k":"v","$patch":"replace"}}', undefined],
      ['e', '{"data":{"k":"v","n":null}}', { k: 'v' }],
    ];
    for (const [name, patch, data] of cases) {
      const r = await client.request('PATCH', `${cms}/${name}`, patch, smp);
      expect([r.status, r.body.data], patch).to.deep.equal([200, data]);
    }
    expect((await client.request('PATCH', `${cms}/d`, '{"metadata":{"labels":{"n":{"$patch":"delete"}}}}', smp)).body.metadata.labels).to.deep.equal({ l: 'v' });
    // The patch quoted in an error is the patch as the merge left it: its nulls discarded.
    const r = await client.request('PATCH', `${cms}/d`, '{"data":{"nw":{"a":null}}}', smp);
    expect(r.body.details.causes[0].message).to.equal('Invalid value: "map[data:map[nw:map[]]]": unrecognized type: string');
  });

  // forked json fields.go LookupPatchMetadataForStruct, reached by mergePatchIntoOriginal for each
  // `$setElementOrder/<list>`: kube-apiserver 1.34.4 answers 500 with these words; kubekit 400 (the request is at fault).
  it('refuses a $setElementOrder naming a member the Go struct lacks', async () => {
    const smp = 'application/strategic-merge-patch+json';
    const cases: [string, string, string][] = [
      [C, '{"$setElementOrder/finalizers":["a"]}', 'unable to find api field in struct ConfigMap for the json field "finalizers"'],
      [C, '{"metadata":{"$setElementOrder/bogus":["x"]}}', 'unable to find api field in struct ObjectMeta for the json field "bogus"'],
      [C, '{"data":{"$setElementOrder/x":["a"]}}', 'merging an object in json but data type is not struct, instead is: map'],
      [P, '{"spec":{"$setElementOrder/bogus":[{"name":"c"}]}}', 'unable to find api field in struct PodSpec for the json field "bogus"'],
      [P, '{"spec":{"containers":[{"name":"c","$setElementOrder/bogus":["a"]}]}}', 'unable to find api field in struct Container for the json field "bogus"'],
      [P, '{"spec":{"securityContext":{"$setElementOrder/bogus":[]}}}', 'unable to find api field in struct PodSecurityContext for the json field "bogus"'],
    ];
    for (const [path, patch, message] of cases) {
      const r = await client.request('PATCH', path, patch, smp);
      expect([r.status, r.body.message], patch).to.deep.equal([400, message]);
    }
    expect((await client.request('PATCH', P, '{"spec":{"$setElementOrder/containers":[{"name":"c"}]}}', smp)).status).to.equal(200);
  });
});
