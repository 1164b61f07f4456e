/**
 * Validation of a custom resource as the apiserver validates a create or an update of it
 * (apiextensions-apiserver pkg/registry/customresource: `customResourceStrategy.Validate` and
 * `ValidateUpdate`).
 *
 * @see https://github.com/kubernetes/apiextensions-apiserver/blob/master/pkg/registry/customresource/strategy.go
 * @see https://github.com/kubernetes/apiextensions-apiserver/blob/master/pkg/registry/customresource/validator.go
 */
import { FieldError, FieldPath, goSprint, internalError, invalid, notFound } from '@kubekit/core';
import type { CustomResourceDefinition, CustomResourceSubresourceScale, JSONSchemaProps } from './types.js';
import { toFieldError } from './internal/valueConvert.js';
import { exceedsDepth, goKind, goTypeName } from './internal/valueGo.js';
import { decodeMeta, generatedName, nameIsDNSSubdomain, validateObjectMeta, validateObjectMetaUpdate } from './internal/valueObjectMeta.js';
import type { Meta } from './internal/valueObjectMeta.js';
import { SchemaTooDeepError, compileSchema } from './internal/valueSchema.js';
import { validateEmbeddedResources, validateListSetsAndMaps } from './internal/valueStructural.js';
import { validateFresh, validateUpdateRoot, withIntegralFloats } from './internal/valueValidator.js';
import { validateCustomResourceRules } from './validationRules/evaluateRules.js';

/**
 * Evaluates a version's `x-kubernetes-validations` (CEL) rules on an object; `oldObject` is set for
 * updates (transition rules). `fieldPath` is the path errors are reported under: `''` for the
 * object's root, as the apiserver reports them.
 */
export type CustomResourceCELValidator = (
  schema: JSONSchemaProps,
  object: Record<string, unknown>,
  oldObject: Record<string, unknown> | undefined,
  fieldPath: string,
) => FieldError[];

/** Options of {@link validateCustomResource}. */
export interface ValidateCustomResourceOptions {
  /**
   * Evaluates CEL rules. Called only when the schema has `x-kubernetes-validations` somewhere and no
   * earlier error is of a blocking type (unsupported value, required, too long, too many, wrong type);
   * otherwise the apiserver's "some validation rules were not checked" error is added instead.
   *
   * @defaultValue kubekit's CEL evaluation ({@link validateCustomResourceRules})
   */
  celValidator?: CustomResourceCELValidator;
  /**
   * The paths (keys and indexes from the object's root) of numbers that were written as floats although
   * their values are integers (`1.0`): a JavaScript number cannot tell, but the apiserver decodes them as
   * float64s, which the scale subresource's replicas paths refuse (`unstructured.NestedInt64`).
   * @defaultValue none
   */
  integralFloats?: readonly (readonly string[])[];
  /**
   * `'status'` validates an update through the status subresource as the status strategy does
   * (`statusStrategy.ValidateUpdate`): the schema checks only `status`, with the status schema as the
   * validator's root (a message names `replicas`, not `status.replicas`; the field path is still
   * `status.replicas`), the scale subresource's status replicas and label selector but not its spec
   * replicas, and no embedded resources; list invariants and CEL rules still see the whole object.
   * Needs `oldObject`. @defaultValue the main resource
   */
  subresource?: 'status';
}

function isMap(v: unknown): v is Record<string, unknown> {
  return goKind(v) === 'map';
}

const hasRulesCache = new WeakMap<object, boolean>();

/** Whether a structural schema carries CEL rules anywhere (`cel.NewValidator` returns nil otherwise). */
function hasValidationRules(schema: JSONSchemaProps): boolean {
  const cached = hasRulesCache.get(schema);
  if (cached !== undefined) return cached;
  let found = false;
  const stack: unknown[] = [schema];
  for (let guard = 0; stack.length > 0 && guard < 1_000_000 && !found; guard++) {
    const s = stack.pop();
    if (!isMap(s)) continue;
    const rules = s['x-kubernetes-validations'];
    if (Array.isArray(rules) && rules.length > 0) found = true;
    if (isMap(s.properties)) stack.push(...Object.values(s.properties));
    stack.push(s.items, s.additionalProperties);
  }
  hasRulesCache.set(schema, found);
  return found;
}


