// Differences from kube-apiserver 1.34.4 that the hostile differential suite (test/differential/hostile.test.ts)
// found, each fixed and pinned here with the reference's answer and the upstream source that makes it.
import { expect } from 'chai';
import type { ApiServer } from '@kubekit/apiserver';
import { Client, createCRD, start } from './internal/client.js';
import { expectPristinePrototypes, widgetCRD, widgets } from './internal/hostile.js';

const widget = (name: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ apiVersion: 'hostile.example.com/v1', kind: 'Widget', metadata: { name }, spec: { data: {} }, ...extra });
const cms = '/api/v1/namespaces/default/configmaps';

describe('hostile input: parity with kube-apiserver 1.34.4 (found by the hostile differential suite)', () => {
  let server: ApiServer;
  let client: Client;

  before(async () => {
    ({ server, client } = await start());
    await createCRD(server, client, widgetCRD());
    expect((await client.post(cms, { metadata: { name: 'cm' }, data: { a: '1' } })).status).to.equal(201);
    expect((await client.post(widgets(), widget('w'))).status).to.equal(201);
  });

  after(async () => {
    await server.close();
    expectPristinePrototypes();
  });

  // k8s.io/api/core/v1 ConfigMap.Data is map[string]string: decoding a patched object into it fails, and
  // handlers/patch.go answers a 422 on `patch` quoting the patched object. A merge patch stored `data: []` before.
  it('refuses a patch that gives a ConfigMap data of the wrong type, and stores nothing', async () => {
    for (const body of ['{"data":[]}', '{"data":{"k":1}}', '{"data":{"__proto__":{"polluted":"yes"}}}']) {
      const r = await client.request('PATCH', `${cms}/cm`, body, 'application/merge-patch+json');
      expect(r.status, body).to.equal(422);
      expect(r.body.details.causes[0].field).to.equal('patch');
      expect(r.body.details.causes[0].message).to.match(/": json: cannot unmarshal (array|number|object) into Go struct field ConfigMap\.data of type (map\[string\]string|string)$/);
    }
    expect((await client.get(`${cms}/cm`)).body.data).to.deep.equal({ a: '1' });
    const created = await client.post(cms, { metadata: { name: 'typed' }, data: { k: 1 } });
    expect(created.body.message).to.equal('ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string');
  });

  // registry/store.go Update: a resourceVersion the versioner parses as 0 ("", "0") is an unconditional
  // update, which custom resources do not allow (customResourceStrategy.AllowUnconditionalUpdate).
  it('takes a zero resourceVersion for none', async () => {
    const cr = await client.put(`${widgets()}/w`, widget('w', { metadata: { name: 'w', resourceVersion: '0' } }));
    expect(cr.status).to.equal(422);
    expect(cr.body.message).to.equal('widgets.hostile.example.com "w" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update');
    const patched = await client.patch(`${widgets()}/w`, { metadata: { resourceVersion: '' }, spec: { a: 1 } }, 'merge');
    expect(patched.status).to.equal(422);
    expect((await client.put(`${cms}/cm`, { metadata: { name: 'cm', resourceVersion: '0' }, data: { a: '1' } })).status).to.equal(200);
  });

  // handlers/rest.go checkName on the patched object; ContextBasedNaming.Name (errEmptyName) for a
  // custom resource collection; go-restful has no PUT route on a built-in collection.
  it('checks the name of what a patch makes and refuses writes to a collection', async () => {
    const renamed = await client.patch(`${cms}/cm`, { metadata: { name: 'other' } }, 'merge');
    expect([renamed.status, renamed.body.message]).to.deep.equal([400, 'the name of the object (other) does not match the name on the URL (cm)']);
    const emptied = await client.request('PATCH', `${cms}/cm`, '[{"op":"remove","path":"/metadata/name"}]', 'application/json-patch+json');
    expect([emptied.status, emptied.body.message]).to.deep.equal([400, 'the name of the object (cm based on URL) was undeterminable: name must be provided']);
    const put = await client.put(widgets(), {});
    expect([put.status, put.body.message]).to.deep.equal([400, 'name must be provided']);
    expect((await client.put(cms, {})).status).to.equal(405);
  });

  // The query's conversions: runtime.Convert_Slice_string_To_Pointer_int64 (strconv.ParseInt) and _bool
  // (false only for 0, f, false, n, no).
  it('converts query parameters as apimachinery does', async () => {
    const grace = await client.delete(`${cms}/cm?gracePeriodSeconds=abc`);
    expect([grace.status, grace.body.message]).to.deep.equal([400, 'strconv.ParseInt: parsing "abc": invalid syntax']);
    expect((await client.get(`${cms}/cm`)).status).to.equal(200);
    const applied = await client.request('PATCH', `${widgets()}/w?fieldManager=other&force=maybe`, 'apiVersion: hostile.example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  data:\n    x: 1\n', 'application/apply-patch+yaml');
    expect(applied.status, applied.text).to.equal(200);
  });

  // meta/internalversion/validation: kube-apiserver 1.34.4 refuses a watch's continue token.
  it('refuses a watch with a continue token', async () => {
    const r = await client.get(`${widgets()}?watch=true&continue=abc`);
    expect([r.status, r.body.message]).to.deep.equal([422, 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided']);
  });

  // handlers/patch.go applyPatcher: the YAML is unmarshalled into a map (go-yaml reads the first document and
  // refuses bytes that are not UTF-8), then the field manager checks the group, version and kind.
  it('decodes an apply as the apply patcher does', async () => {
    const apply = (body: string | Uint8Array) => fetch(`${client.baseUrl}${widgets()}/w?fieldManager=m&force=true`, { method: 'PATCH', headers: { 'Content-Type': 'application/apply-patch+yaml' }, body }).then(async (r) => ({ status: r.status, body: await r.json() as { message: string } }));
    expect(await apply('null\n')).to.deep.include({ status: 400 });
    expect((await apply('null\n')).body.message).to.equal('invalid object type: /, Kind=');
    expect((await apply('apiVersion: hostile.example.com/v2\nkind: Widget\nmetadata:\n  name: w\n')).body.message).to.equal('invalid object type: hostile.example.com/v2, Kind=Widget');
    expect((await apply('- a\n')).body.message).to.equal('error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal array into Go value of type map[string]interface {}');
    const two = await apply('apiVersion: hostile.example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  data:\n    doc: one\n---\napiVersion: hostile.example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  data:\n    doc: two\n');
    expect(two.status).to.equal(200);
    const bad = Buffer.concat([Buffer.from('apiVersion: hostile.example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  data:\n    s: "'), Buffer.from([0xff]), Buffer.from('"\n')]);
    expect((await apply(bad)).body.message).to.equal('error decoding YAML: error converting YAML to JSON: yaml: invalid leading UTF-8 octet');
    const elsewhere = await fetch(`${client.baseUrl}${widgets()}/new?fieldManager=m`, { method: 'PATCH', headers: { 'Content-Type': 'application/apply-patch+yaml' }, body: 'apiVersion: hostile.example.com/v1\nkind: Widget\nmetadata:\n  name: elsewhere\n' });
    expect(elsewhere.status).to.equal(400);
    expect((await client.get(`${widgets()}/elsewhere`)).status).to.equal(404);
  });

  // The codec factory serves JSON, YAML and protobuf for objects (a patch media type is no object's); the
  // DeleteOptions decoder knows only meta kinds; sigs.k8s.io/yaml turns go-yaml's !!binary bytes into a string.
  it('refuses patch media types for objects and other kinds as DeleteOptions, and reads !!binary as its bytes', async () => {
    const created = await client.request('POST', cms, '{"metadata":{"name":"ct"}}', 'application/json-patch+json');
    expect([created.status, created.body.message]).to.deep.equal([415, 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf']);
    const other = await client.put(`${cms}/cm`, { apiVersion: 'apps/v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { a: '1' } });
    expect([other.status, other.body.message]).to.deep.equal([400, 'ConfigMap in version "v1" cannot be handled as a ConfigMap: no kind "ConfigMap" is registered for version "apps/v1" in scheme "pkg/runtime/scheme.go:110"']);
    expect((await client.request('DELETE', `${cms}/cm?dryRun=All`, 'null')).status).to.equal(200);
    const del = await client.delete(`${cms}/cm`, { kind: 'Pod', apiVersion: 'v1' });
    expect([del.status, del.body.message]).to.deep.equal([400, 'no kind "Pod" is registered for version "v1" in scheme "pkg/runtime/scheme.go:110"']);
    expect((await client.get(`${cms}/cm`)).status).to.equal(200);
    const bin = await client.request('PATCH', `${widgets()}/bin?fieldManager=m`, 'apiVersion: hostile.example.com/v1\nkind: Widget\nmetadata:\n  name: bin\nspec:\n  data:\n    b: !!binary aGVsbG8=\n', 'application/apply-patch+yaml');
    expect(bin.status, bin.text).to.equal(201);
    expect(bin.body.spec.data).to.deep.equal({ b: 'hello' });
  });

  // handlers/patch.go reads the current object inside GuaranteedUpdate before it decodes the patch; a
  // Namespace's spec.finalizers is []v1.FinalizerName (k8s.io/api/core/v1).
  it('answers a patch of a missing object 404 whatever its body, and types namespace finalizers', async () => {
    const missing = await client.request('PATCH', `${widgets()}/ghost`, '', 'application/merge-patch+json');
    expect([missing.status, missing.body.message]).to.deep.equal([404, 'widgets.hostile.example.com "ghost" not found']);
    expect((await client.post('/api/v1/namespaces', { metadata: { name: 'typed' } })).status).to.equal(201);
    const r = await client.request('PATCH', '/api/v1/namespaces/typed?fieldValidation=Ignore', '[{"op":"add","path":"/spec/finalizers","value":{"__proto__":{"polluted":"yes"}}}]', 'application/json-patch+json');
    expect(r.status).to.equal(422);
    expect(r.body.details.causes[0].message).to.match(/": json: cannot unmarshal object into Go struct field NamespaceSpec\.spec\.finalizers of type \[\]v1\.FinalizerName$/);
  });

  // encoding/json's convertNumber: a number float64 cannot hold is an UnmarshalTypeError.
  it('refuses numbers beyond float64 where encoding/json does', async () => {
    const put = await client.request('PUT', `${widgets()}/w`, '{"apiVersion":"hostile.example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"f":1e400}}');
    expect([put.status, put.body.message]).to.deep.equal([400, 'Widget in version "v1" cannot be handled as a Widget: json: cannot unmarshal number 1e400 into Go value of type float64']);
    const patch = await client.request('PATCH', `${widgets()}/w`, '[{"op":"add","path":"/spec/f","value":1e400}]', 'application/json-patch+json');
    expect([patch.status, patch.body.message]).to.deep.equal([400, 'error decoding patch: json: cannot unmarshal number 1e400 into Go struct field jsonPatchOp.value of type float64']);
  });

  // pkg/registry/core/namespace strategy PrepareForUpdate keeps spec.finalizers (only /finalize changes them);
  // pkg/apis/core/validation validateKubeFinalizerName; apiextensions-apiserver's finalizer warnings.
  it('keeps namespace finalizers, checks core finalizer names and warns about custom resource ones', async () => {
    expect((await client.post('/api/v1/namespaces', { metadata: { name: 'fin' } })).status).to.equal(201);
    const r = await client.request('PATCH', '/api/v1/namespaces/fin', '[{"op":"remove","path":"/spec/finalizers"}]', 'application/json-patch+json');
    expect(r.body.spec).to.deep.equal({ finalizers: ['kubernetes'] });
    const bad = await client.post(cms, { metadata: { name: 'fin', finalizers: ['Bad'] } });
    expect([bad.status, bad.body.message]).to.deep.equal([422, 'ConfigMap "fin" is invalid: metadata.finalizers[0]: Invalid value: "Bad": name is neither a standard finalizer name nor is it fully qualified']);
    const cr = await client.post(widgets(), widget('fin', { metadata: { name: 'fin', finalizers: ['Bad', 'kubernetes'] } }));
    expect(cr.status).to.equal(201);
    expect(cr.headers.get('warning')).to.equal('299 - "metadata.finalizers: \\"Bad\\": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers"');
  });

  // rest.BeforeUpdate's validateCommonFields and the ConfigMap strategy both validate the metadata: the
  // causes list a bad label four times (the message once).
  it('lists an update\'s metadata errors as often as the apiserver does', async () => {
    const r = await client.request('PUT', `${cms}/cm`, '{"metadata":{"name":"cm","labels":{"__proto__":"x"}},"data":{"a":"1"}}');
    expect(r.status).to.equal(422);
    expect(r.body.details.causes).to.have.length(4);
    const slashes = await client.post(cms, { metadata: { name: 'slashes', finalizers: ['a/b/c'] } });
    expect(slashes.body.message).to.match(/^ConfigMap "slashes" is invalid: metadata\.finalizers: Invalid value: "a\/b\/c": a qualified name must consist of /);
    const label = await client.post(cms, { metadata: { name: 'long', labels: { k: 'v'.repeat(64) } } });
    expect(label.body.message).to.equal(`ConfigMap "long" is invalid: metadata.labels: Invalid value: "${'v'.repeat(64)}": must be no more than 63 characters`);
  });

  // storage/etcd3 store.Create refuses an object that carries a resource version
  // (storage.ErrResourceVersionSetOnCreate): a plain error, which the handler answers as a 500 whose
  // Status has no reason (StatusReasonUnknown is ""). ObjectResourceVersion parses it with
  // strconv.ParseUint: "", "0" and what is not an unsigned integer pass. The dry-run storage creates
  // nothing and checks nothing: it answers the object as it came, resource version included.
  it('refuses to create an object that carries a resource version, as the storage does (answered 201 before)', async () => {
    for (const rv of ['5', '05', '18446744073709551615']) {
      const r = await client.post(cms, { metadata: { name: `with-rv-${rv.length}`, resourceVersion: rv } });
      expect(r.status, rv).to.equal(500);
      expect(r.body).to.deep.equal({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'resourceVersion should not be set on objects to be created', code: 500 });
      expect((await client.get(`${cms}/with-rv-${rv.length}`)).status, rv).to.equal(404);
    }
    const cr = await client.post(widgets(), widget('with-rv', { metadata: { name: 'with-rv', resourceVersion: '12' } }));
    expect(cr.status).to.equal(500);
    for (const rv of ['', '0', 'abc', '-1', '18446744073709551616']) {
      const r = await client.post(cms, { metadata: { name: `ok-rv-${['', '0', 'abc', '-1', '18446744073709551616'].indexOf(rv)}`, resourceVersion: rv } });
      expect(r.status, JSON.stringify(rv)).to.equal(201);
      expect(r.body.metadata.resourceVersion, rv).to.match(/^[1-9]\d*$/);
    }
    const dry = await client.post(`${cms}?dryRun=All`, { metadata: { name: 'dry-rv', resourceVersion: '7' } });
    expect(dry.status).to.equal(201);
    expect(dry.body.metadata.resourceVersion).to.equal('7');
  });

  // rest.BeforeCreate and rest.BeforeUpdate clear the namespace of a cluster-scoped object
  // (`objectMeta.SetNamespace(metav1.NamespaceNone)`) before validation: manifests that carry one (kustomize
  // output often does) are created on a cluster. It was refused (metadata.namespace: Forbidden).
  it('clears the namespace of a cluster-scoped object on create and update, as the apiserver does (was a 422)', async () => {
    const created = await client.post('/api/v1/namespaces', { metadata: { name: 'cluster-scoped-ns', namespace: 'other' } });
    expect(created.status).to.equal(201);
    expect(created.body.metadata.namespace).to.equal(undefined);
    const updated = await client.request('PUT', '/api/v1/namespaces/cluster-scoped-ns', JSON.stringify({ ...created.body, metadata: { ...created.body.metadata, namespace: 'other', labels: { a: 'b' } } }), 'application/json');
    expect(updated.status).to.equal(200);
    expect(updated.body.metadata.namespace).to.equal(undefined);
    expect(updated.body.metadata.labels.a).to.equal('b');
  });

  // encoding/json's UnmarshalTypeError names a JSON boolean "bool" (decode.go literalStore), not "boolean".
  it('names a boolean "bool" when it does not decode into the kind\'s Go type', async () => {
    const created = await client.post(cms, { metadata: { name: 'bool-data' }, data: { k: true } });
    expect(created.body.message).to.equal('ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal bool into Go struct field ConfigMap.data of type string');
    const meta = await client.post(cms, { metadata: { name: true } });
    expect(meta.body.message).to.match(/json: cannot unmarshal bool into Go struct field ObjectMeta\.metadata\.name of type string$/);
  });

  // A body the codec finds no kind in (YAML that does not parse, protobuf without its prefix, an empty
  // protobuf body): handlers/create.go's transformDecodeError words it with the first 30 bytes of the body
  // (hex unless it starts with "{"). kubekit answered "error converting YAML to JSON: …" and "unable to
  // decode the protobuf request body". The YAML syntax error's own words are go-yaml's on the reference.
  it('words a body it finds no kind in as the handler does, with a summary of the body', async () => {
    const yaml = await client.request('POST', cms, 'a: [\n', 'application/yaml');
    expect(yaml.status).to.equal(400);
    expect(yaml.body.message).to.match(/^the object provided is unrecognized \(must be of type ConfigMap\): .+ \(613a205b0a\)$/s);
    const cases: [string, string][] = [
      ['{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"ct"}}', 'provided data does not appear to be a protobuf message, expected prefix [107 56 115 0] ({"apiVersion":"v1","kind":"Con ...)'],
      ['abc', 'provided data does not appear to be a protobuf message, expected prefix [107 56 115 0] (616263)'],
      ['', 'empty data (<empty>)'],
    ];
    for (const [body, words] of cases) {
      const r = await client.request('POST', cms, body, 'application/vnd.kubernetes.protobuf');
      expect([r.status, r.body.message], body).to.deep.equal([400, `the object provided is unrecognized (must be of type ConfigMap): ${words}`]);
    }
  });

  // The codec decodes a body as the kind it names when the scheme knows it in that version, then fails
  // to convert it to the URL's kind (a Secret sent to the ConfigMaps): no unknown-field warnings, no
  // kind-mismatch text. kubekit answered "the kind in the data (Secret) does not match …" before.
  it('decodes a body of another known kind as that kind, then refuses the conversion, as the codec does', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ kind: 'Secret', data: { a: '1' } }, 'Secret in version "v1" cannot be handled as a ConfigMap: illegal base64 data at input byte 0'],
      [{ kind: 'Secret', data: { a: 'YQ==' }, unknownThing: 1 }, 'Secret in version "v1" cannot be handled as a ConfigMap: converting (v1.Secret) to (core.ConfigMap): unknown conversion'],
      [{ kind: 'Pod', spec: 5 }, 'Pod in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field Pod.spec of type v1.PodSpec'],
    ];
    for (const [body, message] of cases) {
      const r = await client.post(`${cms}?fieldValidation=Strict`, { apiVersion: 'v1', metadata: { name: 'other-kind' }, ...body });
      expect([r.status, r.body.message, r.headers.get('warning')]).to.deep.equal([400, message, null]);
    }
  });
});
