import { FieldError, InvalidError, invalid } from '@kubekit/core';
import type { KubeErrorOptions, StatusCause } from '@kubekit/core';
import { validateCustomResourceDefinition } from '@kubekit/crd';
import type {
  WebhookClientConfig,
  CustomResourceConversion,
  CustomResourceDefinition,
  CustomResourceDefinitionNames,
  CustomResourceDefinitionVersion,
  CustomResourceSubresources,
} from '@kubekit/crd';
import type { CustomResourceOptions } from './customResource.js';
import { isCustomResource } from './customResourceObject.js';
import { lookupRecord } from './internal/metadata.js';
import type { ClassRecord } from './internal/metadata.js';
import { compareVersionPriority, pluralize } from './internal/names.js';
import { buildVersion } from './internal/schemaBuilder.js';
import type { DescriptionLookup, Origin } from './internal/schemaBuilder.js';
import type { ClassRef } from './types.js';

/** Options of {@link customResourceDefinitions}. */
export interface CustomResourceDefinitionOptions {
  /**
   * Descriptions for classes (called without a property) and properties that have none of their own,
   * such as doc comments collected by `kubekit crd generate`. @defaultValue none
   */
  descriptions?: DescriptionLookup;
  /**
   * Where the apiserver reaches the conversion webhook of kinds that declare a
   * `hubAndSpokeConversion`: `spec.conversion.webhook.clientConfig` (a `url`, or a `service`, and the
   * `caBundle`). @defaultValue none: such kinds then fail validation, as the apiserver requires it
   */
  conversionWebhook?: WebhookClientConfig;
}

/**
 * The error thrown when decorated classes do not make a valid CRD: a `KubeError` with reason `Invalid`
 * whose `fieldErrors` (and `Status` causes) are the apiserver's own, and whose message names, for each,
 * the class and property that declared the faulty part.
 */
export class CustomResourceDeclarationError extends InvalidError {
  override name = 'CustomResourceDeclarationError';
  /** For each of `fieldErrors`, where it was declared (`@Selectable() on ShirtSpec.color`). */
  readonly sources: readonly string[];

  constructor(message: string, fieldErrors: readonly FieldError[], sources: readonly string[], options: KubeErrorOptions = {}) {
    super(message, fieldErrors, options);
    this.sources = sources;
  }
}

interface VersionClass {
  readonly cls: ClassRef;
  readonly record: ClassRecord;
  readonly options: CustomResourceOptions;
}

const sharedNameKeys = ['plural', 'singular', 'listKind', 'shortNames', 'categories'] as const;

/**
 * Builds one validated CustomResourceDefinition from `@CustomResource` classes of one group and kind
 * (one class per version).
 *
 * The CRD is checked with every rule of `@kubekit/crd` (the apiserver's); when it breaks one, this throws
 * a {@link CustomResourceDeclarationError} (reason `Invalid`) carrying the apiserver's field errors, each
 * message prefixed with the class and property that declared it. Nothing invalid is returned.
 *
 * @throws CustomResourceDeclarationError when the CRD would be rejected, or the classes disagree on shared names
 * @throws TypeError when a class is not decorated with `@CustomResource`, a schema is recursive, or the
 *   classes are of several kinds
 * @example
 * ```ts
 * const crd = customResourceDefinition(Shirt);
 * crd.metadata.name; // 'shirts.stable.example.com'
 * ```
 */
export function customResourceDefinition(...classes: ClassRef[]): CustomResourceDefinition {
  const crds = customResourceDefinitions(classes);
  if (crds.length !== 1) {
    const kinds = crds.map((crd) => `${crd.spec.names.kind}.${crd.spec.group}`).join(', ');
    throw new TypeError(`customResourceDefinition() takes the classes of one kind, got ${crds.length === 0 ? 'none' : kinds}; use customResourceDefinitions()`);
  }
  return crds[0];
}

/**
 * Builds one validated CRD per group and kind from any number of `@CustomResource` classes, in the
 * order their kinds first appear. Versions are listed by Kubernetes version priority (`v2`, `v1`,
 * `v1beta1`, …).
 *
 * @throws CustomResourceDeclarationError as {@link customResourceDefinition}
 */
