/**
 * The managed fields of a write through `/scale` (k8s.io/apimachinery `managedfields.ScaleHandler`): the
 * parent's entries that own its replicas path become entries of the Scale that own `spec.replicas`
 * ({@link scaleEntriesOf}); the field manager records the write on the Scale; and the Scale's entries go
 * back to the parent ({@link parentEntriesOf}), where a parent entry keeps its replicas only if the Scale
 * still has its manager.
 *
 * Faithful to the upstream handler, quirks included, since clients see them: managers are keyed by their
 * identifier (`BuildManagerIdentifier`), and a Scale entry keeps its parent's identifier although it is
 * written with the Scale's apiVersion, so the field manager reads it back as another manager. A write
 * through `/scale` therefore takes the replicas from the parent entry that owned them and gives them to
 * an entry of the same manager without a time (the parent has no time for that identifier), even when
 * the write changes nothing, and the object gets a new resourceVersion. Two entries can end up with the
 * same identifier; decoding keeps the later one, as Go's map does.
 *
 * @see https://github.com/kubernetes/apimachinery/blob/master/pkg/util/managedfields/scalehandler.go
 */
import { KubeError, type ManagedFieldsEntry } from '@kubekit/core';
import { FieldSet, difference, fromFieldsV1, toFieldsV1 } from './fieldSet.js';
import { compareEntries, identifier } from './fieldManager.js';

/** The replicas path of each group-version of the parent (`ResourcePathMappings`); `null`: that version has no scale subresource. */
export type ReplicasPathMappings = ReadonlyMap<string, readonly string[] | null>;

/** The Scale's group-version. */
const scaleGroupVersion = 'autoscaling/v1';
const replicasInScale = ['spec', 'replicas'] as const;

/** A decoded manager: its identifier's parts, and its fields in the version `setVersion`. */
interface Managed {
  manager: string;
  operation: 'Apply' | 'Update';
  /** The apiVersion inside the identifier (none for appliers). */
  idVersion: string;
  subresource: string;
  setVersion: string;
  set: FieldSet;
  time: string | undefined;
}

/** `internal.DecodeManagedFields`: managers by identifier, a later entry replacing an earlier one of the same identifier. */
function decode(entries: readonly ManagedFieldsEntry[] | undefined): Map<string, Managed> {
  const out = new Map<string, Managed>();
  // What an accessor cannot read as entries is none (`GetManagedFields` returns nil), as the server may hold
  // anything there when it does not track managed fields.
  if (!Array.isArray(entries) || entries.some((e) => e === null || typeof e !== 'object' || Array.isArray(e))) return out;
  for (const [i, e] of entries.entries()) {
    const operation = e.operation;
    if (operation !== 'Apply' && operation !== 'Update') throw new KubeError('Unknown', 'operation must be `Apply` or `Update`');
    if (typeof e.apiVersion !== 'string' || e.apiVersion === '') throw new KubeError('Unknown', 'apiVersion must not be empty');
    if (e.fieldsType !== 'FieldsV1') throw new KubeError('Unknown', e.fieldsType === undefined || e.fieldsType === '' ? `missing fieldsType in managed fields entry ${i}` : `invalid fieldsType "${e.fieldsType}" in managed fields entry ${i}`);
    const m: Managed = {
      manager: typeof e.manager === 'string' ? e.manager : '', operation, idVersion: operation === 'Apply' ? '' : e.apiVersion,
      subresource: typeof e.subresource === 'string' ? e.subresource : '', setVersion: e.apiVersion, set: fromFieldsV1(e.fieldsV1), time: typeof e.time === 'string' ? e.time : undefined,
    };
    out.set(identifier({ ...m, apiVersion: m.idVersion }), m);
  }
  return out;
}

/** `managedFieldsEntries`: the managers as entries, in the apiserver's order (`sortEncodedManagedFields`). */
function encode(managed: Iterable<Managed>): ManagedFieldsEntry[] | undefined {
  const all = [...managed];
  if (all.length === 0) return undefined;
  all.sort((p, q) => compareEntries({ ...p, apiVersion: p.setVersion }, { ...q, apiVersion: q.setVersion }));
  return all.map((m) => ({
    ...(m.manager !== '' ? { manager: m.manager } : {}), operation: m.operation, apiVersion: m.setVersion,
    ...(m.time !== undefined ? { time: m.time } : {}), fieldsType: 'FieldsV1', fieldsV1: toFieldsV1(m.set), ...(m.subresource !== '' ? { subresource: m.subresource } : {}),
  }));
}

/** The set holding the leaf field at `path` only. */
function setOfPath(path: readonly string[]): FieldSet {
  const s = new FieldSet();
  let n = s;
  for (const k of path) n = n.child(`f:${k}`);
  n.member = true;
  return s;
}

function hasPath(set: FieldSet, path: readonly string[]): boolean {
  let n: FieldSet | undefined = set;
  for (const k of path) {
    n = n.children.get(`f:${k}`);
    if (n === undefined) return false;
  }
  return n.member;
}

/** `ScaleHandler.ToSubresource`: the parent's entries owning its replicas, as entries of the Scale owning `spec.replicas`. */
export function scaleEntriesOf(parent: readonly ManagedFieldsEntry[] | undefined, mappings: ReplicasPathMappings): ManagedFieldsEntry[] | undefined {
  const out: Managed[] = [];
  for (const m of decode(parent).values()) {
    const path = mappings.get(m.setVersion);
    if (path === undefined || path === null || !hasPath(m.set, path)) continue;
    // The identifier stays the parent's (its apiVersion included); the entry is written in the Scale's version.
    out.push({ ...m, setVersion: scaleGroupVersion, set: setOfPath(replicasInScale) });
  }
  return encode(out);
}

/**
 * `ScaleHandler.ToParent`: the parent's entries after a write through `/scale` whose Scale ended with
 * `scale` as its managed fields. `parentGroupVersion` is the version the object is written in.
 */
export function parentEntriesOf(parent: readonly ManagedFieldsEntry[] | undefined, scale: readonly ManagedFieldsEntry[] | undefined, mappings: ReplicasPathMappings, parentGroupVersion: string): ManagedFieldsEntry[] | undefined {
  const parentManaged = decode(parent);
  const scaleManaged = decode(scale);
  const out = new Map<string, Managed>();
  for (const [id, m] of parentManaged) {
    const path = mappings.get(m.setVersion);
    // An entry in a version the mappings do not know is dropped.
    if (path === undefined) continue;
    if (path === null || !hasPath(m.set, path)) {
      out.set(id, m);
      continue;
    }
    if (!scaleManaged.has(id)) {
      // The Scale no longer has this manager: the parent entry loses its replicas.
      const rest = difference(m.set, setOfPath(path));
      if (!rest.isEmpty()) out.set(id, { ...m, set: rest });
    } else {
      out.set(id, m);
      scaleManaged.delete(id);
    }
  }
  const target = mappings.get(parentGroupVersion);
  for (const [id, m] of scaleManaged) {
    if (!hasPath(m.set, replicasInScale) || target === undefined || target === null) continue;
    out.set(id, { ...m, setVersion: parentGroupVersion, set: setOfPath(target), time: parentManaged.get(id)?.time });
  }
  return encode(out.values());
}

/** The mappings of a resource whose versions all keep their replicas at `specReplicasPath`. */
export function replicasPathMappings(groupVersions: readonly string[], specReplicasPath: string): ReplicasPathMappings {
  const path = specReplicasPath.replace(/^\./, '').split('.');
  return new Map(groupVersions.map((gv) => [gv, path]));
}
