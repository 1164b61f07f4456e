/**
 * apiextensions-apiserver's `validateCustomResourceDefinitionSpec` and
 * `validateCustomResourceDefinitionVersion`, on the internal (hoisted) spec, in upstream's order.
 */
import { FieldError, FieldPath, invalid, notSupported, required } from '@kubekit/core';
import { columnErrors } from '../printerColumns.js';
import { namesErrors } from '../names.js';
import { selectableFieldErrors } from '../selectableFields.js';
import { subresourceErrors } from '../subresources.js';
import type { ValueValidator } from './defaults.js';
import { isDNS1035Label, isDNS1123Subdomain } from '@kubekit/selectors';
import { byteLength } from './dns.js';
import { invalidJSON, jsonValue, jsonVersions } from './goJSON.js';
import type { Spec, Subresources, Validation, Version } from './model.js';
import { specHasDefaults, specHasKubernetesExtensions } from './schemaHas.js';
import { validateSchema } from './schemaValidation.js';
import type { ValidationRulesCompiler } from './openAPISchema.js';
import { newStructuralError } from './structural.js';
import { validateConversion } from './webhook.js';

/** The requirements of one validation run: all on for create, ratcheted from the old CRD on update. */
export interface SpecOptions {
  allowDefaults: boolean;
  requireRecognizedConversionReviewVersion: boolean;
  requireOpenAPISchema: boolean;
  requireValidPropertyType: boolean;
  requireStructuralSchema: boolean;
  requirePrunedDefaults: boolean;
  requireAtomicSetType: boolean;
  requireMapListKeysMapSetValidation: boolean;
  /** Version names (`''` for the top level) whose unchanged, over-long selectableFields are accepted. */
  allowTooManySelectableFields: ReadonlySet<string>;
  validateValue: ValueValidator;
  compileValidationRules?: ValidationRulesCompiler;
}

function validation(v: Validation | undefined, statusEnabled: boolean, opts: SpecOptions, path: FieldPath): FieldError[] {
  if (v?.openAPIV3Schema === undefined) return [];
  return validateSchema(v.openAPIV3Schema, path.child('openAPIV3Schema'), {
    statusEnabled,
    allowDefaults: opts.allowDefaults,
    requireStructuralSchema: opts.requireStructuralSchema,
    requirePrunedDefaults: opts.requirePrunedDefaults,
    requireValidPropertyType: opts.requireValidPropertyType,
    requireAtomicSetType: opts.requireAtomicSetType,
    requireMapListKeysMapSetValidation: opts.requireMapListKeysMapSetValidation,
    validateValue: opts.validateValue,
    compileValidationRules: opts.compileValidationRules,
  });
}

const nonPrintable = /[^\p{L}\p{M}\p{N}\p{P}\p{S} ]/u;

/** `validateDeprecationWarning`. */
export function deprecationWarningErrors(deprecated: boolean, warning: string | undefined): string[] {
  if (!deprecated && warning !== undefined) return ['can only be set for deprecated versions'];
  if (warning === undefined) return [];
  const errs: string[] = [];
  if (byteLength(warning) > 256) errs.push('must be <= 256 characters long');
  if (warning.length === 0) errs.push('must not be an empty string');
  let index = 0;
  for (const ch of warning) {
    // A lone surrogate reaches Go as U+FFFD, which is printable.
    const cp = ch.codePointAt(0)!;
    const isSurrogate = cp >= 0xd800 && cp <= 0xdfff;
    if (!isSurrogate && nonPrintable.test(ch)) {
      errs.push(`must only contain printable UTF-8 characters; non-printable character found at index ${index}`);
      break;
    }
    index += isSurrogate ? 3 : byteLength(ch);
  }
  return errs;
}

function hasStatusEnabled(s: Subresources | undefined): boolean {
  return s?.status !== undefined;
}

function versionErrors(v: Version, path: FieldPath, statusEnabled: boolean, opts: SpecOptions): FieldError[] {
  const errs: FieldError[] = [];
  for (const e of deprecationWarningErrors(v.deprecated, v.deprecationWarning)) {
    // The bad value is a *string, which the apiserver prints with json.Marshal.
    errs.push(invalidJSON(path.child('deprecationWarning'), v.deprecationWarning ?? null, jsonValue(v.deprecationWarning ?? null), e));
  }
  errs.push(...validation(v.schema, statusEnabled, opts, path.child('schema')));
  errs.push(...subresourceErrors(v.subresources, path.child('subresources')));
  v.additionalPrinterColumns?.forEach((c, i) => errs.push(...columnErrors(c, path.child('additionalPrinterColumns').index(i))));
  if ((v.selectableFields?.length ?? 0) > 0) {
    const schema = v.schema?.openAPIV3Schema;
    if (schema === undefined) {
      // Upstream's wording (sic). It also applies when identical schemas were hoisted to the top level
      // while the versions' selectableFields differ.
      errs.push(invalid(path.child('selectableFields'), '', 'may only be set when `version.schema.openAPIV3Schema` is not included'));
    } else {
      const convertError = newStructuralError(schema);
      if (convertError !== undefined) errs.push(invalid(path.child('schema.openAPIV3Schema'), '', convertError));
      else errs.push(...selectableFieldErrors(v.selectableFields ?? [], schema, path.child('selectableFields'), opts.allowTooManySelectableFields.has(v.name)));
    }
  }
  return errs;
}

