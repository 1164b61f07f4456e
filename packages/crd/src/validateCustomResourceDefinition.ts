/**
 * Validation of whole CustomResourceDefinitions, as the apiserver validates a create
 * (`ValidateCustomResourceDefinition`) or an update (`ValidateCustomResourceDefinitionUpdate`).
 *
 * The input is decoded as the apiserver's strict JSON decoding would (wrong types and unknown fields
 * are reported, and nothing else is then checked), v1 defaults are applied (`singular`, `listKind`,
 * `conversion.strategy`, a webhook service's port), and the spec is converted to the apiserver's
 * internal version before the checks run. That conversion moves per-version fields that are identical
 * in every version to the top of the spec, so a single-version CRD's schema errors read
 * `spec.validation.openAPIV3Schema…` and its selectable-field errors `spec.selectableFields[0]…`,
 * exactly as `kubectl apply` shows them.
 *
 * @see https://github.com/kubernetes/kubernetes/blob/master/staging/src/k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation/validation.go
 */
import { FieldError, FieldPath, invalid, notSupported, required } from '@kubekit/core';
import { safeBadValue } from './internal/decode.js';
import { decodeCrd } from './internal/decodeCrd.js';
import { isDNS1123Subdomain } from '@kubekit/selectors';
import { maskTrailingDash } from './internal/dns.js';
import { jsonStringSlice, invalidJSON } from './internal/goJSON.js';
import { semanticEqual, toInternal } from './internal/internalCrd.js';
import type { Crd, Spec } from './internal/model.js';
import {
  allVersionsSpecifyOpenAPISchema, requireAtomicSetType, requireMapListKeysMapSetValidation, requirePrunedDefaults,
  requireValidPropertyType, specHasNonStructuralSchema,
} from './internal/schemaHas.js';
import { specErrors, type SpecOptions } from './internal/specValidation.js';
import { decodeMeta, generatedName, validateObjectMeta, validateObjectMetaUpdate } from './internal/valueObjectMeta.js';
import { hasValidConversionReviewVersionOrEmpty, parseURL } from './internal/webhook.js';
import { namesErrors } from './names.js';
import { maxSelectableFields } from './selectableFields.js';
import type { CustomResourceDefinition, JSONSchemaProps } from './types.js';
import { validateValue } from './validateValue.js';
import { createValidationRulesCompiler } from './validationRules/compileRules.js';

const apiApprovedAnnotation = 'api-approved.kubernetes.io';

/**
 * How a default is checked against its schema: `Structural.ToKubeOpenAPI()` keeps the formats as
 * written (custom resources are validated with the unsupported ones stripped).
 */
function valueValidator(schema: Parameters<typeof validateValue>[0], value: unknown, path: string): FieldError[] {
  return validateValue(schema, value, path, { stripUnsupportedFormats: false });
}

function topLevelErrors(raw: unknown): FieldError[] {
  const o = (raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? raw : {}) as Record<string, unknown>;
  const errs: FieldError[] = [];
  if (o.apiVersion === undefined) errs.push(required('apiVersion', ''));
  else if (o.apiVersion !== 'apiextensions.k8s.io/v1') errs.push(notSupported('apiVersion', safeBadValue(o.apiVersion), ['apiextensions.k8s.io/v1']));
  if (o.kind === undefined) errs.push(required('kind', ''));
  else if (o.kind !== 'CustomResourceDefinition') errs.push(notSupported('kind', safeBadValue(o.kind), ['CustomResourceDefinition']));
  return errs;
}

function decode(raw: unknown): { crd: Crd; errors: FieldError[] } {
  const { crd, errors } = decodeCrd(raw);
  return { crd, errors: [...topLevelErrors(raw), ...errors] };
}

