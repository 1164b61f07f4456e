import {
  FieldError, FieldPath, aggregateMessage, forbidden, goJSON, goQuote, invalid, required, typeInvalid, type FieldPathLike,
} from '@kubekit/core';
import { decodeLabelSelector } from './internal/decodeLabelSelector.js';
import { sortGoStrings } from './internal/goStrings.js';
import { makeRequirement, validateLabelRequirement, type LabelOperator, type LabelRequirement } from './labelRequirement.js';
import { LabelSelector, everythingLabelSelector, nothingLabelSelector, sortByKey } from './labelSelector.js';
import { SelectorParseError } from './selectorParseError.js';
import { isQualifiedName, isValidLabelValue, validateLabels } from './validation.js';

/** The operator of a `matchExpressions` entry (`metav1.LabelSelectorOperator`). */
export type LabelSelectorOperator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';

/** One `matchExpressions` entry (`metav1.LabelSelectorRequirement`). */
export interface LabelSelectorRequirementObject {
  key: string;
  /** One of {@link LabelSelectorOperator}; other text is rejected with the apiserver's error. */
  operator: LabelSelectorOperator | (string & Record<never, never>);
  values?: readonly string[] | null;
}

/**
 * The object form of a label selector (`metav1.LabelSelector`), as in a Deployment's
 * `spec.selector` or a scale subresource: `matchLabels` and `matchExpressions`, ANDed.
 */
export interface LabelSelectorObject {
  matchLabels?: Readonly<Record<string, string>> | null;
  matchExpressions?: readonly LabelSelectorRequirementObject[] | null;
}

const operatorMap: Readonly<Record<LabelSelectorOperator, LabelOperator>> = {
  In: 'in',
  NotIn: 'notin',
  Exists: 'exists',
  DoesNotExist: '!',
};

function selectorOperator(op: string): LabelOperator | undefined {
  return Object.hasOwn(operatorMap, op) ? operatorMap[op as LabelSelectorOperator] : undefined;
}

/**
 * The selector an object-form label selector stands for (`metav1.LabelSelectorAsSelector`): `null`
 * or `undefined` selects nothing, `{}` selects everything; each `matchLabels` entry becomes `key=value`
 * and each expression `key in (...)`, `key notin (...)`, `key` or `!key`, all validated as
 * requirements and sorted by key. The input is checked at run time too, so untyped JSON is safe to
 * pass.
 *
 * @throws {@link SelectorParseError} with the apiserver's text: `"Foo" is not a valid label selector
 *   operator`, or a requirement error such as `values: Invalid value: null: for 'in', 'notin'
 *   operators, values set can't be empty`. `matchLabels` are checked in key order (Go's map order is
 *   random, so the apiserver may report a different one of several bad entries).
 *
 * @example
 * ```ts
 * labelSelectorFromObject({
 *   matchLabels: { app: 'shop' },
 *   matchExpressions: [{ key: 'tier', operator: 'In', values: ['web', 'api'] }],
 * }).toString(); // 'app=shop,tier in (api,web)'
 * ```
 */
export function labelSelectorFromObject(selector: LabelSelectorObject | null | undefined): LabelSelector {
  const decoded = decodeLabelSelector(selector);
  if (decoded === undefined) return nothingLabelSelector();
  const labelKeys = sortGoStrings(Object.keys(decoded.matchLabels));
  if (labelKeys.length + decoded.matchExpressions.length === 0) return everythingLabelSelector();
  const reqs: LabelRequirement[] = [];
  const check = (key: string, op: LabelOperator, values: string[] | null): void => {
    const errs = validateLabelRequirement(key, op, values);
    if (errs.length > 0) throw new SelectorParseError(aggregateMessage(errs), { fieldErrors: errs });
    reqs.push(makeRequirement(key, op, values ?? []));
  };
  for (const key of labelKeys) check(key, '=', [decoded.matchLabels[key]]);
  for (const expr of decoded.matchExpressions) {
    const op = selectorOperator(expr.operator);
    if (op === undefined) throw new SelectorParseError(`${goQuote(expr.operator)} is not a valid label selector operator`);
    // Go copies the values with append([]string(nil), ...), so an empty list is a nil slice.
    check(expr.key, op, expr.values === null || expr.values.length === 0 ? null : expr.values);
  }
  return new LabelSelector(sortByKey(reqs));
}

/**
 * The plain label map an object-form selector stands for (`metav1.LabelSelectorAsMap`): `matchLabels`
 * plus each `In` expression with exactly one value. `null`/`undefined` gives `undefined`.
 *
 * @throws {@link SelectorParseError} for expressions a map cannot express, with the apiserver's text
 *   (`operator "NotIn" cannot be converted into the old label selector format`).
 */
