// Content negotiation of responses, on both servers: the `Accept` header as kube-apiserver 1.34.4 reads it.
// Two steps there: go-restful matches a built-in kind's route by the media types it produces (a media type
// of the header without its parameters, or `*/*`; else `406: Not Acceptable` naming them, with empty
// details), then the handler's NegotiateOutputMediaType (handlers/negotiation/negotiate.go: goautoneg's
// clause order, `type/*` and `*/*`, the `as`/`g`/`v` conversions the endpoint allows, `sv`, `stream`,
// `pretty`; else `only the following media types are accepted: …`). Both happen before a write decodes
// its body, so a refused request changes nothing: kubekit used to write first and refuse after (a POST
// answered 406 had created its object, a DELETE answered 406 had deleted it). Errors are written as
// ErrorNegotiated writes them: indented JSON (WriteRawJSON) when the header names nothing an error can be
// written in; a response is indented for `?pretty=true` and for curl's user agent (isPrettyPrint).
//
// YAML answers are sigs.k8s.io/yaml's JSONToYAML of the JSON, byte for byte. Both servers write protobuf
// too (protobufAnswers.test.ts), so a 406 names the same media types on both.
import { expect } from 'chai';
import { answered, createWidgets, describeOnBothServers, type Answer, type Send } from './sender.js';

const C = '/api/v1/namespaces/default/configmaps';
const cm = (name: string): string => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: 'b' } });
const body = (a: Answer): { kind?: string; apiVersion?: string; message?: string; reason?: string; details?: unknown; code?: number } => JSON.parse(a.text) as never;
/** Go's json.MarshalIndent of what the text holds (no trailing newline): what WriteRawJSON and the pretty serializer write. */
const indented = (a: Answer): boolean => a.text === JSON.stringify(JSON.parse(a.text), null, 2);
const compact = (a: Answer): boolean => a.text === JSON.stringify(JSON.parse(a.text)) + '\n';
const table = 'application/json;as=Table;v=v1;g=meta.k8s.io';

async function exists(s: Send, name: string): Promise<boolean> {
  return (await s('GET', `${C}/${name}`)).status === 200;
}

