/**
 * `@kubekit/decorators`: declare a custom resource once, as decorated TypeScript classes, and get the
 * CustomResourceDefinition the apiserver accepts — checked with the apiserver's own rules before it
 * ever reaches a cluster.
 *
 * Start with {@link CustomResource} and {@link Field}, then {@link customResourceDefinition} and
 * {@link toYAML}. Option names are the CRD's own field names. Both TC39 standard decorators and legacy
 * `experimentalDecorators` are supported. Importing this package defines `Symbol.metadata` (as
 * `Symbol.for('Symbol.metadata')`) when the runtime lacks it, which TC39 decorators compiled by
 * TypeScript need; import it before defining decorated classes (any import of a decorator does).
 *
 * @example
 * ```ts
 * @CustomResource({ group: 'stable.example.com', version: 'v1', kind: 'Shirt' })
 * class Shirt {
 *   @Field(() => ShirtSpec) spec?: ShirtSpec;
 * }
 * class ShirtSpec {
 *   @Selectable() @PrinterColumn() @Field('string') color?: Selectable<string>;
 *   @Selectable() @PrinterColumn() @Field('string') size?: Selectable<string>;
 * }
 * process.stdout.write(toYAML(customResourceDefinition(Shirt)));
 * ```
 *
 * @packageDocumentation
 */

export { CustomResource } from './customResource.js';
export { CustomResourceDeclarationError, customResourceDefinition, customResourceDefinitions } from './customResourceDefinition.js';
export { CustomResourceObject, customResourceInfo, isCustomResource } from './customResourceObject.js';
export { Field } from './field.js';
export { fieldSelector } from './fieldSelector.js';
export { HubAndSpokeConversion, hubAndSpokeConversion } from './hubAndSpokeConversion.js';
export { PrinterColumn } from './printerColumn.js';
export {
  Description,
  EmbeddedResource,
  IntOrString,
  ListType,
  MapType,
  Optional,
  PreserveUnknownFields,
  Required,
} from './schemaMarkers.js';
export { Selectable } from './selectable.js';
export { toYAML } from './toYAML.js';
export { Validation } from './validation.js';

export type { CustomResourceOptions } from './customResource.js';
export type { CustomResourceDefinitionOptions } from './customResourceDefinition.js';
export type { CustomResourceInfo, ResourceOf } from './customResourceObject.js';
export type {
  ArrayFieldOptions,
  BooleanFieldOptions,
  FieldOptions,
  IntegerFieldOptions,
  NumberFieldOptions,
  ObjectFieldOptions,
  SchemaKeywords,
  StringFieldOptions,
  UntypedFieldOptions,
  ValueOfFieldOptions,
  ValueOfSchemaType,
} from './field.js';
export type { ConvertedObject, SpokeConversion } from './hubAndSpokeConversion.js';
export type { FieldRequirement, FieldSelectorSet, SelectableFieldPath, SelectorValue } from './fieldSelector.js';
export type { ClassPrinterColumnOptions, PrinterColumnOptions } from './printerColumn.js';
export type { SelectableFieldOptions, SelectableValue } from './selectable.js';
export type { DescriptionLookup } from './internal/schemaBuilder.js';
export type { ClassDecoratorFunction, ClassOrPropertyDecoratorFunction, ClassRef, PropertyDecoratorFunction, TypeThunk } from './types.js';