export function customResourceDefinitions(classes: readonly ClassRef[], options: CustomResourceDefinitionOptions = {}): CustomResourceDefinition[] {
  const groups = new Map<string, VersionClass[]>();
  for (const cls of classes) {
    const record = isCustomResource(cls) ? lookupRecord(cls) : undefined;
    if (record?.resource === undefined) {
      const name = typeof cls === 'function' && cls.name !== '' ? cls.name : String(cls);
      throw new TypeError(`${name} is not decorated with @CustomResource`);
    }
    const resourceOptions = record.resource as unknown as CustomResourceOptions;
    const key = `${resourceOptions.kind}.${resourceOptions.group}`;
    const list = groups.get(key) ?? [];
    if (!list.some((v) => v.cls === cls)) list.push({ cls, record, options: resourceOptions });
    groups.set(key, list);
  }
  return [...groups.values()].map((versions) => buildDefinition(versions, options));
}

function buildDefinition(classes: VersionClass[], options: CustomResourceDefinitionOptions): CustomResourceDefinition {
  const sorted = [...classes].sort((a, b) => compareVersionPriority(String(a.options.version), String(b.options.version)));
  const errors: FieldError[] = [];
  const sources: string[] = [];
  const origins: Origin[] = [];
  const first = sorted[0].options;
  const kind = first.kind;
  const group = first.group;

  const shared = (key: keyof CustomResourceOptions, path: string): unknown => {
    let value: unknown;
    let from: VersionClass | undefined;
    for (const v of sorted) {
      const mine = v.options[key];
      if (mine === undefined) continue;
      if (from === undefined) {
        value = mine;
        from = v;
      } else if (JSON.stringify(mine) !== JSON.stringify(value)) {
        errors.push(invalid(path, mine, `declared differently by @CustomResource on ${from.record.className} (${JSON.stringify(value)}) and on ${v.record.className}`));
        sources.push(`@CustomResource() on class ${v.record.className}`);
      }
    }
    return value;
  };

  const plural = (shared('plural', 'spec.names.plural') as string | undefined) ?? pluralize(kind);
  const singular = (shared('singular', 'spec.names.singular') as string | undefined) ?? kind.toLowerCase();
  const names: CustomResourceDefinitionNames = { plural, singular, kind };
  for (const key of sharedNameKeys.slice(2)) {
    const value = shared(key, `spec.names.${key}`);
    if (value !== undefined) (names as unknown as Record<string, unknown>)[key] = Array.isArray(value) ? [...(value as unknown[])] : value;
  }
  const scope = (shared('scope', 'spec.scope') as CustomResourceDefinition['spec']['scope'] | undefined) ?? 'Namespaced';
  let conversion = shared('conversion', 'spec.conversion') as CustomResourceConversion | undefined;
  const hubAndSpoke = sorted.find((v) => v.record.conversion !== undefined);
  if (conversion === undefined && hubAndSpoke !== undefined) {
    conversion = { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'] } };
    if (options.conversionWebhook !== undefined) conversion.webhook!.clientConfig = { ...options.conversionWebhook };
    origins.push({ path: 'spec.conversion', source: `hubAndSpokeConversion(${hubAndSpoke.record.conversion!.hub}) with the conversionWebhook option (kubekit crd generate --conversion-webhook-url or --conversion-webhook-service)` });
  }

  const versions: CustomResourceDefinitionVersion[] = [];
  sorted.forEach((v, i) => {
    const built = buildVersion(v.record, v.options.description, options.descriptions);
    const versionPath = `spec.versions[${i}]`;
    origins.push({ path: versionPath, source: `@CustomResource() on class ${v.record.className}` });
    for (const origin of built.origins) origins.push({ path: `${versionPath}.${origin.path}`, source: origin.source });
    const version: CustomResourceDefinitionVersion = {
      name: v.options.version,
      served: v.options.served ?? true,
      storage: v.options.storage ?? sorted.length === 1,
    };
    if (v.options.deprecated !== undefined) version.deprecated = v.options.deprecated;
    if (v.options.deprecationWarning !== undefined) version.deprecationWarning = v.options.deprecationWarning;
    version.schema = { openAPIV3Schema: built.schema };
    const subresources = buildSubresources(v.options.subresources);
    if (subresources !== undefined) version.subresources = subresources;
    if (built.additionalPrinterColumns.length > 0) version.additionalPrinterColumns = built.additionalPrinterColumns;
    if (built.selectableFields.length > 0) version.selectableFields = built.selectableFields;
    versions.push(version);
  });
  const classNames = sorted.map((v) => `${v.record.className} (${v.options.version})`).join(', ');
  origins.push({ path: 'spec', source: `@CustomResource() on ${sorted.length === 1 ? 'class ' : 'classes '}${classNames}` });
  origins.push({ path: 'metadata', source: `@CustomResource() on ${sorted.length === 1 ? 'class ' : 'classes '}${classNames}` });
  origins.push({ path: 'status', source: `@CustomResource() on ${sorted.length === 1 ? 'class ' : 'classes '}${classNames}` });

  const crd: CustomResourceDefinition = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: { group, names, scope, versions },
  };
  if (conversion !== undefined) crd.spec.conversion = conversion;

  for (const error of validateCustomResourceDefinition(crd)) {
    errors.push(error);
    sources.push(sourceOf(error.field, origins, versions.length));
  }
  if (errors.length > 0) throw declarationError(crd, errors, sources);
  return crd;
}

