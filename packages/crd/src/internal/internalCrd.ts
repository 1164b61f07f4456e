/**
 * The apiserver's steps between decoding a v1 CRD and validating it: v1 defaulting
 * (`SetDefaults_CustomResourceDefinitionSpec`) and the conversion to the internal version, which moves
 * per-version `schema`, `subresources`, `additionalPrinterColumns` and `selectableFields` to the top of
 * the spec when every version has identical ones. That move is why errors of a single-version CRD are
 * reported at `spec.validation.openAPIV3Schema…`, `spec.subresources…`, `spec.selectableFields…`.
 */
import type { Crd, Spec, Version } from './model.js';

const strictKeys = new Set(['default', 'example', 'enum', 'value']);

/**
 * `apiequality.Semantic.DeepEqual` on the decoded model: nil and empty slices/maps are equal; the
 * decoded `raw` objects are ignored; JSON values compare exactly.
 */
export function semanticEqual(a: unknown, b: unknown, strict = false): boolean {
  if (a === b) return true;
  const emptyish = (x: unknown) => x === undefined || (Array.isArray(x) && x.length === 0) || (x instanceof Map && x.size === 0);
  if (!strict && emptyish(a) && emptyish(b)) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') {
    const numeric = (x: unknown) => typeof x === 'bigint' || typeof x === 'number';
    return numeric(a) && numeric(b) && Number(a) === Number(b);
  }
  if (a instanceof Map || b instanceof Map) {
    if (!(a instanceof Map && b instanceof Map) || a.size !== b.size) return false;
    for (const [k, v] of a) if (!b.has(k) || !semanticEqual(v, b.get(k), strict)) return false;
    return true;
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => semanticEqual(x, b[i], strict));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(ao), ...Object.keys(bo)]);
  if (strict && Object.keys(ao).length !== Object.keys(bo).length) return false;
  for (const k of keys) {
    if (!strict && k === 'raw') continue;
    if (!semanticEqual(ao[k], bo[k], strict || strictKeys.has(k))) return false;
  }
  return true;
}

/** Applies the v1 defaults and converts to the internal shape, in place. */
export function toInternal(crd: Crd): Crd {
  const spec = crd.spec;
  if (spec.names.singular.length === 0) spec.names.singular = spec.names.kind.toLowerCase();
  if (spec.names.listKind.length === 0 && spec.names.kind.length > 0) spec.names.listKind = `${spec.names.kind}List`;
  spec.conversion ??= { strategy: 'None' };
  spec.preserveUnknownFields ??= false;
  hoist(spec);
  return crd;
}

function hoist(spec: Spec): void {
  const versions = spec.versions;
  if (versions === undefined || versions.length === 0) return;
  spec.version = versions[0].name;
  const first = versions[0];
  const identical = <K extends keyof Version>(k: K) => versions.every((v) => semanticEqual(v[k], first[k]));
  const subresources = identical('subresources');
  const schema = identical('schema');
  const columns = identical('additionalPrinterColumns');
  const selectable = identical('selectableFields');
  if (subresources) spec.subresources = first.subresources;
  if (schema) spec.validation = first.schema;
  if (columns) spec.additionalPrinterColumns = first.additionalPrinterColumns;
  if (selectable) spec.selectableFields = first.selectableFields;
  spec.versions = versions.map((v) => ({
    ...v,
    subresources: subresources ? undefined : v.subresources,
    schema: schema ? undefined : v.schema,
    additionalPrinterColumns: columns ? undefined : v.additionalPrinterColumns,
    selectableFields: selectable ? undefined : v.selectableFields,
  }));
}