function storedVersionsErrors(stored: readonly string[] | undefined, spec: Spec, path: FieldPath): FieldError[] {
  if (stored === undefined || stored.length === 0) {
    return [invalidJSON(path, stored ?? null, jsonStringSlice(stored), 'must have at least one stored version')];
  }
  const errs: FieldError[] = [];
  const remaining = new Map<string, number>();
  stored.forEach((v, i) => remaining.set(v, i));
  for (const v of spec.versions ?? []) {
    const ok = remaining.has(v.name);
    if (v.storage && !ok) errs.push(invalidJSON(path, stored, jsonStringSlice(stored), `must have the storage version ${v.name}`));
    if (ok) remaining.delete(v.name);
  }
  const left = [...remaining].sort((a, b) => a[1] - b[1]);
  for (const [v, i] of left) {
    errs.push(invalid(path.index(i), v, `missing from spec.versions; ${v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in ${v} and removes ${v} from status.storedVersions`));
  }
  return errs;
}

type ApprovalState = 'invalid' | 'approved' | 'bypassed' | 'missing';

function approvalState(annotations: Record<string, string> | undefined): { state: ApprovalState; reason: string } {
  const annotation = annotations?.[apiApprovedAnnotation] ?? '';
  if (annotation.length === 0) {
    return { state: 'missing', reason: `protected groups must have approval annotation "${apiApprovedAnnotation}", see https://github.com/kubernetes/enhancements/pull/1111` };
  }
  if (annotation.startsWith('unapproved')) return { state: 'bypassed', reason: `not approved: ${JSON.stringify(annotation)}` };
  const u = parseURL(annotation);
  if (!('error' in u) && u.host.length > 0 && u.scheme.length > 0 && u.fragment.length === 0) return { state: 'approved', reason: `approved in ${annotation}` };
  return {
    state: 'invalid',
    reason: `protected groups must have approval annotation "${apiApprovedAnnotation}" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111`,
  };
}

function isProtectedCommunityGroup(group: string): boolean {
  return group === 'k8s.io' || group.endsWith('.k8s.io') || group === 'kubernetes.io' || group.endsWith('.kubernetes.io');
}

function apiApprovalErrors(crd: Crd, old: Crd | undefined): FieldError[] {
  if (!isProtectedCommunityGroup(crd.spec.group)) return [];
  const next = approvalState(crd.metadata.annotations);
  if (old !== undefined && approvalState(old.metadata.annotations).state === next.state) return [];
  const path = FieldPath.root('metadata', 'annotations').key(apiApprovedAnnotation);
  switch (next.state) {
    case 'missing': return [required(path, next.reason)];
    case 'invalid': return [invalid(path, crd.metadata.annotations?.[apiApprovedAnnotation] ?? '', next.reason)];
    default: return [];
  }
}

function preserveUnknownFieldsErrors(crd: Crd, old: Crd | undefined): FieldError[] {
  if (old?.spec.preserveUnknownFields === true) return [];
  if (crd.spec.preserveUnknownFields === true) {
    return [invalid('spec.preserveUnknownFields', true, 'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead')];
  }
  return [];
}

function firstStorageVersion(spec: Spec): string | undefined {
  return spec.versions?.find((v) => v.storage)?.name;
}

/** Options of {@link validateCustomResourceDefinition} and {@link validateCustomResourceDefinitionUpdate}. */
export interface ValidateCustomResourceDefinitionOptions {
  /**
   * Compiles one schema node's `x-kubernetes-validations` (CEL) and returns the problems
   * (`…x-kubernetes-validations[0].rule: Invalid value: …`). Called as the apiserver compiles rules:
   * only for structural schemas with valid defaults, only for nodes outside `allOf`/`anyOf`/`oneOf`/`not`,
   * and only where the node and everything below it has no other error.
   * @defaultValue kubekit's CEL compiler (`createValidationRulesCompiler`), with the per-CRD cost limit
   */
  compileValidationRules?: (schema: JSONSchemaProps, fieldPath: string) => FieldError[];
}

function createOptions(options: ValidateCustomResourceDefinitionOptions = {}): SpecOptions {
  return {
    compileValidationRules: options.compileValidationRules,
    allowDefaults: true,
    requireRecognizedConversionReviewVersion: true,
    requireOpenAPISchema: true,
    requireValidPropertyType: true,
    requireStructuralSchema: true,
    requirePrunedDefaults: true,
    requireAtomicSetType: true,
    requireMapListKeysMapSetValidation: true,
    allowTooManySelectableFields: new Set(),
    validateValue: valueValidator,
  };
}

