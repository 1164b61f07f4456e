import { goFormatFloat, goJSON, goQuote, goSprint } from './internal/goFormat.js';

/**
 * The error types of `k8s.io/apimachinery/pkg/util/validation/field`, by their wire names (the
 * `reason` of a `Status` cause).
 */
export type FieldErrorType =
  | 'FieldValueNotFound'
  | 'FieldValueRequired'
  | 'FieldValueDuplicate'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'FieldValueTooFew'
  | 'FieldValueTooShort'
  | 'InternalError'
  | 'FieldValueTypeInvalid';

const typeText: Record<FieldErrorType, string> = {
  FieldValueNotFound: 'Not found',
  FieldValueRequired: 'Required value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  FieldValueTooFew: 'Too few',
  FieldValueTooShort: 'Too short',
  InternalError: 'Internal error',
  FieldValueTypeInvalid: 'Invalid value',
};

/** Marks a `FieldError` whose bad value is not printed (Go's `omitValue`). */
export const omitValue: unique symbol = Symbol.for('kubekit.omitValue');

/**
 * A field path, printed as the apiserver prints them: `spec.versions[0].schema`, `metadata.labels[app]`.
 *
 * @example
 * ```ts
 * const p = FieldPath.root('spec').child('versions').index(0).child('name');
 * p.toString(); // 'spec.versions[0].name'
 * ```
 */
export class FieldPath {
  private constructor(
    private readonly parent: FieldPath | undefined,
    private readonly name: string,
    private readonly kind: 'root' | 'child' | 'index' | 'key',
  ) {}

  /** A path starting at `name` (which may itself contain dots, as `openAPIV3Schema` or `spec.names`). */
  static root(...names: string[]): FieldPath {
    let p = new FieldPath(undefined, names[0] ?? '', 'root');
    for (const n of names.slice(1)) p = p.child(n);
    return p;
  }

  /**
   * The path Go's `field.NewPath("")` makes: neither name nor index, printed `[]`. The apiserver reports errors
   * about a whole object there (`[]: Forbidden: static pods cannot be resized`).
   */
  static empty(): FieldPath {
    return new FieldPath(undefined, '', 'index');
  }

  /** The path of a named field below this one. */
  child(...names: string[]): FieldPath {
    let p: FieldPath = this;
    for (const n of names) p = new FieldPath(p, n, 'child');
    return p;
  }

  /** The path of an element of a list: `[3]`. */
  index(i: number): FieldPath {
    return new FieldPath(this, String(i), 'index');
  }

  /** The path of an entry of a map: `[key]`. */
  key(k: string): FieldPath {
    return new FieldPath(this, k, 'key');
  }

  /** The root segment of the path. */
  rootName(): string {
    let p: FieldPath = this;
    while (p.parent) p = p.parent;
    return p.name;
  }

  toString(): string {
    const parts: FieldPath[] = [];
    for (let p: FieldPath | undefined = this; p; p = p.parent) parts.push(p);
    let out = '';
    for (let i = parts.length - 1; i >= 0; i--) {
      const p = parts[i];
      if (p.kind === 'index' || p.kind === 'key') out += `[${p.name}]`;
      else if (out === '') out = p.name;
      else out += `.${p.name}`;
    }
    return out;
  }
}

/** A field path given as text or as a {@link FieldPath}. */
export type FieldPathLike = string | FieldPath;

/**
 * One field-level validation problem, with the apiserver's `type`, `field`, `badValue` and `detail`.
 * `toString()` prints it exactly as the apiserver does: `spec.x: Invalid value: "y": detail`.
 */
export class FieldError {
  readonly type: FieldErrorType;
  readonly field: string;
  readonly badValue: unknown;
  readonly detail: string;
  /**
   * How the bad value is printed, when Go prints it otherwise than its JSON shape suggests: a named
   * string type or a Go struct goes through `json.Marshal` (`Invalid value: "In"`, `{"Name":"v1",…}`).
   */
  readonly badValueText: string | undefined;

  constructor(type: FieldErrorType, field: FieldPathLike, badValue: unknown, detail = '', badValueText?: string) {
    this.type = type;
    this.field = String(field);
    this.badValue = badValue;
    this.detail = detail;
    this.badValueText = badValueText;
  }

  /** The message without the field path (Go's `ErrorBody()`), as used in `Status` causes. */
  body(): string {
    let s = typeText[this.type];
    const omitted = this.type === 'FieldValueRequired' || this.type === 'FieldValueForbidden' ||
      this.type === 'FieldValueTooLong' || this.type === 'FieldValueTooShort' || this.type === 'InternalError' ||
      this.badValue === omitValue;
    if (!omitted) s += `: ${this.badValueText ?? formatBadValue(this.badValue)}`;
    if (this.detail.length > 0) s += `: ${this.detail}`;
    return s;
  }

  /** The apiserver's text: `<field>: <body>`. */
  toString(): string {
    return `${this.field}: ${this.body()}`;
  }

