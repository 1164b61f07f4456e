/**
 * OpenAPI v2 (Swagger 2.0) at `/openapi/v2`: the union of the group-version OpenAPI v3 documents
 * (`/openapi/v3/...`), converted: `#/components/schemas/X` references become `#/definitions/X`, request
 * bodies become `body` parameters, and `consumes`/`produces` come from the v3 content types. Clients
 * that predate OpenAPI v3 (and kubectl, when a v3 document does not serve its purpose) read it.
 *
 * Only JSON is served: a client that accepts nothing but the protobuf form
 * (`application/com.github.proto-openapi.spec.v2@v1.0+protobuf`) gets 406, as from an apiserver
 * that cannot produce it.
 */
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { KubeError, stringifyJSON } from '@kubekit/core';
import type { ResourceCatalog } from './catalog.js';
import { builtinOpenAPISchemas, builtinSchemaClosure } from './builtinSchemas.js';
import { groupVersionDocument } from './openapi.js';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Rewrites v3 component references into v2 definition references (a deep copy). */
function rewriteRefs(value: unknown, depth = 0): unknown {
  if (depth > 200) throw new Error('OpenAPI schema nested more than 200 levels');
  if (Array.isArray(value)) return value.map((v) => rewriteRefs(v, depth + 1));
  if (!isObject(value)) return value;
  const out: Json = {};
  for (const key of Object.keys(value)) {
    const v = value[key];
    out[key] = key === '$ref' && typeof v === 'string' ? v.replace('#/components/schemas/', '#/definitions/') : rewriteRefs(v, depth + 1);
  }
  return out;
}

/**
 * A built-in kind's v3 component schema as the apiserver's v2 document has it: a field of a named type
 * is a plain `$ref` (v3 wraps it in `allOf` to carry siblings), there are no `default`s (the v3
 * builder writes the Go zero values of non-pointer fields; the v2 builder does not), and a `oneOf` of
 * JSON types (Quantity, IntOrString) is a string.
 */
function builtinSchemaV2(value: unknown, depth = 0): unknown {
  if (depth > 200) throw new Error('OpenAPI schema nested more than 200 levels');
  if (Array.isArray(value)) return value.map((v) => builtinSchemaV2(v, depth + 1));
  if (!isObject(value)) return value;
  const out: Json = {};
  const allOf = value.allOf;
  const single = Array.isArray(allOf) && allOf.length === 1 && isObject(allOf[0]) && typeof allOf[0].$ref === 'string' ? allOf[0].$ref : undefined;
  for (const key of Object.keys(value)) {
    const v = value[key];
    if (key === 'default' || (key === 'allOf' && single !== undefined)) continue;
    // `properties` maps field names to schemas: a field may be called `default`.
    out[key] = key === 'properties' && isObject(v) ? Object.fromEntries(Object.entries(v).map(([n, x]) => [n, builtinSchemaV2(x, depth + 1)])) : builtinSchemaV2(v, depth + 1);
  }
  if (single !== undefined) out.$ref = single;
  // Quantity and IntOrString: v3 says which JSON types they take, v2 calls them strings.
  if (Array.isArray(out.oneOf) && out.type === undefined && out.oneOf.every((o) => isObject(o) && typeof o.type === 'string' && Object.keys(o).length === 1)) {
    delete out.oneOf;
    out.type = 'string';
  }
  return out;
}

/** A v3 parameter (`schema: {type}`) as a v2 one (`type` inline). */
function parameterV2(param: Json): Json {
  const { schema, ...rest } = param;
  return isObject(schema) ? { ...rest, ...(rewriteRefs(schema) as Json) } : rest;
}

function operationV2(op: Json): Json {
  const { requestBody, responses, parameters, ...rest } = op;
  const out: Json = { ...rest };
  const params = Array.isArray(parameters) ? parameters.filter(isObject).map(parameterV2) : [];
  if (isObject(requestBody) && isObject(requestBody.content)) {
    const content = requestBody.content;
    const types = Object.keys(content);
    const first = content[types[0]];
    out.consumes = types;
    params.push({ name: 'body', in: 'body', required: requestBody.required === true, schema: isObject(first) ? rewriteRefs(first.schema) : {} });
  }
  if (params.length > 0) out.parameters = params;
  const produces = new Set<string>();
  const responsesV2: Json = {};
  for (const [code, response] of Object.entries(isObject(responses) ? responses : {})) {
    if (!isObject(response)) continue;
    const v2: Json = { description: response.description ?? '' };
    if (isObject(response.content)) {
      for (const type of Object.keys(response.content)) produces.add(type);
      const first = Object.values(response.content)[0];
      if (isObject(first) && first.schema !== undefined) v2.schema = rewriteRefs(first.schema);
    }
    responsesV2[code] = v2;
  }
  out.responses = responsesV2;
  if (produces.size > 0) out.produces = [...produces];
  out.schemes = ['https'];
  return out;
}

/** The Swagger 2.0 document of everything the server serves. */
export function openAPIV2Document(catalog: ResourceCatalog, selectableFieldsGate: boolean): Json {
  const paths: Json = {};
  const definitions: Json = {};
  const seen = new Set<string>();
  for (const t of catalog.all()) {
    const key = `${t.names.group}/${t.names.version}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const doc = groupVersionDocument(catalog, t.names.group, t.names.version, selectableFieldsGate);
    if (doc === undefined) continue;
    const components = doc.components as { schemas: Json };
    for (const [name, schema] of Object.entries(components.schemas)) definitions[name] = rewriteRefs(schema);
    for (const [path, item] of Object.entries(doc.paths as Json)) {
      if (!isObject(item)) continue;
      const itemV2: Json = {};
      for (const [method, value] of Object.entries(item)) {
        if (!isObject(value) && method !== 'parameters') continue;
        itemV2[method] = method === 'parameters' ? (Array.isArray(value) ? value.filter(isObject).map(parameterV2) : value) : operationV2(value as Json);
      }
      paths[path] = itemV2;
    }
  }
  // One document, one definition per name: the apiserver's own for every built-in name (the custom
  // resource documents carry abridged meta/v1 schemas of their own), with what those reference.
  const builtin = builtinOpenAPISchemas();
  const present = Object.keys(definitions).filter((name) => builtin.has(name));
  for (const [name, schema] of Object.entries(builtinSchemaClosure(present))) definitions[name] = rewriteRefs(builtinSchemaV2(schema));
  return { swagger: '2.0', info: { title: 'Kubernetes', version: 'v0.1.0' }, paths, definitions };
}

const jsonTypes = ['application/json', 'application/*', '*/*'];

/** Serves `/openapi/v2` as JSON, with an `Etag` of its content. */
export function serveOpenAPIV2(catalog: ResourceCatalog, accept: string | undefined, res: ServerResponse, selectableFieldsGate: boolean): void {
  const accepted = (accept ?? '*/*').split(',').map((part) => part.split(';')[0].trim().toLowerCase());
  if (!accepted.some((type) => jsonTypes.includes(type))) {
    throw new KubeError('NotAcceptable', `only the following media types are accepted: ${jsonTypes[0]}`);
  }
  const buf = Buffer.from(stringifyJSON(openAPIV2Document(catalog, selectableFieldsGate)));
  res.setHeader('Etag', `"${createHash('sha512').update(buf).digest('hex').toUpperCase()}"`);
  res.setHeader('Vary', 'Accept');
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': buf.length });
  res.end(buf);
}