/** `validateCustomResourceDefinitionSpec` on the internal spec at `path` (`spec`). */
export function specErrors(spec: Spec, optsIn: SpecOptions, path: FieldPath): FieldError[] {
  const opts = { ...optsIn };
  const errs: FieldError[] = [];

  if (spec.group.length === 0) {
    errs.push(required(path.child('group'), ''));
  } else {
    const e = isDNS1123Subdomain(spec.group);
    if (e.length > 0) errs.push(invalid(path.child('group'), spec.group, e.join(',')));
    else if (spec.group.split('.').length < 2) errs.push(invalid(path.child('group'), spec.group, 'should be a domain with at least one dot'));
  }

  if (spec.scope.length === 0) errs.push(required(path.child('scope'), ''));
  else if (spec.scope !== 'Cluster' && spec.scope !== 'Namespaced') errs.push(notSupported(path.child('scope'), spec.scope, ['Cluster', 'Namespaced']));

  // Pruning (preserveUnknownFields false) needs structural schemas.
  const preserve = spec.preserveUnknownFields === true;
  if (!preserve) opts.requireStructuralSchema = true;

  const versions = spec.versions ?? [];
  if (spec.validation?.openAPIV3Schema === undefined) {
    versions.forEach((v, i) => {
      const p = path.child('versions').index(i).child('schema').child('openAPIV3Schema');
      if (v.schema?.openAPIV3Schema !== undefined) return;
      if (opts.requireOpenAPISchema) errs.push(required(p, ''));
      else if (!preserve && v.served) errs.push(required(p, 'because otherwise all fields are pruned'));
    });
  }
  if (opts.allowDefaults && specHasDefaults(spec)) {
    opts.requireStructuralSchema = true;
    if (spec.preserveUnknownFields !== false) {
      errs.push(invalid(path.child('preserveUnknownFields'), true, 'must be false in order to use defaults in the schema'));
    }
  }
  if (specHasKubernetesExtensions(spec)) opts.requireStructuralSchema = true;

  let storageFlagCount = 0;
  const seen = new Set<string>();
  let uniqueNames = true;
  versions.forEach((v, i) => {
    if (v.storage) storageFlagCount++;
    if (seen.has(v.name)) uniqueNames = false;
    else seen.add(v.name);
    const e = isDNS1035Label(v.name);
    if (e.length > 0) errs.push(invalid(path.child('versions').index(i).child('name'), v.name, e.join(',')));
    const subresources = versions.some((x) => x.subresources !== undefined) ? v.subresources : spec.subresources;
    errs.push(...versionErrors(v, path.child('versions').index(i), hasStatusEnabled(subresources), opts));
  });

  const versionsText = () => jsonVersions(spec.versions);
  if (!uniqueNames) errs.push(invalidJSON(path.child('versions'), spec.versions, versionsText(), 'must contain unique version names'));
  if (storageFlagCount !== 1) {
    errs.push(invalidJSON(path.child('versions'), spec.versions ?? null, versionsText(), 'must have exactly one version marked as storage version'));
  }
  if (spec.version.length > 0) {
    const e = isDNS1035Label(spec.version);
    if (e.length > 0) errs.push(invalid(path.child('version'), spec.version, e.join(',')));
  }

  const names = path.child('names');
  if (spec.names.plural.length === 0) errs.push(required(names.child('plural'), ''));
  if (spec.names.singular.length === 0) errs.push(required(names.child('singular'), ''));
  if (spec.names.kind.length === 0) errs.push(required(names.child('kind'), ''));
  if (spec.names.listKind.length === 0) errs.push(required(names.child('listKind'), ''));
  errs.push(...namesErrors(spec.names, names));

  const anyStatus = hasStatusEnabled(spec.subresources) || versions.some((v) => hasStatusEnabled(v.subresources));
  errs.push(...validation(spec.validation, anyStatus, opts, path.child('validation')));
  errs.push(...subresourceErrors(spec.subresources, path.child('subresources')));
  spec.additionalPrinterColumns?.forEach((c, i) => errs.push(...columnErrors(c, path.child('additionalPrinterColumns').index(i))));

  if ((spec.selectableFields?.length ?? 0) > 0) {
    if (spec.validation === undefined) {
      errs.push(invalid(path.child('selectableFields'), '', 'may only be set when validations.schema is included'));
    } else {
      const schema = spec.validation.openAPIV3Schema;
      const convertError = schema === undefined ? undefined : newStructuralError(schema);
      if (convertError !== undefined) errs.push(invalid(path.child('schema.openAPIV3Schema'), '', convertError));
      else errs.push(...selectableFieldErrors(spec.selectableFields ?? [], schema, path.child('selectableFields'), opts.allowTooManySelectableFields.has('')));
    }
  }

  if (spec.conversion !== undefined && spec.conversion.strategy !== 'None' && spec.preserveUnknownFields !== false) {
    errs.push(invalid(path.child('conversion').child('strategy'), spec.conversion.strategy, 'must be None if spec.preserveUnknownFields is true'));
  }
  errs.push(...validateConversion(spec.conversion, opts.requireRecognizedConversionReviewVersion, path.child('conversion')));
  return errs;
}
