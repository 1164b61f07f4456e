import { FieldError, FieldPath, aggregateMessage, goJSON, goQuote, invalid, type FieldPathLike } from '@kubekit/core';
import { goStringsAreSorted, sortGoStrings } from './internal/goStrings.js';
import { parseInt64 } from './internal/int64.js';
import { SelectorParseError } from './selectorParseError.js';
import { validateLabelKey, validateLabelValue } from './validation.js';

/**
 * A label selector operator (`selection.Operator`): `=`, `==` and `in` require the label to exist
 * with one of the values; `!=` and `notin` require it to be absent or different; `exists` and `!`
 * (does not exist) test presence; `gt` and `lt` compare the label as a 64-bit integer.
 */
export type LabelOperator = '=' | '==' | '!=' | 'in' | 'notin' | 'exists' | '!' | 'gt' | 'lt';

/**
 * One requirement of a label selector (`labels.Requirement`): a key, an operator and its values, as
 * stored (a parsed `in` list is de-duplicated and sorted; values from `matchExpressions` keep their
 * given order and are sorted only when printed).
 */
export interface LabelRequirement {
  readonly key: string;
  readonly operator: LabelOperator;
  readonly values: readonly string[];
}

/** Options for building label requirements and parsing label selectors. */
export interface LabelRequirementOptions {
  /**
   * The field path errors are reported under (Go's `field.WithPath`), e.g. `spec.selector`.
   * @defaultValue none: key errors from the parser print as `<nil>`, others as `key`/`values`/`operator`
   */
  path?: FieldPathLike;
}

/** Every valid operator, in the order the apiserver lists them in its errors. */
export const labelOperators: readonly LabelOperator[] = Object.freeze(['in', 'notin', '=', '==', '!=', 'gt', 'lt', 'exists', '!'] as const);

/** @internal The path option as a `FieldPath` (or `undefined`, Go's nil path). */
export function toPath(path: FieldPathLike | undefined): FieldPath | undefined {
  if (path === undefined) return undefined;
  return typeof path === 'string' ? FieldPath.root(path) : path;
}

/** @internal Go's `path.Child(name)` on a possibly nil path. */
export function childPath(path: FieldPath | undefined, name: string): FieldPath {
  return path === undefined ? FieldPath.root(name) : path.child(name);
}

/** @internal `labels.validateLabelKey`: the key's messages joined into one `Invalid` error. */
export function labelKeyError(key: string, path: FieldPathLike): FieldError | undefined {
  const errs = validateLabelKey(key);
  return errs.length === 0 ? undefined : invalid(path, key, errs.join('; '));
}

/**
 * The errors `labels.NewRequirement` reports for a requirement, in its order: the key, then the
 * operator and the number and form of values, then each value. `values` of `null` stands for Go's
 * nil slice (printed as `null`). Empty when the requirement is valid.
 *
 * @example
 * ```ts
 * validateLabelRequirement('x', 'in', []).map(String);
 * // ["values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty"]
 * ```
 */
export function validateLabelRequirement(
  key: string,
  operator: string,
  values: readonly string[] | null,
  options: LabelRequirementOptions = {},
): FieldError[] {
  const path = toPath(options.path);
  const errs: FieldError[] = [];
  const keyError = labelKeyError(key, childPath(path, 'key'));
  if (keyError !== undefined) errs.push(keyError);
  const vals = values ?? [];
  const valuesPath = childPath(path, 'values');
  switch (operator) {
    case 'in':
    case 'notin':
      if (vals.length === 0) errs.push(new FieldError('FieldValueInvalid', valuesPath, values, "for 'in', 'notin' operators, values set can't be empty"));
      break;
    case '=':
    case '==':
    case '!=':
      if (vals.length !== 1) errs.push(new FieldError('FieldValueInvalid', valuesPath, values, 'exact-match compatibility requires one single value'));
      break;
    case 'exists':
    case '!':
      if (vals.length !== 0) errs.push(new FieldError('FieldValueInvalid', valuesPath, values, 'values set must be empty for exists and does not exist'));
      break;
    case 'gt':
    case 'lt':
      if (vals.length !== 1) errs.push(new FieldError('FieldValueInvalid', valuesPath, values, "for 'Gt', 'Lt' operators, exactly one value is required"));
      vals.forEach((v, i) => {
        if (parseInt64(v) === undefined) errs.push(invalid(valuesPath.index(i), v, "for 'Gt', 'Lt' operators, the value must be an integer"));
      });
      break;
    default: {
      const supported = labelOperators.map((o) => goQuote(o)).join(', ');
      // selection.Operator is a named string type: Go prints it with json.Marshal, not %q.
      errs.push(new FieldError('FieldValueNotSupported', childPath(path, 'operator'), operator, `supported values: ${supported}`, goJSON(operator)));
    }
  }
  vals.forEach((v, i) => {
    const msgs = validateLabelValue(v);
    if (msgs.length > 0) errs.push(invalid(valuesPath.index(i).key(key), v, msgs.join('; ')));
  });
  return dedupe(errs);
}

/** `field.ErrorList.ToAggregate` drops errors whose text repeats an earlier one. */
function dedupe(errs: FieldError[]): FieldError[] {
  if (errs.length < 2) return errs;
  const seen = new Set<string>();
  return errs.filter((e) => {
    const s = e.toString();
    if (seen.has(s)) return false;
    seen.add(s);
    return true;
  });
}

/**
 * A validated label requirement (`labels.NewRequirement`). The values are kept as given (copied and
 * frozen).
 *
 * @throws {@link SelectorParseError} whose message is the aggregate of the errors
 *   {@link validateLabelRequirement} reports, and whose `fieldErrors` are those errors.
 *
 * @example
 * ```ts
 * const r = newLabelRequirement('tier', 'in', ['web', 'api']);
 * formatLabelRequirement(r); // 'tier in (api,web)'
 * ```
 */
export function newLabelRequirement(
  key: string,
  operator: LabelOperator,
  values: readonly string[] | null = [],
  options: LabelRequirementOptions = {},
): LabelRequirement {
  const errs = validateLabelRequirement(key, operator, values, options);
  if (errs.length > 0) throw new SelectorParseError(aggregateMessage(errs), { fieldErrors: errs });
  return makeRequirement(key, operator, values ?? []);
}

/** @internal A frozen requirement, without validation. */
export function makeRequirement(key: string, operator: LabelOperator, values: readonly string[]): LabelRequirement {
  return Object.freeze({ key, operator, values: Object.freeze([...values]) });
}

/**
 * The text of one requirement as the apiserver prints it (`Requirement.String`): `!key`, `key`,
 * `key=v`, `key==v`, `key!=v`, `key>v`, `key<v`, `key in (a,b)`, `key notin (a,b)`; several values
 * are printed sorted, `in ()` stands for the single empty value.
 */
export function formatLabelRequirement(r: LabelRequirement): string {
  let s = r.operator === '!' ? `!${r.key}` : r.key;
  switch (r.operator) {
    case '=': s += '='; break;
    case '==': s += '=='; break;
    case '!=': s += '!='; break;
    case 'in': s += ' in '; break;
    case 'notin': s += ' notin '; break;
    case 'gt': s += '>'; break;
    case 'lt': s += '<'; break;
    case 'exists':
    case '!':
      return s;
  }
  const set = r.operator === 'in' || r.operator === 'notin';
  if (set) s += '(';
  if (r.values.length === 1) s += r.values[0];
  else s += (goStringsAreSorted(r.values) ? r.values : sortGoStrings([...r.values])).join(',');
  if (set) s += ')';
  return s;
}
