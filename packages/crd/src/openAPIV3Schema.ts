/**
 * The OpenAPI v3 document the apiserver publishes for one version of a CRD at
 * `/openapi/v3/apis/<group>/<version>` (apiextensions-apiserver pkg/controller/openapi/builder).
 *
 * @see https://github.com/kubernetes/apiextensions-apiserver/blob/master/pkg/controller/openapi/builder/builder.go
 * @see KEP-4358 (`x-kubernetes-selectable-fields`)
 */
import { KubeError } from '@kubekit/core';
import type { CustomResourceDefinition, JSONSchemaProps } from './types.js';
import { addBuiltinDefinition, listMetaName, objectMetaName, ref, typeMetaProperties } from './internal/openapiMeta.js';
import type { OpenAPIObject } from './internal/openapiMeta.js';
import { buildPaths } from './internal/openapiPaths.js';

/** A published OpenAPI v3 document (plain JSON; `bigint`s in defaults and enums stay `bigint`). */
export interface OpenAPIV3Document {
  openapi: '3.0.0';
  info: { title: string; version: string };
  paths: Record<string, OpenAPIObject>;
  components: { schemas: Record<string, OpenAPIObject> };
}

const objectMetaDescription = "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";
const listMetaDescription = 'Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';

/** The definition name of a kind: the group reversed, then version and kind (`com.example.stable.v1.Shirt`). */
export function definitionName(group: string, version: string, kind: string): string {
  return `${group.split('.').reverse().join('.')}.${version}.${kind}`;
}

/** The keywords a structural schema keeps (`Structural.ToKubeOpenAPI`); others are not published. */
const publishedKeys = [
  'description', 'type', 'title', 'default', 'nullable', 'format', 'maximum', 'exclusiveMaximum', 'minimum',
  'exclusiveMinimum', 'maxLength', 'minLength', 'pattern', 'maxItems', 'minItems', 'uniqueItems', 'multipleOf',
  'enum', 'maxProperties', 'minProperties', 'required',
  'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-embedded-resource', 'x-kubernetes-int-or-string',
  'x-kubernetes-list-map-keys', 'x-kubernetes-list-type', 'x-kubernetes-map-type', 'x-kubernetes-validations',
] as const;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function intOrStringAnyOf(s: Record<string, unknown>): boolean {
  const anyOf = s.anyOf;
  return Array.isArray(anyOf) && anyOf.length === 2 && isObject(anyOf[0]) && isObject(anyOf[1]) &&
    anyOf[0].type === 'integer' && anyOf[1].type === 'string' && Object.keys(anyOf[0]).length === 1 && Object.keys(anyOf[1]).length === 1;
}

/**
 * The published form of a schema node: known keywords copied; `x-kubernetes-int-or-string` unfolded
 * to `anyOf: [integer, string]` (or an `allOf` around it) as `Structural.Unfold` does; embedded
 * resources get apiVersion, kind and a metadata reference (`addEmbeddedProperties`).
 */
function publish(s: JSONSchemaProps, depth: number): OpenAPIObject {
  if (depth > 5000) return {};
  const src = s as unknown as Record<string, unknown>;
  const out: OpenAPIObject = {};
  for (const k of publishedKeys) if (src[k] !== undefined) out[k] = structuredClone(src[k]);
  const sub = (x: unknown): OpenAPIObject => publish(isObject(x) ? (x as JSONSchemaProps) : {}, depth + 1);
  if (isObject(src.items)) out.items = sub(src.items);
  for (const k of ['allOf', 'oneOf', 'anyOf'] as const) if (Array.isArray(src[k])) out[k] = (src[k] as unknown[]).map(sub);
  if (isObject(src.not)) out.not = sub(src.not);
  if (isObject(src.properties)) out.properties = Object.fromEntries(Object.entries(src.properties).map(([k, v]) => [k, sub(v)]));
  if (typeof src.additionalProperties === 'boolean') out.additionalProperties = src.additionalProperties;
  else if (isObject(src.additionalProperties)) out.additionalProperties = sub(src.additionalProperties);

  if (src['x-kubernetes-int-or-string'] === true) {
    const allOf = Array.isArray(src.allOf) ? src.allOf : [];
    const allOfPattern = allOf.length > 0 && isObject(allOf[0]) && intOrStringAnyOf(allOf[0]);
    if (!intOrStringAnyOf(src) && !allOfPattern) {
      const pair = [{ type: 'integer' }, { type: 'string' }];
      if (out.anyOf === undefined) out.anyOf = pair;
      else out.allOf = [{ anyOf: pair }, ...((out.allOf as unknown[] | undefined) ?? [])];
    }
  }
  if (src['x-kubernetes-embedded-resource'] === true) {
    const tm = typeMetaProperties();
    const props = (out.properties as OpenAPIObject | undefined) ?? {};
    props.apiVersion = { ...tm.apiVersion, description: 'apiVersion defines the versioned schema of this representation of an object. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources' };
    props.kind = { ...tm.kind, description: 'kind is a string value representing the type of this object. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds' };
    props.metadata = { description: objectMetaDescription, allOf: [{ $ref: ref(objectMetaName) }] };
    out.properties = props;
    const req = Array.isArray(out.required) ? [...(out.required as string[])] : [];
    if (!req.includes('kind')) req.push('kind');
    if (!req.includes('apiVersion')) req.push('apiVersion');
    out.required = req;
  }
  return out;
}

