/**
 * Events, served in two APIs over one storage: core/v1 Events and events.k8s.io/v1 Events are views of
 * the same stored objects (the apiserver's internal core Event, cohabitating in one etcd prefix), so an
 * event written through one is listed, watched, updated and deleted through the other. kubekit stores
 * the core/v1 form; events.k8s.io/v1 converts on every read and write as pkg/apis/events/v1/conversion.go
 * does (`note` is `message`, `regarding` is `involvedObject`, the `deprecated*` fields the legacy ones).
 *
 * Both are validated on the stored form (eventValidation.ts): core/v1 writes with the legacy rules only,
 * events.k8s.io/v1 writes with the stricter ones for new events. Both print the same Table
 * (`printEvent`, pkg/printers/internalversion).
 */
import type { KubeObject } from '@kubekit/core';
import { BuiltinResourceType } from './builtinKinds.js';
import { encodeAsGo } from './builtinGoJSON.js';
import { isObject, setOwn, str } from './internal/own.js';
import { timestampSince } from './table.js';
import { validateEventCreate, validateEventUpdate, validateLegacyEvent } from './eventValidation.js';

const coreEvents = { group: '', version: 'v1', kind: 'Event' } as const;

/**
 * Pairs of (events.k8s.io/v1 field, core/v1 field) that only change their name; the rest (`eventTime`,
 * `series`, `reportingInstance`, `action`, `reason`, `related`, `type`) keep theirs.
 */
const renamed: readonly (readonly [string, string])[] = [
  ['regarding', 'involvedObject'],
  ['note', 'message'],
  ['deprecatedSource', 'source'],
  ['deprecatedFirstTimestamp', 'firstTimestamp'],
  ['deprecatedLastTimestamp', 'lastTimestamp'],
  ['deprecatedCount', 'count'],
  ['reportingController', 'reportingComponent'],
];

/** Copies `o` with each field renamed by `names` (from → to); `apiVersion` set. */
function renameFields(o: KubeObject, names: ReadonlyMap<string, string>, apiVersion: string): KubeObject {
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [k, v] of Object.entries(o)) setOwn(out, names.get(k) ?? k, v);
  out.apiVersion = apiVersion;
  out.kind = 'Event';
  return { ...out } as KubeObject;
}

const toCore = new Map(renamed.map(([v1, core]) => [v1, core]));
const fromCore = new Map(renamed.map(([v1, core]) => [core, v1]));

/** `Convert_v1_Event_To_core_Event`: an events.k8s.io/v1 Event in the core/v1 form it is stored in. */
export function eventToCore(o: KubeObject): KubeObject {
  const core = renameFields(o, toCore, 'v1');
  encodeAsGo(core, coreEvents);
  return core;
}

/** `Convert_core_Event_To_v1_Event`: a stored (core/v1) Event as events.k8s.io/v1 shows it. */
export function eventFromCore(stored: KubeObject): KubeObject {
  const o = renameFields(stored, fromCore, 'events.k8s.io/v1');
  encodeAsGo(o, { group: 'events.k8s.io', version: 'v1', kind: 'Event' });
  return o;
}

/**
 * `printEvent` (wide: the apiserver's Table has every column) of a core/v1 Event: last seen, type,
 * reason, object, subobject, source, message, first seen, count, name. A new-style event's times are its
 * event time and series; a singleton counts 1.
 */
function printEvent(o: KubeObject, now: number): unknown[] {
  const first = o.firstTimestamp === undefined || o.firstTimestamp === null ? timestampSince(o.eventTime, now) : timestampSince(o.firstTimestamp, now);
  let last = o.lastTimestamp === undefined || o.lastTimestamp === null ? first : timestampSince(o.lastTimestamp, now);
  let count = typeof o.count === 'number' ? o.count : 0;
  if (isObject(o.series)) {
    last = timestampSince(o.series.lastObservedTime, now);
    count = typeof o.series.count === 'number' ? o.series.count : 0;
  } else if (count === 0) {
    count = 1;
  }
  const involved = isObject(o.involvedObject) ? o.involvedObject : {};
  const kind = str(involved.kind).toLowerCase();
  const target = str(involved.name) === '' ? kind : `${kind}/${str(involved.name)}`;
  const source = isObject(o.source) ? o.source : {};
  const component = str(source.component) || str(o.reportingComponent);
  const instance = str(source.host) || str(o.reportingInstance);
  return [last, str(o.type), str(o.reason), target, str(involved.fieldPath), instance === '' ? component : `${component}, ${instance}`,
    str(o.message).trim(), first, count, o.metadata.name ?? ''];
}

/** The Event kinds: core/v1 Events, and events.k8s.io/v1 Events stored with them. */
export function eventResourceTypes(): BuiltinResourceType[] {
  return [
    new BuiltinResourceType({
      names: { group: '', version: 'v1', resource: 'events', singular: 'event', kind: 'Event', namespaced: true, shortNames: ['ev'], status: false, nameValidation: 'pathSegment' },
      allowCreateOnUpdate: true,
      watchCache: false,
      // ValidateEventCreate/ValidateEventUpdate for core/v1: legacyValidateEvent only.
      strategyValidatesMeta: false,
      validate: (o) => validateLegacyEvent(o, 'v1'),
      printer: printEvent,
    }),
    new BuiltinResourceType({
      names: { group: 'events.k8s.io', version: 'v1', resource: 'events', singular: 'event', kind: 'Event', namespaced: true, shortNames: ['ev'], status: false, nameValidation: 'pathSegment' },
      allowCreateOnUpdate: true,
      storage: { groupResource: { group: '', resource: 'events' }, kind: coreEvents, fromStorage: eventFromCore, toStorage: eventToCore },
      internalGroup: '',
      watchCache: false,
      // The strategy validates the metadata itself (ValidateObjectMeta among the event's own rules), then
      // rest.BeforeCreate checks the names as path segments.
      strategyValidatesMeta: false,
      validateCreate: (o) => validateEventCreate(eventToCore(o)),
      validateUpdate: (o, old) => validateEventUpdate(eventToCore(o), eventToCore(old)),
      printer: (o, now) => printEvent(eventToCore(o), now),
    }),
  ];
}