/**
 * Validates a CustomResourceDefinition as the apiserver validates its creation, and returns every
 * problem as a {@link FieldError} with the apiserver's path and text; an empty list means the
 * apiserver would accept it. Never throws, whatever the input.
 *
 * Covered: `metadata.name` (`<plural>.<group>`), group, scope, names, versions (DNS-1035 names,
 * unique, exactly one storage version), conversion, `preserveUnknownFields`, each schema (structural
 * rules, forbidden keywords, list and map types, defaults pruned and valid, the status subresource's
 * root restrictions), subresources, printer columns and `selectableFields`. Not covered: CA bundles;
 * CEL rules are compiled only through {@link ValidateCustomResourceDefinitionOptions.compileValidationRules}.
 *
 * @example
 * ```ts
 * const errors = validateCustomResourceDefinition(crd);
 * if (errors.length > 0) throw new InvalidError(…, errors);
 * ```
 */
export function validateCustomResourceDefinition(crd: CustomResourceDefinition, options: ValidateCustomResourceDefinitionOptions = {}): FieldError[] {
  const { crd: decoded, errors } = decode(crd);
  if (errors.length > 0) return errors;
  const c = toInternal(decoded);
  // PrepareForCreate: the status is reset and the storage version recorded.
  const storage = firstStorageVersion(c.spec);
  c.status = { acceptedNames: { plural: '', singular: '', kind: '', listKind: '' }, storedVersions: storage === undefined ? undefined : [storage] };

  const requiredName = `${c.spec.names.plural}.${c.spec.group}`;
  const nameFn = (name: string, prefix: boolean): string[] => {
    const ret = isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name);
    if (name !== requiredName) ret.push('must be spec.names.plural+"."+spec.group');
    return ret;
  };
  const errs: FieldError[] = [];
  const meta = decodeMeta((crd as { metadata?: unknown } | null)?.metadata ?? {});
  if (typeof meta === 'string') {
    errs.push(invalid('metadata', '', meta));
  } else {
    // The apiserver generates the name before validating.
    if (meta.name.length === 0 && meta.generateName.length > 0) meta.name = generatedName(meta.generateName);
    errs.push(...validateObjectMeta(meta, false, nameFn, FieldPath.root('metadata')));
  }
  const cel = options.compileValidationRules === undefined ? createValidationRulesCompiler(crd) : undefined;
  errs.push(...specErrors(c.spec, createOptions({ ...options, compileValidationRules: options.compileValidationRules ?? cel?.compile }), FieldPath.root('spec')));
  if (cel !== undefined) errs.push(...cel.totalCostErrors());
  errs.push(...namesErrors(c.status.acceptedNames, FieldPath.root('status', 'acceptedNames')));
  errs.push(...storedVersionsErrors(c.status.storedVersions, c.spec, FieldPath.root('status', 'storedVersions')));
  errs.push(...apiApprovalErrors(c, undefined));
  errs.push(...preserveUnknownFieldsErrors(c, undefined));
  return errs;
}

function isEstablished(crd: Crd): boolean {
  return crd.status.conditions?.some((c) => c.type === 'Established' && c.status === 'True') ?? false;
}

function tooManySelectableFieldsAllowed(next: Spec, old: Spec): Set<string> {
  const allowed = new Set<string>();
  if ((old.selectableFields?.length ?? 0) > maxSelectableFields && semanticEqual(next.selectableFields, old.selectableFields)) allowed.add('');
  const oldVersions = new Map((old.versions ?? []).map((v) => [v.name, v]));
  for (const v of next.versions ?? []) {
    const o = oldVersions.get(v.name);
    if (o !== undefined && (o.selectableFields?.length ?? 0) > maxSelectableFields && semanticEqual(v.selectableFields, o.selectableFields)) allowed.add(v.name);
  }
  return allowed;
}

function immutable(path: string, next: string, old: string): FieldError[] {
  return next === old ? [] : [invalid(path, next, 'field is immutable')];
}

