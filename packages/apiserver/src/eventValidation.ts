/**
 * The validation of Events (pkg/apis/core/validation/events.go), on the stored form, the core/v1 Event,
 * whichever API wrote it: `legacyValidateEvent` for every write, and for writes through events.k8s.io/v1
 * the stricter rules of `ValidateEventCreate` and `ValidateEventUpdate`. The field paths are the core
 * Event's (`message`, `involvedObject`, `count`), as the apiserver validates its internal object; only
 * the reporting controller is named as the request's API names it.
 */
import { FieldError, invalid, required, type KubeObject } from '@kubekit/core';
import { isDNS1123Subdomain, isQualifiedName } from './internal/semantics.js';
import { isObject, str } from './internal/own.js';
import { semanticEqual } from './internal/deepEqual.js';
import { validateObjectMeta, validateStrategyObjectMetaUpdate } from './objectMeta.js';

/** The API an Event is written through: the rules and one field name depend on it. */
export type EventRequestVersion = 'v1' | 'events.k8s.io/v1';

/** A `metav1.Time` or `MicroTime` as decoded: Go's zero time is written as null. */
const isZeroTime = (v: unknown): boolean => v === undefined || v === null || v === '';

/**
 * `legacyValidateEvent`: an event without `eventTime` names an involved object in its own namespace (or
 * none, in `default` or no namespace); one with `eventTime` needs the reporting controller and instance,
 * an action and a reason, within their lengths; and the namespace is a DNS-1123 subdomain.
 */
export function validateLegacyEvent(o: KubeObject, requestVersion: EventRequestVersion): FieldError[] {
  const errs: FieldError[] = [];
  const namespace = o.metadata.namespace ?? '';
  const involvedNamespace = str(isObject(o.involvedObject) ? o.involvedObject.namespace : undefined);
  const mismatch = (): FieldError => invalid('involvedObject.namespace', involvedNamespace, 'does not match event.namespace');
  if (isZeroTime(o.eventTime)) {
    if (involvedNamespace === '' ? namespace !== '' && namespace !== 'default' : namespace !== involvedNamespace) errs.push(mismatch());
  } else {
    if (involvedNamespace === '' && namespace !== 'default' && namespace !== 'kube-system') errs.push(mismatch());
    const controllerField = requestVersion === 'v1' ? 'reportingComponent' : 'reportingController';
    const controller = str(o.reportingComponent);
    if (controller === '') errs.push(required(controllerField, ''));
    for (const msg of isQualifiedName(controller)) errs.push(invalid(controllerField, controller, msg));
    const limited: [string, number, boolean][] = [['reportingInstance', 128, true], ['action', 128, true], ['reason', 128, true], ['message', 1024, false]];
    for (const [field, limit, needed] of limited) {
      const value = str(o[field]);
      if (needed && value === '') errs.push(required(field, ''));
      // Go's len: bytes.
      if (Buffer.byteLength(value) > limit) errs.push(invalid(field, '', `can have at most ${limit} characters`));
    }
  }
  for (const msg of isDNS1123Subdomain(namespace)) errs.push(invalid('namespace', namespace, msg));
  return errs;
}

/** `validateV1EventSeries`: a series counts at least 2 and has its last observed time. */
function validateSeries(o: KubeObject): FieldError[] {
  if (!isObject(o.series)) return [];
  const errs: FieldError[] = [];
  const count = typeof o.series.count === 'number' ? o.series.count : 0;
  if (count < 2) errs.push(invalid('series.count', '', 'should be at least 2'));
  if (isZeroTime(o.series.lastObservedTime)) errs.push(required('series.lastObservedTime', ''));
  return errs;
}

/**
 * `ValidateEventCreate` for a create through events.k8s.io/v1 (`o` in its core form): the legacy rules,
 * the metadata (names as DNS-1123 subdomains), the series, an event time, a type of Normal or Warning,
 * and none of the deprecated fields.
 */
