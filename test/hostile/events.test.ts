// How kube-apiserver 1.34.4 validates a core/v1 Event (legacyValidateEvent, the only rules of ValidateEventCreate
// and ValidateEventUpdate for v1): no metadata validation by the strategy (rest.BeforeCreate checks the name
// only as a path segment, and the rest of the metadata only when the event itself is valid), an involved
// object in the event's namespace, and for an event with eventTime the reporting component, instance, action
// and reason within their lengths. kubekit validated an Event's metadata as any kind's (refusing names the
// apiserver takes) and checked nothing of the event. The expected answers are the reference's (its lines
// below, as the probe printed them).
import { expect } from 'chai';
import { describeOnBothServers, type Send } from './sender.js';

const expected = [
  "Bad_Name 201 ",
  "a/b 422 Event \"a/b\" is invalid: metadata.name: Invalid value: \"a/b\": may not contain '/'",
  ".. 422 Event \"..\" is invalid: metadata.name: Invalid value: \"..\": may not be '..'",
  "x1 422 Event \"x1\" is invalid: involvedObject.namespace: Invalid value: \"other\": does not match event.namespace",
  "x2 422 Event \"x2\" is invalid: involvedObject.namespace: Invalid value: \"\": does not match event.namespace",
  "x3 422 Event \"x3\" is invalid: [reportingComponent: Required value, reportingComponent: Invalid value: \"\": name part must be non-empty, reportingComponent: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-",
  "x4 422 Event \"x4\" is invalid: [reportingComponent: Invalid value: \"bad name!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), action: Invalid value: \"\": can have at most 128 characters, message: Invalid value: \"\"",
  "x5 422 Event \"x5\" is invalid: metadata.labels: Invalid value: \"bad key!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
  "x6 201 ",
  "x7 422 Event \"x7\" is invalid: involvedObject.namespace: Invalid value: \"other\": does not match event.namespace",
  "ok 201 ",
  "upd {\"metadata\":{\"labels\":{\"bad key!\":\"v\"}}} 422 Event \"ok\" is invalid: metadata.labels: Invalid value: \"bad key!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') 2",
  "upd {\"involvedObject\":{\"namespace\":\"other\"}} 422 Event \"ok\" is invalid: involvedObject.namespace: Invalid value: \"other\": does not match event.namespace 1",
  "upd {\"reason\":\"changed\"} 200  0"
];

async function run(s: Send): Promise<void> {
  const created = await s('POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ev' } }));
  expect(created.status, created.text).to.equal(201);
  const lines: string[] = [];
  const evs = [
    { metadata: { name: 'Bad_Name' }, involvedObject: { kind: 'Pod', name: 'p', namespace: 'ev' } },
    { metadata: { name: 'a/b' }, involvedObject: { kind: 'Pod', name: 'p', namespace: 'ev' } },
    { metadata: { name: '..' }, involvedObject: { kind: 'Pod', name: 'p', namespace: 'ev' } },
    { metadata: { name: 'x1' }, involvedObject: { kind: 'Pod', name: 'p', namespace: 'other' } },
    { metadata: { name: 'x2' }, involvedObject: { kind: 'Pod', name: 'p' } },
    { metadata: { name: 'x3' }, involvedObject: { kind: 'Pod', name: 'p', namespace: 'ev' }, eventTime: '2026-01-01T00:00:00.000000Z' },
    { metadata: { name: 'x4' }, involvedObject: { kind: 'Pod', name: 'p', namespace: 'ev' }, eventTime: '2026-01-01T00:00:00.000000Z', reportingComponent: 'bad name!', reportingInstance: 'i', action: 'x'.repeat(130), reason: 'R', message: 'm'.repeat(1100) },
    { metadata: { name: 'x5', labels: { 'bad key!': 'v' } }, involvedObject: { kind: 'Pod', name: 'p', namespace: 'ev' } },
    { metadata: { name: 'x6', finalizers: ['custom'] }, involvedObject: { kind: 'Pod', name: 'p', namespace: 'ev' } },
    { metadata: { name: 'x7', labels: { 'bad key!': 'v' } }, involvedObject: { kind: 'Pod', name: 'p', namespace: 'other' } },
    { metadata: { name: 'ok' }, involvedObject: { kind: 'Pod', name: 'p', namespace: 'ev' }, reason: 'R', message: 'm', type: 'Normal' },
  ];
  for (const e of evs) {
    const a = await s('POST', '/api/v1/namespaces/ev/events', JSON.stringify({ apiVersion: 'v1', kind: 'Event', ...e }));
    lines.push(`${e.metadata.name} ${a.status} ${a.status >= 400 ? String((JSON.parse(a.text) as { message: string }).message).slice(0, 400) : ''}`);
  }
  for (const p of [{ metadata: { labels: { 'bad key!': 'v' } } }, { involvedObject: { namespace: 'other' } }, { reason: 'changed' }]) {
    const a = await s('PATCH', '/api/v1/namespaces/ev/events/ok', JSON.stringify(p), 'application/merge-patch+json');
    const body = JSON.parse(a.text) as { message?: string; details?: { causes?: unknown[] } };
    lines.push(`upd ${JSON.stringify(p)} ${a.status} ${a.status >= 400 ? String(body.message).slice(0, 400) : ''} ${(body.details?.causes ?? []).length}`);
  }
  expect(lines).to.deep.equal(expected);
}

describeOnBothServers('core/v1 Events', run);
