// Issue 15, items 3, 4 and 6 checked against the real kube-apiserver (@kubekit/envtest, v1.34.4) when Go
// is on PATH, and against kubekit's embedded server always: each hostile request must get the same
// status and message from both, except where a difference is listed below with its reason.
import { expect } from 'chai';
import { describeOnBothServers, type Answer, type Send } from './sender.js';

const W = '/apis/hostile.example.com/v1/namespaces/default/widgets';
const widget = (name: string): string => JSON.stringify({ apiVersion: 'hostile.example.com/v1', kind: 'Widget', metadata: { name }, spec: { data: {} } });
const nested = (n: number): string => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
const deep = (n: number, name: string): string => `{"apiVersion":"hostile.example.com/v1","kind":"Widget","metadata":{"name":"${name}"},"spec":{"data":${nested(n)}}}`;
const crd = JSON.stringify({
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.hostile.example.com' },
  spec: {
    group: 'hostile.example.com', scope: 'Namespaced', names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    versions: [{ name: 'v1', served: true, storage: true, subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } },
      schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }, status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } } } }],
  },
});

/** One hostile request and what both servers answer (`status`, and the message or its start). */
interface Case { label: string; send: (s: Send) => Promise<Answer>; status: number; message?: string | RegExp; then?: (s: Send) => Promise<void> }

