import { escapeFieldValue, unescapeFieldValue } from './escapeFieldValue.js';
import { compareGoStrings, internalize, sortGoStrings } from './internal/goStrings.js';
import { splitTerm, splitTerms } from './internal/fieldSyntax.js';
import { SelectorParseError } from './selectorParseError.js';

/**
 * The fields a {@link FieldSelector} is matched against: a plain record (Go's `fields.Set`) or a
 * getter that computes a field on demand (a lazy field set, so that callers need not build every
 * field of an object to test one). A field that is absent, or whose value is not a string, reads as
 * `""`, as `fields.Set.Get` returns the empty string for a missing key.
 */
export type FieldSet<TFields extends string = string> =
  | { readonly [K in TFields]?: string }
  | ((field: TFields) => string | undefined);

/** One term of a field selector: `field=value` or `field!=value` (`==` reads as `=`). */
export interface FieldRequirement<TFields extends string = string> {
  readonly field: TFields;
  readonly operator: '=' | '!=';
  readonly value: string;
}

/**
 * Maps each term's field and value to new ones (`fields.TransformFunc`), as the apiserver converts
 * field labels of older versions. Returning `['', '']` drops the term; throwing aborts the transform
 * with that error.
 */
export type FieldSelectorTransform<TFields extends string = string, TOut extends string = string> =
  (field: TFields, value: string) => readonly [field: TOut, value: string];

/**
 * @internal One element of Go's selector tree flattened: a term, or a placeholder for a nested empty selector
 * (which prints as an empty string between commas) or for `Nothing()` (which also matches nothing).
 */
export type FieldSelectorItem =
  | { readonly term: true; readonly field: string; readonly value: string; readonly negate: boolean }
  | { readonly term: false; readonly nothing: boolean };

const noFields: Readonly<Record<string, string>> = Object.freeze({});
const blank: FieldSelectorItem = { term: false, nothing: false };
const nothingItem: FieldSelectorItem = { term: false, nothing: true };

/**
 * A parsed field selector (`k8s.io/apimachinery/pkg/fields.Selector`): terms `field=value` and
 * `field!=value` that must all hold. Immutable; build one with {@link parseFieldSelector},
 * {@link fieldSelectorFromSet} or the typed builders.
 *
 * Matching is the hot path (informers and the embedded API server test every object against every
 * watcher's selector), so the terms are compiled into flat arrays when the selector is built and
 * `matches` allocates nothing.
 *
 * `TFields` narrows the field labels a selector may mention, for resources whose selectable fields
 * are known at compile time; it defaults to any string.
 *
 * @example
 * ```ts
 * const sel = parseFieldSelector('spec.color=blue,metadata.name!=old');
 * sel.matches({ 'spec.color': 'blue', 'metadata.name': 'new' }); // true
 * sel.requiresExactMatch('spec.color');                           // 'blue'
 * sel.toString();                                                 // 'metadata.name!=old,spec.color=blue'
 * ```
 */
export class FieldSelector<TFields extends string = string> {
  private readonly items: readonly FieldSelectorItem[];
  private readonly keys: string[];
  private readonly values: string[];
  private readonly negate: boolean[];
  private readonly count: number;
  private readonly never: boolean;
  private text: string | undefined;
  private reqs: readonly FieldRequirement<TFields>[] | undefined;

  /** @internal Use the factory functions; the constructor is not part of the public API. */
  constructor(items: readonly FieldSelectorItem[]) {
    this.items = items;
    this.keys = [];
    this.values = [];
    this.negate = [];
    let never = false;
    for (const item of items) {
      if (item.term) {
        this.keys.push(internalize(item.field));
        this.values.push(internalize(item.value));
        this.negate.push(item.negate);
      } else if (item.nothing) {
        never = true;
      }
    }
    this.count = this.keys.length;
    this.never = never;
  }

