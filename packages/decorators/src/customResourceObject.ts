import type { KubeObject, ObjectMeta } from '@kubekit/core';
import type { ResourceScope } from '@kubekit/crd';
import type { CustomResourceOptions } from './customResource.js';
import { lookupRecord } from './internal/metadata.js';
import { pluralize } from './internal/names.js';
import type { ClassRef } from './types.js';

/**
 * An optional base class for `@CustomResource` classes that types `apiVersion`, `kind` and `metadata`
 * (with `declare`, so nothing is emitted and nothing enters the schema). Instances are plain objects:
 * a manifest read from YAML or JSON can be typed as the class directly.
 *
 * @example
 * ```ts
 * @CustomResource({ group: 'stable.example.com', version: 'v1', kind: 'Shirt' })
 * class Shirt extends CustomResourceObject { @Field(() => ShirtSpec) spec?: ShirtSpec }
 * const shirt: Shirt = { apiVersion: 'stable.example.com/v1', kind: 'Shirt', metadata: { name: 'example1' }, spec: { color: 'blue' } };
 * ```
 */
export abstract class CustomResourceObject {
  declare apiVersion?: string;
  declare kind?: string;
  declare metadata: ObjectMeta;
}

/** A resource object of a decorated class: its own fields plus `apiVersion`, `kind` and `metadata`. */
export type ResourceOf<TClass extends ClassRef> = InstanceType<TClass> & { apiVersion?: string; kind?: string; metadata: ObjectMeta };

/**
 * The object type that informers, clients and controllers take for a decorated class: a `KubeObject`
 * with the class's `spec` and `status` types. The class itself lacks `KubeObject`'s index signature
 * (which would cost it its typed field selectors), so `resource<Shirt>()` does not compile, while
 * `resource<KubeObjectOf<typeof Shirt>>()` does.
 *
 * @example
 * ```ts
 * type ShirtObject = KubeObjectOf<typeof Shirt>;
 * const shirts = new KubeClient(kc).resource<ShirtObject>({ apiVersion: 'stable.example.com/v1', plural: 'shirts' });
 * ```
 */
export type KubeObjectOf<TClass extends ClassRef> = KubeObject<
  InstanceType<TClass> extends { spec?: infer TSpec } ? NonNullable<TSpec> : unknown,
  InstanceType<TClass> extends { status?: infer TStatus } ? NonNullable<TStatus> : unknown
>;

/** The API coordinates of a `@CustomResource` class. */
export interface CustomResourceInfo {
  group: string;
  version: string;
  kind: string;
  /** `<group>/<version>`. */
  apiVersion: string;
  plural: string;
  singular: string;
  scope: ResourceScope;
}

/**
 * The group, version, kind, plural and scope of a `@CustomResource` class, with the same defaults as the
 * generated CRD, for clients and informers (`{ apiVersion, plural }`).
 *
 * @throws TypeError when the class is not decorated with `@CustomResource`
 */
export function customResourceInfo(resource: ClassRef): CustomResourceInfo {
  const record = lookupRecord(resource);
  if (record?.resource === undefined) throw new TypeError(`${resource.name} is not decorated with @CustomResource`);
  const options = record.resource as unknown as CustomResourceOptions;
  return {
    group: options.group,
    version: options.version,
    kind: options.kind,
    apiVersion: `${options.group}/${options.version}`,
    plural: options.plural ?? pluralize(options.kind),
    singular: options.singular ?? options.kind.toLowerCase(),
    scope: options.scope ?? 'Namespaced',
  };
}

/** Whether a value is a class decorated with `@CustomResource` (directly, not only through a parent). */
export function isCustomResource(value: unknown): value is ClassRef {
  if (typeof value !== 'function') return false;
  const record = lookupRecord(value);
  return record !== undefined && Object.hasOwn(record, 'resource') && record.resource !== undefined && ownsRecord(value, record);
}

/** Whether `record` is the class's own (not inherited from a decorated parent). */
function ownsRecord(cls: object, record: ReturnType<typeof lookupRecord>): boolean {
  const parent = Object.getPrototypeOf(cls) as object | null;
  return parent === null || parent === Function.prototype || lookupRecord(parent) !== record;
}