  /** A copy of this error with the field path prefixed, for errors computed relative to a sub-tree. */
  withPrefix(prefix: string): FieldError {
    const field = this.field === '' ? prefix : this.field.startsWith('[') ? prefix + this.field : `${prefix}.${this.field}`;
    return new FieldError(this.type, field, this.badValue, this.detail, this.badValueText);
  }

  /** The error as JSON: its fields and its text. */
  toJSON(): { type: FieldErrorType; field: string; badValue: unknown; detail: string; message: string } {
    const badValue = this.badValue === omitValue ? undefined : this.badValue;
    return { type: this.type, field: this.field, badValue, detail: this.detail, message: this.toString() };
  }
}

// Simple values print with %v (strings %q); anything else as Go's json.Marshal, as current apimachinery does.
function formatBadValue(value: unknown): string {
  switch (typeof value) {
    case 'string': return goQuote(value);
    case 'number': return Number.isInteger(value) ? goSprint(value) : goFormatFloat(value);
    case 'bigint':
    case 'boolean': return goSprint(value);
    default: return goJSON(value);
  }
}

/** `field.Invalid`: the value is not valid. */
export function invalid(field: FieldPathLike, value: unknown, detail: string): FieldError {
  return new FieldError('FieldValueInvalid', field, value, detail);
}

/** `field.Required`: a required value is missing. */
export function required(field: FieldPathLike, detail = ''): FieldError {
  return new FieldError('FieldValueRequired', field, '', detail);
}

/** `field.Forbidden`: the field may not be set, or not to this. */
export function forbidden(field: FieldPathLike, detail: string): FieldError {
  return new FieldError('FieldValueForbidden', field, '', detail);
}

/** `field.Duplicate`: the value appears twice where it must be unique. */
export function duplicate(field: FieldPathLike, value: unknown): FieldError {
  return new FieldError('FieldValueDuplicate', field, value, '');
}

/** `field.NotFound`: a referenced value does not exist. */
export function notFound(field: FieldPathLike, value: unknown): FieldError {
  return new FieldError('FieldValueNotFound', field, value, '');
}

/** `field.NotSupported`: the value is not one of the supported ones (listed in the detail). */
export function notSupported(field: FieldPathLike, value: unknown, validValues: readonly unknown[]): FieldError {
  const detail = validValues.length > 0 ? `supported values: ${validValues.map((v) => goQuote(goSprint(v))).join(', ')}` : '';
  return new FieldError('FieldValueNotSupported', field, value, detail);
}

/** `field.TooMany`: a list has more items than allowed. */
export function tooMany(field: FieldPathLike, actual: number, max: number): FieldError {
  const detail = max >= 0 ? `must have at most ${max} ${max === 1 ? 'item' : 'items'}` : 'has too many items';
  return new FieldError('FieldValueTooMany', field, actual >= 0 ? actual : omitValue, detail);
}

/** `field.TooLong`: a value is longer than allowed. */
export function tooLong(field: FieldPathLike, value: unknown, maxLength: number): FieldError {
  const detail = maxLength >= 0 ? `may not be more than ${maxLength} ${maxLength === 1 ? 'byte' : 'bytes'}` : 'value is too long';
  return new FieldError('FieldValueTooLong', field, value, detail);
}

/** `field.TooLongCharacters`: a string is longer than allowed, counted in characters. */
export function tooLongCharacters(field: FieldPathLike, maxLength: number): FieldError {
  const detail = maxLength >= 0 ? `may not be more than ${maxLength} ${maxLength === 1 ? 'character' : 'characters'}` : 'value is too long';
  return new FieldError('FieldValueTooLong', field, omitValue, detail);
}

/** `field.TooShort`: a string is shorter than allowed, counted in characters. */
export function tooShort(field: FieldPathLike, value: unknown, minLength: number): FieldError {
  const detail = minLength >= 0 ? `must be at least ${minLength} ${minLength === 1 ? 'character' : 'characters'}` : 'value is too short';
  return new FieldError('FieldValueTooShort', field, value, detail);
}

/** `field.InternalError`: something went wrong that is not the caller's fault. */
export function internalError(field: FieldPathLike, err: unknown): FieldError {
  return new FieldError('InternalError', field, omitValue, err instanceof Error ? err.message : String(err));
}

/** `field.TypeInvalid`: the value is of the wrong type. */
export function typeInvalid(field: FieldPathLike, value: unknown, detail: string): FieldError {
  return new FieldError('FieldValueTypeInvalid', field, value, detail);
}

/**
 * The text of an error list as the apiserver aggregates it (`utilerrors.NewAggregate`): one message
 * alone, several de-duplicated and joined as `[a, b]`.
 */
export function aggregateMessage(errors: readonly { toString(): string }[]): string {
  if (errors.length === 0) return '';
  if (errors.length === 1) return errors[0].toString();
  const seen = new Set<string>();
  for (const e of errors) seen.add(e.toString());
  const joined = [...seen].join(', ');
  return seen.size === 1 ? joined : `[${joined}]`;
}
