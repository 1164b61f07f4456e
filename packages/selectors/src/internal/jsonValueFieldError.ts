import { FieldError, type FieldPathLike } from '@kubekit/core';
import { goJSONString, goJSONStrings } from './goJson.js';

type JSONValueErrorType = 'FieldValueInvalid' | 'FieldValueNotSupported';

const typeText: Record<JSONValueErrorType, string> = {
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
};

/**
 * A {@link FieldError} whose bad value the apiserver prints with `json.Marshal`: Go's field errors
 * print only plain `string`s with `%q`; a `[]string` of requirement values or a
 * `selection.Operator` (a named string type) goes through JSON, so `values: Invalid value:
 * ["bar","foo"]: ...` and `values: Invalid value: null: ...` for a nil slice.
 */
export class JSONValueFieldError extends FieldError {
  declare readonly type: JSONValueErrorType;
  declare readonly badValue: readonly string[] | string | null;

  constructor(type: JSONValueErrorType, field: FieldPathLike, badValue: readonly string[] | string | null, detail: string) {
    super(type, field, badValue, detail);
  }

  override body(): string {
    const v = this.badValue;
    let s = `${typeText[this.type]}: ${typeof v === 'string' ? goJSONString(v) : goJSONStrings(v)}`;
    if (this.detail.length > 0) s += `: ${this.detail}`;
    return s;
  }

  override withPrefix(prefix: string): FieldError {
    const field = this.field === '' ? prefix : this.field.startsWith('[') ? prefix + this.field : `${prefix}.${this.field}`;
    return new JSONValueFieldError(this.type, field, this.badValue, this.detail);
  }
}
