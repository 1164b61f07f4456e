/**
 * The checks of apiextensions-apiserver's `pkg/apiserver/schema/objectmeta` (`Coerce` and `Validate`)
 * that CRD validation applies to default values: embedded resources' `apiVersion` and `kind` must be
 * strings (and parse), and their `metadata` must decode as an `ObjectMeta` that validates (with
 * names checked as path segments).
 */
import { FieldError, FieldPath, invalid, required } from '@kubekit/core';
import { isDNS1035Label } from '@kubekit/selectors';
import type { Schema } from './model.js';
import { structuralItems, structuralProperties } from './structural.js';
import { decodeMeta, isPathSegment, validateObjectMeta } from './valueObjectMeta.js';

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The error `json.Unmarshal` reports for `metadata` into a `metav1.ObjectMeta`, or undefined. */
export function objectMetaDecodeError(meta: unknown): string | undefined {
  const decoded = decodeMeta(meta);
  return typeof decoded === 'string' ? decoded : undefined;
}

/**
 * `objectmeta.Coerce` without dropping: the first wrongly-typed `apiVersion`/`kind`/`metadata` of an
 * embedded resource in `x`, or undefined.
 */
export function coerceEmbedded(path: FieldPath, x: unknown, s: Schema | undefined, isResourceRoot: boolean): FieldError | undefined {
  const stack: [FieldPath, unknown, Schema | undefined, boolean][] = [[path, x, s, isResourceRoot]];
  while (stack.length > 0) {
    const [p, v, schema, embeddedRoot] = stack.pop()!;
    if (schema === undefined) continue;
    const embedded = embeddedRoot || schema.xEmbeddedResource;
    if (Array.isArray(v)) {
      const items = structuralItems(schema);
      for (let i = v.length - 1; i >= 0; i--) stack.push([p.index(i), v[i], items, false]);
    } else if (isObj(v)) {
      const props = structuralProperties(schema);
      for (const [k, child] of Object.entries(v)) {
        if (embedded) {
          if ((k === 'apiVersion' || k === 'kind') && typeof child !== 'string') return invalid(p.child(k), child, 'must be a string');
          if (k === 'metadata') {
            const err = objectMetaDecodeError(child);
            if (err !== undefined) return invalid(p.child('metadata'), child, err);
          }
        }
        const prop = props?.get(k);
        if (prop !== undefined) stack.push([p.child(k), child, prop, false]);
        else if (schema.additionalProperties !== undefined) stack.push([p.key(k), child, schema.additionalProperties.schema, false]);
      }
    }
  }
  return undefined;
}

function validateEmbeddedResource(p: FieldPath, x: Obj): FieldError[] {
  const errs: FieldError[] = [];
  if (!Object.hasOwn(x, 'apiVersion')) errs.push(required(p.child('apiVersion'), ''));
  if (!Object.hasOwn(x, 'kind')) errs.push(required(p.child('kind'), ''));
  for (const [k, v] of Object.entries(x)) {
    if (k === 'apiVersion') {
      if (typeof v !== 'string') errs.push(invalid(p.child('apiVersion'), v, 'must be a string'));
      else if (v.length === 0) errs.push(invalid(p.child('apiVersion'), v, 'must not be empty'));
      else if (v !== '/' && v.split('/').length > 2) errs.push(invalid(p.child('apiVersion'), v, `unexpected GroupVersion string: ${v}`));
    } else if (k === 'kind') {
      if (typeof v !== 'string') errs.push(invalid(p.child('kind'), v, 'must be a string'));
      else if (v.length === 0) errs.push(invalid(p.child('kind'), v, 'must not be empty'));
      else {
        const e = isDNS1035Label(v.toLowerCase());
        if (e.length > 0) errs.push(invalid(p.child('kind'), v, `may have mixed case, but should otherwise match: ${e.join(',')}`));
      }
    } else if (k === 'metadata') {
      const meta = decodeMeta(v);
      if (typeof meta === 'string') {
        errs.push(invalid(p.child('metadata'), v, meta));
        continue;
      }
      // Upstream fills in a name so that a missing one is not reported.
      if (meta.name.length === 0) meta.name = 'fakename';
      errs.push(...validateObjectMeta(meta, meta.namespace.length > 0, isPathSegment, p.child('metadata')));
    }
  }
  return errs;
}

/** `objectmeta.Validate`: embedded resources' TypeMeta and ObjectMeta in `x`. */
export function validateEmbedded(path: FieldPath, x: unknown, s: Schema | undefined, isResourceRoot: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const stack: [FieldPath, unknown, Schema | undefined, boolean][] = [[path, x, s, isResourceRoot]];
  while (stack.length > 0) {
    const [p, v, schema, embeddedRoot] = stack.pop()!;
    if (schema === undefined) continue;
    if (Array.isArray(v)) {
      const items = structuralItems(schema);
      for (let i = v.length - 1; i >= 0; i--) stack.push([p.index(i), v[i], items, false]);
    } else if (isObj(v)) {
      if (embeddedRoot || schema.xEmbeddedResource) errs.push(...validateEmbeddedResource(p, v));
      const props = structuralProperties(schema);
      const children: [FieldPath, unknown, Schema | undefined, boolean][] = [];
      for (const [k, child] of Object.entries(v)) {
        const prop = props?.get(k);
        if (prop !== undefined) children.push([p.child(k), child, prop, false]);
        else if (schema.additionalProperties !== undefined) children.push([p.key(k), child, schema.additionalProperties.schema, false]);
      }
      stack.push(...children.reverse());
    }
  }
  return errs;
}