  /**
   * Whether every term holds for `fields`. A field missing from `fields` reads as `""`, so `f=`
   * and `f!=x` match an object without `f`; `null`/`undefined` is a set without fields.
   */
  matches(fields: FieldSet<TFields> | null | undefined): boolean {
    if (this.never) return false;
    if (fields == null) fields = noFields as FieldSet<TFields>;
    const n = this.count;
    const keys = this.keys;
    const values = this.values;
    const negate = this.negate;
    if (typeof fields === 'function') {
      for (let i = 0; i < n; i++) {
        const v: unknown = fields(keys[i] as TFields);
        if (((typeof v === 'string' ? v : '') === values[i]) === negate[i]) return false;
      }
      return true;
    }
    const record = fields as Readonly<Record<string, unknown>>;
    for (let i = 0; i < n; i++) {
      const v = record[keys[i]];
      if (((typeof v === 'string' ? v : '') === values[i]) === negate[i]) return false;
    }
    return true;
  }

  /** Whether the selector restricts nothing (no terms): it then matches every object. */
  isEmpty(): boolean {
    return this.count === 0 && !this.never;
  }

  /** Whether this is {@link nothingFieldSelector} (or contains it): it then matches no object. */
  matchesNothing(): boolean {
    return this.never;
  }

  /**
   * The canonical text, as the apiserver prints the selector: terms in the order parsing sorted them,
   * `==` printed as `=`, values re-escaped with {@link escapeFieldValue}.
   */
  toString(): string {
    if (this.text === undefined) {
      let s = '';
      this.items.forEach((item, i) => {
        if (i > 0) s += ',';
        if (item.term) s += `${item.field}${item.negate ? '!=' : '='}${escapeFieldValue(item.value)}`;
      });
      this.text = s;
    }
    return this.text;
  }

  /** The terms, in order, with unescaped values. The array and its objects are frozen. */
  requirements(): readonly FieldRequirement<TFields>[] {
    if (this.reqs === undefined) {
      const reqs: FieldRequirement<TFields>[] = [];
      for (let i = 0; i < this.count; i++) {
        reqs.push(Object.freeze({ field: this.keys[i] as TFields, operator: this.negate[i] ? '!=' : '=', value: this.values[i] }));
      }
      this.reqs = Object.freeze(reqs);
    }
    return this.reqs;
  }

  /**
   * The value `field` must equal for the selector to match (the first `field=value` term), or
   * `undefined`. Storage and indexers use it to look objects up by field instead of scanning.
   */
  requiresExactMatch(field: TFields): string | undefined {
    for (let i = 0; i < this.count; i++) {
      if (!this.negate[i] && this.keys[i] === field) return this.values[i];
    }
    return undefined;
  }

  /**
   * A new selector with each term's field and value mapped through `fn` (`Selector.Transform`);
   * terms mapped to `['', '']` are dropped, the order is kept, and an error thrown by `fn`
   * propagates.
   */
  transform<TOut extends string = string>(fn: FieldSelectorTransform<TFields, TOut>): FieldSelector<TOut> {
    const items: FieldSelectorItem[] = [];
    for (const item of this.items) {
      if (item.term) {
        const [field, value] = fn(item.field as TFields, item.value);
        if (field.length !== 0 || value.length !== 0) items.push(term(field, value, item.negate));
      } else if (item.nothing) {
        items.push(item);
      }
    }
    return new FieldSelector<TOut>(items);
  }

  /** @internal The flattened items, for {@link andFieldSelectors}. */
  itemsForAnd(): readonly FieldSelectorItem[] {
    return this.items.length === 0 ? [blank] : this.items;
  }
}

function term(field: string, value: string, negate: boolean): FieldSelectorItem {
  return { term: true, field, value, negate };
}

const everything = new FieldSelector<never>([]);
const nothing = new FieldSelector<never>([nothingItem]);

/** The selector that matches every object (`fields.Everything()`): empty, printed as `""`. */
export function everythingFieldSelector<TFields extends string = string>(): FieldSelector<TFields> {
  return everything;
}

/**
 * The selector that matches no object (`fields.Nothing()`). It is not empty, yet prints as `""`,
 * so it cannot be sent to a server; parsing never produces it.
 */
export function nothingFieldSelector<TFields extends string = string>(): FieldSelector<TFields> {
  return nothing;
}

