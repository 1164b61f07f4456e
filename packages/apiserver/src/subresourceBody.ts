/**
 * The body of a subresource that takes a kind of its own (a Pod's `eviction` and `binding`, a
 * ServiceAccount's `token`), decoded as the apiserver's codec decodes it into that kind.
 */
import { KubeError, goQuote } from '@kubekit/core';
import { builtinOpenAPISchemas } from './builtinSchemas.js';
import { decodeErrorAsGo } from './builtinGoJSON.js';
import { otherKindReason } from './internal/schemeKinds.js';
import { reportFieldProblems, strictDecodingErrorLimit } from './internal/fieldValidation.js';
import { cloneJSON, isObject, str, type JSONObject } from './internal/own.js';
import { pruneUnknownFields } from './internal/pruneUnknownFields.js';
import type { WriteContext } from './resourceType.js';

/** The kind a subresource takes. */
export interface SubresourceKind {
  /** `Eviction`. */
  kind: string;
  /** The apiVersions it is read in, the first when the body names none (`policy/v1`, `policy/v1beta1`). */
  apiVersions: readonly string[];
  /** Its internal type, as conversion errors name it (`policy.Eviction`). */
  internal: string;
  /** Its OpenAPI schema, when unknown and duplicate fields are reported as for a create. */
  schema?: string;
}

/**
 * Decodes `body` as `want`: another kind is the scheme's 400 (`converting … unknown conversion` for one it
 * has, `no kind … is registered` for one it has not), a wrong JSON type encoding/json's; unknown and
 * duplicate fields warned (`Warn`) or refused (`Strict`) where the kind has a schema. A body that is not an
 * object decodes as an empty one.
 */
export function decodeSubresourceBody(body: unknown, wctx: WriteContext, want: SubresourceKind): JSONObject {
  if (!isObject(body)) return {};
  const apiVersion = str(body.apiVersion) !== '' ? str(body.apiVersion) : want.apiVersions[0];
  const kind = str(body.kind) !== '' ? str(body.kind) : want.kind;
  const slash = apiVersion.indexOf('/');
  const [group, version] = slash < 0 ? ['', apiVersion] : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
  const prefix = `${kind} in version ${goQuote(version)} cannot be handled as a ${want.kind}: `;
  const gvk = { group, version, kind };
  if (kind !== want.kind || !want.apiVersions.includes(apiVersion)) {
    const why = otherKindReason(apiVersion, kind, want.internal, () => decodeErrorAsGo(body, gvk, { bodyText: wctx.bodyText }));
    if (why !== undefined) throw KubeError.badRequest(prefix + why);
  }
  // The versions a kind is read in have the same members: the first one's Go type decodes them all.
  const [g0, v0] = want.apiVersions[0].includes('/') ? want.apiVersions[0].split('/') : ['', want.apiVersions[0]];
  const goError = decodeErrorAsGo(body, { group: g0, version: v0, kind: want.kind }, { bodyText: wctx.bodyText });
  if (goError !== undefined) throw KubeError.badRequest(prefix + goError);
  const schema = want.schema === undefined ? undefined : builtinOpenAPISchemas().get(want.schema);
  if (schema !== undefined) reportFieldProblems({ ...wctx, strictError: undefined }, pruneUnknownFields(cloneJSON(body), schema, { sorted: false }), prefix, strictDecodingErrorLimit);
  return body;
}