const cases: Case[] = [
  // Item 3: handlers/delete.go reads DeleteOptions from the body when there is one, else from the query.
  { label: 'DELETE with {"dryRun":["All"]} in the body', send: (s) => s('DELETE', `${W}/dry`, '{"kind":"DeleteOptions","apiVersion":"v1","dryRun":["All"]}'), status: 200,
    then: async (s) => { expect((await s('GET', `${W}/dry`)).status).to.equal(200); } },
  { label: 'DELETE with an unsupported dryRun in the body', send: (s) => s('DELETE', `${W}/dry`, '{"kind":"DeleteOptions","apiVersion":"v1","dryRun":["Some"]}'), status: 422,
    message: 'DeleteOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ["Some"]: supported values: "All"' },
  { label: 'DELETE with an unsupported dryRun in the query', send: (s) => s('DELETE', `${W}/dry?dryRun=Some`), status: 422,
    message: 'DeleteOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ["Some"]: supported values: "All"' },
  { label: 'DELETE with an unsupported propagationPolicy', send: (s) => s('DELETE', `${W}/dry`, '{"kind":"DeleteOptions","apiVersion":"v1","propagationPolicy":"Sideways"}'), status: 422,
    message: 'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"' },
  { label: 'DELETE ?dryRun=All with a body without dryRun (the query is not read)', send: (s) => s('DELETE', `${W}/dry?dryRun=All`, '{"kind":"DeleteOptions","apiVersion":"v1"}'), status: 200,
    then: async (s) => { expect((await s('GET', `${W}/dry`)).status).to.equal(404); } },
  // Item 4: encoding/json's and go-yaml's 10,000 levels, in each decoder's words (test/hostile/depth.test.ts
  // has every verb at 1,000 to 100,000 levels).
  { label: 'create nested 3,002 levels', send: (s) => s('POST', W, deep(3_000, 'deep3000')), status: 201 },
  { label: 'create nested past 10,000 levels', send: (s) => s('POST', W, deep(10_000, 'too')), status: 400,
    message: 'the object provided is unrecognized (must be of type Widget): couldn\'t get version/kind; json parse error: invalid character \'{\' exceeded max depth ({"apiVersion":"hostile.example ...)' },
  { label: 'update nested past 10,000 levels', send: (s) => s('PUT', `${W}/seed`, deep(10_000, 'seed')), status: 400,
    message: 'the object provided is unrecognized (must be of type Widget): couldn\'t get version/kind; json parse error: invalid character \'{\' exceeded max depth ({"apiVersion":"hostile.example ...)' },
  // encoding/json reports the first error in the text: a byte order mark before the excess (seeds 20270253, 20270254).
  { label: 'update nested past 10,000 levels after a byte order mark', send: (s) => s('PUT', `${W}/seed`, `\ufeff${deep(10_000, 'seed')}`), status: 400,
    message: 'the object provided is unrecognized (must be of type Widget): couldn\'t get version/kind; json parse error: invalid character \'ï\' looking for beginning of value (efbbbf7b2261706956657273696f6e223a22686f7374696c652e6578616d ...)' },
  { label: 'JSON patch nested past 10,000 levels after a byte order mark', send: (s) => s('PATCH', `${W}/seed`, `\ufeff[{"op":"add","path":"/spec/data/x","value":${nested(10_001)}}]`, 'application/json-patch+json'), status: 400,
    message: 'error decoding patch: invalid character \'ï\' looking for beginning of value' },
  { label: 'merge patch nested past 10,000 levels', send: (s) => s('PATCH', `${W}/seed`, `{"spec":{"data":${nested(10_001)}}}`, 'application/merge-patch+json'), status: 400, message: 'error decoding patch: invalid character \'{\' exceeded max depth' },
  { label: 'merge patch nested past 10,000 levels, fieldValidation=Ignore', send: (s) => s('PATCH', `${W}/seed?fieldValidation=Ignore`, `{"spec":{"data":${nested(10_001)}}}`, 'application/merge-patch+json'), status: 400, message: 'Invalid JSON Patch' },
  { label: 'JSON patch nested past 10,000 levels', send: (s) => s('PATCH', `${W}/seed`, `[{"op":"add","path":"/spec/data/x","value":${nested(10_001)}}]`, 'application/json-patch+json'), status: 400, message: 'error decoding patch: invalid character \'{\' exceeded max depth' },
  { label: 'JSON patch nested past 10,000 levels, fieldValidation=Ignore', send: (s) => s('PATCH', `${W}/seed?fieldValidation=Ignore`, `[{"op":"add","path":"/spec/data/x","value":${nested(10_001)}}]`, 'application/json-patch+json'), status: 400, message: 'invalid character \'{\' exceeded max depth' },
  { label: 'apply nested past 10,000 levels', send: (s) => s('PATCH', `${W}/seed?fieldManager=m`, deep(10_001, 'seed'), 'application/apply-patch+yaml'), status: 400, message: 'error decoding YAML: error converting YAML to JSON: yaml: exceeded max depth of 10000' },
  { label: 'strategic merge patch nested past 10,000 levels', send: (s) => s('PATCH', '/api/v1/namespaces/default/configmaps/cm', `{"metadata":{"annotations":${nested(10_001)}}}`, 'application/strategic-merge-patch+json'), status: 400, message: 'invalid character \'{\' exceeded max depth' },
  { label: 'YAML create nested past 10,000 levels', send: (s) => s('POST', W, `apiVersion: hostile.example.com/v1\nkind: Widget\nmetadata:\n  name: y\nspec:\n  data: ${'['.repeat(10_001)}${']'.repeat(10_001)}\n`, 'application/yaml'), status: 400,
    message: /^the object provided is unrecognized \(must be of type Widget\): yaml: line 6: exceeded max depth of 10000 \(61706956657273696f6e3a20686f7374696c652e6578616d706c652e636f \.\.\.\)$/ },
  { label: 'a JSON patch of 10,001 operations', send: (s) => s('PATCH', `${W}/seed`, JSON.stringify(Array.from({ length: 10_001 }, () => ({ op: 'test', path: '/kind', value: 'Widget' }))), 'application/json-patch+json'), status: 413,
    message: 'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001' },
  // Item 6: query parameters converted with strconv.ParseInt (runtime.Convert_Slice_string_To_int64).
  { label: 'limit=99999999999999999999999', send: (s) => s('GET', `${W}?limit=99999999999999999999999`), status: 400, message: 'strconv.ParseInt: parsing "99999999999999999999999": value out of range' },
  { label: 'limit=abc', send: (s) => s('GET', `${W}?limit=abc`), status: 400, message: 'strconv.ParseInt: parsing "abc": invalid syntax' },
  { label: 'limit= (empty)', send: (s) => s('GET', `${W}?limit=`), status: 400, message: 'strconv.ParseInt: parsing "": invalid syntax' },
  { label: 'list timeoutSeconds=1.5', send: (s) => s('GET', `${W}?timeoutSeconds=1.5`), status: 400, message: 'strconv.ParseInt: parsing "1.5": invalid syntax' },
  { label: 'watch timeoutSeconds=abc', send: (s) => s('GET', `${W}?watch=true&timeoutSeconds=abc`), status: 400, message: 'strconv.ParseInt: parsing "abc": invalid syntax' },
  // Ends at once: the real server may put one ERROR event ("context deadline exceeded") in the stream.
  { label: 'watch timeoutSeconds=-1', send: (s) => s('GET', `${W}?watch=true&timeoutSeconds=-1`), status: 200 },
  // Write options (ValidateCreateOptions / ValidatePatchOptions): every problem at once, 422 on the options kind.
  { label: 'create with dryRun=Some&fieldValidation=Nope', send: (s) => s('POST', `${W}?dryRun=Some&fieldValidation=Nope`, widget('opts')), status: 422,
    message: 'CreateOptions.meta.k8s.io "" is invalid: [dryRun: Unsupported value: ["Some"]: supported values: "All", fieldValidation: Unsupported value: "Nope": supported values: "", "Ignore", "Strict", "Warn"]' },
  { label: 'merge patch with force', send: (s) => s('PATCH', `${W}/seed?force=true`, '{}', 'application/merge-patch+json'), status: 422,
    message: 'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch' },
  { label: 'apply without fieldManager', send: (s) => s('PATCH', `${W}/seed`, widget('seed'), 'application/apply-patch+yaml'), status: 422,
    message: 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch' },
  { label: 'update with a fieldManager holding a control character', send: (s) => s('PUT', `${W}/seed?fieldManager=a%07b`, widget('seed')), status: 422,
    message: 'UpdateOptions.meta.k8s.io "" is invalid: fieldManager: Invalid value: "a\\ab": invalid character U+0007 (at position 1)' },
  // Server-side apply never creates through a subresource.
  { label: 'apply to the status of a missing object', send: (s) => s('PATCH', `${W}/ghost/status?fieldManager=m`, widget('ghost'), 'application/apply-patch+yaml'), status: 404, message: 'widgets.hostile.example.com "ghost" not found' },
  { label: 'apply to the scale of a missing object', send: (s) => s('PATCH', `${W}/ghost/scale?fieldManager=m`, widget('ghost'), 'application/apply-patch+yaml'), status: 404, message: 'widgets.hostile.example.com "ghost" not found' },
  // JSONPatchMaxCopyBytes (3 MiB): what a JSON patch's copies add is measured as the JSON of each copied value.
  // The real server answers every JSON patch failure with the generic 422 message ("the server rejected our
  // request due to an error in our request"); kubekit's says which operation failed and why.
  { label: 'merge patch adding a 100 KiB string', send: (s) => s('PATCH', `${W}/seed`, JSON.stringify({ spec: { data: { big: 'x'.repeat(100 * 1024) } } }), 'application/merge-patch+json'), status: 200 },
  { label: 'JSON patch copying it 30 times (3,072,060 bytes), dry run', send: (s) => s('PATCH', `${W}/seed?dryRun=All`, JSON.stringify(Array.from({ length: 30 }, (_, i) => ({ op: 'copy', from: '/spec/data/big', path: `/spec/data/c${i}` }))), 'application/json-patch+json'), status: 200 },
  { label: 'JSON patch copying it 31 times (3,174,462 bytes)', send: (s) => s('PATCH', `${W}/seed`, JSON.stringify(Array.from({ length: 31 }, (_, i) => ({ op: 'copy', from: '/spec/data/big', path: `/spec/data/c${i}` }))), 'application/json-patch+json'), status: 422 },
  { label: 'merge patch removing the string', send: (s) => s('PATCH', `${W}/seed`, '{"spec":{"data":{"big":null}}}', 'application/merge-patch+json'), status: 200 },
  // Strategic merge patch: a set list (finalizers) takes the patch's order, the other values keep their places.
  { label: 'strategic merge patch adding finalizers', send: (s) => s('PATCH', '/api/v1/namespaces/default/configmaps/cm', '{"metadata":{"finalizers":["example.com/b","example.com/a"]}}', 'application/strategic-merge-patch+json'), status: 200 },
  { label: 'strategic merge patch adding one before them', send: (s) => s('PATCH', '/api/v1/namespaces/default/configmaps/cm', '{"metadata":{"finalizers":["example.com/z","example.com/a"]}}', 'application/strategic-merge-patch+json'), status: 200,
    then: async (s) => { expect(JSON.parse((await s('GET', '/api/v1/namespaces/default/configmaps/cm')).text).metadata.finalizers).to.deep.equal(['example.com/z', 'example.com/b', 'example.com/a']); } },
  { label: 'strategic merge patch with a $retainKeys that misses a key it sets', send: (s) => s('PATCH', '/api/v1/namespaces/default/configmaps/cm', '{"metadata":{"$retainKeys":["name"],"finalizers":null,"labels":{"a":"b"}}}', 'application/strategic-merge-patch+json'), status: 400,
    message: 'invalid patch format of retainKeys' },
  { label: 'strategic merge patch removing the finalizers', send: (s) => s('PATCH', '/api/v1/namespaces/default/configmaps/cm', '{"metadata":{"finalizers":null}}', 'application/strategic-merge-patch+json'), status: 200 },
  { label: 'JSON patch through /__proto__', send: (s) => s('PATCH', `${W}/seed`, '[{"op":"add","path":"/__proto__/polluted","value":"x"}]', 'application/json-patch+json'), status: 422 },
  { label: 'JSON patch adding a __proto__ member', send: (s) => s('PATCH', `${W}/seed`, '[{"op":"add","path":"/spec/data/__proto__","value":{"a":1}}]', 'application/json-patch+json'), status: 200 },
];

/** Where kubekit answers otherwise than the real server, and why. */
const differences: Record<string, { reference: Omit<Case, 'label' | 'send'>; kubekit: Omit<Case, 'label' | 'send'>; why: string }> = {
  'update with metadata.resourceVersion "abc"': {
    reference: { status: 500, message: 'strconv.ParseUint: parsing "abc": invalid syntax' },
    kubekit: { status: 422, message: 'Widget.hostile.example.com "seed" is invalid: metadata.resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax' },
    why: 'registry/store.go Update returns ObjectResourceVersion\'s parse error unwrapped (a 500); kubekit answers 422 with the same text, never a 5xx',
  },
};

async function run(send: Send, backend: 'kubekit' | 'reference'): Promise<void> {
  expect((await send('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd)).status).to.equal(201);
  for (let i = 0; i < 120 && (await send('GET', W)).status !== 200; i++) await new Promise((r) => setTimeout(r, 250));
  for (const name of ['seed', 'dry']) expect((await send('POST', W, widget(name))).status).to.equal(201);
  expect((await send('POST', '/api/v1/namespaces/default/configmaps', '{"metadata":{"name":"cm"}}')).status).to.equal(201);
  for (const c of cases) {
    const a = await c.send(send);
    expect(a.status, `${backend}: ${c.label}: ${a.text.slice(0, 300)}`).to.equal(c.status);
    if (typeof c.message === 'string') expect(a.message, `${backend}: ${c.label}`).to.equal(c.message);
    else if (c.message !== undefined) expect(a.message, `${backend}: ${c.label}`).to.match(c.message);
    await c.then?.(send);
  }
  const answers: Record<string, Answer> = {
    'update with metadata.resourceVersion "abc"': await send('PUT', `${W}/seed`, widget('seed').replace('"name":"seed"', '"name":"seed","resourceVersion":"abc"')),
  };
  for (const [label, d] of Object.entries(differences)) {
    const want = d[backend];
    expect(answers[label].status, `${backend}: ${label} (${d.why})`).to.equal(want.status);
    if (typeof want.message === 'string') expect(answers[label].message, `${backend}: ${label}`).to.equal(want.message);
  }
}

describeOnBothServers('hostile input: the apiserver\'s answers, kubekit and the real kube-apiserver', run);