/** `unstructured.NestedFieldNoCopy` + a type check, with its error text. */
function nested(obj: Record<string, unknown>, dotted: string, want: 'int64' | 'string', floats: readonly (readonly string[])[] = []): { value: unknown; error?: string } {
  const fields = dotted.replace(/^\./, '').split('.');
  let val: unknown = obj;
  for (let i = 0; i < fields.length; i++) {
    if (val === null || val === undefined) return { value: undefined };
    if (!isMap(val)) {
      return { value: undefined, error: `.${fields.slice(0, i + 1).join('.')} accessor error: ${goSprint(val)} is of the type ${goTypeName(val)}, expected map[string]interface{}` };
    }
    if (!Object.hasOwn(val, fields[i])) return { value: undefined };
    val = val[fields[i]];
  }
  const float = floats.some((f) => f.length === fields.length && f.every((k, i) => k === fields[i]));
  if (want === 'int64' && float && goKind(val) === 'int') return { value: undefined, error: `.${fields.join('.')} accessor error: ${goSprint(val)} is of the type float64, expected int64` };
  const ok = want === 'int64' ? goKind(val) === 'int' : typeof val === 'string';
  if (!ok) return { value: undefined, error: `.${fields.join('.')} accessor error: ${goSprint(val)} is of the type ${goTypeName(val)}, expected ${want}` };
  return { value: val };
}

function validateReplicas(obj: Record<string, unknown>, path: string, floats: readonly (readonly string[])[]): FieldError[] {
  const r = nested(obj, path, 'int64', floats);
  if (r.error !== undefined) return [invalid(path, 0, r.error)];
  if (r.value === undefined) return [];
  const n = BigInt(r.value as number | bigint);
  if (n < 0n) return [invalid(path, r.value, 'should be a non-negative integer')];
  if (n > 2147483647n) return [invalid(path, r.value, 'should be less than or equal to 2147483647')];
  return [];
}

/** `ValidateScaleSpec` and `ValidateScaleStatus` (only the latter with `statusOnly`). */
function validateScale(obj: Record<string, unknown>, scale: CustomResourceSubresourceScale | undefined, floats: readonly (readonly string[])[], statusOnly = false): FieldError[] {
  if (scale === undefined || scale === null) return [];
  const errs = [...(statusOnly ? [] : validateReplicas(obj, scale.specReplicasPath ?? '', floats)), ...validateReplicas(obj, scale.statusReplicasPath ?? '', floats)];
  if (typeof scale.labelSelectorPath === 'string') {
    const r = nested(obj, scale.labelSelectorPath, 'string');
    if (r.error !== undefined) errs.push(invalid(scale.labelSelectorPath, '', r.error));
  }
  return errs;
}

/**
 * `paths` (keys and indexes from the root) as the schema validator writes them: `spec.list[0].n`, an
 * index in brackets where the value holds a list there. Those texts are the validator's own error
 * paths, which do not escape keys: a key holding `.` (`a.b`) and two nested keys (`a`, `b`) read the
 * same, so an integral float at one is taken as one at the other too; only the word in a type error
 * (`number` against `integer`) can differ then.
 */
function validatorPaths(object: unknown, paths: readonly (readonly string[])[]): Set<string> {
  const out = new Set<string>();
  for (const p of paths) {
    let text = '';
    let at: unknown = object;
    for (const k of p) {
      text = Array.isArray(at) ? `${text}[${k}]` : text === '' ? k : `${text}.${k}`;
      at = (isMap(at) || Array.isArray(at)) && Object.hasOwn(at, k) ? (at as Record<string, unknown>)[k] : undefined;
    }
    out.add(text);
  }
  return out;
}

/**
 * The metadata errors of a create, or with `oldObject` of an update: rest.BeforeUpdate's common fields
 * and, unless `strategy` is false, the custom resource strategy's own ValidateObjectMetaAccessorUpdate.
 */
