/**
 * The apiserver's field manager (k8s.io/apimachinery's `managedfields`): who owns which field of an
 * object, kept in `metadata.managedFields`.
 *
 * - Every create, update and non-apply patch records an `Update` entry for its manager with the fields
 *   it changed; the fields are taken from every other manager (an update always wins), and fields it
 *   removed leave every set. Entries are merged per manager, API version and subresource.
 * - Server-side apply records an `Apply` entry with the configuration's fields. A field another
 *   manager owns that the apply would change is a conflict (409) unless `force` takes it over; applying
 *   the value another manager set shares ownership; fields the manager applied before and no longer
 *   applies are removed unless someone else owns them.
 * - Objects whose managed fields were cleared are not tracked by updates; the first apply to one
 *   credits its existing fields to `before-first-apply`. At most ten `Update` managers are kept: the
 *   oldest are merged into `ancient-changes`. `kubectl` applying server-side after client-side apply
 *   may take the fields its `last-applied-configuration` annotation still matches, and keeps the
 *   annotation up to date.
 *
 * @see https://github.com/kubernetes/kubernetes/tree/master/staging/src/k8s.io/apimachinery/pkg/util/managedfields
 * @see https://kubernetes.io/docs/reference/using-api/server-side-apply/
 */
import { KubeError, goJSON, goQuote, parseRFC3339, type KubeObject, type ManagedFieldsEntry, type StatusCause } from '@kubekit/core';
import { FieldSet, cloneSet, difference, fromFieldsV1, intersection, memberPaths, recursiveDifference, subtractInPlace, toFieldsV1, union, unionInto } from './fieldSet.js';
import { cloneJSON } from '../internal/own.js';
import { UndeclaredFieldsError, compareObjects, ensureNamedFieldsAreMembers, equalJSON, mergeObjects, removeItems, toFieldSet } from './typed.js';
import type { TypeNode } from './schema.js';
import { valueDepth } from '../internal/nesting.js';

/** The most `Update` managers an object keeps (`DefaultMaxUpdateManagers`). */
export const maxUpdateManagers = 10;

/** The manager the oldest `Update` entries are merged into beyond {@link maxUpdateManagers}. */
export const ancientChangesManager = 'ancient-changes';

/** The manager credited with an object's fields at the first apply when it had no managed fields. */
export const beforeFirstApplyManager = 'before-first-apply';

/** kubectl's client-side apply annotation. */
export const lastAppliedAnnotation = 'kubectl.kubernetes.io/last-applied-configuration';

/** What a write is, for the field manager. */
export interface FieldManagerContext {
  /** The object's type for the walks. */
  type: TypeNode;
  /** `group/version` of the request. */
  apiVersion: string;
  /** `''`, `status` or `scale`. */
  subresource: string;
  /** The time of the write (RFC 3339, seconds). */
  now: string;
  /** Fields the write's strategy resets: never owned, never compared (`GetResetFields`). */
  ignored?: FieldSet;
  /**
   * The version conflicts name `Update` managers in, when the request is in another representation
   * than the object (`autoscaling/v1` for a Scale). @defaultValue the manager's own version
   */
  conflictAPIVersion?: string;
  /** The kind's empty object, compared with on create and before the first apply. @defaultValue `{}` */
  empty?: Record<string, unknown>;
  /**
   * The other versions of the resource, for the managers recorded in them: `Updater.update` compares the
   * live and new objects in each manager's version, and forgets a manager whose version the converter does
   * not have. @defaultValue managers of another group are forgotten (no converter has their version), those
   * of another version of the group compare in the request's version (a custom resource's versions have the
   * same fields)
   */
  versions?: VersionConverter;
}

/** The objects of a resource in each of its versions (`group/version` strings), for the field manager. */
export interface VersionConverter {
  /** The type of the objects of `apiVersion`, or undefined when the resource has no such version. */
  typeOf(apiVersion: string): TypeNode | undefined;
  /** `object`, in version `from`, as version `to` (one {@link typeOf} knows) shows it. */
  convert(object: unknown, from: string, to: string): unknown;
}

interface Entry {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  subresource: string;
  time: string | undefined;
  /** The fields, decoded from {@link raw} when first needed (see {@link setOf}). */
  set: FieldSet | undefined;
  /** The stored FieldsV1 the entry was read from, reused while its set is unchanged. */
  raw: Record<string, unknown> | undefined;
}

/**
 * An entry, every field in place and in one order: entries all share one shape, which keeps the
 * property reads of every walk over them fast (spreads and deletes made many shapes).
 */