export function labelSelectorAsMap(selector: LabelSelectorObject | null | undefined): Record<string, string> | undefined {
  const decoded = decodeLabelSelector(selector);
  if (decoded === undefined) return undefined;
  const out: Record<string, string> = {};
  const put = (k: string, v: string): void => {
    Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  };
  for (const key of Object.keys(decoded.matchLabels)) put(key, decoded.matchLabels[key]);
  for (const expr of decoded.matchExpressions) {
    switch (expr.operator) {
      case 'In':
        if (expr.values === null || expr.values.length !== 1) {
          throw new SelectorParseError(`operator ${goQuote(expr.operator)} without a single value cannot be converted into the old label selector format`);
        }
        put(expr.key, expr.values[0]);
        break;
      case 'NotIn':
      case 'Exists':
      case 'DoesNotExist':
        throw new SelectorParseError(`operator ${goQuote(expr.operator)} cannot be converted into the old label selector format`);
      default:
        throw new SelectorParseError(`${goQuote(expr.operator)} is not a valid selector operator`);
    }
  }
  return out;
}

/** Options of {@link validateLabelSelector} (`metav1validation.LabelSelectorValidationOptions`). */
export interface LabelSelectorValidationOptions {
  /** Accept values that are not valid label values (for objects stored before validation). @defaultValue false */
  allowInvalidLabelValueInSelector?: boolean;
  /** Accept operators other than the four known ones. @defaultValue false */
  allowUnknownOperatorInRequirement?: boolean;
}

/**
 * Validates an object-form label selector as the apiserver validates one inside an object
 * (`metav1validation.ValidateLabelSelector`), reporting every problem under `fldPath`, e.g.
 * `spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is
 * 'In' or 'NotIn'`. Never throws; `null`/`undefined` is valid.
 *
 * @example
 * ```ts
 * validateLabelSelector({ matchExpressions: [{ key: 'a', operator: 'Foo' }] }, 'spec.selector').map(String);
 * // ['spec.selector.matchExpressions[0].operator: Invalid value: "Foo": not a valid selector operator']
 * ```
 */
export function validateLabelSelector(
  selector: LabelSelectorObject | null | undefined,
  fldPath: FieldPathLike,
  options: LabelSelectorValidationOptions = {},
): FieldError[] {
  const path = typeof fldPath === 'string' ? FieldPath.root(fldPath) : fldPath;
  let decoded;
  try {
    decoded = decodeLabelSelector(selector);
  } catch (err) {
    return [typeInvalid(path, selector, (err as Error).message)];
  }
  const errs: FieldError[] = [];
  if (decoded === undefined) return errs;
  errs.push(...validateLabels(decoded.matchLabels, path.child('matchLabels')));
  decoded.matchExpressions.forEach((expr, i) => errs.push(...validateLabelSelectorRequirement(expr, path.child('matchExpressions').index(i), options)));
  return errs;
}

/**
 * Validates one requirement of an object-form label selector (`metav1validation.ValidateLabelSelectorRequirement`):
 * its operator and values, its key, its values as label values, under `fldPath`.
 *
 * @example
 * ```ts
 * validateLabelSelectorRequirement({ key: 'a b', operator: 'Exists' }, 'spec.requirements[0]').map(String);
 * // ["spec.requirements[0].key: Invalid value: \"a b\": name part must consist of …"]
 * ```
 */
export function validateLabelSelectorRequirement(
  expr: { key: string; operator: string; values?: readonly string[] | null },
  fldPath: FieldPathLike,
  options: LabelSelectorValidationOptions = {},
): FieldError[] {
  const p = typeof fldPath === 'string' ? FieldPath.root(fldPath) : fldPath;
  const errs: FieldError[] = [];
  const count = expr.values?.length ?? 0;
  switch (expr.operator) {
    case 'In':
    case 'NotIn':
      if (count === 0) errs.push(required(p.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (count > 0) errs.push(forbidden(p.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      break;
    default:
      if (options.allowUnknownOperatorInRequirement !== true) {
        errs.push(new FieldError('FieldValueInvalid', p.child('operator'), expr.operator, 'not a valid selector operator', goJSON(expr.operator)));
      }
  }
  for (const msg of isQualifiedName(expr.key)) errs.push(invalid(p.child('key'), expr.key, msg));
  if (options.allowInvalidLabelValueInSelector !== true) {
    (expr.values ?? []).forEach((v, j) => {
      for (const msg of isValidLabelValue(v)) errs.push(invalid(p.child('values').index(j), v, msg));
    });
  }
  return errs;
}
