/**
 * Server-side `Table` output (`Accept: application/json;as=Table;g=meta.k8s.io;v=v1`), which
 * `kubectl get` prints: `Name` first, then the kind's columns; each row carries the object's metadata
 * (`includeObject=Metadata`, the default), the whole object (`Object`) or nothing (`None`).
 *
 * @see https://kubernetes.io/docs/reference/using-api/api-concepts/#receiving-resources-as-tables
 */
import { FieldError, KubeError, goJSON, humanDuration, stringifyJSON, type KubeObject } from '@kubekit/core';
import { evaluateJSONPath } from '@kubekit/crd';
import type { ResourceType, TableColumnDefinition } from './resourceType.js';

/** What each row carries. */
export type IncludeObject = 'None' | 'Metadata' | 'Object';

/** A Table (`meta.k8s.io/v1`, or `v1beta1` when asked for). */
export interface Table {
  kind: 'Table';
  apiVersion: string;
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  columnDefinitions: TableColumnDefinition[];
  rows: { cells: unknown[]; object?: unknown }[];
}

/** The description of the `Name` column, as the apiserver writes it. */
export const nameColumnDescription = 'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names';

/** The description of the `Age` column. */
export const ageColumnDescription = 'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

/** The `Name` column. */
export const nameColumn: TableColumnDefinition = { name: 'Name', type: 'string', format: 'name', description: nameColumnDescription, priority: 0 };

/** The `Age` column. */
export const ageColumn: TableColumnDefinition = { name: 'Age', type: 'date', format: '', description: ageColumnDescription, priority: 0 };

/** The Age column of built-in kinds: their printers declare it a `string` (custom resources: `date`). */
export const builtinAgeColumn: TableColumnDefinition = { ...ageColumn, type: 'string' };

/** Parses the `includeObject` query parameter, refused as response.go's optionsForTransform refuses it (ValidateTableOptions). */
export function parseIncludeObject(value: string | null): IncludeObject {
  if (value === null || value === '' || value === 'Metadata') return 'Metadata';
  if (value === 'None' || value === 'Object') return value;
  // IncludeObjectPolicy is a named string type: its bad value prints as json.Marshal writes it.
  const error = new FieldError('FieldValueInvalid', 'includeObject', value, "must be 'Metadata', 'Object', 'None', or empty", goJSON(value));
  throw KubeError.badRequest(`Unable to convert to Table as requested: ${error.toString()}`);
}

/**
 * The row object of one object, per `includeObject`; `metadata`: what its PartialObjectMetadata holds, in
 * the Table's own meta.k8s.io version (`apiVersion`).
 */
export function rowObject(obj: KubeObject, include: IncludeObject, apiVersion: string, metadata: KubeObject['metadata'] = obj.metadata): unknown {
  // The apiserver sends `object: null` (an empty RawExtension) for None.
  if (include === 'None') return null;
  if (include === 'Object') return obj;
  return { kind: 'PartialObjectMetadata', apiVersion, metadata };
}

/** Builds the Table of objects of one resource type. */
export function buildTable(type: ResourceType, objects: readonly KubeObject[], options: {
  resourceVersion?: string;
  continueToken?: string;
  remainingItemCount?: number;
  includeObject?: IncludeObject;
  /** The Table's apiVersion, which its rows' PartialObjectMetadata share. @defaultValue 'meta.k8s.io/v1' */
  apiVersion?: string;
  now: number;
}): Table {
  const include = options.includeObject ?? 'Metadata';
  const apiVersion = options.apiVersion ?? 'meta.k8s.io/v1';
  const metadata: Table['metadata'] = {};
  if (options.resourceVersion !== undefined) metadata.resourceVersion = options.resourceVersion;
  if (options.continueToken !== undefined && options.continueToken !== '') metadata.continue = options.continueToken;
  if (options.remainingItemCount !== undefined) metadata.remainingItemCount = options.remainingItemCount;
  const compare = type.compareTableRows?.bind(type);
  return {
    kind: 'Table',
    apiVersion,
    metadata,
    columnDefinitions: type.tableColumns(),
    rows: (compare === undefined ? objects : [...objects].sort(compare)).map((o) => {
      const row: { cells: unknown[]; object?: unknown } = { cells: type.tableCells(o, options.now) };
      row.object = rowObject(o, include, apiVersion, type.tableRowMetadata?.(o) ?? o.metadata);
      return row;
    }),
  };
}

/** The `Age` cell of an object. */
export function ageCell(obj: KubeObject, now: number): string {
  return timestampSince(obj.metadata.creationTimestamp, now);
}

/** The printers' `translateTimestampSince`: how long ago a timestamp was, or `<unknown>` for none. */
export function timestampSince(t: unknown, now: number): string {
  const ms = typeof t === 'string' && t !== '' ? Date.parse(t) : NaN;
  return Number.isNaN(ms) ? '<unknown>' : humanDuration(now - ms);
}

/**
 * The cell of a CRD's `additionalPrinterColumns` entry, as the apiextensions table convertor computes
 * it: strings printed, integers and numbers as numbers, booleans as booleans, dates as ages; `null`
 * when the path selects nothing.
 */
export function printerColumnCell(obj: KubeObject, column: { type: string; jsonPath: string }, now: number): unknown {
  const results = evaluateJSONPath(obj, column.jsonPath);
  if (results.length === 0) return null;
  const value = results[0];
  switch (column.type) {
    case 'string':
      if (value === null || value === undefined) return null;
      return typeof value === 'object' ? stringifyJSON(value) : String(value);
    case 'integer':
      if (typeof value === 'bigint') return value;
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' || typeof value === 'bigint' ? Number(value) : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'date': {
      if (typeof value !== 'string') return null;
      const t = Date.parse(value);
      return Number.isNaN(t) ? null : humanDuration(now - t);
    }
    default:
      return null;
  }
}