function newEntry(e: Pick<Entry, 'manager' | 'operation' | 'apiVersion' | 'subresource' | 'time'>, set: FieldSet | undefined, raw: Record<string, unknown> | undefined): Entry {
  return { manager: e.manager, operation: e.operation, apiVersion: e.apiVersion, subresource: e.subresource, time: e.time, set, raw };
}

/** An entry's fields, decoded on first use: most writes leave most managers untouched. */
function setOf(e: Entry): FieldSet {
  e.set ??= fromFieldsV1(e.raw);
  return e.set;
}

function entryEmpty(e: Entry): boolean {
  return e.set === undefined ? e.raw === undefined || Object.keys(e.raw).length === 0 : e.set.isEmpty();
}

/** Whether a stored FieldsV1 and a set have a member in common (without decoding the FieldsV1). */
function rawIntersects(raw: Record<string, unknown>, set: FieldSet): boolean {
  const stack: [FieldSet, Record<string, unknown>][] = [[set, raw]];
  while (stack.length > 0) {
    const [node, r] = stack.pop()!;
    for (const [pe, child] of node.children) {
      const rc = Object.hasOwn(r, pe) ? r[pe] : undefined;
      if (rc === null || typeof rc !== 'object') continue;
      const rco = rc as Record<string, unknown>;
      if (child.member && (Object.hasOwn(rco, '.') || Object.keys(rco).length === 0)) return true;
      if (child.children.size > 0) stack.push([child, rco]);
    }
  }
  return false;
}

/** Whether an entry's fields and a set have a member in common. */
function intersects(e: Entry, set: FieldSet): boolean {
  if (e.set === undefined && e.raw !== undefined) return rawIntersects(e.raw, set);
  return !intersection(setOf(e), set).isEmpty();
}

/** Managers by identifier (`BuildManagerIdentifier`: the entry without fields and time; appliers without apiVersion). */
type Managed = Map<string, Entry>;

export function identifier(e: Pick<Entry, 'manager' | 'operation' | 'apiVersion' | 'subresource'>): string {
  // The JSON of `{manager?, operation, apiVersion?, subresource?}`, written out directly (it is made
  // for every entry of every write).
  let id = e.manager !== '' ? `{"manager":${JSON.stringify(e.manager)},` : '{';
  id += `"operation":${JSON.stringify(e.operation)}`;
  if (e.operation === 'Update' && e.apiVersion !== '') id += `,"apiVersion":${JSON.stringify(e.apiVersion)}`;
  if (e.subresource !== '') id += `,"subresource":${JSON.stringify(e.subresource)}`;
  return `${id}}`;
}

