import type { CustomResourceConversion, CustomResourceSubresourceScale, ResourceScope } from '@kubekit/crd';
import { classDecorator } from './internal/decorate.js';
import type { ClassDecoratorFunction } from './types.js';

/**
 * Options of `@CustomResource`, named as in the CRD: `spec.group`, `spec.names.*`, `spec.scope`,
 * `spec.conversion` (shared by every version of a kind: classes of one kind must not disagree) and
 * `spec.versions[]` fields (per class).
 */
export interface CustomResourceOptions {
  /** `spec.group`, a DNS subdomain: `stable.example.com`. */
  group: string;
  /** `spec.versions[].name` of this class: `v1`, `v1beta1`. */
  version: string;
  /** `spec.names.kind`, CamelCased singular: `CronTab`. */
  kind: string;
  /** `spec.names.plural`, as used in URLs. @defaultValue the lower-cased kind, pluralised in English (`crontabs`) */
  plural?: string;
  /** `spec.names.singular`. @defaultValue the lower-cased kind */
  singular?: string;
  /** `spec.names.listKind`. @defaultValue omitted (the apiserver uses `<kind>List`) */
  listKind?: string;
  /** `spec.names.shortNames`, for kubectl. @defaultValue none */
  shortNames?: string[];
  /** `spec.names.categories`, such as `all`. @defaultValue none */
  categories?: string[];
  /** `spec.scope`. @defaultValue `'Namespaced'` */
  scope?: ResourceScope;
  /** `spec.conversion`. @defaultValue omitted (the apiserver uses `None`) */
  conversion?: CustomResourceConversion;
  /** `spec.versions[].served`. @defaultValue true */
  served?: boolean;
  /**
   * `spec.versions[].storage`; exactly one version of a kind is the storage version.
   * @defaultValue true when the kind has a single version, false otherwise
   */
  storage?: boolean;
  /** `spec.versions[].deprecated`. @defaultValue omitted (false) */
  deprecated?: boolean;
  /** `spec.versions[].deprecationWarning`. @defaultValue omitted (the apiserver's default warning) */
  deprecationWarning?: string;
  /**
   * `spec.versions[].subresources`: `status: true` (or `{}`) enables `/status`; `scale` enables `/scale`.
   * @defaultValue none
   */
  subresources?: { status?: true | Record<string, never>; scale?: CustomResourceSubresourceScale };
  /** The description of the root schema. @defaultValue the class's `@Description` or doc comment, else none */
  description?: string;
}

/**
 * Declares a class as one version of a custom resource kind. Its decorated properties are the root of
 * that version's schema (typically `spec` and `status`); several classes with the same group and kind
 * and different versions make one CRD with several versions.
 *
 * @example
 * ```ts
 * @CustomResource({ group: 'stable.example.com', version: 'v1', kind: 'Shirt' })
 * class Shirt {
 *   @Field(() => ShirtSpec) spec?: ShirtSpec;
 * }
 * ```
 */
export function CustomResource(options: CustomResourceOptions): ClassDecoratorFunction {
  return classDecorator('@CustomResource', (record) => {
    if (typeof options !== 'object' || options === null) throw new TypeError(`@CustomResource on ${record.className} needs options`);
    record.resource = { ...options };
  });
}
