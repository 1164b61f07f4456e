// events.k8s.io/v1 Events on both servers: one storage with core/v1 Events (an event written through one
// API is read, listed, watched, updated and deleted through the other, converted as
// pkg/apis/events/v1/conversion.go does); ValidateEventCreate and ValidateEventUpdate for events.k8s.io
// writes (pkg/apis/core/validation/events.go), the decoder's type errors, the field selectors of
// AddFieldLabelConversionsForEvent, the managers of the other API forgotten on a write, the Table
// (printEvent) and discovery. Every expected message is kube-apiserver 1.34.4's answer to the same request
// (the reference server runs the same test).
import { expect } from 'chai';
import { answered, describeOnBothServers, refused, type Answer, type Send } from './sender.js';

// A namespace of the test's own: the reference's controllers may record events in `default` (CI once saw
// one about the Service `kubernetes` there mid-test), and the lists below expect only this test's events.
const NS = 'events-v1';
const E = `/apis/events.k8s.io/v1/namespaces/${NS}/events`;
const C = `/api/v1/namespaces/${NS}/events`;
type Json = Record<string, unknown>;

interface Event { metadata: { name: string; resourceVersion?: string; labels?: Json; managedFields?: { manager: string; apiVersion: string; fieldsV1: Json }[] }; [k: string]: unknown }

const fresh = { eventTime: '2024-01-02T03:04:05.123456Z', reportingController: 'example.com/ctl', reportingInstance: 'inst-1', action: 'Create', reason: 'Made', type: 'Normal', note: 'hello', regarding: { kind: 'Pod', name: 'p', namespace: NS } };
const mk = (name: string, fields: Json = {}): string => JSON.stringify({ apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name }, ...fresh, ...fields });

/** What an event is past its server-set metadata: its fields, and its managers as (manager, apiVersion). */
const shape = (e: Event): Json => {
  const { metadata: { name, labels, managedFields }, ...rest } = e;
  return { name, labels, managers: managedFields?.map((m) => [m.manager, m.apiVersion]), ...rest };
};
const badRequest = (a: Answer, message: string): void => {
  expect([a.status, a.message], a.text).to.deep.equal([400, message]);
};

