/**
 * The vocabulary of field sets: what the apiserver's `GetAttrs` computes for field selection, and the
 * {@link ResourceFields} of one resource that the custom-resource and built-in factories produce.
 */

/**
 * A field set: field label → value, as the apiserver's `GetAttrs` returns it (`fields.Set`). Every
 * value is a string; a field the object does not set holds its fallback (`""`, or `"false"`/`"0"`
 * for some built-in fields).
 */
export type FieldSet = Record<string, string>;

/** Computes the whole field set of an object (the eager form of `GetAttrs`). */
export type FieldSetFunc = (object: unknown) => FieldSet;

/**
 * Reads one field of an object's field set, or `undefined` when the field is not in the set (a field
 * selector reads that as `""`, as the apiserver does for a key missing from `fields.Set`).
 */
export type FieldGetter = (field: string) => string | undefined;

/**
 * Binds an object to a {@link FieldGetter} that computes only the fields asked for (KEP-4358's beta
 * criterion: no lookup cost for fields nobody selects on).
 */
export type FieldGetterFunc = (object: unknown) => FieldGetter;

/** Computes one field of the field set from an object; never throws on JSON data. */
export type FieldExtractor = (object: unknown) => string;

/**
 * The selectable fields of one resource: a version of a custom resource, or a built-in kind in one
 * API version. It answers the apiserver's two questions about field selection: which field labels a
 * request may use (`ConvertFieldLabel`), and which values an object offers for them (`GetAttrs`).
 *
 * The two are separate tables upstream and do not always agree: for built-in kinds some accepted
 * labels are absent from the field set (they read as `""`) and some field set keys are not accepted
 * (Namespace's legacy `name`). Objects are read as JSON in the wire form of this API version.
 *
 * Every function is bound, so it can be passed around on its own (`const get = fields.fieldSet`).
 */
export interface ResourceFields {
  /** Whether the resource is namespaced (its field set then holds `metadata.namespace`). */
  readonly namespaced: boolean;
  /** Every field label a field selector may use, in the order the apiserver's conversion lists them. */
  readonly fieldLabels: readonly string[];
  /** Labels the apiserver rewrites before matching, label → field set key (`spec.host` → `spec.nodeName`). */
  readonly labelAliases: Readonly<Record<string, string>>;
  /** The keys of the field set `fieldSet` returns. */
  readonly fieldSetKeys: readonly string[];
  /** The whole field set of an object. */
  readonly fieldSet: FieldSetFunc;
  /** A getter computing only the fields asked for. */
  readonly fieldGetter: FieldGetterFunc;
  /** The extractor of one field set key, or `undefined` when the key is not in the field set. */
  readonly extractor: (field: string) => FieldExtractor | undefined;
  /**
   * The apiserver's `ConvertFieldLabel` for this resource: returns the label (possibly renamed) and
   * value, or throws an {@link UnsupportedFieldLabelError} with the apiserver's message.
   */
  readonly convertFieldLabel: (label: string, value: string) => [string, string];
}
