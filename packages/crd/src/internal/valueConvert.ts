/**
 * apiextensions-apiserver's `kubeOpenAPIResultToFieldErrors`: how kube-openapi errors become the
 * field errors the apiserver returns.
 */
import { FieldError, FieldPath, invalid, notSupported, required, tooLong, typeInvalid } from '@kubekit/core';
import type { FieldPathLike } from '@kubekit/core';
import { goJSON } from '@kubekit/core';
import { Code } from './valueValidator.js';
import type { ValidationError } from './valueValidator.js';

/** Go's `field.Path` of the base: `undefined` for nil (what the apiserver passes for custom resources). */
export function basePath(fieldPath: FieldPathLike): FieldPath | undefined {
  if (typeof fieldPath !== 'string') return fieldPath;
  return fieldPath === '' ? undefined : FieldPath.root(fieldPath);
}

/** The text of `base.Child(name)` in Go: `<nil>` for a nil base without a name. */
export function pathText(base: FieldPath | undefined, name?: string): string {
  if (name === undefined || name === '') return base === undefined ? '<nil>' : base.toString();
  return base === undefined ? name : base.child(name).toString();
}

/** `kubeOpenAPIResultToFieldErrors`: one kube-openapi error as the apiserver reports it. */
export function toFieldError(base: FieldPath | undefined, e: ValidationError): FieldError {
  if (e.code === Code.Plain) return invalid(pathText(base), '', e.message);
  const name = e.name.length > 0 && e.name !== '.' ? (e.name.startsWith('.') ? e.name.slice(1) : e.name) : undefined;
  const path = pathText(base, name);
  const value = e.value === undefined ? '' : e.value;
  switch (e.code) {
    case Code.RequiredFail:
      return required(path, '');
    case Code.EnumFail:
      return notSupported(path, e.value ?? null, (e.values ?? []).map((v) => (typeof v === 'string' ? v : goJSON(v))));
    case Code.TooLongFail:
      return tooLong(path, '', e.valid ?? -1);
    case Code.MaxItemsFail:
    case Code.TooManyProperties: {
      const max = e.valid ?? -1;
      const detail = max >= 0 ? `must have at most ${max} ${max === 1 ? 'item' : 'items'}` : 'has too many items';
      return new FieldError('FieldValueTooMany', path, e.value, detail);
    }
    case Code.InvalidType:
      return typeInvalid(path, value, e.message);
    default:
      return invalid(path, value, e.message);
  }
}