function buildSubresources(options: CustomResourceOptions['subresources']): CustomResourceSubresources | undefined {
  if (options === undefined) return undefined;
  const out: CustomResourceSubresources = {};
  if (options.status !== undefined) out.status = {};
  if (options.scale !== undefined) {
    const { specReplicasPath, statusReplicasPath, labelSelectorPath } = options.scale;
    out.scale = { specReplicasPath, statusReplicasPath };
    if (labelSelectorPath !== undefined) out.scale.labelSelectorPath = labelSelectorPath;
  }
  return out;
}

/**
 * The internal API the apiserver validates moves per-version fields that are identical in every version
 * to the top of `spec`, so its messages name `spec.validation.openAPIV3Schema…` for a single-version
 * CRD; these map such paths back to the versions they came from.
 */
const hoistedPaths: readonly (readonly [string, string])[] = [
  ['spec.validation', 'schema'],
  ['spec.selectableFields', 'selectableFields'],
  ['spec.additionalPrinterColumns', 'additionalPrinterColumns'],
  ['spec.subresources', 'subresources'],
];

function isPathPrefix(field: string, prefix: string): boolean {
  if (!field.startsWith(prefix)) return false;
  const next = field.charAt(prefix.length);
  return next === '' || next === '.' || next === '[';
}

/** Where the part of the CRD at `field` was declared: the longest origin path that is a prefix of it. */
function sourceOf(field: string, origins: readonly Origin[], versionCount: number): string {
  for (const [top, perVersion] of hoistedPaths) {
    if (!isPathPrefix(field, top)) continue;
    const rest = field.slice(top.length);
    const sources = Array.from({ length: versionCount }, (_, i) => longestOrigin(`spec.versions[${i}].${perVersion}${rest}`, origins));
    return [...new Set(sources)].join(', ');
  }
  return longestOrigin(field, origins);
}

function longestOrigin(field: string, origins: readonly Origin[]): string {
  let best: Origin | undefined;
  for (const origin of origins) {
    if (!isPathPrefix(field, origin.path)) continue;
    if (best === undefined || origin.path.length > best.path.length) best = origin;
  }
  return best?.source ?? 'the CustomResourceDefinition';
}

function declarationError(crd: CustomResourceDefinition, errors: FieldError[], sources: string[]): CustomResourceDeclarationError {
  const lines = errors.map((e, i) => `${sources[i]}: ${e.toString()}`);
  const unique = [...new Set(lines)];
  const joined = unique.length === 1 ? unique[0] : `[${unique.join(', ')}]`;
  const name = crd.metadata.name ?? '';
  const message = `CustomResourceDefinition.apiextensions.k8s.io "${name}" is invalid: ${joined}`;
  const causes: StatusCause[] = errors.map((e) => ({ reason: e.type, message: e.body(), field: e.field }));
  return new CustomResourceDeclarationError(message, errors, sources, {
    details: { name, group: 'apiextensions.k8s.io', kind: 'CustomResourceDefinition', causes },
  });
}
