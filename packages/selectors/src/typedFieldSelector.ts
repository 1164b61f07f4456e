import {
  FieldSelector, andFieldSelectors, everythingFieldSelector, fieldSelectorFromSet, oneTermEqualFieldSelector,
  oneTermNotEqualFieldSelector, parseFieldSelector,
} from './fieldSelector.js';
import { SelectorParseError } from './selectorParseError.js';

/**
 * The key under which a resource type declares its field labels for the compiler: a class (or
 * interface) with `declare readonly [fieldLabels]?: 'spec.color' | 'metadata.name'` can be passed to
 * {@link fieldSelectorFor} and {@link FieldLabelsOf}. `@kubekit/decorators` fills it in from
 * `@Selectable()` properties; it never holds a value at run time.
 */
export const fieldLabels: unique symbol = Symbol.for('kubekit.fieldLabels');

/** A type that declares its field labels under {@link fieldLabels}. */
export interface WithFieldLabels<TFields extends string> {
  readonly [fieldLabels]?: TFields;
}

/**
 * The field labels of `T`: `T` itself when it is a union of strings, or what `T` declares under
 * {@link fieldLabels}; `never` otherwise (so that nothing type-checks against an undeclared resource).
 */
export type FieldLabelsOf<T> = [T] extends [string]
  ? T
  : T extends { readonly [fieldLabels]?: infer TFields extends string } ? TFields : never;

type FieldOperator = '!=' | '==' | '=';

/** Replaces each escaped character (`\,`, `\=`, `\\`) by two neutral ones, so it cannot split terms. */
type MaskEscapes<TText extends string> = TText extends `${infer THead}\\${infer _TEscaped}${infer TRest}`
  ? `${THead}__${MaskEscapes<TRest>}`
  : TText;

type SplitTerms<TText extends string> = TText extends `${infer THead},${infer TRest}` ? THead | SplitTerms<TRest> : TText;

type BadTerm<TTerm extends string, TFields extends string> = TTerm extends ''
  ? never
  : TTerm extends `${TFields}${FieldOperator}${string}` ? never : TTerm;

/**
 * The terms of a literal field selector text whose field label is not one of `TFields` or that have
 * no operator; `never` when every term is fine.
 */
export type UnknownFieldTerms<TText extends string, TFields extends string> = BadTerm<SplitTerms<MaskEscapes<TText>>, TFields>;

/**
 * `TText` when it is a field selector over `TFields` only (or not a literal, which cannot be checked
 * before run time), else a message naming the offending terms, which the compiler then shows as the
 * expected parameter type.
 */
export type FieldSelectorText<TText extends string, TFields extends string> = string extends TText
  ? TText
  : [UnknownFieldTerms<TText, TFields>] extends [never]
    ? TText
    : `unknown field label or no operator in '${UnknownFieldTerms<TText, TFields>}'`;

/**
 * Field selector builders whose field labels the compiler checks against `TFields` (see
 * {@link fieldSelectorFor}).
 */
export interface TypedFieldSelectors<TFields extends string> {
  /** The field labels given at run time, if any (then also checked at run time). */
  readonly fields: readonly TFields[] | undefined;
  /**
   * Parses `text` as {@link parseFieldSelector} does; a literal text is checked by the compiler, any
   * text is checked at run time when the field labels were given.
   */
  parse<const TText extends string>(text: FieldSelectorText<TText, TFields>): FieldSelector<TFields>;
  /** A selector matching exactly these field values ({@link fieldSelectorFromSet}). */
  fromSet(set: { readonly [K in TFields]?: string }): FieldSelector<TFields>;
  /** `field=value`. */
  equal(field: TFields, value: string): FieldSelector<TFields>;
  /** `field!=value`. */
  notEqual(field: TFields, value: string): FieldSelector<TFields>;
  /** All of `selectors` ({@link andFieldSelectors}). */
  and(...selectors: readonly FieldSelector<TFields>[]): FieldSelector<TFields>;
  /** The empty selector. */
  everything(): FieldSelector<TFields>;
  /**
   * An untyped selector as one over `TFields`, after checking at run time that it mentions only those
   * labels (needs the labels given to {@link fieldSelectorFor}).
   *
   * @throws {@link SelectorParseError} `field label not supported: <label>` for another label.
   */
  narrow(selector: FieldSelector): FieldSelector<TFields>;
}

/**
 * Builders for field selectors over a resource's declared selectable fields, so that a misspelt
 * field label is a compile error rather than a 400 from the server. Give the labels as a type
 * argument (a union of strings, or a resource type declaring {@link fieldLabels}) or as an array,
 * from which they are inferred and which also enables run-time checks.
 *
 * @example
 * ```ts
 * const shirts = fieldSelectorFor(['metadata.name', 'metadata.namespace', 'spec.color', 'spec.size']);
 * shirts.parse('spec.color=blue,spec.size!=XL');
 * shirts.fromSet({ 'spec.color': 'blue' });
 * // shirts.parse('spec.colour=blue'); // compile error: unknown field label or no operator in 'spec.colour=blue'
 * ```
 */
export function fieldSelectorFor<const TFields extends string>(fields?: readonly TFields[]): TypedFieldSelectors<FieldLabelsOf<TFields>>;
export function fieldSelectorFor<TResource>(): TypedFieldSelectors<FieldLabelsOf<TResource>>;
export function fieldSelectorFor(fields?: readonly string[]): TypedFieldSelectors<string> {
  const allowed = fields === undefined ? undefined : new Set(fields);
  const narrow = (selector: FieldSelector): FieldSelector => {
    if (allowed !== undefined) {
      for (const r of selector.requirements()) {
        if (!allowed.has(r.field)) throw new SelectorParseError(`field label not supported: ${r.field}`);
      }
    }
    return selector;
  };
  return {
    fields: fields === undefined ? undefined : Object.freeze([...fields]),
    parse: (text: string) => narrow(parseFieldSelector(text)),
    fromSet: (set) => narrow(fieldSelectorFromSet(set)),
    equal: (field, value) => narrow(oneTermEqualFieldSelector(field, value)),
    notEqual: (field, value) => narrow(oneTermNotEqualFieldSelector(field, value)),
    and: (...selectors) => andFieldSelectors(...selectors),
    everything: () => everythingFieldSelector(),
    narrow,
  };
}

/**
 * A selector matching exactly the given field values, with the field labels checked by the compiler
 * against `TFields`.
 *
 * @example
 * ```ts
 * typedFieldSelector<'spec.color' | 'metadata.name'>({ 'spec.color': 'blue' }).toString(); // 'spec.color=blue'
 * ```
 */
export function typedFieldSelector<TFields extends string>(set: { readonly [K in TFields]?: string }): FieldSelector<TFields> {
  return fieldSelectorFromSet<TFields>(set);
}
