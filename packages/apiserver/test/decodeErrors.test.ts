// Bodies Go cannot decode: the 400s (and 422s) of creates and patches whose JSON is malformed or of the
// wrong shape. The expected answers are kube-apiserver v1.34.4's, asked with these very bodies
// (handlers/rest.go transformDecodeError, runtime/serializer/json/meta.go Interpret, handlers/patch.go
// applyJSPatch; the differential suite's cr/create-get-update-conflict and cr/merge-and-json-patch).
import { expect } from 'chai';
import type { ApiServer } from '@kubekit/apiserver';
import { Client, createCRD, start } from './internal/client.js';
import { widgetCRD, widgets } from './internal/hostile.js';

const unrecognized = (words: string, body: string): string =>
  `the object provided is unrecognized (must be of type Widget): couldn't get version/kind; json parse error: ${words} (${body})`;
const findKind = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

describe('decoding request bodies as the apiserver does', () => {
  let server: ApiServer;
  let client: Client;

  before(async () => {
    ({ server, client } = await start());
    await createCRD(server, client, widgetCRD());
    const res = await client.post(widgets(), { apiVersion: 'hostile.example.com/v1', kind: 'Widget', metadata: { name: 'w1' }, spec: { data: { a: 1 } } });
    expect(res.status, res.text).to.equal(201);
  });

  after(() => server.close());

  const creates: [string, string][] = [
    ['{"apiVersion": ', unrecognized('unexpected end of JSON input', '{"apiVersion": ')],
    ['', unrecognized('unexpected end of JSON input', '<empty>')],
    ['{"a":1}x', unrecognized("invalid character 'x' after top-level value", '{"a":1}x')],
    ['nope', unrecognized("invalid character 'o' in literal null (expecting 'u')", '6e6f7065')],
    ['[1 2]', unrecognized("invalid character '2' after array element", '5b3120325d')],
    ['{"a":tru}', unrecognized("invalid character '}' in literal true (expecting 'e')", '{"a":tru}')],
    ['[]', unrecognized(`json: cannot unmarshal array into Go value of type ${findKind}`, '5b5d')],
    ['12', unrecognized(`json: cannot unmarshal number into Go value of type ${findKind}`, '3132')],
    ['{"apiVersion":{"x":1}}', unrecognized('json: cannot unmarshal object into Go struct field .apiVersion of type string', '{"apiVersion":{"x":1}}')],
    ['{"apiVersion":"v1","kind":5}', unrecognized('json: cannot unmarshal number into Go struct field .kind of type string', '{"apiVersion":"v1","kind":5}')],
    ['null', "the object provided is unrecognized (must be of type Widget): Object 'Kind' is missing in 'null' (6e756c6c)"],
    ['{"a":1}  ', "the object provided is unrecognized (must be of type Widget): Object 'Kind' is missing in '{\"a\":1}  ' ({\"a\":1}  )"],
    ['{"apiVersion":"hostile.example.com/v1","metadata":{"name":"x"}}',
      "the object provided is unrecognized (must be of type Widget): Object 'Kind' is missing in '{\"apiVersion\":\"hostile.example.com/v1\",\"metadata\":{\"name\":\"x\"}}' ({\"apiVersion\":\"hostile.example ...)"],
    ['{"kind":"Widget","metadata":{"name":"x"}}', 'the API version in the data () does not match the expected API version (hostile.example.com/v1)'],
  ];
  for (const [body, message] of creates) {
    it(`answers a create with ${JSON.stringify(body)} in Go's words`, async () => {
      const res = await client.request('POST', widgets(), body);
      expect(res.status, res.text).to.equal(400);
      expect(res.body.reason).to.equal('BadRequest');
      expect(res.body.message).to.equal(message);
    });
  }

  const merge = 'application/merge-patch+json';
  const json = 'application/json-patch+json';
  const patches: [query: string, contentType: string, body: string, code: number, message: string | undefined][] = [
    ['', merge, '{', 400, 'error decoding patch: unexpected end of JSON input'],
    ['', merge, 'x', 400, "error decoding patch: invalid character 'x' looking for beginning of value"],
    ['', merge, '[]', 400, 'error decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}'],
    ['', merge, '"s"', 400, 'error decoding patch: json: cannot unmarshal string into Go value of type map[string]interface {}'],
    ['', merge, 'null', 400, 'Invalid JSON Patch'],
    ['?fieldValidation=Ignore', merge, '{', 400, 'Invalid JSON Patch'],
    ['?fieldValidation=Ignore', merge, '"s"', 400, 'Invalid JSON Patch'],
    ['', json, '{', 400, 'error decoding patch: unexpected end of JSON input'],
    ['', json, '{"op":"add"}', 400, 'error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp'],
    ['', json, '[1]', 400, 'error decoding patch: json: cannot unmarshal number into Go value of type handlers.jsonPatchOp'],
    ['', json, '[{"op":5,"path":"/a"}]', 400, 'error decoding patch: json: cannot unmarshal number into Go struct field jsonPatchOp.op of type string'],
    ['', json, '[{"op":"add","path":"/spec/x","value":1,"from":7}]', 400, 'error decoding patch: json: cannot unmarshal number into Go struct field jsonPatchOp.from of type string'],
    ['', json, 'null', 200, undefined],
    ['', json, '[null]', 422, 'the server rejected our request due to an error in our request'],
    ['', json, '[{"op":"frobnicate","path":"/spec"}]', 422, 'the server rejected our request due to an error in our request'],
    ['', json, '[{"op":"test","path":"/spec/data/a","value":2}]', 422, 'the server rejected our request due to an error in our request'],
    ['', json, '[{"op":"remove","path":"/spec/nope"}]', 422, 'the server rejected our request due to an error in our request'],
    ['?fieldValidation=Ignore', json, '{', 400, 'unexpected end of JSON input'],
    ['?fieldValidation=Ignore', json, '{"op":"add"}', 400, 'json: cannot unmarshal object into Go value of type jsonpatch.Patch'],
    ['?fieldValidation=Ignore', json, '[1]', 400, 'json: cannot unmarshal number into Go value of type jsonpatch.Operation'],
    ['?fieldValidation=Ignore', json, '[{"op":5,"path":"/a"}]', 422, 'the server rejected our request due to an error in our request'],
  ];
  for (const [query, contentType, body, code, message] of patches) {
    it(`answers a ${contentType.split('/')[1]} ${JSON.stringify(body)}${query} with ${code}`, async () => {
      const res = await client.request('PATCH', `${widgets()}/w1${query}`, body, contentType);
      expect(res.status, res.text).to.equal(code);
      if (message !== undefined) expect(res.body.message).to.equal(message);
      if (code === 422) expect(res.body.details).to.deep.equal({});
    });
  }

  it('reads a null body of a built-in kind as an empty object, as its typed decoder does', async () => {
    const res = await client.request('POST', '/api/v1/namespaces/default/configmaps', 'null');
    expect(res.status, res.text).to.equal(422);
    expect(res.body.message).to.equal('ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required');
  });

  it('answers a strategic merge patch of the wrong shape with the map decoder\'s words', async () => {
    expect((await client.post('/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c1' } })).status).to.equal(201);
    const smp = 'application/strategic-merge-patch+json';
    const cm = '/api/v1/namespaces/default/configmaps/c1';
    expect((await client.request('PATCH', cm, '{', smp)).body.message).to.equal('unexpected end of JSON input');
    expect((await client.request('PATCH', cm, '[]', smp)).body.message).to.equal('json: cannot unmarshal array into Go value of type map[string]interface {}');
    expect((await client.request('PATCH', cm, 'null', smp)).status).to.equal(200);
  });

  // handlers/patch.go: a patch's strict decoding errors are a 422 on `patch` that quotes the patched
  // object (JSON and merge patches) or the patch (strategic); field_validation_test.go's
  // testFieldValidationPatchCRD and the reference's answers to these patches.
  it('answers a Strict merge patch with unknown and duplicate fields with a 422 quoting the patched object', async () => {
    const res = await client.request('PATCH', `${widgets()}/w1?fieldValidation=Strict`, '{"spec":{"data":{"a":1,"a":2}},"bogus":1}', merge);
    expect(res.status, res.text).to.equal(422);
    expect(res.body.reason).to.equal('Invalid');
    const [cause] = res.body.details.causes as { field: string; message: string }[];
    expect(cause.field).to.equal('patch');
    const m = /^Invalid value: "(.*)": strict decoding error: duplicate field "spec\.data\.a", unknown field "bogus"$/.exec(cause.message);
    expect(m, cause.message).to.not.equal(null);
    const patched = JSON.parse(`"${m![1]}"`) as string;
    expect(patched.startsWith('{"apiVersion":"hostile.example.com/v1","bogus":1,"kind":"Widget","metadata":{'), patched).to.equal(true);
    expect(JSON.parse(patched).spec.data).to.deep.equal({ a: 2 });
    expect(res.body.message).to.equal(` "" is invalid: patch: ${cause.message}`);
  });

  it('prefixes the strict decoding errors of a JSON patch\'s operations with "json patch "', async () => {
    const body = '[{"op":"replace","op":"replace","path":"/spec/mode","value":"z","bogus":1}]';
    const res = await client.request('PATCH', `${widgets()}/w1?fieldValidation=Strict`, body, json);
    expect(res.status, res.text).to.equal(422);
    expect(res.body.details.causes[0].message).to.match(/": strict decoding error: json patch duplicate field "\[0\]\.op", json patch unknown field "\[0\]\.bogus"$/);
    const warned = await client.request('PATCH', `${widgets()}/w1?fieldValidation=Warn`, body, json);
    expect(warned.status, warned.text).to.equal(200);
    expect(warned.headers.get('warning')).to.equal('299 - "json patch duplicate field \\"[0].op\\"", 299 - "json patch unknown field \\"[0].bogus\\""');
  });

  it('answers a Strict strategic merge patch with a duplicate field quoting the patch as %+v', async () => {
    expect((await client.post('/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c2' } })).status).to.equal(201);
    const res = await client.request('PATCH', '/api/v1/namespaces/default/configmaps/c2?fieldValidation=Strict', '{"data":{"a":"1","a":"2"},"binaryData":null}', 'application/strategic-merge-patch+json');
    expect(res.status, res.text).to.equal(422);
    expect(res.body.message).to.equal(' "" is invalid: patch: Invalid value: "map[binaryData:<nil> data:map[a:2]]": strict decoding error: duplicate field "data.a"');
  });

  it('answers a JSON patch that sets a stale resourceVersion with 409 Conflict, as the store compares it', async () => {
    const res = await client.request('PATCH', `${widgets()}/w1`, JSON.stringify([{ op: 'replace', path: '/metadata/resourceVersion', value: '1' }, { op: 'replace', path: '/spec/mode', value: 'x' }]), json);
    expect(res.status, res.text).to.equal(409);
    expect(res.body.message).to.equal('Operation cannot be fulfilled on widgets.hostile.example.com "w1": the object has been modified; please apply your changes to the latest version and try again');
    const ok = await client.request('PATCH', `${widgets()}/w1`, JSON.stringify([{ op: 'replace', path: '/spec/mode', value: 'x' }]), json);
    expect(ok.status, ok.text).to.equal(200);
  });
});
