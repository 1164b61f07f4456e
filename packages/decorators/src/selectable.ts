import { classOrPropertyDecorator, prepend } from './internal/decorate.js';
import type { ClassDecoratorFunction, PropertyDecoratorFunction } from './types.js';

/** A scalar value a selectable field may hold: the apiserver accepts string, integer and boolean fields. */
export type SelectableValue = string | number | bigint | boolean;

/** The phantom key of {@link Selectable} types; it exists only for the compiler. */
export declare const selectableBrand: unique symbol;

/**
 * Marks a property's type as selectable, for the compiler: `color?: Selectable<string>` reads and
 * writes as a `string`, and makes `'spec.color'` a key `fieldSelector` accepts. Use it together
 * with the `@Selectable()` decorator, which declares the field to the apiserver.
 */
export type Selectable<T extends SelectableValue> = T & { readonly [selectableBrand]?: T };

/** The options of a class-level `@Selectable`, which names the field by `jsonPath`. */
export interface SelectableFieldOptions {
  /** A simple path (`.spec.color`) to a string, integer or boolean field. */
  jsonPath: string;
}

/**
 * Declares a field selectable with field selectors (KEP-4358 `selectableFields`).
 *
 * On a property, the `jsonPath` is where the property sits in the resource (`.spec.color`, at any depth);
 * the compiler rejects it on a property whose type is not a scalar. On a class, `@Selectable({ jsonPath })`
 * adds any path. The apiserver's rules apply when the CRD is built: a string, integer or boolean field
 * (enums and formats allowed), not in `metadata`, no duplicates, at most 8 per version.
 *
 * To let the compiler check field selectors too, declare the property as {@link Selectable}`<string>`
 * (see {@link fieldSelector}).
 *
 * @example
 * ```ts
 * class ShirtSpec {
 *   @Selectable() @PrinterColumn() @Field({ type: 'string' }) color?: Selectable<string>;
 * }
 * ```
 */
export function Selectable(): PropertyDecoratorFunction<SelectableValue | null | undefined>;
export function Selectable(options: SelectableFieldOptions): ClassDecoratorFunction;
export function Selectable(options?: SelectableFieldOptions): PropertyDecoratorFunction<SelectableValue | null | undefined> & ClassDecoratorFunction {
  return classOrPropertyDecorator<SelectableValue | null | undefined>(
    '@Selectable',
    (record) => {
      if (options === undefined || typeof options.jsonPath !== 'string') {
        throw new TypeError(`@Selectable on class ${record.className} needs a jsonPath: @Selectable({ jsonPath: '.spec.x' })`);
      }
      prepend(record.selectableFields, { jsonPath: options.jsonPath });
    },
    (property) => {
      property.selectable = true;
    },
  );
}
