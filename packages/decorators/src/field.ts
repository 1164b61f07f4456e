import type { JSONSchemaProps, JSONSchemaType, JSONValue, ValidationRule } from '@kubekit/crd';
import { propertyDecorator } from './internal/decorate.js';
import { mergeOptions } from './internal/metadata.js';
import type { ClassRef, PropertyDecoratorFunction, TypeThunk } from './types.js';

/**
 * The JSONSchemaProps keywords a field may carry, under their own names (the structural-schema subset:
 * `$ref`, `definitions`, `dependencies`, `patternProperties`, `id` and `additionalItems` are forbidden
 * in CRDs and therefore absent). Nested schemas (`items`, `properties`, `additionalProperties`) are
 * {@link FieldOptions} themselves or thunks naming a decorated class.
 */
export interface SchemaKeywords {
  /** The field's documentation, shown by `kubectl explain`. @defaultValue none */
  description?: string;
  title?: string;
  format?: string;
  /** Whether `null` is a valid value (it is kept instead of pruned). @defaultValue false */
  nullable?: boolean;
  example?: JSONValue;
  externalDocs?: { description?: string; url?: string };
  maximum?: number;
  exclusiveMaximum?: boolean;
  minimum?: number;
  exclusiveMinimum?: boolean;
  multipleOf?: number;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  maxItems?: number;
  minItems?: number;
  maxProperties?: number;
  minProperties?: number;
  /** The schema of list items: options, or a thunk naming a decorated class. */
  items?: FieldOptions | (() => ClassRef);
  /** Inline properties of an object field (prefer a decorated class with `@Field(() => X)`). */
  properties?: Record<string, FieldOptions>;
  /** The schema of map values (`type: object` maps), or `true` for any values. */
  additionalProperties?: FieldOptions | (() => ClassRef) | boolean;
  /** Value validations; they may not carry structure (type, default, …), as structural schemas require. */
  allOf?: JSONSchemaProps[];
  anyOf?: JSONSchemaProps[];
  oneOf?: JSONSchemaProps[];
  not?: JSONSchemaProps;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: 'granular' | 'atomic';
  'x-kubernetes-validations'?: ValidationRule[];
  /**
   * Whether the property is listed in its parent object's `required`. TC39 decorators cannot see the
   * `!`/`?` of a declaration, so properties are optional unless marked (here or with `@Required()`),
   * which is also the Kubernetes API convention.
   * @defaultValue false
   */
  required?: boolean;
}

/** Options of a string field. */
export interface StringFieldOptions extends SchemaKeywords {
  type: 'string';
  default?: string | null;
  enum?: readonly (string | null)[];
}

/** Options of an integer field (`format: int32 | int64`). */
export interface IntegerFieldOptions extends SchemaKeywords {
  type: 'integer';
  default?: number | bigint | null;
  enum?: readonly (number | bigint | null)[];
}

/** Options of a number field (`format: float | double`). */
export interface NumberFieldOptions extends SchemaKeywords {
  type: 'number';
  default?: number | null;
  enum?: readonly (number | null)[];
}

/** Options of a boolean field. */
export interface BooleanFieldOptions extends SchemaKeywords {
  type: 'boolean';
  default?: boolean | null;
  enum?: readonly (boolean | null)[];
}

/** Options of a list field. */
export interface ArrayFieldOptions extends SchemaKeywords {
  type: 'array';
  default?: JSONValue[] | null;
  enum?: readonly (JSONValue[] | null)[];
}

/** Options of an object or map field. */
export interface ObjectFieldOptions extends SchemaKeywords {
  type: 'object';
  default?: { [key: string]: JSONValue } | null;
  enum?: readonly ({ [key: string]: JSONValue } | null)[];
}