/**
 * Builds the OpenAPI v3 document the apiserver publishes for version `versionName` of `crd` at
 * `/openapi/v3/apis/<group>/<version>`: the kind's definition (`com.example.stable.v1.Shirt`) from
 * the version's schema with `apiVersion`, `kind` and a `metadata` reference to ObjectMeta filled in,
 * `x-kubernetes-group-version-kind` and (when the version declares them) `x-kubernetes-selectable-fields`
 * as `[{fieldPath: 'spec.color'}]`; the list kind's definition; the referenced meta/v1 definitions; and
 * the paths with every operation (list/watch, create, deletecollection, read, replace, delete, patch,
 * and status/scale subresources when enabled), their parameters (PATCH carries `fieldValidation`,
 * which kubectl looks for) and `x-kubernetes-group-version-kind`/`x-kubernetes-action`.
 *
 * The schema is published as given; the apiserver publishes only structural schemas (check with
 * `validateStructuralSchema` first). Descriptions of the built-in meta/v1 definitions are omitted.
 *
 * @throws KubeError (`NotFound`) when the CRD has no version `versionName`.
 *
 * @example
 * ```ts
 * const doc = openAPIV3Schema(shirtCRD, 'v1');
 * doc.components.schemas['com.example.stable.v1.Shirt']['x-kubernetes-selectable-fields'];
 * // [{ fieldPath: 'spec.color' }, { fieldPath: 'spec.size' }]
 * ```
 */
export function openAPIV3Schema(crd: CustomResourceDefinition, versionName: string): OpenAPIV3Document {
  const spec = crd.spec;
  const version = spec?.versions?.find((v) => v?.name === versionName);
  if (version === undefined) {
    throw new KubeError('NotFound', `version "${versionName}" not found in CustomResourceDefinition "${crd.metadata?.name ?? ''}"`);
  }
  const group = spec.group;
  const kind = spec.names.kind;
  const listKind = spec.names.listKind ?? `${kind}List`;
  const kindModel = definitionName(group, versionName, kind);
  const listModel = definitionName(group, versionName, listKind);
  const selectable = (version.selectableFields ?? []).map((f) => ({ fieldPath: f.jsonPath.startsWith('.') ? f.jsonPath.slice(1) : f.jsonPath }));

  const openAPISchema = version.schema?.openAPIV3Schema;
  let definition: OpenAPIObject;
  if (openAPISchema === undefined) {
    definition = { type: 'object' };
  } else {
    definition = publish(openAPISchema, 0);
    const tm = typeMetaProperties();
    definition.properties = {
      ...((definition.properties as OpenAPIObject | undefined) ?? {}),
      apiVersion: tm.apiVersion,
      kind: tm.kind,
      metadata: { description: objectMetaDescription, allOf: [{ $ref: ref(objectMetaName) }] },
    };
  }
  definition['x-kubernetes-group-version-kind'] = [{ group, kind, version: versionName }];
  if (selectable.length > 0) definition['x-kubernetes-selectable-fields'] = selectable;

  const tm = typeMetaProperties();
  const list: OpenAPIObject = {
    description: `${listKind} is a list of ${kind}`,
    type: 'object',
    required: ['items'],
    properties: {
      apiVersion: tm.apiVersion,
      items: {
        description: `List of ${spec.names.plural}. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md`,
        type: 'array',
        items: { $ref: ref(kindModel) },
      },
      kind: tm.kind,
      metadata: { description: listMetaDescription, allOf: [{ $ref: ref(listMetaName) }] },
    },
    'x-kubernetes-group-version-kind': [{ group, kind: listKind, version: versionName }],
  };
  if (selectable.length > 0) list['x-kubernetes-selectable-fields'] = structuredClone(selectable);

  const { paths, models } = buildPaths({
    group, version: versionName, kind, listKind, plural: spec.names.plural, namespaced: spec.scope === 'Namespaced',
    status: version.subresources?.status !== undefined, scale: version.subresources?.scale !== undefined, kindModel, listModel,
  });
  const schemas: Record<string, OpenAPIObject> = { [kindModel]: definition, [listModel]: list };
  addBuiltinDefinition(objectMetaName, schemas);
  addBuiltinDefinition(listMetaName, schemas);
  for (const m of models) addBuiltinDefinition(m, schemas);
  const sorted = Object.fromEntries(Object.keys(schemas).sort().map((k) => [k, schemas[k]]));
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes CRD Swagger', version: 'v0.1.0' },
    paths,
    components: { schemas: sorted },
  };
}
