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
    // A merge patch is decoded to look for duplicate fields (Strict, and Warn, the default), for every kind
    // (kube-apiserver 1.34.4; kubekit merged it and stored null for a custom resource before).
    const overflow = (n: string): string => `error decoding patch: json: cannot unmarshal number ${n} into Go value of type float64`;
    await client.post(cms, { metadata: { name: 'huge' }, data: { a: '1' } });
    for (const fv of ['', '&fieldValidation=Warn', '&fieldValidation=Strict']) {
      const cm = await client.request('PATCH', `${cms}/huge?dryRun=All${fv}`, '{"data":{"x":"1"},"n":-1e400}', 'application/merge-patch+json');
      expect([cm.status, cm.body.message], fv).to.deep.equal([400, overflow('-1e400')]);
      const cr = await client.request('PATCH', `${widgets()}/w?dryRun=All${fv}`, '{"spec":{"f":1e400}}', 'application/merge-patch+json');
      expect([cr.status, cr.body.message], fv).to.deep.equal([400, overflow('1e400')]);
    }
    // Under Ignore the patch is merged as text: a ConfigMap drops the unknown member, a custom resource's
    // decoder refuses the result (a 422 on patch; the apiserver's quote of the result has 1e400 where kubekit's has null).
    expect((await client.request('PATCH', `${cms}/huge?fieldValidation=Ignore`, '{"data":{"x":"1"},"n":-1e400}', 'application/merge-patch+json')).status).to.equal(200);
    const ignored = await client.request('PATCH', `${widgets()}/w?fieldValidation=Ignore`, '{"spec":{"f":1e400}}', 'application/merge-patch+json');
    expect([ignored.status, ignored.body.reason, ignored.body.details.causes[0].field]).to.deep.equal([422, 'Invalid', 'patch']);
    expect(ignored.body.message).to.match(/: json: cannot unmarshal number 1e400 into Go value of type float64$/);
    expect((await client.get(`${widgets()}/w`)).body.spec?.f).to.equal(undefined);
  });

  // pkg/registry/core/namespace strategy PrepareForUpdate keeps spec.finalizers (only /finalize changes them);
  // pkg/apis/core/validation validateKubeFinalizerName; apiextensions-apiserver's finalizer warnings.
  // The patcher re-marshals a patch's result from a Go map (sorted keys), and the strict decoder reports
  // unknown fields in the order it meets them (kube-apiserver 1.34.4; seed 20261130 case 1 of the hostile
  // differential: kubekit named metadata.toString first, in the order the merge left the members).
  it('warns about a patch result\'s unknown fields in sorted order', async () => {
    await client.post(cms, { metadata: { name: 'order' }, data: { a: '1' } });
    const r = await client.request('PATCH', `${cms}/order?dryRun=All`, '{"metadata":{"toString":"t"},"constructor":{"prototype":{"polluted":"yes"}},"b":1}', 'application/merge-patch+json');
    expect([r.status, r.headers.get('warning')]).to.deep.equal([200, '299 - "unknown field \\"b\\"", 299 - "unknown field \\"constructor\\"", 299 - "unknown field \\"metadata.toString\\""']);
    // A create's body is read as written.
    const created = await client.request('POST', `${cms}?dryRun=All`, '{"metadata":{"name":"o2","toString":"t"},"constructor":1,"b":1}');
    expect(created.headers.get('warning')).to.equal('299 - "unknown field \\"metadata.toString\\"", 299 - "unknown field \\"constructor\\"", 299 - "unknown field \\"b\\""');
  });

  // A JSON patch that breaks a custom resource's apiVersion or kind: the patcher reads the result's type
  // into two strings, then the accessors, then validates the apiVersion (kube-apiserver 1.34.4; seed 20261127
  // case 4 of the hostile differential: kubekit answered the create body's 400 "Object 'apiVersion' is missing").
  it('answers a JSON patch that breaks a custom resource\'s apiVersion or kind as the patcher does', async () => {
    await client.post(widgets(), widget('typed'));
    const patch = async (path: string, value: unknown): Promise<[number, string]> => {
      const r = await client.request('PATCH', `${widgets()}/typed?dryRun=All`, JSON.stringify([{ op: 'replace', path, value }]), 'application/json-patch+json');
      return [r.status, String(r.body.message).replace(/^ "" is invalid: patch: Invalid value: "\{.*\}": /s, '<patch>: ')];
    };
    expect(await patch('/apiVersion', { k: 'v' })).to.deep.equal([422, '<patch>: couldn\'t get version/kind; json parse error: json: cannot unmarshal object into Go struct field .apiVersion of type string']);
    expect(await patch('/kind', 5)).to.deep.equal([422, '<patch>: couldn\'t get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string']);
    expect(await patch('/apiVersion', null)).to.deep.equal([422, '<patch>: .apiVersion accessor error: <nil> is of the type <nil>, expected string']);
    expect((await patch('/kind', null))[1]).to.match(/^<patch>: Object 'Kind' is missing in '\{"apiVersion":"hostile.example.com\/v1","kind":null,"metadata":\{"creationTimestamp":/);
    expect(await patch('/apiVersion', 'other.example.com/v1')).to.deep.equal([422, 'Widget.other.example.com "typed" is invalid: apiVersion: Invalid value: "other.example.com/v1": must be hostile.example.com/v1']);
  });

  // The apply patcher checks duplicate keys with a strict YAML decoding of its own, after the field manager
  // applied the configuration (handlers/patch.go, applyPatcher.applyPatchToCurrentObject): conflicts first,
  // then "error strict decoding YAML: …" (Strict) or a warning per key (Warn), in go-yaml's words even for a
  // configuration written as JSON (kube-apiserver 1.34.4; seed 20261202 case 15 of the hostile differential).
  it('checks an apply configuration\'s duplicate keys as the apply patcher does, after its conflicts', async () => {
    const dupYAML = (name: string): string => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  a: one\n  a: two\n`;
    const apply = (name: string, query: string, body = dupYAML(name)): Promise<{ status: number; body: any; headers: Headers }> => // eslint-disable-line @typescript-eslint/no-explicit-any
      client.request('PATCH', `${cms}/${name}?fieldManager=m&${query}`, body, 'application/apply-patch+yaml');
    const strict = 'error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  line 7: key "a" already set in map';
    expect([(await apply('dup1', 'fieldValidation=Strict')).body.message]).to.deep.equal([strict]);
    const warned = await apply('dup2', 'fieldValidation=Warn');
    expect([warned.status, warned.headers.get('warning'), warned.body.data]).to.deep.equal([201, '299 - "line 7: key \\"a\\" already set in map"', { a: 'two' }]);
    const json = await apply('dup3', 'fieldValidation=Strict', '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"dup3"},"data":{"a":"one","a":"two"}}');
    expect(json.body.message).to.equal(strict.replace('line 7', 'line 1'));
    await client.request('POST', `${cms}?fieldManager=owner`, { metadata: { name: 'dup4' }, data: { a: 'zero' } });
    expect((await apply('dup4', 'fieldValidation=Strict')).status).to.equal(409);
    expect((await apply('dup4', 'fieldValidation=Strict&force=true')).body.message).to.equal(strict);
    // Regression (found in review): a JSON-written configuration nested 9,000 levels ran the YAML parser out of
    // memory and killed the process; a deep one keeps JSON's words for its duplicates.
    const deep = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"deep"},"z":${'{"a":'.repeat(9000)}1${'}'.repeat(9000)}}`;
    const answered = await apply('deep', 'fieldValidation=Warn&dryRun=All', deep);
    expect([answered.status, answered.body.message]).to.deep.equal([400, 'failed to create typed patch object (/deep; /v1, Kind=ConfigMap): .z: field not declared in schema']);
  });

  // The patcher checks the name of every patch's result, an apply's included (handlers/rest.go checkName):
  // a configuration without a name that creates is a 400, not the validation's 422 (seed 20261209 case 4).
  it('refuses an apply that would create an object without a name, as checkName does', async () => {
    const r = await client.request('PATCH', `${widgets()}/unnamed?fieldManager=m`, 'apiVersion: hostile.example.com/v1\nkind: Widget\nspec:\n  data: {}\n', 'application/apply-patch+yaml');
    expect([r.status, r.body.message]).to.deep.equal([400, 'the name of the object (unnamed based on URL) was undeterminable: name must be provided']);
  });

  // A YAML body with no document (empty, `null`, `~`, a comment, `---`) is null, as a JSON `null` is: a
  // built-in kind decodes it as an empty object (the validation's 422), a custom resource finds no kind in
  // it, quoting the body as sent (kube-apiserver 1.34.4; seed 20261216 case 1 of the hostile differential).
  it('takes an empty YAML body as null, as a JSON null', async () => {
    for (const body of ['', 'null', '~', '# just a comment\n', '---\n']) {
      const cm = await client.request('POST', `${cms}?dryRun=All`, body, 'application/yaml');
      expect([cm.status, cm.body.message], JSON.stringify(body)).to.deep.equal([422, 'ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required']);
    }
    const cr = await client.request('POST', `${widgets()}?dryRun=All`, '# c\n', 'application/yaml');
    expect([cr.status, cr.body.message]).to.deep.equal([400, "the object provided is unrecognized (must be of type Widget): Object 'Kind' is missing in '# c\n' (2320630a)"]);
  });

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

  // crdHandler.serveResource answers a POST on an object's URL with handlers.CreateResource, which takes
  // the name from the body (createHandler's Namer.Name is read only for the namespace) and never compares
  // it with the URL's; built-in kinds have no POST route there (405). kubekit answered 405 for both.
  it('creates a custom resource posted to an object\'s URL under the body\'s name', async () => {
    const created = await client.post(`${widgets()}/w2`, widget('zz'));
    expect([created.status, created.body.metadata.name, created.body.metadata.namespace]).to.deep.equal([201, 'zz', 'default']);
    expect((await client.get(`${widgets()}/zz`)).status).to.equal(200);
    expect((await client.get(`${widgets()}/w2`)).status).to.equal(404);
    const again = await client.post(`${widgets()}/w3`, widget('zz'));
    expect([again.status, again.body.message]).to.deep.equal([409, 'widgets.hostile.example.com "zz" already exists']);
    const nameless = await client.post(`${widgets()}/w4`, { apiVersion: 'hostile.example.com/v1', kind: 'Widget', metadata: {} });
    expect([nameless.status, nameless.body.message]).to.deep.equal([422, 'Widget.hostile.example.com "" is invalid: metadata.name: Required value: name or generateName is required']);
    const otherNamespace = await client.post(`${widgets()}/w5`, widget('q', { metadata: { name: 'q', namespace: 'other' } }));
    expect([otherNamespace.status, otherNamespace.body.message]).to.deep.equal([400, 'the namespace of the provided object does not match the namespace sent on the request']);
    expect((await client.post(`${cms}/c1`, { metadata: { name: 'c2' } })).status).to.equal(405);
    // A namespaced kind without a namespace in the URL: the custom resource handler's scope check sends
    // everything but list and watch to the not-found handler; built-in kinds list there and have no
    // other route (405 for the collection, 404 for an object).
    expect((await client.post('/apis/hostile.example.com/v1/widgets/w6', widget('q6'))).status).to.equal(404);
    expect((await client.post('/apis/hostile.example.com/v1/widgets', widget('q7'))).status).to.equal(404);
    expect((await client.delete('/apis/hostile.example.com/v1/widgets')).status).to.equal(404);
    expect((await client.get('/apis/hostile.example.com/v1/widgets')).status).to.equal(200);
    expect((await client.post('/api/v1/configmaps', { metadata: { name: 'c3' } })).status).to.equal(405);
    expect((await client.post('/api/v1/configmaps/x', { metadata: { name: 'c4' } })).status).to.equal(404);
    expect((await client.get(`${widgets()}/q6`)).status).to.equal(404);
  });

  // requestinfo.go splitPath trims the slashes at both ends only: in `widgets//zz` the name is empty
  // and `zz` is a subresource, which the custom resource handler answers as a missing object named ""
  // (go-restful has no route for a built-in kind's); a trailing slash is no segment.
  it('keeps an empty path segment as the apiserver does', async () => {
    expect((await client.post(widgets(), widget('seg'))).status).to.equal(201);
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const r = await client.request(method, `${widgets()}//seg`, method === 'PUT' ? widget('seg') : undefined);
      expect([r.status, r.body.message, r.body.details], method).to.deep.equal([404, 'widgets.hostile.example.com "" not found', { group: 'hostile.example.com', kind: 'widgets' }]);
    }
    expect((await client.get(`${widgets()}/seg/`)).status).to.equal(200);
    const cm = await client.get(`${cms}//cm`);
    expect([cm.status, cm.body.message]).to.deep.equal([404, 'the server could not find the requested resource']);
    expect((await client.get('/api/v1//namespaces/default')).status).to.equal(404);
    expect((await client.get('/apis/hostile.example.com//v1/namespaces/default/widgets')).status).to.equal(404);
  });

  // requestinfo.go reads `watch` (ListOptions) only when the URL names no object; the GET of an object's
  // URL is handlers.GetResource whatever the query says. kubekit watched for `true` and `1`, and answered
  // 404 for other values on a custom resource.
  it('answers a GET of an object\'s URL with the object whatever its watch parameter', async () => {
    for (const value of ['true', '1', 'True', 't', '0', '', 'false', 'yes']) {
      const cr = await client.get(`${widgets()}/w?watch=${value}&timeoutSeconds=1`);
      expect([cr.status, cr.body.kind, cr.body.metadata?.name], value).to.deep.equal([200, 'Widget', 'w']);
      const cm = await client.get(`${cms}/cm?watch=${value}&timeoutSeconds=1`);
      expect([cm.status, cm.body.kind], value).to.deep.equal([200, 'ConfigMap']);
    }
  });

  // apimachinery's JSON decoding of unstructured objects (util/json convertNumber: `Int64()`, else
  // `Float64()`) makes a number int64 only when its text is an integer within int64; kube-openapi's type
  // check takes a float64 for an integer only within ±(2^53−1) (swag.IsFloat64AJSONInteger). YAML goes
  // through encoding/json first (sigs.k8s.io/yaml), which writes `1e18` as `1000000000000000000`.
  // kubekit took -9223372036854775809 (which rounds to −2^63), 1e18 and 9007199254740993.0 for integers,
  // and rounded YAML integers beyond 2^53.
  it('reads integers beyond int64 and floats beyond 2^53 as float64, as the apiserver decodes JSON and YAML', async () => {
    const group = 'numbers.hostile.example.com';
    await createCRD(server, client, {
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `counters.${group}` },
      spec: { group, scope: 'Namespaced', names: { plural: 'counters', kind: 'Counter' }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { i: { type: 'integer' } } } } } } }] },
    });
    const counters = `/apis/${group}/v1/namespaces/default/counters`;
    const json = (name: string, i: string): string => `{"apiVersion":"${group}/v1","kind":"Counter","metadata":{"name":"${name}"},"spec":{"i":${i}}}`;
    const yaml = (name: string, i: string): string => `apiVersion: ${group}/v1\nkind: Counter\nmetadata:\n  name: ${name}\nspec:\n  i: ${i}\n`;
    const invalid = (name: string): string => `Counter.${group} "${name}" is invalid: spec.i: Invalid value: "number": spec.i in body must be of type integer: "number"`;
    for (const [n, value] of ['-9223372036854775809', '9223372036854775808', '1e19', '18446744073709551616', '1e18', '9007199254740993.0', '-1e16', '1.5'].entries()) {
      const r = await client.request('POST', counters, json(`refused-${n}`, value));
      expect([r.status, r.body.message], value).to.deep.equal([422, invalid(`refused-${n}`)]);
    }
    const kept: [string, string][] = [['9223372036854775807', '9223372036854775807'], ['-9223372036854775808', '-9223372036854775808'], ['9007199254740993', '9007199254740993'], ['1.0', '1'], ['1e2', '100'], ['9007199254740991.0', '9007199254740991']];
    for (const [n, [value, stored]] of kept.entries()) {
      const r = await client.request('POST', counters, json(`kept-${n}`, value));
      expect(r.status, value).to.equal(201);
      expect(r.text, value).to.include(`"spec":{"i":${stored}}`);
    }
    const jsonPatch = await client.request('PATCH', `${counters}/kept-0`, '[{"op":"replace","path":"/spec/i","value":-9223372036854775809}]', 'application/json-patch+json');
    expect([jsonPatch.status, jsonPatch.body.message]).to.deep.equal([422, invalid('kept-0')]);
    const mergePatch = await client.request('PATCH', `${counters}/kept-0`, '{"spec":{"i":1e18}}', 'application/merge-patch+json');
    expect([mergePatch.status, mergePatch.body.message]).to.deep.equal([422, invalid('kept-0')]);
    const rv = String((await client.get(`${counters}/kept-0`)).body.metadata.resourceVersion);
    const update = await client.request('PUT', `${counters}/kept-0`, json('kept-0', '-9223372036854775809').replace('"name":"kept-0"', `"name":"kept-0","resourceVersion":"${rv}"`));
    expect([update.status, update.body.message]).to.deep.equal([422, invalid('kept-0')]);
    // YAML: an integer within int64 keeps its digits; an integral float is an integer once written as JSON.
    for (const [n, [value, stored]] of ([['9007199254740993', '9007199254740993'], ['9223372036854775807', '9223372036854775807'], ['1e18', '1000000000000000000'], ['0x10', '16']] as const).entries()) {
      const created = await client.request('POST', counters, yaml(`yaml-${n}`, value), 'application/yaml');
      expect(created.status, value).to.equal(201);
      expect(created.text, value).to.include(`"spec":{"i":${stored}}`);
      const applied = await client.request('PATCH', `${counters}/applied-${n}?fieldManager=m`, yaml(`applied-${n}`, value), 'application/apply-patch+yaml');
      expect(applied.status, value).to.equal(201);
      expect(applied.text, value).to.include(`"spec":{"i":${stored}}`);
    }
    for (const value of ['-9223372036854775809', '9223372036854775808', '1e19']) {
      const r = await client.request('POST', counters, yaml('yaml-refused', value), 'application/yaml');
      expect([r.status, r.body.message], value).to.deep.equal([422, invalid('yaml-refused')]);
    }
  });

  // handlers/patch.go hands the patch's bytes to gopkg.in/evanphx/json-patch.v4, whose test compares an
  // operation's value as written with the object as json.Marshal writes it (lazyNode.equal): kube-apiserver
  // 1.34.4 fails a test of 1.0 against a stored 1 and passes one of an object with its members reordered.
  // kubekit compared values (1.0 passed) and objects by their text in order (a reordered object failed).
  it('tests a JSON patch\'s values as written', async () => {
    const jp = 'application/json-patch+json';
    expect((await client.post(widgets(), widget('tested', { spec: { data: { i: 1, o: { a: 'x', b: 2 } } } }))).status).to.equal(201);
    const test = (path: string, value: string): string => `[{"op":"test","path":"${path}","value":${value}}]`;
    for (const [ops, status] of [[test('/spec/data/i', '1'), 200], [test('/spec/data/i', '1.0'), 422], [test('/spec/data/o', '{"b":2,"a":"x"}'), 200],
      ['[{"op":"add","path":"/spec/data/f","value":7.0},{"op":"test","path":"/spec/data/f","value":7.0}]', 200]] as const) {
      const r = await client.request('PATCH', `${widgets()}/tested`, ops, jp);
      expect([r.status, r.body.message], ops).to.deep.equal(status === 200 ? [200, undefined] : [422, 'the server rejected our request due to an error in our request']);
    }
  });

  // evanphx/json-patch v4 adds and replaces an absent value as its nil node, null: a custom resource's
  // null where the schema takes none is pruned or defaulted (structural pruning of non-nullable nulls), and
  // `metadata.labels` of null is no labels. kubekit put undefined there and refused the object with
  // `Invalid value: "null"` (ObjectMeta: 422 on `patch`).
  it('adds and replaces null for a JSON patch operation without a value', async () => {
    const jp = 'application/json-patch+json';
    expect((await client.post(widgets(), widget('valueless', { spec: { labels: { k: 'v' }, mode: 'm' } }))).status).to.equal(201);
    for (const op of ['{"op":"add","path":"/spec/labels/z"}', '{"op":"replace","path":"/spec/labels/k"}', '{"op":"replace","path":"/spec/mode"}', '{"op":"add","path":"/metadata/labels"}']) {
      const r = await client.request('PATCH', `${widgets()}/valueless`, `[${op}]`, jp);
      expect(r.status, `${op}: ${r.text}`).to.equal(200);
    }
    const got = (await client.get(`${widgets()}/valueless`)).body;
    // Nulls where the schema has a default are defaulted (`labels` values default to "d", `mode` to "auto").
    expect([got.spec.labels, got.spec.mode, got.metadata.labels]).to.deep.equal([{ k: 'd', z: 'd' }, 'auto', undefined]);
    const cm = await client.request('PATCH', `${cms}/cm`, '[{"op":"add","path":"/metadata/labels"}]', jp);
    expect(cm.status, cm.text).to.equal(200);
  });

  // apimachinery decodes `1.0` as a float64, and customResourceStrategy.PrepareForUpdate compares the new
  // object with the stored one (int64s, as etcd's JSON decodes) by apiequality.Semantic.DeepEqual: a
  // request that writes 1.0 where 1 is stored moves the generation, so the object is written again with
  // a new resourceVersion (kube-apiserver 1.34.4, for JSON patches, merge patches and updates alike;
  // YAML is converted to JSON first, where 1.0 becomes 1). kubekit took it for no change.
  it('moves a custom resource\'s generation when a request writes 1.0 where 1 is stored', async () => {
    expect((await client.post(widgets(), widget('floats', { spec: { data: { i: 1, n: 2 } } }))).status).to.equal(201);
    const generation = async (): Promise<[number, string]> => {
      const got = (await client.get(`${widgets()}/floats`)).body;
      return [got.metadata.generation, got.metadata.resourceVersion];
    };
    let [gen, rv] = await generation();
    const writes: [string, string, string, boolean][] = [
      ['PATCH', '[{"op":"replace","path":"/spec/data/i","value":1.0}]', 'application/json-patch+json', true],
      ['PATCH', '[{"op":"replace","path":"/spec/data/i","value":1}]', 'application/json-patch+json', false],
      ['PATCH', '{"spec":{"data":{"n":2.0}}}', 'application/merge-patch+json', true],
      ['PATCH', '{"spec":{"data":{"n":2}}}', 'application/merge-patch+json', false],
      ['PATCH', '{"metadata":{"labels":{"x":"y"}},"status":{"replicas":1.0}}', 'application/merge-patch+json', false],
      ['PATCH', '[{"op":"add","path":"/spec/data/f","value":1e0},{"op":"remove","path":"/spec/data/f"}]', 'application/json-patch+json', false],
    ];
    for (const [method, body, contentType, moves] of writes) {
      const r = await client.request(method, `${widgets()}/floats`, body, contentType);
      expect(r.status, `${body}: ${r.text}`).to.equal(200);
      const [g, v] = await generation();
      expect([g, v !== rv], body).to.deep.equal(moves ? [gen + 1, true] : [gen, body.includes('labels')]);
      [gen, rv] = [g, v];
    }
  });

  // requestinfo.go leaves the verb of another method (OPTIONS, TRACE, …) empty, and the custom resource
  // handler answers it with MethodNotSupported naming that empty verb; it reads a path's name and
  // subresource and never the segments after them (RequestInfo.Parts), for which go-restful has no route.
  it('answers other methods and extra path segments of custom resources as the custom resource handler does', async () => {
    for (const [method, path] of [['OPTIONS', `${widgets()}/w`], ['OPTIONS', widgets()], ['OPTIONS', `${widgets()}/w/status`]]) {
      const r = await client.request(method, path);
      expect([r.status, r.body.message, r.body.details], `${method} ${path}`).to.deep.equal([405, ' is not supported on resources of kind "widgets.hostile.example.com"', { group: 'hostile.example.com', kind: 'widgets' }]);
    }
    expect((await client.request('OPTIONS', cms)).body.message).to.equal('the server does not allow this method on the requested resource');
    const status = await client.get(`${widgets()}/w/status/x/y`);
    expect([status.status, status.body.kind, status.body.metadata.name]).to.deep.equal([200, 'Widget', 'w']);
    const other = await client.get(`${widgets()}/w/x/y`);
    expect([other.status, other.body.message]).to.deep.equal([404, 'widgets.hostile.example.com "w" not found']);
    const builtin = await client.get(`${cms}/cm/x/y`);
    expect([builtin.status, builtin.body.message]).to.deep.equal([404, 'the server could not find the requested resource']);
  });

  // handlers/patch.go quotes the bytes evanphx/json-patch v4 made: a value an operation placed is its
  // json.RawMessage, written as the operation wrote it (compacted, with encoding/json's HTML escapes), so
  // 9223372036854775808 keeps its digits and 1.0 its point. kubekit quoted the parsed numbers.
  it('quotes the values a JSON patch placed as the patch wrote them', async () => {
    const quoted = async (ops: string): Promise<string> => {
      const r = await client.request('PATCH', `${cms}/cm`, ops, 'application/json-patch+json');
      expect(r.status, r.text).to.equal(422);
      return String(r.body.details.causes[0].message);
    };
    expect(await quoted('[{"value":9223372036854775808,"path":"/data","op":"add"}]')).to.include('"{\\"apiVersion\\":\\"v1\\",\\"data\\":9223372036854775808,');
    expect(await quoted('[{"value":{ "x" : [1.0, 2e0, "a<b"] },"path":"/data","op":"add"}]')).to.include('\\"data\\":{\\"x\\":[1.0,2e0,\\"a\\\\u003cb\\"]},');
    expect(await quoted('[{"value":[1.50],"path":"/data/y","op":"add"},{"op":"move","from":"/data/y","path":"/data/z"}]')).to.include('\\"data\\":{\\"a\\":\\"1\\",\\"z\\":[1.50]},');
  });

  // handlers/patch.go decodes a JSON patch into []jsonPatchOp (strict field validation); encoding/json keeps
  // the first error in document order and decodes only `value` as a number (an unknown member is skipped).
  // kubekit named a number beyond float64 anywhere in the text before any type error.
  it('names the first problem of a JSON patch\'s operations in document order', async () => {
    const decodeError = async (ops: string): Promise<[number, string]> => {
      const r = await client.request('PATCH', `${cms}/cm`, ops, 'application/json-patch+json');
      return [r.status, r.body?.message];
    };
    const opType = 'error decoding patch: json: cannot unmarshal number into Go struct field jsonPatchOp.op of type string';
    const overflow = 'error decoding patch: json: cannot unmarshal number 1e400 into Go struct field jsonPatchOp.value of type float64';
    expect(await decodeError('[{"op":1,"value":1e400}]')).to.deep.equal([400, opType]);
    expect(await decodeError('[{"value":1e400,"op":1}]')).to.deep.equal([400, overflow]);
    expect(await decodeError('[5,{"value":1e400}]')).to.deep.equal([400, 'error decoding patch: json: cannot unmarshal number into Go value of type handlers.jsonPatchOp']);
    expect(await decodeError('{"op":"add","value":1e400}')).to.deep.equal([400, 'error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp']);
    expect((await decodeError('[{"op":"add","x":1e400,"path":"/data/z","value":"v"}]'))[0]).to.equal(200);
  });

  // The scale subresource's replicas paths are read with unstructured.NestedInt64 (apiextensions
  // validation ValidateCustomResource → scale validation), which refuses the float64 that `1.0` decodes to.
  it('refuses 1.0 at a scale subresource\'s replicas path, which the apiserver holds as a float64', async () => {
    const accessor = (name: string, printed: string): string => `Widget.hostile.example.com "${name}" is invalid: .spec.replicas: Invalid value: 0: .spec.replicas accessor error: ${printed} is of the type float64, expected int64`;
    const created = await client.request('POST', widgets(), '{"apiVersion":"hostile.example.com/v1","kind":"Widget","metadata":{"name":"scaled"},"spec":{"replicas":1.0}}');
    expect([created.status, created.body.message]).to.deep.equal([422, accessor('scaled', '1')]);
    expect((await client.request('POST', widgets(), '{"apiVersion":"hostile.example.com/v1","kind":"Widget","metadata":{"name":"scaled"},"spec":{"replicas":1}}')).status).to.equal(201);
    const patched = await client.request('PATCH', `${widgets()}/scaled`, '{"spec":{"replicas":2e0}}', 'application/merge-patch+json');
    expect([patched.status, patched.body.message]).to.deep.equal([422, accessor('scaled', '2')]);
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

  // A patch's result of another kind gets the same causes as a 422 on `patch` (handlers/patch.go); a
  // strategic merge patch cannot change the kind (FromUnstructured onto the typed object keeps it).
  it('refuses a patch that changes the kind with the codec\'s words, and lets a strategic merge patch keep the kind', async () => {
    const cases: [string, unknown, string][] = [
      ['application/merge-patch+json', { kind: 'Other' }, 'no kind "Other" is registered for version "v1" in scheme "pkg/runtime/scheme.go:110"'],
      ['application/merge-patch+json', { kind: 'Secret' }, 'illegal base64 data at input byte 0'],
      ['application/json-patch+json', [{ op: 'replace', path: '/kind', value: 'Pod' }], 'converting (v1.Pod) to (core.ConfigMap): unknown conversion'],
    ];
    for (const [type, body, words] of cases) {
      const r = await client.request('PATCH', `${cms}/cm`, JSON.stringify(body), type);
      expect(r.status, JSON.stringify(body)).to.equal(422);
      expect(r.body.details.causes[0].field).to.equal('patch');
      expect(r.body.details.causes[0].message.endsWith(`: ${words}`), r.body.details.causes[0].message).to.equal(true);
    }
    const smp = await client.request('PATCH', `${cms}/cm`, JSON.stringify({ kind: 'Secret' }), 'application/strategic-merge-patch+json');
    expect([smp.status, smp.body.kind]).to.deep.equal([200, 'ConfigMap']);
    const put = await client.put(`${cms}/cm`, { apiVersion: 'v1', kind: 'Other', metadata: { name: 'cm' } });
    expect(put.body.message).to.equal('Other in version "v1" cannot be handled as a ConfigMap: no kind "Other" is registered for version "v1" in scheme "pkg/runtime/scheme.go:110"');
  });

  // The custom resource store answers a deletecollection with an UnstructuredList, whose continue token is
  // written even when empty; a built-in kind's typed list omits it (kube-apiserver 1.34.4).
  it('answers a custom resource deletecollection with an empty continue token, a built-in one without', async () => {
    const cr = await client.delete(`${widgets()}?labelSelector=${encodeURIComponent('no-such=label')}`);
    expect(cr.status).to.equal(200);
    expect(Object.keys(cr.body.metadata)).to.deep.equal(['continue', 'resourceVersion']);
    expect(cr.body.metadata.continue).to.equal('');
    const builtin = await client.delete(`${cms}?labelSelector=${encodeURIComponent('no-such=label')}`);
    expect(Object.keys(builtin.body.metadata)).to.deep.equal(['resourceVersion']);
  });

  // The internal package in the conversion error is the group's (apps, batch, rbac), and the unknown-kind
  // error names the whole group version (kube-apiserver 1.34.4, probed).
  it('names the group\'s internal package and group version when another kind is sent to a grouped resource', async () => {
    const template = { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'x' }] } };
    const cases: [string, Record<string, unknown>, string][] = [
      ['/apis/apps/v1/namespaces/default/deployments', { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'x' }, spec: { selector: { matchLabels: { a: 'b' } }, template } },
        'ReplicaSet in version "v1" cannot be handled as a Deployment: converting (v1.ReplicaSet) to (apps.Deployment): unknown conversion'],
      ['/apis/apps/v1/namespaces/default/deployments', { apiVersion: 'apps/v1', kind: 'Other', metadata: { name: 'x' } },
        'Other in version "v1" cannot be handled as a Deployment: no kind "Other" is registered for version "apps/v1" in scheme "pkg/runtime/scheme.go:110"'],
      ['/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'x' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' } },
        'RoleBinding in version "v1" cannot be handled as a Role: converting (v1.RoleBinding) to (rbac.Role): unknown conversion'],
      ['/apis/batch/v1/namespaces/default/jobs', { apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'x' } },
        'CronJob in version "v1" cannot be handled as a Job: converting (v1.CronJob) to (batch.Job): unknown conversion'],
    ];
    for (const [path, body, message] of cases) {
      const r = await client.post(path, body);
      expect([r.status, r.body.message]).to.deep.equal([400, message]);
    }
  });

  // A patched document that is a list (a merge patch `[]` under Ignore, a JSON patch replacing the root):
  // the codec reads apiVersion and kind into a struct of two strings first (seed 20261231, case 12).
  it('refuses a patch that makes the object a list with the codec\'s version/kind error', async () => {
    const words = 'couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';
    for (const [path, body, type] of [
      [`${widgets()}/w?fieldValidation=Ignore`, '[1]', 'application/merge-patch+json'],
      [`${cms}/cm?fieldValidation=Ignore`, '[]', 'application/merge-patch+json'],
      [`${widgets()}/w`, '[{"op":"replace","path":"","value":[]}]', 'application/json-patch+json'],
      [`${cms}/cm`, '[{"op":"replace","path":"","value":[]}]', 'application/json-patch+json'],
    ]) {
      const r = await client.request('PATCH', path, body, type);
      expect([r.status, r.body.details?.causes?.[0]?.field, r.body.details?.causes?.[0]?.message], `${path} ${body}`).to.deep.equal([422, 'patch', `Invalid value: "[${body === '[1]' ? '1' : ''}]": ${words}`]);
    }
  });

  // The same struct reads a built-in object's apiVersion and kind before any other member: one of another
  // JSON type is that error, not the first member's type error (seed 20270102, case 1).
  it('refuses a patch that gives a built-in object\'s apiVersion or kind another type with the codec\'s version/kind error', async () => {
    const before = (await client.get(`${cms}/cm`)).body;
    const words = (type: string, field: string): string => `couldn't get version/kind; json parse error: json: cannot unmarshal ${type} into Go struct field .${field} of type string`;
    for (const [body, type, expected] of [
      ['[{"op":"replace","path":"/kind","value":{}},{"op":"replace","path":"/data","value":[]}]', 'application/json-patch+json', words('object', 'kind')],
      ['[{"op":"replace","path":"/apiVersion","value":5},{"op":"replace","path":"/data","value":[]}]', 'application/json-patch+json', words('number', 'apiVersion')],
      ['{"kind":[],"data":5}', 'application/merge-patch+json', words('array', 'kind')],
      ['{"kind":true,"apiVersion":{}}', 'application/merge-patch+json', words('object', 'apiVersion')],
    ]) {
      const r = await client.request('PATCH', `${cms}/cm`, body, type);
      expect([r.status, r.body.details?.causes?.[0]?.message?.replace(/^Invalid value: "(?:[^"\\]|\\.)*": /, '')], body).to.deep.equal([422, expected]);
    }
    expect((await client.get(`${cms}/cm`)).body).to.deep.equal(before);
  });

  // A custom resource in a version the CRD does not have: its metadata is decoded into ObjectMeta first, so its
  // unknown members are warned about before the body's (seed 20270107, case 25).
  it('warns about unknown metadata members of a custom resource in a version the CRD lacks', async () => {
    const current = (await client.get(`${widgets()}/w`)).body;
    const body = `{"apiVersion":"hostile.example.com/v2","kind":"Widget","metadata":{"name":"w","resourceVersion":"${current.metadata.resourceVersion}","__proto__":{"polluted":"yes"}},"spec":{"a":"u"}}`;
    const r = await client.request('PUT', `${widgets()}/w?dryRun=All`, body);
    expect([r.status, r.body.message]).to.deep.equal([400, 'the API version in the data (hostile.example.com/v2) does not match the expected API version (hostile.example.com/v1)']);
    expect(r.headers.get('warning')).to.equal('299 - "unknown field \\"metadata.__proto__\\"", 299 - "unknown field \\"spec\\""');
  });

  // encoding/json decodes a null string as "": a label or annotation written `x:` (null) is "" on a cluster,
  // for built-in kinds as for custom resources (seed 20270115, case 11: a JSON patch replacing a missing label).
  it('takes null label and annotation values as empty strings', async () => {
    const created = await client.post(cms, { metadata: { name: 'null-labels', labels: { x: null }, annotations: { y: null } } });
    expect([created.status, created.body.metadata.labels, created.body.metadata.annotations]).to.deep.equal([201, { x: '' }, { y: '' }]);
    const patched = await client.request('PATCH', `${cms}/null-labels?fieldValidation=Strict`, '[{"path":"/metadata/labels/q","op":"replace"}]', 'application/json-patch+json');
    expect([patched.status, patched.body.metadata.labels]).to.deep.equal([200, { x: '', q: '' }]);
  });

  // apiextensions-apiserver's unstructuredSchemaCoercer prunes only an object of the CRD's group and kind; another
  // kind is refused by validation (kindMismatch) with no unknown-field warnings (seed 20270127, case 11).
  it('reports no unknown fields of a custom resource sent as another kind', async () => {
    const current = (await client.get(`${widgets()}/w`)).body;
    const body = `{"__proto__":{"polluted":"yes"},"apiVersion":"hostile.example.com/v1","kind":"Gadget","metadata":{"name":"w","resourceVersion":"${current.metadata.resourceVersion}"},"bogus":1,"spec":{"a":"u"}}`;
    const r = await client.request('PUT', `${widgets()}/w?dryRun=All&fieldValidation=Strict`, body);
    expect(r.status).to.equal(422);
    expect(r.body.details.causes.map((c: { field: string }) => c.field)).to.include('kind');
    expect(r.headers.get('warning')).to.equal(null);
  });

  // Its metadata is still decoded into ObjectMeta first, whose unknown members are warned of whatever the kind
  // (seeds 20270206 and 20270238: `unknown field "metadata.__proto__"` beside the kind's 422).
  it('warns of the unknown metadata members of a custom resource sent as another kind', async () => {
    const current = (await client.get(`${widgets()}/w`)).body;
    const body = `{"apiVersion":"hostile.example.com/v1","kind":"Gadget","metadata":{"name":"w","resourceVersion":"${current.metadata.resourceVersion}","__proto__":{"polluted":"yes"}},"bogus":1,"spec":{"a":"u"}}`;
    const r = await client.request('PUT', `${widgets()}/w?dryRun=All`, body);
    expect(r.status).to.equal(422);
    expect(r.headers.get('warning')).to.equal('299 - "unknown field \\"metadata.__proto__\\""');
  });

  // ValidateConfigMap and ValidateSecret run IsConfigMapKey on each key: `.`, `..` and keys starting with `..` are
  // refused (kube-apiserver 1.34.4); kubekit checked the character set only.
  it('refuses the config keys IsConfigMapKey refuses', async () => {
    for (const [key, message] of [['..', "must not be '..'"], ['.', "must not be '.'"], ['..x', "must not start with '..'"]]) {
      const r = await client.post(`${cms}?dryRun=All`, { metadata: { name: 'keys' }, data: { [key]: 'a' } });
      expect([r.status, r.body.message], key).to.deep.equal([422, `ConfigMap "keys" is invalid: data[${key}]: Invalid value: "${key}": ${message}`]);
    }
  });
});