export function validateEventCreate(o: KubeObject): FieldError[] {
  const errs = [...validateLegacyEvent(o, 'events.k8s.io/v1'), ...validateObjectMeta(o.metadata, true, 'subdomain'), ...validateSeries(o)];
  if (isZeroTime(o.eventTime)) errs.push(required('eventTime', ''));
  if (o.type !== 'Normal' && o.type !== 'Warning') errs.push(invalid('type', '', `has invalid value: ${str(o.type)}`));
  if (!isZeroTime(o.firstTimestamp)) errs.push(invalid('firstTimestamp', '', 'needs to be unset'));
  if (!isZeroTime(o.lastTimestamp)) errs.push(invalid('lastTimestamp', '', 'needs to be unset'));
  if (typeof o.count === 'number' && o.count !== 0) errs.push(invalid('count', '', 'needs to be unset'));
  const source = isObject(o.source) ? o.source : {};
  if (str(source.component) !== '' || str(source.host) !== '') errs.push(invalid('source', '', 'needs to be unset'));
  return errs;
}

/** The internal `core.ObjectReference` as `json.Marshal` writes it (no JSON tags: Go's field names, every one). */
function internalReference(ref: unknown): string {
  const r = isObject(ref) ? ref : {};
  const fields = ['Kind', 'Namespace', 'Name', 'UID', 'APIVersion', 'ResourceVersion', 'FieldPath'];
  const json = ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'];
  return `{${fields.map((f, i) => `${JSON.stringify(f)}:${JSON.stringify(str(r[json[i]]))}`).join(',')}}`;
}

/**
 * `ValidateEventUpdate` for an update through events.k8s.io/v1 (both in their core form), past the
 * legacy rules: the strategy's metadata update, a changed series, and every other field fixed (the event
 * time to the microsecond).
 */
export function validateEventUpdate(o: KubeObject, old: KubeObject): FieldError[] {
  const errs = [...validateLegacyEvent(o, 'events.k8s.io/v1'), ...validateStrategyObjectMetaUpdate(o.metadata, old.metadata)];
  if (!semanticEqual(o.series ?? null, old.series ?? null)) errs.push(...validateSeries(o));
  // ValidateImmutableField prints the new value as Go does: structs of the internal types through
  // json.Marshal (their field names), pointers to none as null, a zero time as null.
  const immutable = (field: string, shown?: (v: unknown) => string): void => {
    const now = o[field] ?? null;
    if (semanticEqual(now, old[field] ?? null)) return;
    errs.push(new FieldError('FieldValueInvalid', field, now, 'field is immutable', shown?.(now)));
  };
  const source = (v: unknown): string => {
    const s = isObject(v) ? v : {};
    return `{"Component":${JSON.stringify(str(s.component))},"Host":${JSON.stringify(str(s.host))}}`;
  };
  const sameText = (field: string, shownAs = field): void => {
    if (str(o[field]) !== str(old[field])) errs.push(invalid(shownAs, str(o[field]), 'field is immutable'));
  };
  if (!semanticEqual(isObject(o.involvedObject) ? o.involvedObject : {}, isObject(old.involvedObject) ? old.involvedObject : {})) {
    errs.push(new FieldError('FieldValueInvalid', 'involvedObject', o.involvedObject, 'field is immutable', internalReference(o.involvedObject)));
  }
  sameText('reason');
  sameText('message');
  if (source(o.source) !== source(old.source)) errs.push(new FieldError('FieldValueInvalid', 'source', o.source, 'field is immutable', source(o.source)));
  immutable('firstTimestamp');
  immutable('lastTimestamp');
  if ((o.count ?? 0) !== (old.count ?? 0)) errs.push(invalid('count', typeof o.count === 'number' ? o.count : 0, 'field is immutable'));
  // Reported twice, as ValidateEventUpdate checks it twice.
  sameText('reason');
  sameText('type');
  immutable('eventTime');
  sameText('action');
  immutable('related', (v) => (v === null ? 'null' : internalReference(v)));
  sameText('reportingComponent', 'reportingController');
  sameText('reportingInstance');
  return errs;
}