describeOnBothServers('content negotiation of responses', async (s) => {
  const offered = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];
  const streams = ['application/json;stream=watch', 'application/vnd.kubernetes.protobuf;stream=watch'];
  const route = (types: string[]): string => `406: Not Acceptable\n\nAvailable representations: ${types.join(', ')}`;
  const handler = `only the following media types are accepted: ${offered.join(', ')}`;
  answered(await s('POST', C, cm('kept')), 201);

  // Refused by the route: nothing is written, whatever the verb.
  const created = await s('POST', C, cm('never'), 'application/json', 'text/plain');
  expect([created.status, body(created).message, body(created).details, indented(created)]).to.deep.equal([406, route(offered), {}, true]);
  expect(await exists(s, 'never')).to.equal(false);
  const kept = answered<{ metadata: { resourceVersion: string } }>(await s('GET', `${C}/kept`));
  const put = await s('PUT', `${C}/kept`, JSON.stringify({ ...JSON.parse(cm('kept')) as object, data: { a: 'c' } }), 'application/json', 'text/*');
  expect([put.status, body(put).message]).to.deep.equal([406, route(offered)]);
  const patched = await s('PATCH', `${C}/kept`, '{"data":{"a":"d"}}', 'application/merge-patch+json', 'text/html, application/xml');
  expect([patched.status, body(patched).message]).to.deep.equal([406, route(offered)]);
  const deleted = await s('DELETE', `${C}/kept`, undefined, undefined, 'text/plain');
  expect([deleted.status, body(deleted).message]).to.deep.equal([406, route(offered)]);
  const collection = await s('DELETE', C, undefined, undefined, 'text/plain');
  expect([collection.status, body(collection).message]).to.deep.equal([406, route(offered)]);
  expect(answered<{ metadata: { resourceVersion: string } }>(await s('GET', `${C}/kept`)).metadata.resourceVersion).to.equal(kept.metadata.resourceVersion);
  // A collection GET also produces the watch streams.
  const listed = await s('GET', C, undefined, undefined, 'text/plain');
  expect([listed.status, body(listed).message]).to.deep.equal([406, route([...offered, ...streams])]);
  // go-restful knows no `application/*`; the error itself can be written as JSON then (compact, a newline).
  const wildcard = await s('GET', `${C}/kept`, undefined, undefined, 'application/*');
  expect([wildcard.status, body(wildcard).message, compact(wildcard)]).to.deep.equal([406, route(offered), true]);

  // Refused by the handler: a conversion the endpoint has not (no `g`, an unknown version, an unknown
  // kind), before the body is read; the Status has no details and is indented.
  for (const accept of ['application/json;as=Table', 'application/json;as=Table;v=v2;g=meta.k8s.io', 'application/json;as=Foo;v=v1;g=meta.k8s.io']) {
    const a = await s('POST', C, cm('never'), 'application/json', accept);
    expect([accept, a.status, body(a).message, body(a).details, indented(a)]).to.deep.equal([accept, 406, handler, undefined, true]);
  }
  expect(await exists(s, 'never')).to.equal(false);
  // A clause the endpoint refuses is skipped for the next one: another server version, then plain JSON.
  const sv = answered<{ kind: string }>(await s('GET', `${C}/kept`, undefined, undefined, 'application/json;sv=v2, application/json'));
  expect(sv.kind).to.equal('ConfigMap');
  // Clauses are tried by q, then by how specific they are.
  const byQ = answered<{ kind: string }>(await s('GET', `${C}/kept`, undefined, undefined, `${table};q=0.5, application/json`));
  expect(byQ.kind).to.equal('ConfigMap');
  const bySpecific = answered<{ kind: string }>(await s('GET', `${C}/kept`, undefined, undefined, `*/*, ${table}`));
  expect(bySpecific.kind).to.equal('Table');

  // The meta.k8s.io version asked for is the one answered.
  // A v1beta1 Table's rows carry v1beta1 PartialObjectMetadata: a list's, one object's, a write's, a watch's.
  type BetaTable = { kind: string; apiVersion: string; rows: { object: { kind: string; apiVersion: string } }[] };
  const betaTable = 'application/json;as=Table;v=v1beta1;g=meta.k8s.io';
  const shape = (t: BetaTable): unknown => [t.kind, t.apiVersion, t.rows.map((row) => [row.object.kind, row.object.apiVersion])[0]];
  const betaShape = ['Table', 'meta.k8s.io/v1beta1', ['PartialObjectMetadata', 'meta.k8s.io/v1beta1']];
  expect(shape(answered<BetaTable>(await s('GET', C, undefined, undefined, betaTable)))).to.deep.equal(betaShape);
  expect(shape(answered<BetaTable>(await s('GET', `${C}/kept`, undefined, undefined, betaTable)))).to.deep.equal(betaShape);
  expect(shape(answered<BetaTable>(await s('PATCH', `${C}/kept`, '{}', 'application/merge-patch+json', betaTable)))).to.deep.equal(betaShape);
  const betaWatch = await s('GET', `${C}?watch=1&timeoutSeconds=1&fieldSelector=metadata.name%3Dkept`, undefined, undefined, betaTable);
  expect(shape((JSON.parse(betaWatch.text.split('\n')[0]) as { object: BetaTable }).object)).to.deep.equal(betaShape);
  const meta = answered<{ kind: string; apiVersion: string; metadata: { name: string } }>(await s('GET', `${C}/kept`, undefined, undefined, 'application/json;as=PartialObjectMetadata;v=v1beta1;g=meta.k8s.io'));
  expect([meta.kind, meta.apiVersion, meta.metadata.name]).to.deep.equal(['PartialObjectMetadata', 'meta.k8s.io/v1beta1', 'kept']);
  // Metadata of one object is not a list's, nor the other way round (transformResponseObject).
  const one = await s('GET', C, undefined, undefined, 'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io');
  expect([one.status, body(one).message]).to.deep.equal([406, 'you requested PartialObjectMetadata, but the requested object is a list (*core.ConfigMapList)']);
  const many = await s('GET', `${C}/kept`, undefined, undefined, 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io');
  expect([many.status, body(many).message, indented(many)]).to.deep.equal([406, 'you requested PartialObjectMetadataList, but the requested object is not a list (*core.ConfigMap)', true]);

  // An error under a Table's Accept: no conversion applies to a Status, so it is indented JSON.
  const missing = await s('DELETE', `${C}/nope`, undefined, undefined, table);
  expect([missing.status, body(missing).message, indented(missing)]).to.deep.equal([404, 'configmaps "nope" not found', true]);

  // Indented on request, or for curl; `pretty=false` (or anything ParseBool refuses) wins over the agent.
  const pretty = await s('GET', '/api/v1/namespaces/default?pretty=true');
  expect([pretty.status, indented(pretty)]).to.deep.equal([200, true]);
  const prettyList = await s('GET', `${C}?pretty=1`);
  expect([prettyList.status, indented(prettyList)]).to.deep.equal([200, true]);
  const prettyParam = await s('GET', `${C}/kept`, undefined, undefined, 'application/json;pretty=1');
  expect([prettyParam.status, indented(prettyParam)]).to.deep.equal([200, true]);
  const curl = await s('GET', `${C}/kept`, undefined, undefined, undefined, { 'user-agent': 'curl/8.5.0' });
  expect([curl.status, indented(curl)]).to.deep.equal([200, true]);
  for (const q of ['false', 'x']) {
    const a = await s('GET', `${C}/kept?pretty=${q}`, undefined, undefined, undefined, { 'user-agent': 'curl/8.5.0' });
    expect([q, a.status, compact(a)]).to.deep.equal([q, 200, true]);
  }
  const prettyError = await s('GET', '/api/v1/namespaces/nope?pretty=true');
  expect([prettyError.status, indented(prettyError)]).to.deep.equal([404, true]);
  // Discovery and /version too, aggregated discovery included; the OpenAPI document is never indented.
  for (const path of ['/api?pretty=true', '/apis/apps?pretty=true', '/apis/apps/v1?pretty=true', '/version?pretty=true']) {
    const a = await s('GET', path);
    expect([path, a.status, indented(a)]).to.deep.equal([path, 200, true]);
  }
  const aggregated = await s('GET', '/apis', undefined, undefined, 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList', { 'user-agent': 'curl/8.5.0' });
  expect([aggregated.status, indented(aggregated)]).to.deep.equal([200, true]);
  const openapi = await s('GET', '/openapi/v2', undefined, undefined, 'application/json', { 'user-agent': 'curl/8.5.0' });
  expect([openapi.status, openapi.text.startsWith('{"swagger":"2.0"')]).to.deep.equal([200, true]);

  // A metadata watch (client-go's metadata informers, controller-runtime's OnlyMetadata): each object and
  // bookmark as PartialObjectMetadata.
  const watched = await s('GET', `${C}?watch=1&timeoutSeconds=1&allowWatchBookmarks=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan`, undefined, undefined, 'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io');
  const events = watched.text.trim().split('\n').map((l) => JSON.parse(l) as { type: string; object: { kind: string; apiVersion: string; metadata: { name?: string; annotations?: Record<string, string> }; data?: unknown } });
  expect(events.map((e) => [e.type, e.object.kind, e.object.apiVersion, e.object.metadata.name ?? e.object.metadata.annotations, e.object.data])).to.deep.equal([
    ['ADDED', 'PartialObjectMetadata', 'meta.k8s.io/v1', 'kept', undefined],
    ['BOOKMARK', 'PartialObjectMetadata', 'meta.k8s.io/v1', { 'k8s.io/initial-events-end': 'true' }, undefined],
  ]);
  // A watch asked for PartialObjectMetadataList: accepted (200, the stream's headers), but no object is a
  // list, so the apiserver's watch encoder fails at the first event and the stream ends without a byte;
  // with nothing to send it stays open until its timeout. In protobuf too.
  for (const accept of ['application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io', 'application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io']) {
    const started = Date.now();
    const listsWatched = await s('GET', `${C}?watch=1&timeoutSeconds=20&allowWatchBookmarks=true`, undefined, undefined, accept);
    expect([listsWatched.status, listsWatched.text, Date.now() - started < 10_000]).to.deep.equal([200, '', true]);
  }
  // An ERROR event's Status is not converted: it still goes out (here the 3 s wait for a resourceVersion not reached).
  const errorWatched = await s('GET', `${C}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&resourceVersion=99999999&timeoutSeconds=10`, undefined, undefined, 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io');
  expect([errorWatched.status, (JSON.parse(errorWatched.text) as { type: string; object: { reason: string } }).type, (JSON.parse(errorWatched.text) as { object: { reason: string } }).object.reason]).to.deep.equal([200, 'ERROR', 'Timeout']);
  const nothingWatched = await s('GET', `${C}?watch=1&timeoutSeconds=1&fieldSelector=metadata.name%3Dnone`, undefined, undefined, 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io');
  expect([nothingWatched.status, nothingWatched.text]).to.deep.equal([200, '']);
  const badWatch = await s('GET', `${C}?watch=1&timeoutSeconds=1`, undefined, undefined, 'application/json;as=Foo;v=v1;g=meta.k8s.io');
  expect([badWatch.status, body(badWatch).message]).to.deep.equal([406, handler]);

  // YAML: every answer, errors included, as sigs.k8s.io/yaml writes the JSON (go-yaml's quoting, folding at 80
  // columns, literal blocks, sorted keys).
  const Y = 'application/yaml';
  const notFound = await s('GET', `${C}/nope`, undefined, undefined, Y);
  expect([notFound.status, notFound.text]).to.deep.equal([404, 'apiVersion: v1\ncode: 404\ndetails:\n  kind: configmaps\n  name: nope\nkind: Status\nmessage: configmaps "nope" not found\nmetadata: {}\nreason: NotFound\nstatus: Failure\n']);
  const yamlCreated = await s('POST', C, JSON.stringify({ metadata: { name: 'y', annotations: { long: 'word '.repeat(30), x: '1', y: 'true' } }, data: { k: 'v\nw', n: '0x1f' } }), 'application/json', Y);
  expect(yamlCreated.status).to.equal(201);
  expect(yamlCreated.text.slice(0, yamlCreated.text.indexOf('  creationTimestamp'))).to.equal('apiVersion: v1\ndata:\n  k: |-\n    v\n    w\n  "n": "0x1f"\nkind: ConfigMap\nmetadata:\n  annotations:\n'
    + "    long: 'word word word word word word word word word word word word word word word\n      word word word word word word word word word word word word word word word '\n    x: \"1\"\n    \"y\": \"true\"\n");
  const invalid = await s('POST', C, JSON.stringify({ metadata: { name: 'Bad' } }), 'application/json', Y);
  expect([invalid.status, invalid.text]).to.deep.equal([422, 'apiVersion: v1\ncode: 422\ndetails:\n  causes:\n  - field: metadata.name\n'
    + "    message: 'Invalid value: \"Bad\": a lowercase RFC 1123 subdomain must consist of\n      lower case alphanumeric characters, ''-'' or ''.'', and must start and end with\n"
    + "      an alphanumeric character (e.g. ''example.com'', regex used for validation is\n      ''[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'')'\n"
    + '    reason: FieldValueInvalid\n  kind: ConfigMap\n  name: Bad\nkind: Status\n'
    + "message: 'ConfigMap \"Bad\" is invalid: metadata.name: Invalid value: \"Bad\": a lowercase\n  RFC 1123 subdomain must consist of lower case alphanumeric characters, ''-'' or\n"
    + "  ''.'', and must start and end with an alphanumeric character (e.g. ''example.com'',\n  regex used for validation is ''[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'')'\n"
    + 'metadata: {}\nreason: Invalid\nstatus: Failure\n']);
  const yamlTable = await s('GET', `${C}/y`, undefined, undefined, 'application/yaml;as=Table;v=v1;g=meta.k8s.io');
  expect([yamlTable.status, yamlTable.text.split('\n')[0]]).to.deep.equal([200, 'apiVersion: meta.k8s.io/v1']);
  // What go-yaml refuses (a DEL character) is the encoder's 500, in YAML; a POST has written its object by then.
  const del = await s('POST', C, JSON.stringify({ metadata: { name: 'del' }, data: { k: 'a\u007fb' } }), 'application/json', Y);
  const refusedYAML = "apiVersion: v1\ncode: 500\nkind: Status\nmessage: 'yaml: control characters are not allowed'\nmetadata: {}\nstatus: Failure\n";
  expect([del.status, del.text]).to.deep.equal([500, refusedYAML]);
  expect(await exists(s, 'del')).to.equal(true);
  // An error's own Status that go-yaml refuses keeps the error's code.
  const delName = await s('GET', `${C}/a%7Fb`, undefined, undefined, Y);
  expect([delName.status, delName.text]).to.deep.equal([404, refusedYAML]);
  // No YAML watch: the list handler takes it, the watch refuses it, in YAML.
  const yamlWatch = await s('GET', `${C}?watch=1&timeoutSeconds=1`, undefined, undefined, Y);
  expect([yamlWatch.status, yamlWatch.text]).to.deep.equal([406,
    "apiVersion: v1\ncode: 406\nkind: Status\nmessage: 'only the following media types are accepted: application/json;stream=watch,\n  application/vnd.kubernetes.protobuf;stream=watch'\nmetadata: {}\nreason: NotAcceptable\nstatus: Failure\n"]);

  // A custom resource has no go-restful route: only the handler's negotiation, `application/*` included.
  const W = await createWidgets(s, 'negotiation.example.com', { type: 'object' });
  answered(await s('POST', W, JSON.stringify({ apiVersion: 'negotiation.example.com/v1', kind: 'Widget', metadata: { name: 'w' } })), 201);
  const crText = await s('POST', W, JSON.stringify({ apiVersion: 'negotiation.example.com/v1', kind: 'Widget', metadata: { name: 'never' } }), 'application/json', 'text/plain');
  expect([crText.status, body(crText).message, indented(crText)]).to.deep.equal([406, handler, true]);
  expect((await s('GET', `${W}/never`)).status).to.equal(404);
  expect(answered<{ kind: string }>(await s('GET', `${W}/w`, undefined, undefined, 'application/*')).kind).to.equal('Widget');
  const crList = await s('GET', W, undefined, undefined, 'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io');
  expect([crList.status, body(crList).message]).to.deep.equal([406, 'you requested PartialObjectMetadata, but the requested object is a list (*unstructured.UnstructuredList)']);
});