/** The paths the field manager never records (`stripMetaManager`). */
const stripSet = ((): FieldSet => {
  const s = new FieldSet();
  s.child('f:apiVersion').member = true;
  s.child('f:kind').member = true;
  const meta = s.child('f:metadata');
  meta.member = true;
  for (const f of ['name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'clusterName', 'generation', 'managedFields', 'resourceVersion']) meta.child(`f:${f}`).member = true;
  return s;
})();

/**
 * Reads `metadata.managedFields`.
 *
 * @throws KubeError `BadRequest` when an entry is not one the apiserver could decode
 */
function decodeManaged(entries: unknown, keepRaw = false): Managed {
  const out: Managed = new Map();
  if (entries === undefined || entries === null) return out;
  if (!Array.isArray(entries)) throw KubeError.badRequest('failed to decode managed fields: managedFields must be a list');
  for (const raw of entries as unknown[]) {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw KubeError.badRequest('failed to decode managed fields: an entry is not an object');
    const e = raw as ManagedFieldsEntry;
    const operation = e.operation ?? 'Update';
    if (operation !== 'Apply' && operation !== 'Update') throw KubeError.badRequest(`failed to decode managed fields: operation ${goQuote(String(operation))} is not Apply or Update`);
    if (e.fieldsType !== undefined && e.fieldsType !== '' && e.fieldsType !== 'FieldsV1') throw KubeError.badRequest(`failed to decode managed fields: invalid fieldsType ${goQuote(String(e.fieldsType))}`);
    // Stored entries are valid and canonical (the field manager wrote them): decoded when needed,
    // re-used as long as their set does not change. Others are checked now.
    const reuse = keepRaw && e.fieldsV1 !== undefined && e.fieldsV1 !== null && typeof e.fieldsV1 === 'object' && !Array.isArray(e.fieldsV1);
    const entry = newEntry({
      manager: typeof e.manager === 'string' ? e.manager : '', operation, apiVersion: typeof e.apiVersion === 'string' ? e.apiVersion : '',
      subresource: typeof e.subresource === 'string' ? e.subresource : '', time: typeof e.time === 'string' ? e.time : undefined,
    }, reuse ? undefined : fromFieldsV1(e.fieldsV1), reuse ? e.fieldsV1 : undefined);
    // Entries of one identifier: the later one stands, as in Go's map (`DecodeManagedFields`).
    out.set(identifier(entry), entry);
  }
  return out;
}

/**
 * The managed fields a request sends, as the field manager reads them from an object
 * (`Unstructured.GetManagedFields`, then `decodeLiveOrNew`): `'none'` when they are absent or do not
 * convert (not a list, an entry that is not an object or has a member of the wrong type, a time that
 * does not parse), `'reset'` for an empty list or a list of one empty entry (`isResetManagedFields`),
 * `'invalid'` when they do not decode (`DecodeManagedFields`: an operation other than `Apply` or `Update`,
 * no apiVersion, a fieldsType other than `FieldsV1`, a malformed FieldsV1), else the managers.
 */
function requestManaged(requested: unknown): Managed | 'none' | 'reset' | 'invalid' {
  if (!Array.isArray(requested)) return 'none';
  const strings = ['manager', 'operation', 'apiVersion', 'fieldsType', 'subresource'] as const;
  for (const e of requested as unknown[]) {
    if (e === null || typeof e !== 'object' || Array.isArray(e)) return 'none';
    const entry = e as Record<string, unknown>;
    for (const k of strings) if (entry[k] !== undefined && entry[k] !== null && typeof entry[k] !== 'string') return 'none';
    const t = entry.time;
    if (t !== undefined && t !== null && (typeof t !== 'string' || !parseRFC3339(t).ok)) return 'none';
  }
  const zero = (e: Record<string, unknown>): boolean => strings.every((k) => (e[k] ?? '') === '') && (e.time ?? null) === null && (e.fieldsV1 ?? null) === null;
  if (requested.length === 0 || (requested.length === 1 && zero(requested[0] as Record<string, unknown>))) return 'reset';
  for (const e of requested as Record<string, unknown>[]) {
    if ((e.operation !== 'Apply' && e.operation !== 'Update') || typeof e.apiVersion !== 'string' || e.apiVersion === '' || e.fieldsType !== 'FieldsV1') return 'invalid';
  }
  try {
    return decodeManaged(requested);
  } catch (err) {
    if (err instanceof KubeError) return 'invalid';
    throw err;
  }
}

let lastTime: string | undefined;
let lastSeconds = 0;

function seconds(time: string | undefined): number {
  if (time === undefined) return 0;
  // Most entries of a write carry the same few times: the last one parsed is kept.
  if (time === lastTime) return lastSeconds;
  const t = Date.parse(time);
  lastTime = time;
  lastSeconds = Number.isNaN(t) ? 0 : Math.floor(t / 1000);
  return lastSeconds;
}

/** The fields `sortEncodedManagedFields` orders entries by. */
export type SortedEntryFields = Pick<Entry, 'manager' | 'operation' | 'apiVersion' | 'subresource' | 'time'>;

/** The apiserver's order of managed fields entries (`sortEncodedManagedFields`): Apply first, then by time (seconds), manager, apiVersion, subresource. */
export function compareEntries(p: SortedEntryFields, q: SortedEntryFields): number {
  if (p.operation !== q.operation) return p.operation < q.operation ? -1 : 1;
  const d = seconds(p.time) - seconds(q.time);
  if (d !== 0) return d;
  if (p.manager !== q.manager) return p.manager < q.manager ? -1 : 1;
  if (p.apiVersion !== q.apiVersion) return p.apiVersion < q.apiVersion ? -1 : 1;
  return p.subresource < q.subresource ? -1 : p.subresource > q.subresource ? 1 : 0;
}

/** `metadata.managedFields` from the managers, in the apiserver's order (`sortEncodedManagedFields`). */
function encodeManaged(managed: Managed): ManagedFieldsEntry[] | undefined {
  const entries = [...managed.values()].filter((e) => !entryEmpty(e));
  if (entries.length === 0) return undefined;
  entries.sort(compareEntries);
  return entries.map((e) => {
    // The keys in ManagedFieldsEntry's order, as the apiserver writes them.
    const out: ManagedFieldsEntry = {};
    if (e.manager !== '') out.manager = e.manager;
    out.operation = e.operation;
    out.apiVersion = e.apiVersion;
    if (e.time !== undefined) out.time = e.time;
    out.fieldsType = 'FieldsV1';
    out.fieldsV1 = e.raw !== undefined ? cloneJSON(e.raw) : toFieldsV1(setOf(e));
    if (e.subresource !== '') out.subresource = e.subresource;
    return out;
  });
}

/** An object without `metadata.managedFields` (shallow copies of the two levels touched). */
function withoutManagedFields(o: KubeObject | undefined): Record<string, unknown> {
  if (o === undefined) return {};
  const meta = o.metadata as Record<string, unknown> | undefined;
  if (meta === undefined || !Object.hasOwn(meta, 'managedFields')) return o as Record<string, unknown>;
  const { managedFields: _drop, ...rest } = meta;
  return { ...o, metadata: rest };
}

function filtered(c: { added: FieldSet; modified: FieldSet; removed: FieldSet }, ignored: FieldSet | undefined): typeof c {
  if (ignored === undefined) return c;
  return { added: recursiveDifference(c.added, ignored), modified: recursiveDifference(c.modified, ignored), removed: recursiveDifference(c.removed, ignored) };
}

/** Strips the metadata paths, drops empty managers and caps the `Update` managers. */
function finish(managed: Managed): void {
  for (const [id, e] of managed) {
    subtract(e, stripSet);
    if (entryEmpty(e)) managed.delete(id);
  }
  capUpdateManagers(managed);
}

/** Removes the members of `set` from an entry's set, forgetting its FieldsV1 if that changed it. */
function subtract(e: Entry, set: FieldSet): void {
  if (e.set === undefined && e.raw !== undefined && !rawIntersects(e.raw, set)) return;
  if (subtractInPlace(setOf(e), set)) e.raw = undefined;
}

/** Merges the oldest `Update` entries into one `ancient-changes` entry per API version (`capManagersManager`). */
function capUpdateManagers(managed: Managed): void {
  const updaters = [...managed.entries()].filter(([, e]) => e.operation === 'Update');
  if (updaters.length <= maxUpdateManagers) return;
  updaters.sort(([ia, a], [ib, b]) => (seconds(a.time) - seconds(b.time)) || (ia < ib ? -1 : ia > ib ? 1 : 0));
  const firstOfVersion = new Map<string, string>();
  let length = updaters.length;
  for (let i = 0; i < updaters.length && length > maxUpdateManagers; i++) {
    const [id, e] = updaters[i];
    const bucket = identifier({ manager: ancientChangesManager, operation: 'Update', apiVersion: e.apiVersion, subresource: '' });
    const first = firstOfVersion.get(e.apiVersion);
    if (first === undefined) { firstOfVersion.set(e.apiVersion, id); continue; }
    if (!managed.has(bucket)) {
      const firstEntry = managed.get(first)!;
      managed.delete(first);
      managed.set(bucket, newEntry({ ...firstEntry, manager: ancientChangesManager, subresource: '' }, setOf(firstEntry), firstEntry.raw));
    }
    const b = managed.get(bucket)!;
    managed.set(bucket, newEntry({ ...b, time: e.time }, union(setOf(e), setOf(b)), undefined));
    managed.delete(id);
    length--;
  }
}

/** The time of a new or changed entry; none through `/scale`, whose entries the apiserver's ScaleHandler rebuilds without. */
function entryTime(ctx: FieldManagerContext): string | undefined {
  return ctx.subresource === 'scale' ? undefined : ctx.now;
}

/** The group of an apiVersion (`''` for `v1`). */
function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/** What a write added, changed and removed, as field sets. */
interface Changes {
  added: FieldSet;
  modified: FieldSet;
  removed: FieldSet;
}

/**
 * The changes of a write in each version its managers are recorded in: `Updater.update` converts the live
 * and new objects to each manager's version and compares them there, and forgets the managers whose
 * version the resource's converter does not have (`IsMissingVersionError`): those of another group serving
 * the same storage (an Event's managers of core/v1 on a write through events.k8s.io/v1, and back).
 */
class VersionedChanges {
  private readonly byVersion = new Map<string, Changes | undefined>();

  constructor(private readonly live: unknown, private readonly next: unknown, private readonly ctx: FieldManagerContext, readonly own: Changes) {
    this.byVersion.set(ctx.apiVersion, own);
  }

  /** The changes as the managers of `apiVersion` see them, or undefined when the resource has no such version. */
  of(apiVersion: string): Changes | undefined {
    if (!this.byVersion.has(apiVersion)) this.byVersion.set(apiVersion, this.compare(apiVersion));
    return this.byVersion.get(apiVersion);
  }

  private compare(apiVersion: string): Changes | undefined {
    const versions = this.ctx.versions;
    if (versions === undefined) return groupOf(apiVersion) === groupOf(this.ctx.apiVersion) ? this.own : undefined;
    const type = versions.typeOf(apiVersion);
    if (type === undefined) return undefined;
    const from = this.ctx.apiVersion;
    return filtered(compareObjects(versions.convert(this.live, from, apiVersion), versions.convert(this.next, from, apiVersion), type), this.ctx.ignored);
  }
}

/**
 * The `Update` step (`managedFieldsUpdater` over `Updater.Update`): the fields that changed from
 * `live` to `next` go to `manager`, leave every other manager, and removed fields leave everyone.
 */
function recordUpdate(managed: Managed, live: unknown, next: unknown, manager: string, ctx: FieldManagerContext): void {
  const c = filtered(compareObjects(live, next, ctx.type), ctx.ignored);
  const changes = new VersionedChanges(live, next, ctx, c);
  // The sets are fresh from the comparison: one of them serves as the union when the other is empty
  // (a create modifies nothing), and the new entry's set may be built in place.
  const taken = c.modified.isEmpty() ? c.added : c.added.isEmpty() ? c.modified : union(c.modified, c.added);
  const removes = !c.removed.isEmpty();
  for (const [id, e] of [...managed]) {
    if (e.apiVersion === ctx.apiVersion) {
      if (!taken.isEmpty()) subtract(e, taken);
      if (removes) subtract(e, c.removed);
      continue;
    }
    const other = changes.of(e.apiVersion);
    if (other === undefined) managed.delete(id);
    else if (other === c) {
      if (!taken.isEmpty()) subtract(e, taken);
      if (removes) subtract(e, c.removed);
    } else {
      subtract(e, other.modified);
      subtract(e, other.added);
      subtract(e, other.removed);
    }
  }
  // stripMetaManager drops the metadata paths from the operation's own set before managedFieldsUpdater
  // looks at it: an update that only "changes" server-set metadata (a body without creationTimestamp)
  // takes nothing, so its manager's time stays and a no-op update stays a no-op.
  const mine = difference(ctx.ignored === undefined ? taken : recursiveDifference(taken, ctx.ignored), stripSet);
  if (mine.isEmpty()) return;
  const key = { manager, operation: 'Update' as const, apiVersion: ctx.apiVersion, subresource: ctx.subresource };
  const id = identifier(key);
  const previous = managed.get(id);
  const time = entryTime(ctx);
  managed.set(id, newEntry({ manager, operation: 'Update', apiVersion: ctx.apiVersion, subresource: ctx.subresource, time }, previous === undefined ? mine : unionInto(mine, setOf(previous)), undefined));
}

/**
 * The managed fields of an object written by create, update or a non-apply patch (`FieldManager.Update`).
 * `live` is the current object (undefined on create). The request's own `managedFields` are used
 * when they decode and are not empty (that is how clients reset them); else the live object's.
 * Returns the new `metadata.managedFields` (undefined: none).
 */
export function updateManagedFields(live: KubeObject | undefined, next: KubeObject, manager: string, ctx: FieldManagerContext): ManagedFieldsEntry[] | undefined {
  let managed: Managed | undefined;
  // A request that sends back the live managed fields unchanged (a read-modify-write, a patch that
  // leaves them alone) is the common case: the live ones are read, and reused where they do not change.
  // A write through a subresource never sets them (`ignoreManagedFieldsFromRequestObject`).
  const echoed = live !== undefined && equalJSON(next.metadata.managedFields, live.metadata.managedFields);
  let reset = false;
  if (ctx.subresource === '' && !echoed) {
    const requested = requestManaged(next.metadata.managedFields);
    if (requested === 'reset') reset = true;
    else if (typeof requested === 'object') managed = requested;
  }
  if (reset) {
    // Cleared: an update of an existing object is then not tracked (`skipNonAppliedManager`); a create is.
    if (live !== undefined) return undefined;
    managed = new Map();
  } else if (managed === undefined || managed.size === 0) {
    try {
      managed = decodeManaged(live?.metadata.managedFields, true);
    } catch {
      return live?.metadata.managedFields;
    }
    // An existing object without managed fields is not tracked by updates (`skipNonAppliedManager`).
    if (live !== undefined && managed.size === 0) return undefined;
  }
  try {
    recordUpdate(managed, live === undefined ? ctx.empty ?? {} : withoutManagedFields(live), withoutManagedFields(next), manager, ctx);
  } catch (err) {
    // `UpdateNoErrors`: managed fields that cannot be computed (an associative list item without its
    // key) are left out, and the write goes on to validation, which names what is wrong.
    if (err instanceof KubeError) return undefined;
    throw err;
  }
  finish(managed);
  return encodeManaged(managed);
}

/** Options of an apply. */
export interface ApplyOptions {
  /** `force=true`: take conflicting fields from their managers. */
  force: boolean;
}

/** The result of an apply: the object (without managed fields) and its new managed fields. */
export interface ApplyResult {
  object: KubeObject;
  managedFields: ManagedFieldsEntry[] | undefined;
  /** Whether the object's content (managed fields aside) is unchanged. */
  noop: boolean;
}

/** The 409 of an apply with conflicts, in the apiserver's words (`NewConflictError`). */
export class ApplyConflictError extends KubeError {
  constructor(message: string, causes: StatusCause[]) {
    super('Conflict', message, { details: { causes } });
    this.name = 'ApplyConflictError';
  }
}

/** A manager as conflict messages print it: `"alice"`, or `"bob" using v1` for an `Update` manager. */
function printManager(id: string, apiVersion: string | undefined): string {
  const e = JSON.parse(id) as { manager?: string; operation?: string; apiVersion?: string; subresource?: string };
  const name = goQuote(e.manager ?? '') + (e.subresource !== undefined && e.subresource !== '' ? ` with subresource ${goQuote(e.subresource)}` : '');
  return e.operation === 'Update' ? `${name} using ${apiVersion ?? e.apiVersion ?? ''}` : name;
}

function conflictError(conflicts: Map<string, FieldSet>, apiVersion?: string): ApplyConflictError {
  const ids = [...conflicts.keys()].sort();
  const list: [string, string][] = [];
  for (const id of ids) for (const p of memberPaths(conflicts.get(id)!)) list.push([id, p]);
  const causes = list.map(([id, p]) => ({ reason: 'FieldManagerConflict', message: `conflict with ${printManager(id, apiVersion)}`, field: p }));
  if (list.length === 1) return new ApplyConflictError(`Apply failed with 1 conflict: conflict with ${printManager(list[0][0], apiVersion)}: ${list[0][1]}`, causes);
  const lines: string[] = [];
  for (const id of ids) {
    lines.push(`conflicts with ${printManager(id, apiVersion)}:`);
    for (const [owner, p] of list) if (owner === id) lines.push(`- ${p}`);
  }
  return new ApplyConflictError(`Apply failed with ${list.length} conflicts: ${lines.join('\n')}`, causes);
}

/**
 * An applied configuration, read once per request: checked to carry no `metadata.managedFields`, its
 * field set (`ToFieldSet`) computed on first use and kept, so that the update loop's retries (and
 * kubectl's second attempt) only merge it again onto the newer object.
 */
export class AppliedConfiguration {
  #set: FieldSet | undefined;

  /** @throws KubeError `BadRequest` for a configuration carrying `metadata.managedFields` */
  constructor(readonly object: KubeObject) {
    const meta = object.metadata as Record<string, unknown> | undefined;
    if (meta !== undefined && meta.managedFields !== undefined && meta.managedFields !== null) throw KubeError.badRequest('metadata.managedFields must be nil');
  }

  /**
   * The configuration's fields at the write's type (the same set every time: callers copy it before
   * they change it).
   *
   * @throws KubeError `BadRequest` when the configuration has fields its schema does not declare
   */
  fieldSet(ctx: FieldManagerContext): FieldSet {
    this.#set ??= typedFieldSet(this.object, ctx);
    return this.#set;
  }
}

function typedFieldSet(config: KubeObject, ctx: FieldManagerContext): FieldSet {
  try {
    return toFieldSet(config, ctx.type);
  } catch (err) {
    if (!(err instanceof UndeclaredFieldsError)) throw err;
    const m = config.metadata ?? {};
    const [group, version] = ctx.apiVersion.includes('/') ? ctx.apiVersion.split('/') : ['', ctx.apiVersion];
    const gvk = group === '' ? `/${version}, Kind=${String(config.kind ?? '')}` : `${group}/${version}, Kind=${String(config.kind ?? '')}`;
    // The apiserver answers 500; the request is at fault, and the embedded server answers 400 (as it
    // does for strategic merge patch directives that do not apply).
    throw new KubeError('BadRequest', `failed to create typed patch object (${m.namespace ?? ''}/${m.name ?? ''}; ${gvk}): ${err.message}`, { cause: err });
  }
}

/**
 * Server-side apply of `config` by `manager` onto `live` (undefined: the object is created), as the
 * apiserver's field manager chain does it.
 *
 * @throws ApplyConflictError (409 `Conflict`, causes `FieldManagerConflict`) when other managers own
 *   fields the apply changes and `force` is off
 */
export function applyManagedFields(live: KubeObject | undefined, config: AppliedConfiguration, manager: string, options: ApplyOptions, ctx: FieldManagerContext): ApplyResult {
  const attempt = (force: boolean): ApplyResult => applyOnce(live, config, manager, force, ctx);
  if (options.force || manager !== 'kubectl') return withLastApplied(attempt(options.force), live, config.object, manager);
  try {
    return withLastApplied(attempt(false), live, config.object, manager);
  } catch (err) {
    if (!(err instanceof ApplyConflictError) || live === undefined) throw err;
    // kubectl moving from client-side to server-side apply: the fields its last-applied configuration
    // still matches are its own (`lastAppliedManager`).
    const allowed = allowedFromLastApplied(live, ctx);
    if (allowed === undefined || !(err instanceof ConflictsCarrier)) throw err;
    if (!difference(err.sets.all, allowed).isEmpty()) {
      const rest = new Map<string, FieldSet>();
      for (const [id, s] of err.sets.byManager) {
        const left = difference(s, allowed);
        if (!left.isEmpty()) rest.set(id, left);
      }
      throw conflictError(rest, ctx.conflictAPIVersion);
    }
    return withLastApplied(attempt(true), live, config.object, manager);
  }
}

/**
 * `Updater.prune` of a resource whose versions have fields of their own (a HorizontalPodAutoscaler's
 * autoscaling/v1 and v2): what the manager applied last, in that apply's version, and no longer applies is
 * removed in that version, the items other managers own are added back version by version
 * (`addBackOwnedItems`, that version first), then the items of the last apply that only the removal took
 * (`addBackDanglingItems`); the result is shown in this version again.
 */
function pruneInVersion(merged: Record<string, unknown>, managed: Managed, last: Entry, ctx: FieldManagerContext): Record<string, unknown> {
  const versions = ctx.versions!;
  const typeOf = (v: string): TypeNode | undefined => (v === ctx.apiVersion ? ctx.type : versions.typeOf(v));
  const lastType = typeOf(last.apiVersion);
  if (lastType === undefined) return merged;
  const named = (set: FieldSet, type: TypeNode): FieldSet => ensureNamedFieldsAreMembers(set, type);
  const inLast = versions.convert(merged, ctx.apiVersion, last.apiVersion);
  const lastSet = named(setOf(last), lastType);
  // removeItems works in place: each removal is made on a copy.
  let current = { version: last.apiVersion, merged: inLast, pruned: removeItems(cloneJSON(inLast), lastSet, lastType) };
  const ownedByVersion = new Map<string, FieldSet>([[last.apiVersion, new FieldSet()]]);
  for (const e of managed.values()) {
    const set = ownedByVersion.get(e.apiVersion) ?? new FieldSet();
    ownedByVersion.set(e.apiVersion, unionInto(set, setOf(e)));
  }
  for (const [version, owned] of ownedByVersion) {
    const type = typeOf(version);
    if (type === undefined) continue;
    const m = versions.convert(current.merged, current.version, version);
    const p = versions.convert(current.pruned, current.version, version);
    const keep = union(named(toFieldSet(p, type), type), named(owned, type));
    current = { version, merged: m, pruned: removeItems(cloneJSON(m), difference(named(toFieldSet(m, type), type), keep), type) };
  }
  const pruned = versions.convert(current.pruned, current.version, last.apiVersion);
  const dangling = intersection(difference(named(toFieldSet(inLast, lastType), lastType), named(toFieldSet(pruned, lastType), lastType)), lastSet);
  return versions.convert(removeItems(cloneJSON(inLast), dangling, lastType), last.apiVersion, ctx.apiVersion) as Record<string, unknown>;
}

/** Carries the conflict sets out of {@link applyOnce} for the last-applied check. */
class ConflictsCarrier extends ApplyConflictError {
  constructor(err: ApplyConflictError, readonly sets: { all: FieldSet; byManager: Map<string, FieldSet> }) {
    super(err.message, [...err.causes]);
  }
}

function applyOnce(live: KubeObject | undefined, applied: AppliedConfiguration, manager: string, force: boolean, ctx: FieldManagerContext): ApplyResult {
  let managed = decodeManaged(live?.metadata.managedFields, true);
  const liveObj = withoutManagedFields(live);
  if (managed.size === 0 && live !== undefined) {
    // The object's fields so far belong to someone: credit them to `before-first-apply`.
    managed = new Map();
    recordUpdate(managed, ctx.empty ?? {}, liveObj, beforeFirstApplyManager, ctx);
    finish(managed);
  }
  let merged = mergeObjects(liveObj, applied.object, ctx.type) as Record<string, unknown>;
  const key = { manager, operation: 'Apply' as const, apiVersion: ctx.apiVersion, subresource: ctx.subresource };
  const id = identifier(key);
  const last = managed.get(id);
  // A copy: the entry's set is changed in place below, the configuration's is kept for a retry.
  const set = ctx.ignored === undefined ? cloneSet(applied.fieldSet(ctx)) : recursiveDifference(applied.fieldSet(ctx), ctx.ignored);
  managed.set(id, newEntry({ manager, operation: 'Apply', apiVersion: ctx.apiVersion, subresource: ctx.subresource, time: last?.time }, set, undefined));
  if (last !== undefined && !entryEmpty(last) && ctx.versions !== undefined) {
    merged = pruneInVersion(merged, managed, last, ctx);
  } else if (last !== undefined && !entryEmpty(last)) {
    // Prune what this manager applied before and no longer applies, unless someone else owns it (the
    // managers of another group have no version here: what they own is not added back).
    const owned = new FieldSet();
    const group = groupOf(ctx.apiVersion);
    for (const e of managed.values()) if (groupOf(e.apiVersion) === group) unionInto(owned, ensureNamedFieldsAreMembers(setOf(e), ctx.type));
    const remove = difference(ensureNamedFieldsAreMembers(setOf(last), ctx.type), owned);
    merged = removeItems(merged, remove, ctx.type) as Record<string, unknown>;
  }
  const c = filtered(compareObjects(liveObj, merged, ctx.type), ctx.ignored);
  const changes = new VersionedChanges(liveObj, merged, ctx, c);
  const changed = union(c.modified, c.added);
  const conflicts = new Map<string, FieldSet>();
  const removedOf = new Map<string, FieldSet>();
  for (const [other, e] of [...managed]) {
    if (other === id) continue;
    const seen = changes.of(e.apiVersion);
    if (seen === undefined) {
      managed.delete(other);
      continue;
    }
    removedOf.set(other, seen.removed);
    const theirs = seen === c ? changed : union(seen.modified, seen.added);
    if (!intersects(e, theirs)) continue;
    conflicts.set(other, intersection(setOf(e), theirs));
  }
  if (!force && conflicts.size > 0) {
    const all = new FieldSet();
    for (const s of conflicts.values()) unionInto(all, s);
    throw new ConflictsCarrier(conflictError(conflicts, ctx.conflictAPIVersion), { all, byManager: conflicts });
  }
  for (const [other, e] of managed) {
    if (other === id) continue;
    const taken = conflicts.get(other);
    if (taken !== undefined) subtract(e, taken);
    subtract(e, removedOf.get(other) ?? c.removed);
  }
  const noop = equalJSON(liveObj, merged);
  if (!noop) managed.get(id)!.time = entryTime(ctx);
  finish(managed);
  return { object: (noop ? liveObj : merged) as KubeObject, managedFields: encodeManaged(managed), noop };
}

/** The fields of the last-applied configuration that the live object still matches (`allowedConflictsFromLastApplied`). */
function allowedFromLastApplied(live: KubeObject, ctx: FieldManagerContext): FieldSet | undefined {
  const text = live.metadata.annotations?.[lastAppliedAnnotation];
  if (typeof text !== 'string' || text === '') return undefined;
  let last: unknown;
  try {
    last = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (last === null || typeof last !== 'object' || Array.isArray(last) || (last as Record<string, unknown>).apiVersion !== ctx.apiVersion) return undefined;
  const set = toFieldSet(last, ctx.type);
  const c = compareObjects(last, withoutManagedFields(live), ctx.type);
  return difference(difference(difference(set, c.modified), c.added), c.removed);
}

/** Keeps kubectl's last-applied annotation in step with what `kubectl` applies server-side (`lastAppliedUpdater`). */
function withLastApplied(result: ApplyResult, live: KubeObject | undefined, config: KubeObject, manager: string): ApplyResult {
  if (manager !== 'kubectl' || live === undefined) return result;
  const annotations = live.metadata.annotations;
  if (annotations === undefined || !Object.hasOwn(annotations, lastAppliedAnnotation)) return result;
  const applied = cloneJSON(config);
  const a = applied.metadata?.annotations;
  if (a !== undefined) {
    delete a[lastAppliedAnnotation];
    if (Object.keys(a).length === 0) delete applied.metadata.annotations;
  }
  const object = cloneJSON(result.object);
  object.metadata.annotations = { ...(object.metadata.annotations ?? {}), [lastAppliedAnnotation]: `${goJSON(applied)}\n` };
  return { ...result, object, noop: result.noop && equalJSON(object, result.object) };
}

/** Whether managed fields nest no deeper than `limit` (counted iteratively, as the embedded server counts every value). */
export function managedFieldsDepthOK(entries: ManagedFieldsEntry[] | undefined, limit: number): boolean {
  return valueDepth(entries, limit) <= limit;
}
