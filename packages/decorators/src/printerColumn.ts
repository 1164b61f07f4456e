import type { CustomResourceColumnDefinition, PrinterColumnType } from '@kubekit/crd';
import { classOrPropertyDecorator, prepend } from './internal/decorate.js';
import type { ClassOrPropertyDecoratorFunction } from './types.js';

/**
 * Options of `@PrinterColumn`, named as in `additionalPrinterColumns[]`. On a property every option is
 * optional: `jsonPath` is where the property sits (`.spec.color`), `name` is the property name with its
 * first letter upper-cased, `type` follows the field's schema (`integer`, `number`, `boolean`, `date`
 * for `format: date-time` strings, `string` otherwise). On a class, `name`, `type` and `jsonPath` are
 * required.
 */
export interface PrinterColumnOptions {
  /** The column header. @defaultValue the property name, first letter upper-cased */
  name?: string;
  /** How kubectl renders the value. @defaultValue inferred from the field's schema */
  type?: PrinterColumnType;
  /** A display hint (`int32`, `int64`, `float`, `double`, `byte`, `date`, `date-time`, `password`). @defaultValue none */
  format?: CustomResourceColumnDefinition['format'];
  /** A human-readable description of the column. @defaultValue none */
  description?: string;
  /** 0 shows the column in standard view, more only with `-o wide`. @defaultValue 0 (omitted) */
  priority?: number;
  /** A JSONPath into the object. @defaultValue the property's path (required on a class) */
  jsonPath?: string;
}

/** The options of a class-level `@PrinterColumn`, which names its value by `jsonPath`. */
export interface ClassPrinterColumnOptions extends PrinterColumnOptions {
  name: string;
  type: PrinterColumnType;
  jsonPath: string;
}

/**
 * Adds a column to `kubectl get` (`additionalPrinterColumns`): on a property for that property, on a
 * class for any `jsonPath` (`.metadata.creationTimestamp` for an `Age` column). Columns appear in the
 * order of the schema's properties (depth first), then the class-level ones in source order.
 *
 * @example
 * ```ts
 * @PrinterColumn({ name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' })
 * @CustomResource({ group: 'stable.example.com', version: 'v1', kind: 'CronTab' })
 * class CronTab { @Field(() => CronTabSpec) spec?: CronTabSpec }
 * ```
 */
export function PrinterColumn(options?: PrinterColumnOptions): ClassOrPropertyDecoratorFunction;
export function PrinterColumn(options: ClassPrinterColumnOptions): ClassOrPropertyDecoratorFunction;
export function PrinterColumn(options: PrinterColumnOptions = {}): ClassOrPropertyDecoratorFunction {
  return classOrPropertyDecorator(
    '@PrinterColumn',
    (record) => {
      if (typeof options.jsonPath !== 'string') {
        throw new TypeError(`@PrinterColumn on class ${record.className} needs a jsonPath (and a name and a type)`);
      }
      prepend(record.printerColumns, { ...options, jsonPath: options.jsonPath });
    },
    (property) => prepend(property.printerColumns, { ...options }),
  );
}
