import { KubeError } from '@kubekit/core';
import type { CustomResourceDefinition, SelectableField } from '@kubekit/crd';
import { sprintValue } from './internal/goValue.js';
import { compileReader, parseSimplePath } from './internal/jsonPath.js';
import { makeResourceFields } from './internal/makeResourceFields.js';
import type { FieldExtractor, FieldGetterFunc, FieldSetFunc, ResourceFields } from './resourceFields.js';
import { UnsupportedFieldLabelError } from './unsupportedFieldLabelError.js';

/**
 * One version of a custom resource, as field selection sees it.
 *
 * @see KEP-4358 (custom resource field selectors)
 */
export interface CustomResourceFieldsOptions {
  /** The version's `selectableFields`. @defaultValue none (only `metadata.name`/`metadata.namespace`) */
  selectableFields?: readonly SelectableField[];
  /** Whether the CRD's scope is `Namespaced`. */
  namespaced: boolean;
  /**
   * The apiserver's `CustomResourceFieldSelectors` feature gate (GA and locked on since Kubernetes
   * 1.32). When off, `selectableFields` are ignored: neither accepted nor in the field set.
   * @defaultValue true
   */
  customResourceFieldSelectors?: boolean;
}

function selectableFieldsOf(options: CustomResourceFieldsOptions): readonly SelectableField[] {
  return options.customResourceFieldSelectors === false ? [] : options.selectableFields ?? [];
}

/** The field label of a selectable field: its `jsonPath` without the leading `.`. */
function labelOf(field: SelectableField): string {
  return field.jsonPath.startsWith('.') ? field.jsonPath.slice(1) : field.jsonPath;
}

/**
 * The fields of one custom resource version: `metadata.name`, `metadata.namespace` (namespaced
 * resources only) and one key per `selectableFields[].jsonPath` without its leading dot, valued as
 * the apiserver's `customResourceStrategy.selectableFields` values them (`fmt.Sprint` of the JSON
 * value; `""` for absent or null). Each path is parsed once and compiled into direct property reads.
 *
 * @throws KubeError (`BadRequest`) when a `jsonPath` is not a simple path (`.a.b`, `.a['b-c']`);
 *   a CRD that passed validation never has one.
 *
 * @example
 * ```ts
 * const shirts = createCustomResourceFields({ namespaced: true, selectableFields: [{ jsonPath: '.spec.color' }] });
 * shirts.fieldSet({ metadata: { name: 's', namespace: 'ns' }, spec: { color: 'blue' } });
 * // { 'metadata.name': 's', 'metadata.namespace': 'ns', 'spec.color': 'blue' }
 * shirts.convertFieldLabel('spec.colour', 'red'); // throws: field label not supported: spec.colour
 * ```
 */
export function createCustomResourceFields(options: CustomResourceFieldsOptions): ResourceFields {
  const selectable = selectableFieldsOf(options);
  const fields: Array<readonly [string, FieldExtractor]> = selectable.map((sf, i) => {
    const names = parseSimplePath(sf.jsonPath);
    if (!Array.isArray(names)) {
      throw new KubeError('BadRequest', `selectableFields[${i}].jsonPath ${JSON.stringify(sf.jsonPath)} is not a simple JSON path: ${names}`);
    }
    const read = compileReader(names);
    return [labelOf(sf), (o: unknown) => sprintValue(read(o))] as const;
  });
  const fieldLabels = customResourceFieldLabels(options);
  return makeResourceFields({
    namespaced: options.namespaced,
    metadataNamespaceField: options.namespaced,
    fields,
    fieldLabels,
    labelAliases: {},
    convertFieldLabel: (label, value) => convertFieldLabel(options, label, value),
  });
}

/**
 * Compiles the field set of a custom resource version: `(object) => Record<string, string>` with the
 * keys and values of {@link createCustomResourceFields}.
 *
 * @example
 * ```ts
 * const fieldSet = compileFieldSet({ namespaced: false, selectableFields: [{ jsonPath: '.spec.quantity' }] });
 * fieldSet({ metadata: { name: 'a' }, spec: { quantity: 9007199254740993n } });
 * // { 'metadata.name': 'a', 'spec.quantity': '9007199254740993' }
 * ```
 */
export function compileFieldSet(options: CustomResourceFieldsOptions): FieldSetFunc {
  return createCustomResourceFields(options).fieldSet;
}

/**
 * Compiles the lazy field set of a custom resource version: `(object) => (field) => value`, which
 * evaluates only the fields a selector asks for; `undefined` for a field that is not in the set.
 */
export function compileFieldGetter(options: CustomResourceFieldsOptions): FieldGetterFunc {
  return createCustomResourceFields(options).fieldGetter;
}

/**
 * The field labels the apiserver accepts for a custom resource version: `metadata.name`,
 * `metadata.namespace` (namespaced resources only) and the selectable fields' names.
 */
export function customResourceFieldLabels(options: CustomResourceFieldsOptions): string[] {
  const labels = ['metadata.name'];
  if (options.namespaced) labels.push('metadata.namespace');
  for (const sf of selectableFieldsOf(options)) {
    const label = labelOf(sf);
    if (!labels.includes(label)) labels.push(label);
  }
  return labels;
}

/**
 * The apiextensions-apiserver's `ConvertFieldLabel` for a custom resource version: `metadata.name`
 * always, `metadata.namespace` unless cluster-scoped, and the version's selectable fields (compared
 * exactly: no trimming, no case folding). Labels and values are returned unchanged.
 *
 * @throws UnsupportedFieldLabelError `field label not supported: <label>` (HTTP 400) for any other label.
 */
export function convertFieldLabel(options: CustomResourceFieldsOptions, label: string, value: string): [string, string] {
  if (label === 'metadata.name') return [label, value];
  if (options.namespaced && label === 'metadata.namespace') return [label, value];
  for (const sf of selectableFieldsOf(options)) {
    if (labelOf(sf) === label) return [label, value];
  }
  throw new UnsupportedFieldLabelError(label, `field label not supported: ${label}`);
}

/**
 * The {@link CustomResourceFieldsOptions} of one version of a CRD, or `undefined` when the CRD has no
 * version of that name.
 */
export function customResourceFieldsOptionsFor(crd: CustomResourceDefinition, versionName: string): CustomResourceFieldsOptions | undefined {
  const version = crd.spec.versions.find((v) => v.name === versionName);
  if (version === undefined) return undefined;
  return { namespaced: crd.spec.scope === 'Namespaced', selectableFields: version.selectableFields ?? [] };
}