function metadataErrors(object: Record<string, unknown>, oldObject: Record<string, unknown> | undefined, namespaced: boolean, strategy = true): FieldError[] {
  const path = FieldPath.root('metadata');
  const decode = (o: Record<string, unknown>): Meta | FieldError => {
    const raw = o.metadata;
    if (raw !== undefined && raw !== null && !isMap(raw)) return invalid(path, raw, `expected map[string]interface{}, got ${goTypeName(raw)}`);
    const m = decodeMeta(raw ?? {});
    return typeof m === 'string' ? invalid(path, raw, m) : m;
  };
  const meta = decode(object);
  if (meta instanceof FieldError) return [meta];
  if (oldObject !== undefined) {
    const old = decode(oldObject);
    if (old instanceof FieldError) return [old];
    // rest.BeforeUpdate's validateCommonFields runs ValidateObjectMetaAccessor and
    // ValidateObjectMetaAccessorUpdate, then the custom resource strategy runs the latter again: the
    // apiserver reports a bad label of an update three times, an immutable field twice.
    // (An object without a namespace stands for one in the request's, as on create.)
    const update = validateObjectMetaUpdate(meta, old, path);
    const common = { ...meta, namespace: namespaced ? (meta.namespace === '' ? 'default' : meta.namespace) : '' };
    return [...validateObjectMeta(common, namespaced, nameIsDNSSubdomain, path), ...update, ...(strategy ? update : [])];
  }
  // What the apiserver does before validating a create (rest.BeforeCreate): a namespaced object
  // without a namespace gets the request's; a cluster-scoped one loses its namespace; a name is
  // generated from generateName.
  if (namespaced && meta.namespace === '') meta.namespace = 'default';
  if (!namespaced) meta.namespace = '';
  if (meta.name === '' && meta.generateName !== '') meta.name = generatedName(meta.generateName);
  return validateObjectMeta(meta, namespaced, nameIsDNSSubdomain, path);
}

const blockingTypes = new Set(['FieldValueNotSupported', 'FieldValueRequired', 'FieldValueTooLong', 'FieldValueTooMany', 'FieldValueTypeInvalid']);

/**
 * Validates a custom resource of `crd` at version `versionName` as the apiserver validates a create
 * (or, with `oldObject`, an update) and returns every error with the apiserver's paths and texts:
 * apiVersion/kind (`kind: Invalid value: "Cron": must be CronTab`; on such an error nothing else is
 * checked, except an update's metadata, which the apiserver checks first), metadata (name a DNS-1123
 * subdomain, or generateName; labels, annotations, finalizers, owner references; on update the immutable fields), the version's OpenAPI schema (see
 * {@link validateValue}; on update with validation ratcheting, so errors in unchanged fields are
 * dropped), the scale subresource's replica paths, embedded resources' apiVersion/kind/metadata,
 * `x-kubernetes-list-type` set and map uniqueness (`Duplicate value`), and finally CEL rules through
 * `options.celValidator`.
 *
 * The object is validated as given: pruning, defaulting and metadata coercion happen before
 * validation in the apiserver and are not applied here. For a create, a missing namespace of a
 * namespaced resource counts as the request's namespace and a missing name with `generateName` as
 * a generated one, as the apiserver fills them in before validating. Never throws.
 *
 * @example
 * ```ts
 * const errors = validateCustomResource(crontabCRD, 'v1', {
 *   apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'my-new-cron-object' },
 *   spec: { cronSpec: '* * * *', image: 'my-awesome-cron-image', replicas: 15 },
 * });
 * errors.map(String);
 * // [`spec.cronSpec: Invalid value: "* * * *": spec.cronSpec in body should match '^(\d+|\*)(/\d+)?(\s+(\d+|\*)(/\d+)?){4}$'`,
 * //  'spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10']
 * ```
 */