/**
 * Parses a field selector (`fields.ParseSelector`) with the apiserver's exact rules: terms separated
 * by unescaped commas and sorted (as strings, before parsing); each term split at its first `!=`,
 * `==` or `=`; values unescaped; no trimming; empty terms and terms with an empty field and value
 * ignored. Field names are not checked here: which labels a resource accepts is decided later (see
 * `@kubekit/attrs`). With `transform`, the result goes through {@link FieldSelector.transform}
 * (`fields.ParseAndTransformSelector`).
 *
 * @throws {@link SelectorParseError} with the apiserver's text, e.g. `invalid selector: 'x'; can't
 *   understand 'x'` or `invalid field selector: invalid escape sequence: \a`.
 *
 * @example
 * ```ts
 * parseFieldSelector('spec.color==blue').toString(); // 'spec.color=blue'
 * parseFieldSelector('a=b\\,c').requirements();       // [{ field: 'a', operator: '=', value: 'b,c' }]
 * ```
 */
export function parseFieldSelector(text: string, transform?: FieldSelectorTransform): FieldSelector {
  if (typeof text !== 'string') {
    throw new SelectorParseError(`invalid field selector: expected a string, got ${text === null ? 'null' : typeof text}`);
  }
  const parts = splitTerms(text);
  if (parts === null) return everything;
  parts.sort(compareGoStrings);
  const items: FieldSelectorItem[] = [];
  for (const part of parts) {
    if (part.length === 0) continue;
    const split = splitTerm(part);
    if (split === undefined) throw new SelectorParseError(`invalid selector: '${text}'; can't understand '${part}'`);
    const [field, op, rhs] = split;
    const value = unescapeFieldValue(rhs);
    if (transform !== undefined) {
      items.push(term(field, value, op === '!='));
    } else if (field.length !== 0 || value.length !== 0) {
      // The identity transform Go applies while parsing: drops `=` (empty field and value).
      items.push(term(field, value, op === '!='));
    }
  }
  const selector = new FieldSelector(items);
  return transform === undefined ? selector : selector.transform(transform);
}

/**
 * A selector that matches exactly the given field values (`fields.SelectorFromSet`): one `=` term per
 * entry, in sorted field order; values are taken literally (no unescaping). `null`/`undefined` and
 * `{}` give the empty selector.
 *
 * @example
 * ```ts
 * fieldSelectorFromSet({ 'metadata.name': 'a,b' }).toString(); // 'metadata.name=a\\,b'
 * ```
 */
export function fieldSelectorFromSet<TFields extends string = string>(
  set: { readonly [K in TFields]?: string } | null | undefined,
): FieldSelector<TFields> {
  if (set == null) return everything;
  const record = set as Readonly<Record<string, string | undefined>>;
  const items: FieldSelectorItem[] = [];
  for (const field of sortGoStrings(Object.keys(record))) {
    const value = record[field];
    if (typeof value === 'string') items.push(term(field, value, false));
  }
  return new FieldSelector<TFields>(items);
}

/** A selector with the single term `field=value` (`fields.OneTermEqualSelector`). */
export function oneTermEqualFieldSelector<TFields extends string = string>(field: TFields, value: string): FieldSelector<TFields> {
  return new FieldSelector<TFields>([term(field, value, false)]);
}

/** A selector with the single term `field!=value` (`fields.OneTermNotEqualSelector`). */
export function oneTermNotEqualFieldSelector<TFields extends string = string>(field: TFields, value: string): FieldSelector<TFields> {
  return new FieldSelector<TFields>([term(field, value, true)]);
}

/**
 * The conjunction of selectors (`fields.AndSelectors`), terms in argument order. As in Go, an empty
 * operand still prints as an empty element (`AndSelectors(Everything(), x)` prints `,x`).
 */
export function andFieldSelectors<TFields extends string = string>(...selectors: readonly FieldSelector<TFields>[]): FieldSelector<TFields> {
  const items: FieldSelectorItem[] = [];
  for (const s of selectors) items.push(...s.itemsForAnd());
  return new FieldSelector<TFields>(items);
}

/**
 * A field set printed as `k=v` pairs sorted and joined with commas (`fields.Set.String`); values are
 * not escaped.
 */
export function formatFieldSet(set: Readonly<Record<string, string>>): string {
  return sortGoStrings(Object.keys(set).map((k) => `${k}=${set[k]}`)).join(',');
}