/**
 * Validates an update of a CustomResourceDefinition from `oldCrd` (as stored, with its status) to
 * `newCrd`, as the apiserver does: the create rules, with the ratcheting the apiserver applies (rules
 * the stored CRD already broke — non-structural schemas, unpruned defaults, non-atomic set items,
 * over-long unchanged `selectableFields`, … — are not enforced), the new spec checked against the
 * stored `status.storedVersions`, and `group`, `names.plural` (and, once the CRD is Established,
 * `scope` and `names.kind`) immutable. Never throws.
 *
 * @example
 * ```ts
 * validateCustomResourceDefinitionUpdate({ ...crd, spec: { ...crd.spec, group: 'other.example.com' } }, crd);
 * // [ spec.group: Invalid value: "other.example.com": field is immutable, … ]
 * ```
 */
export function validateCustomResourceDefinitionUpdate(newCrd: CustomResourceDefinition, oldCrd: CustomResourceDefinition,
  options: ValidateCustomResourceDefinitionOptions = {}): FieldError[] {
  const { crd: decodedNew, errors } = decode(newCrd);
  if (errors.length > 0) return errors;
  const old = toInternal(decode(oldCrd).crd);
  const c = toInternal(decodedNew);
  // PrepareForUpdate: the status is the stored one, plus the new storage version.
  c.status = old.status;
  const storage = firstStorageVersion(c.spec);
  if (storage !== undefined && !(c.status.storedVersions ?? []).includes(storage)) {
    c.status = { ...c.status, storedVersions: [...(c.status.storedVersions ?? []), storage] };
  }

  const cel = options.compileValidationRules === undefined ? createValidationRulesCompiler(newCrd, oldCrd) : undefined;
  const opts: SpecOptions = {
    ...createOptions({ ...options, compileValidationRules: options.compileValidationRules ?? cel?.compile }),
    requireRecognizedConversionReviewVersion: old.spec.conversion === undefined || hasValidConversionReviewVersionOrEmpty(old.spec.conversion.conversionReviewVersions),
    requireOpenAPISchema: allVersionsSpecifyOpenAPISchema(old.spec),
    requireValidPropertyType: requireValidPropertyType(old.spec),
    requireStructuralSchema: !specHasNonStructuralSchema(old.spec),
    requirePrunedDefaults: requirePrunedDefaults(old.spec),
    requireAtomicSetType: requireAtomicSetType(old.spec),
    requireMapListKeysMapSetValidation: requireMapListKeysMapSetValidation(old.spec),
    allowTooManySelectableFields: tooManySelectableFieldsAllowed(c.spec, old.spec),
  };

  const errs: FieldError[] = [];
  const meta = decodeMeta((newCrd as { metadata?: unknown } | null)?.metadata ?? {});
  const oldMeta = decodeMeta((oldCrd as { metadata?: unknown } | null)?.metadata ?? {});
  if (typeof meta === 'string') errs.push(invalid('metadata', '', meta));
  else if (typeof oldMeta !== 'string') {
    // The resourceVersion rule is left out: clients fill it in from the stored object.
    errs.push(...validateObjectMetaUpdate(meta, oldMeta, FieldPath.root('metadata')).filter((e) => e.field !== 'metadata.resourceVersion'));
  }
  errs.push(...specErrors(c.spec, opts, FieldPath.root('spec')));
  if (cel !== undefined) errs.push(...cel.totalCostErrors());
  if (isEstablished(old)) {
    errs.push(...immutable('spec.scope', c.spec.scope, old.spec.scope));
    errs.push(...immutable('spec.names.kind', c.spec.names.kind, old.spec.names.kind));
  }
  errs.push(...immutable('spec.group', c.spec.group, old.spec.group));
  errs.push(...immutable('spec.names.plural', c.spec.names.plural, old.spec.names.plural));
  errs.push(...namesErrors(c.status.acceptedNames, FieldPath.root('status', 'acceptedNames')));
  errs.push(...storedVersionsErrors(c.status.storedVersions, c.spec, FieldPath.root('status', 'storedVersions')));
  errs.push(...apiApprovalErrors(c, old));
  errs.push(...preserveUnknownFieldsErrors(c, old));
  return errs;
}
