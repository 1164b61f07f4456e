// The order in which the apiserver's decoder treats a custom resource (unstructuredSchemaCoercer.apply
// in customresource_handler.go, then the codec's defaulter), shared by the plain and compiled forms.
import { goSprint, KubeError } from '@kubekit/core';
import { checkValueDepth } from './depth.js';
import { isObject, setOwn } from './json.js';
import { decodeObjectMeta } from './objectMeta.js';

/** The algorithms the pipeline runs, bound to one schema (with pruned defaults). */
export interface PipelineOps {
  prune(object: unknown, isResourceRoot: boolean, returnPruned: boolean): string[];
  pruneNulls(object: unknown): void;
  coerce(object: unknown, dropInvalidFields: boolean): string[];
  applyDefaults(object: unknown): void;
}

/** The options of one pipeline run. */
export interface PipelineOptions {
  isResourceRoot: boolean;
  returnPruned: boolean;
  dropInvalidMetadata: boolean;
}

function goTypeName(v: unknown): string {
  if (v === null) return '<nil>';
  if (Array.isArray(v)) return '[]interface {}';
  switch (typeof v) {
    case 'boolean': return 'bool';
    case 'bigint': return 'int64';
    case 'number': return Number.isInteger(v) ? 'int64' : 'float64';
    default: return 'map[string]interface {}';
  }
}

function typeMetaField(obj: Record<string, unknown>, key: 'kind' | 'apiVersion'): string | undefined {
  if (!Object.hasOwn(obj, key)) return undefined;
  const v = obj[key];
  if (typeof v === 'string') return v;
  checkValueDepth(v);
  throw new KubeError('BadRequest', `.${key} accessor error: ${goSprint(v)} is of the type ${goTypeName(v)}, expected string`);
}

/**
 * Runs prune → prune non-nullable nulls → ObjectMeta coercion → (root TypeMeta/ObjectMeta restored)
 * → default, returning the unknown field paths the apiserver would warn about: unknown root metadata
 * fields, then pruned paths, then unknown embedded metadata fields.
 */
export function runDecodePipeline(object: unknown, ops: PipelineOps, options: PipelineOptions): string[] {
  const paths: string[] = [];
  let kind: string | undefined;
  let apiVersion: string | undefined;
  let meta: Record<string, unknown> | undefined;
  if (options.isResourceRoot && isObject(object)) {
    // The root's TypeMeta and ObjectMeta are read before pruning and written back afterwards.
    kind = typeMetaField(object, 'kind');
    apiVersion = typeMetaField(object, 'apiVersion');
    if (Object.hasOwn(object, 'metadata')) {
      const r = decodeObjectMeta(object.metadata, options.dropInvalidMetadata);
      if (!r.ok) throw new KubeError('BadRequest', r.error);
      meta = r.meta;
      for (const f of r.unknownFields) paths.push(`metadata.${f}`);
    }
  }
  paths.push(...ops.prune(object, options.isResourceRoot, options.returnPruned));
  ops.pruneNulls(object);
  paths.push(...ops.coerce(object, options.dropInvalidMetadata));
  if (isObject(object)) {
    if (kind !== undefined) setOwn(object, 'kind', kind);
    if (apiVersion !== undefined) setOwn(object, 'apiVersion', apiVersion);
    if (meta !== undefined) setOwn(object, 'metadata', meta);
  }
  ops.applyDefaults(object);
  return options.returnPruned ? paths : [];
}
