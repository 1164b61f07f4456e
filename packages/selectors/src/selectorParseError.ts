import { KubeError, type FieldError } from '@kubekit/core';

/** Options of a {@link SelectorParseError}. */
export interface SelectorParseErrorOptions {
  /** The field errors the message aggregates, when it comes from requirement validation. @defaultValue none */
  fieldErrors?: readonly FieldError[];
  /** The underlying error. @defaultValue none */
  cause?: unknown;
}

/**
 * A selector that cannot be parsed or built: a `KubeError` with reason `BadRequest` (HTTP 400), as
 * the apiserver answers a list or watch with a bad `fieldSelector` or `labelSelector`. The `message`
 * is exactly the apiserver's text, for example `invalid selector: 'x'; can't understand 'x'`,
 * `invalid field selector: unescaped character in value: 61` or `unable to parse requirement:
 * values[0][x]: Invalid value: "a||y": ...`. Branch on `instanceof` or `reason`, not on the text.
 *
 * @example
 * ```ts
 * try {
 *   parseFieldSelector('spec.color');
 * } catch (err) {
 *   if (err instanceof SelectorParseError) err.code; // 400
 * }
 * ```
 */
export class SelectorParseError extends KubeError {
  override name = 'SelectorParseError';
  /**
   * The field errors behind the message when it is a validation aggregate (a requirement with a bad
   * key, operator or values); empty for syntax errors.
   */
  readonly fieldErrors: readonly FieldError[];

  constructor(message: string, options: SelectorParseErrorOptions = {}) {
    super('BadRequest', message, options.cause === undefined ? {} : { cause: options.cause });
    this.fieldErrors = options.fieldErrors ?? [];
  }
}