/**
 * Options without a `type`: it is inferred from `enum` or `default` (strings → `string`, integral
 * numbers → `integer`, other numbers → `number`, booleans → `boolean`), from `items` (`array`), from
 * `properties`/`additionalProperties` (`object`), or from string-only keywords (`pattern`, `minLength`,
 * `maxLength`, `format` other than a number format → `string`). Left without a type (allowed only with
 * `x-kubernetes-int-or-string` or `x-kubernetes-preserve-unknown-fields`), the apiserver's structural
 * schema check reports it.
 */
export interface UntypedFieldOptions extends SchemaKeywords {
  type?: undefined;
  default?: JSONValue;
  enum?: readonly JSONValue[];
}

/** The options of `@Field`: a JSONSchemaProps node, typed by its `type`. */
export type FieldOptions =
  | StringFieldOptions
  | IntegerFieldOptions
  | NumberFieldOptions
  | BooleanFieldOptions
  | ArrayFieldOptions
  | ObjectFieldOptions
  | UntypedFieldOptions;

/** The TypeScript type a property must have for a schema `type`. */
export type ValueOfSchemaType<TType extends JSONSchemaType | undefined> = TType extends 'string'
  ? string
  : TType extends 'integer'
    ? number | bigint
    : TType extends 'number'
      ? number
      : TType extends 'boolean'
        ? boolean
        : TType extends 'array'
          ? readonly unknown[]
          : TType extends 'object'
            ? object
            : unknown;

/** The TypeScript type a property must have for its `@Field` options. */
export type ValueOfFieldOptions<TOptions> = TOptions extends { type: infer TType extends JSONSchemaType }
  ? ValueOfSchemaType<TType> | null | undefined
  : unknown;

/**
 * Declares a property as a field of the schema.
 *
 * - `@Field({ type: 'integer', minimum: 1, maximum: 10, default: 1 })`: a JSONSchemaProps node with the
 *   keywords under their own names, `type` inferred when omitted (see {@link UntypedFieldOptions});
 * - `@Field('string')`: shorthand for `@Field({ type: 'string' })`, options may follow;
 * - `@Field(() => ShirtSpec)`: an object whose schema is the decorated class `ShirtSpec`;
 * - `@Field(() => [Container])`: a list of such objects; maps of classes are
 *   `@Field({ type: 'object', additionalProperties: () => Value })`.
 *
 * The compiler checks the property's declared type against `type` (and against the class of a thunk);
 * the apiserver's rules check the rest when {@link customResourceDefinition} builds the CRD — a
 * `default` that does not validate against its field, for instance, is reported with the apiserver's
 * own message.
 *
 * @example
 * ```ts
 * class CronTabSpec {
 *   @Field({ type: 'string', pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$', default: '5 0 * * *' })
 *   cronSpec?: string;
 *   @Field({ type: 'integer', minimum: 1, maximum: 10, default: 1 }) replicas?: number;
 * }
 * ```
 */
export function Field<const TOptions extends FieldOptions>(options?: TOptions): PropertyDecoratorFunction<ValueOfFieldOptions<TOptions>>;
export function Field<const TType extends JSONSchemaType>(
  type: TType,
  options?: Omit<Extract<FieldOptions, { type: TType }>, 'type'>,
): PropertyDecoratorFunction<ValueOfSchemaType<TType> | null | undefined>;
export function Field<TItem>(type: () => ClassRef<TItem>[], options?: SchemaKeywords): PropertyDecoratorFunction<readonly TItem[] | null | undefined>;
export function Field<TInstance>(type: () => ClassRef<TInstance>, options?: SchemaKeywords): PropertyDecoratorFunction<TInstance | null | undefined>;
export function Field(
  typeOrOptions?: FieldOptions | JSONSchemaType | TypeThunk,
  options?: FieldOptions | SchemaKeywords,
): PropertyDecoratorFunction {
  return propertyDecorator('@Field', (property) => {
    if (typeof typeOrOptions === 'function') {
      property.type = typeOrOptions;
      mergeOptions(property, options);
    } else if (typeof typeOrOptions === 'string') {
      mergeOptions(property, { ...options, type: typeOrOptions } as FieldOptions);
    } else {
      mergeOptions(property, typeOrOptions);
    }
  });
}