export function validateCustomResource(
  crd: CustomResourceDefinition,
  versionName: string,
  object: unknown,
  oldObject?: unknown,
  options: ValidateCustomResourceOptions = {},
): FieldError[] {
  const spec = isMap(crd) && isMap(crd.spec) ? crd.spec : undefined;
  const group = typeof spec?.group === 'string' ? spec.group : '';
  const kind = isMap(spec?.names) && typeof spec.names.kind === 'string' ? spec.names.kind : '';
  const gv = group === '' ? versionName : `${group}/${versionName}`;
  const version = Array.isArray(spec?.versions) ? spec.versions.find((v) => isMap(v) && v.name === versionName) : undefined;
  if (version === undefined) return [notFound('apiVersion', gv)];
  if (!isMap(object)) return [invalid('kind', null, `expected a JSON object, got ${goTypeName(object)}`)];
  const old = isMap(oldObject) ? oldObject : undefined;

  const typeErrs: FieldError[] = [];
  const objKind = typeof object.kind === 'string' ? object.kind : '';
  const objApiVersion = typeof object.apiVersion === 'string' ? object.apiVersion : '';
  if (objKind !== kind) typeErrs.push(invalid('kind', objKind, `must be ${kind}`));
  if (objApiVersion !== gv) typeErrs.push(invalid('apiVersion', objApiVersion, `must be ${gv}`));
  // The strategy checks nothing else then; an update's metadata is still checked before it
  // (rest.BeforeUpdate's validateCommonFields), a create's only after the strategy passed.
  if (typeErrs.length > 0) return old === undefined ? typeErrs : [...metadataErrors(object, old, spec?.scope === 'Namespaced', false), ...typeErrs];

  if (exceedsDepth(object, 10000) || (old !== undefined && exceedsDepth(old, 10000))) {
    return [invalid('<nil>', '', "value nested more than 10000 levels deep (the apiserver's JSON decoder rejects it)")];
  }

  try {
    const schema = isMap(version.schema) && isMap(version.schema.openAPIV3Schema) ? version.schema.openAPIV3Schema : undefined;
    const errs = metadataErrors(object, old, spec?.scope === 'Namespaced');
    const status = options.subresource === 'status' && old !== undefined;
    if (status) {
      // customResourceValidator.ValidateStatusUpdate: the status schema's own validator, only when the
      // object has a status, ratcheting against the old status when both have one.
      const statusSchema = isMap(schema?.properties) && isMap(schema.properties.status) ? schema.properties.status : undefined;
      if (statusSchema !== undefined && Object.hasOwn(object, 'status')) {
        const compiled = compileSchema(statusSchema, { stripUnsupportedFormats: true });
        const floats = validatorPaths(object.status, (options.integralFloats ?? []).filter((p) => p[0] === 'status').map((p) => p.slice(1)));
        const value = object.status;
        const result = withIntegralFloats(floats, () => (Object.hasOwn(old, 'status') ? validateUpdateRoot(compiled, value, old.status) : validateFresh(compiled, value, '')));
        for (const e of result.errors) errs.push(toFieldError(FieldPath.root('status'), e));
      }
    } else if (schema !== undefined) {
      const compiled = compileSchema(schema, { stripUnsupportedFormats: true });
      const floats = validatorPaths(object, options.integralFloats ?? []);
      const result = withIntegralFloats(floats, () => (old !== undefined ? validateUpdateRoot(compiled, object, old) : validateFresh(compiled, object, '')));
      for (const e of result.errors) errs.push(toFieldError(undefined, e));
    }
    const scale = isMap(version.subresources) ? version.subresources.scale : undefined;
    errs.push(...validateScale(object, isMap(scale) ? (scale as unknown as CustomResourceSubresourceScale) : undefined, options.integralFloats ?? [], status));
    if (!status) errs.push(...validateEmbeddedResources(schema, object));
    if (old === undefined || validateListSetsAndMaps(schema, old).length === 0) errs.push(...validateListSetsAndMaps(schema, object));
    const celValidator = options.celValidator ?? ((sch: JSONSchemaProps, o: Record<string, unknown>, oo: Record<string, unknown> | undefined) => validateCustomResourceRules(sch, o, oo));
    if (schema !== undefined && hasValidationRules(schema)) {
      if (errs.some((e) => blockingTypes.has(e.type))) {
        errs.push(invalid('<nil>', null, 'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation'));
      } else {
        errs.push(...celValidator(schema, object, old, ''));
      }
    }
    return errs;
  } catch (err) {
    if (err instanceof SchemaTooDeepError || err instanceof RangeError) {
      return [internalError('<nil>', `cannot validate: ${err instanceof SchemaTooDeepError ? err.message : 'schema and object nested too deeply'}`)];
    }
    throw err;
  }
}