async function run(s: Send): Promise<void> {
  answered(await s('POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } })), 201);
  // Created through events.k8s.io/v1; the same event through core/v1.
  const created = answered<Event>(await s('POST', E, mk('e1', { related: { kind: 'Node', name: 'n1' }, regarding: { kind: 'Pod', name: 'p', namespace: NS, uid: 'u1', apiVersion: 'v1' } })), 201);
  const asV1 = {
    name: 'e1', labels: undefined, managers: [['unknown', 'events.k8s.io/v1']], kind: 'Event', apiVersion: 'events.k8s.io/v1',
    eventTime: '2024-01-02T03:04:05.123456Z', reportingController: 'example.com/ctl', reportingInstance: 'inst-1', action: 'Create', reason: 'Made',
    regarding: { kind: 'Pod', namespace: NS, name: 'p', uid: 'u1', apiVersion: 'v1' }, related: { kind: 'Node', name: 'n1' }, note: 'hello', type: 'Normal',
    deprecatedSource: {}, deprecatedFirstTimestamp: null, deprecatedLastTimestamp: null,
  };
  expect(shape(created)).to.deep.equal(asV1);
  expect(shape(answered(await s('GET', `${E}/e1`)))).to.deep.equal(asV1);
  expect(shape(answered(await s('GET', `${C}/e1`)))).to.deep.equal({
    name: 'e1', labels: undefined, managers: [['unknown', 'events.k8s.io/v1']], kind: 'Event', apiVersion: 'v1',
    involvedObject: { kind: 'Pod', namespace: NS, name: 'p', uid: 'u1', apiVersion: 'v1' }, reason: 'Made', message: 'hello', source: {}, firstTimestamp: null, lastTimestamp: null,
    type: 'Normal', eventTime: '2024-01-02T03:04:05.123456Z', action: 'Create', related: { kind: 'Node', name: 'n1' }, reportingComponent: 'example.com/ctl', reportingInstance: 'inst-1',
  });

  // A legacy event created through core/v1, read through events.k8s.io/v1: the deprecated fields.
  const legacy = { apiVersion: 'v1', kind: 'Event', metadata: { name: 'c1' }, involvedObject: { kind: 'Pod', name: 'p', namespace: NS }, reason: 'R', message: 'm', source: { component: 'kubelet', host: 'h' }, firstTimestamp: '2024-01-01T00:00:00Z', lastTimestamp: '2024-01-01T00:00:01Z', count: 3, type: 'Warning' };
  expect((await s('POST', C, JSON.stringify(legacy))).status).to.equal(201);
  const legacyAsV1 = {
    name: 'c1', labels: undefined, managers: [['unknown', 'v1']], kind: 'Event', apiVersion: 'events.k8s.io/v1', eventTime: null, reason: 'R',
    regarding: { kind: 'Pod', namespace: NS, name: 'p' }, note: 'm', type: 'Warning', deprecatedSource: { component: 'kubelet', host: 'h' },
    deprecatedFirstTimestamp: '2024-01-01T00:00:00Z', deprecatedLastTimestamp: '2024-01-01T00:00:01Z', deprecatedCount: 3,
  };
  expect(shape(answered(await s('GET', `${E}/c1`)))).to.deep.equal(legacyAsV1);
  const list = answered<{ kind: string; apiVersion: string; items: Event[] }>(await s('GET', E));
  expect([list.kind, list.apiVersion, list.items.map((i) => i.metadata.name)]).to.deep.equal(['EventList', 'events.k8s.io/v1', ['c1', 'e1']]);
  expect(shape({ ...list.items[0], kind: 'Event', apiVersion: 'events.k8s.io/v1' })).to.deep.equal(legacyAsV1);

  // ValidateEventCreate: the legacy rules named as events.k8s.io names the controller, then the strict ones.
  // With no object named, the legacy rule allows no namespace only for an event in `default`.
  refused(await s('POST', E.replace(NS, 'default'), JSON.stringify({ apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'Bad_Name' } })),
    "Event \"Bad_Name\" is invalid: [metadata.name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), eventTime: Required value, type: Invalid value: \"\": has invalid value: ]");
  refused(await s('POST', E, JSON.stringify({ apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'Bad_Name' } })),
    "Event \"Bad_Name\" is invalid: [involvedObject.namespace: Invalid value: \"\": does not match event.namespace, metadata.name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), eventTime: Required value, type: Invalid value: \"\": has invalid value: ]");
  refused(await s('POST', E, mk('missing', { reportingController: '', reportingInstance: '', action: '', reason: '' })),
    "Event \"missing\" is invalid: [reportingController: Required value, reportingController: Invalid value: \"\": name part must be non-empty, reportingController: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), reportingInstance: Required value, action: Required value, reason: Required value]");
  refused(await s('POST', E, mk('long', { note: 'x'.repeat(1025), reason: 'r'.repeat(129), action: 'a'.repeat(129), reportingInstance: 'i'.repeat(129), reportingController: 'Bad Ctl!' })),
    "Event \"long\" is invalid: [reportingController: Invalid value: \"Bad Ctl!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), reportingInstance: Invalid value: \"\": can have at most 128 characters, action: Invalid value: \"\": can have at most 128 characters, reason: Invalid value: \"\": can have at most 128 characters, message: Invalid value: \"\": can have at most 1024 characters]");
  refused(await s('POST', E, mk('type', { type: 'Info' })), 'Event "type" is invalid: type: Invalid value: "": has invalid value: Info');
  refused(await s('POST', E, mk('series', { series: { count: 1 } })), 'Event "series" is invalid: [series.count: Invalid value: "": should be at least 2, series.lastObservedTime: Required value]');
  refused(await s('POST', E, mk('dep', { deprecatedSource: { component: 'c' }, deprecatedFirstTimestamp: '2024-01-01T00:00:00Z', deprecatedLastTimestamp: '2024-01-01T00:00:00Z', deprecatedCount: 2 })),
    'Event "dep" is invalid: [firstTimestamp: Invalid value: "": needs to be unset, lastTimestamp: Invalid value: "": needs to be unset, count: Invalid value: "": needs to be unset, source: Invalid value: "": needs to be unset]');
  refused(await s('POST', E, mk('a..b')), "Event \"a..b\" is invalid: metadata.name: Invalid value: \"a..b\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
  // A new-style event may name an object of no or another namespace.
  expect((await s('POST', E, mk('other-ns', { regarding: { kind: 'Pod', name: 'p', namespace: 'other' } }))).status).to.equal(201);

  // The decoder: Go's types, MicroTime's layout, unknown fields (the core names among them) under Strict and Warn.
  const cannot = 'Event in version "v1" cannot be handled as a Event: ';
  badRequest(await s('POST', E, mk('t1', { deprecatedCount: '3' })), `${cannot}json: cannot unmarshal string into Go struct field Event.deprecatedCount of type int32`);
  badRequest(await s('POST', E, mk('t2', { note: 5 })), `${cannot}json: cannot unmarshal number into Go struct field Event.note of type string`);
  badRequest(await s('POST', E, mk('t3', { eventTime: 'yesterday' })), `${cannot}parsing time "yesterday" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "yesterday" as "2006"`);
  badRequest(await s('POST', E, mk('t4', { series: { count: 'x' } })), `${cannot}json: cannot unmarshal string into Go struct field EventSeries.series.count of type int32`);
  badRequest(await s('POST', E, mk('t5', { regarding: 'pod' })), `${cannot}json: cannot unmarshal string into Go struct field Event.regarding of type v1.ObjectReference`);
  badRequest(await s('POST', `${E}?fieldValidation=Strict`, mk('strict', { message: 'm', involvedObject: {}, extra: 1 })), `${cannot}strict decoding error: unknown field "message", unknown field "involvedObject", unknown field "extra"`);
  const warned = await s('POST', `${E}?fieldValidation=Warn`, mk('warn', { message: 'm' }));
  expect([warned.status, warned.warnings]).to.deep.equal([201, ['unknown field "message"']]);

  // ValidateEventUpdate: a changed series is checked, everything else but the metadata is fixed.
  expect((await s('POST', E, mk('ok', { series: { count: 2, lastObservedTime: '2024-01-02T03:04:06.000001Z' }, related: { kind: 'Node', name: 'n' } }))).status).to.equal(201);
  const ok = answered<Event>(await s('GET', `${E}/ok`));
  refused(await s('PUT', `${E}/ok`, JSON.stringify({ ...ok, note: 'changed', reason: 'Other', action: 'Upd', reportingController: 'x.io/y', type: 'Warning', eventTime: '2024-01-02T03:04:05.999999Z', related: null })),
    'Event "ok" is invalid: [reason: Invalid value: "Other": field is immutable, message: Invalid value: "changed": field is immutable, type: Invalid value: "Warning": field is immutable, eventTime: Invalid value: "2024-01-02T03:04:05.999999Z": field is immutable, action: Invalid value: "Upd": field is immutable, related: Invalid value: null: field is immutable, reportingController: Invalid value: "x.io/y": field is immutable]');
  refused(await s('PUT', `${E}/ok`, JSON.stringify({ ...ok, series: { count: 1 } })), 'Event "ok" is invalid: [series.count: Invalid value: "": should be at least 2, series.lastObservedTime: Required value]');
  const put = answered<Event>(await s('PUT', `${E}/ok`, JSON.stringify({ ...ok, series: { count: 5, lastObservedTime: '2024-01-02T03:04:07.000001Z' }, metadata: { ...ok.metadata, labels: { a: 'b' } } })));
  expect([put.series, put.metadata.labels]).to.deep.equal([{ count: 5, lastObservedTime: '2024-01-02T03:04:07.000001Z' }, { a: 'b' }]);
  expect(answered<Event>(await s('PATCH', `${E}/ok`, JSON.stringify({ series: { count: 6 } }), 'application/merge-patch+json')).series).to.deep.equal({ count: 6, lastObservedTime: '2024-01-02T03:04:07.000001Z' });
  expect(answered<Event>(await s('PATCH', `${E}/ok`, JSON.stringify({ metadata: { labels: { c: 'd' } } }), 'application/strategic-merge-patch+json')).metadata.labels).to.deep.equal({ a: 'b', c: 'd' });
  refused(await s('PATCH', `${E}/ok`, JSON.stringify([{ op: 'replace', path: '/note', value: 'nope' }]), 'application/json-patch+json'), 'Event "ok" is invalid: message: Invalid value: "nope": field is immutable');
  refused(await s('PATCH', `${E}/c1`, JSON.stringify({ note: 'x' }), 'application/merge-patch+json'), 'Event "c1" is invalid: message: Invalid value: "x": field is immutable');

  // A write through one API forgets the managers of the other (the converter has no version of their group).
  const core = answered<Event>(await s('PATCH', `${C}/ok`, JSON.stringify({ message: 'core changed', count: 4 }), 'application/merge-patch+json'));
  expect(core.metadata.managedFields?.map((m) => [m.manager, m.apiVersion, m.fieldsV1])).to.deep.equal([['unknown', 'v1', { 'f:count': {}, 'f:message': {} }]]);
  const back = answered<Event>(await s('GET', `${E}/ok`));
  expect([back.note, back.deprecatedCount, back.series]).to.deep.equal(['core changed', 4, { count: 6, lastObservedTime: '2024-01-02T03:04:07.000001Z' }]);
  const relabelled = answered<Event>(await s('PATCH', `${E}/c1`, JSON.stringify({ metadata: { labels: { x: 'y' } } }), 'application/merge-patch+json'));
  expect(shape(relabelled)).to.deep.equal({ ...legacyAsV1, labels: { x: 'y' }, managers: [['unknown', 'events.k8s.io/v1']] });

  // Field selectors: events.k8s.io's labels, mapped onto the core field set; the core names refused.
  const names = async (selector: string): Promise<string[]> => answered<{ items: Event[] }>(await s('GET', `${E}?fieldSelector=${encodeURIComponent(selector)}`)).items.map((i) => i.metadata.name);
  expect(await names('regarding.namespace=other')).to.deep.equal(['other-ns']);
  expect(await names('type=Warning,reason=R')).to.deep.equal(['c1']);
  expect(await names('reportingController=example.com/ctl,metadata.name!=ok')).to.deep.equal(['e1', 'other-ns', 'warn']);
  badRequest(await s('GET', `${E}?fieldSelector=involvedObject.name%3Dp`), 'field label not supported: involvedObject.name');
  badRequest(await s('GET', `${E}?fieldSelector=source%3Dkubelet`), 'field label not supported: source');

  // Watched through events.k8s.io/v1, converted.
  const watch = await s('GET', `${E}?watch=1&fieldSelector=metadata.name%3Dc1&timeoutSeconds=1`);
  expect(watch.text.trim().split('\n').map((l) => { const e = JSON.parse(l) as { type: string; object: Event }; return [e.type, e.object.apiVersion, e.object.note, e.object.deprecatedCount]; })).to.deep.equal([['ADDED', 'events.k8s.io/v1', 'm', 3]]);

  // The Table: printEvent's columns (wide; Name last), the same through both APIs.
  const table = async (path: string): Promise<{ columns: unknown[]; rows: unknown[][] }> => {
    const t = JSON.parse((await s('GET', `${path}?fieldSelector=metadata.name%3Dc1`, undefined, undefined, 'application/json;as=Table;v=v1;g=meta.k8s.io')).text) as { columnDefinitions: { name: string; priority: number }[]; rows: { cells: unknown[] }[] };
    return { columns: t.columnDefinitions.map((c) => [c.name, c.priority]), rows: t.rows.map((r) => [...r.cells.slice(1, 7), r.cells[8], r.cells[9]]) };
  };
  const expected = {
    columns: [['Last Seen', 0], ['Type', 0], ['Reason', 0], ['Object', 0], ['Subobject', 1], ['Source', 1], ['Message', 0], ['First Seen', 1], ['Count', 1], ['Name', 1]],
    rows: [['Warning', 'R', 'pod/p', '', 'kubelet, h', 'm', 3, 'c1']],
  };
  expect(await table(E)).to.deep.equal(expected);
  expect(await table(C)).to.deep.equal(expected);

  // Discovery: the group, its one version, and the storage version hash of the stored core/v1 Event.
  const discovery = JSON.parse((await s('GET', '/apis/events.k8s.io/v1')).text) as { resources: unknown[] };
  expect(discovery.resources).to.deep.equal([{ name: 'events', singularName: 'event', namespaced: true, kind: 'Event', verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'], shortNames: ['ev'], storageVersionHash: 'r2yiGXH7wu8=' }]);

  // Deleted through either API; not found in the words of the API asked.
  const deleted = JSON.parse((await s('DELETE', `${E}/c1`)).text) as { status: string; details: Json };
  expect([deleted.status, deleted.details.name, deleted.details.group, deleted.details.kind]).to.deep.equal(['Success', 'c1', 'events.k8s.io', 'events']);
  expect((await s('GET', `${C}/c1`)).message).to.equal('events "c1" not found');
  expect((await s('DELETE', `${C}/e1`)).status).to.equal(200);
  expect((await s('GET', `${E}/e1`)).message).to.equal('events.events.k8s.io "e1" not found');
  const all = JSON.parse((await s('DELETE', E)).text) as { kind: string; items: Event[] };
  expect([all.kind, all.items.map((i) => i.metadata.name)]).to.deep.equal(['EventList', ['ok', 'other-ns', 'warn']]);
  expect(answered<{ items: unknown[] }>(await s('GET', C)).items).to.deep.equal([]);
}

describeOnBothServers('events.k8s.io/v1 Events (one storage with core/v1 Events)', run);
