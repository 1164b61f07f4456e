import { KubeError } from '@kubekit/core';
import type { JSONSchemaProps } from '@kubekit/crd';
import type { CoerceObjectMetaOptions } from './coerceObjectMeta.js';
import type { DefaultAndPruneOptions } from './defaultAndPrune.js';
import { compileNode, nilPrune, rootCoerce, rootPrune, type CoerceFn, type Node, type PruneFn } from './internal/compile.js';
import type { CoerceState } from './internal/coerce.js';
import { runDecodePipeline } from './internal/decodePipeline.js';
import { compareGoStrings } from './internal/json.js';
import { PrunedPaths } from './internal/prunedPaths.js';
import { asSchema } from './internal/schema.js';
import type { PruneOptions } from './prune.js';
import { pruneDefaults } from './pruneDefaults.js';

/**
 * A structural schema compiled once into specialised functions: the operations of this package,
 * with the same results as the uncompiled functions given the same schema, but with per-object work
 * limited to what can change: subtrees without defaults are not walked by defaulting, subtrees
 * without non-nullable fields are not walked by null pruning, preserved subtrees are walked only
 * where properties are declared, and coercion visits only paths that lead to embedded resources.
 *
 * Defaults are captured when the schema is compiled: later edits of the schema object are not seen.
 * A compiled schema holds no per-object state and may be shared freely.
 */
export interface CompiledSchema {
  /** {@link prune} with this schema. */
  prune(object: unknown, options: PruneOptions): string[];
  /** {@link pruneNonNullableNullsWithoutDefaults} with this schema. */
  pruneNonNullableNullsWithoutDefaults(object: unknown): void;
  /** {@link applyDefaults} with this schema. */
  applyDefaults(object: unknown): void;
  /** {@link coerceObjectMeta} with this schema. */
  coerceObjectMeta(object: unknown, options: CoerceObjectMetaOptions): string[];
  /** {@link defaultAndPrune} with this schema (its defaults pruned once, on first use). */
  defaultAndPrune(object: unknown, options: DefaultAndPruneOptions): string[];
}

const isContainer = (v: unknown): v is Record<string, unknown> | unknown[] => typeof v === 'object' && v !== null;

class Compiled implements CompiledSchema {
  private readonly root: Node | undefined;
  private readonly resourceRootPrune: PruneFn;
  private readonly resourceRootCoerce: CoerceFn | undefined;
  private withPrunedDefaults: Compiled | undefined;

  constructor(private readonly schema: JSONSchemaProps | undefined, prunedDefaults: boolean) {
    this.root = schema === undefined ? undefined : compileNode(schema, 0);
    this.resourceRootPrune = rootPrune(this.root);
    this.resourceRootCoerce = rootCoerce(this.root);
    if (prunedDefaults) this.withPrunedDefaults = this;
  }

  prune(object: unknown, options: PruneOptions): string[] {
    if (!isContainer(object)) return [];
    const t = options.returnPruned === false ? undefined : new PrunedPaths();
    const fn = options.isResourceRoot ? this.resourceRootPrune : this.root?.prune ?? nilPrune;
    fn(object, 0, t);
    return t === undefined ? [] : t.sorted();
  }

  pruneNonNullableNullsWithoutDefaults(object: unknown): void {
    const fn = this.root?.pruneNulls;
    if (fn !== undefined && isContainer(object)) fn(object, 0);
  }

  applyDefaults(object: unknown): void {
    const fn = this.root?.applyDefaults;
    if (fn !== undefined && isContainer(object)) fn(object, 0);
  }

  coerceObjectMeta(object: unknown, options: CoerceObjectMetaOptions): string[] {
    const fn = options.isResourceRoot ? this.resourceRootCoerce : this.root?.coerce;
    if (fn === undefined || !isContainer(object)) return [];
    const st: CoerceState = { drop: options.dropInvalidFields === true, unknown: [] };
    const err = fn(object, '', st, 0);
    if (err !== undefined) throw new KubeError('BadRequest', err.toString(), { details: { causes: [{ reason: err.type, message: err.body(), field: err.field }] } });
    return st.unknown.sort(compareGoStrings);
  }

  defaultAndPrune(object: unknown, options: DefaultAndPruneOptions): string[] {
    this.withPrunedDefaults ??= new Compiled(pruneDefaults(this.schema), true);
    const c = this.withPrunedDefaults;
    return runDecodePipeline(object, {
      prune: (o, isResourceRoot, returnPruned) => c.prune(o, { isResourceRoot, returnPruned }),
      pruneNulls: (o) => c.pruneNonNullableNullsWithoutDefaults(o),
      coerce: (o, dropInvalidFields) => c.coerceObjectMeta(o, { isResourceRoot: false, dropInvalidFields }),
      applyDefaults: (o) => c.applyDefaults(o),
    }, {
      isResourceRoot: options.isResourceRoot,
      returnPruned: options.returnPruned !== false,
      dropInvalidMetadata: options.dropInvalidMetadata === true,
    });
  }
}

/**
 * Compiles a structural schema into a {@link CompiledSchema}: do it once per CRD version and reuse
 * the result for every object.
 *
 * @param schema - the structural schema (`openAPIV3Schema`); `undefined` or `null` for none.
 * @throws KubeError (`BadRequest`) when `items` is a list of schemas or the schema nests deeper than
 *   {@link maxNestingDepth}.
 *
 * @example
 * ```ts
 * const compiled = compileSchema({ type: 'object', properties: { spec: { type: 'object', properties: {
 *   replicas: { type: 'integer', default: 1 } } } } });
 * const object = { apiVersion: 'x.example.com/v1', kind: 'X', spec: { junk: true } };
 * const unknownFields = compiled.defaultAndPrune(object, { isResourceRoot: true }); // ['spec.junk']
 * // object.spec is { replicas: 1 }
 * ```
 */
export function compileSchema(schema: JSONSchemaProps | null | undefined): CompiledSchema {
  return new Compiled(asSchema(schema), false);
}
