/**
 * The kinds kube-apiserver's scheme registers, and what its codec answers to a body of another kind than
 * the one a handler decodes. The facts come from `fixtures/scheme-kinds.json`, printed by the reference's
 * own scheme (`packages/envtest/go/schemekinds`): for each external group version its kinds, each with the
 * Go type a body is decoded into and the internal types a conversion is registered to; the kinds every
 * version registers alike (WatchEvent, the options); and the unversioned kinds, found by name in any
 * version (Status, APIVersions, …), as `runtime.Scheme.New` finds them.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { goQuote } from '@kubekit/core';

interface SchemeKind { readonly type: string; readonly internal?: readonly string[] }
interface Fixture {
  unversioned: Record<string, string>;
  everyVersion: Record<string, SchemeKind>;
  groupVersions: Record<string, Record<string, SchemeKind>>;
}

let loaded: Fixture | undefined;
function fixture(): Fixture {
  // src/internal and dist/internal are both two levels below the package root, where fixtures/ is.
  loaded ??= JSON.parse(readFileSync(fileURLToPath(new URL('../../fixtures/scheme-kinds.json', import.meta.url)), 'utf8')) as Fixture;
  return loaded;
}

/** The kind `kind` of `apiVersion` as the scheme registers it, or undefined when it does not. */
export function schemeKind(apiVersion: string, kind: string): SchemeKind | undefined {
  const { unversioned, everyVersion, groupVersions } = fixture();
  const kinds = Object.hasOwn(groupVersions, apiVersion) ? groupVersions[apiVersion] : undefined;
  if (kinds !== undefined && Object.hasOwn(kinds, kind)) return kinds[kind];
  if (kinds !== undefined && Object.hasOwn(everyVersion, kind)) return everyVersion[kind];
  if (Object.hasOwn(unversioned, kind)) return { type: unversioned[kind] };
  return undefined;
}

/** The kinds of apiextensions-apiserver's own scheme in each of its group versions (its install package). */
const apiextensionsKinds = ['CustomResourceDefinition', 'CustomResourceDefinitionList', 'ConversionReview'];
const apiextensionsVersions = ['apiextensions.k8s.io/v1', 'apiextensions.k8s.io/v1beta1'];

/**
 * The kind `kind` of `apiVersion` as the scheme of the CustomResourceDefinition handler registers it (the
 * apiextensions-apiserver's, not kube-apiserver's): its group's kinds in v1 and v1beta1, the kinds every
 * version registers there and in `v1` (`metav1.AddToGroupVersion`), and the unversioned kinds.
 */
export function apiextensionsSchemeKind(apiVersion: string, kind: string): SchemeKind | undefined {
  const { unversioned, everyVersion } = fixture();
  const group = apiextensionsVersions.includes(apiVersion);
  if (group && apiextensionsKinds.includes(kind)) return { type: `${versionOf(apiVersion)}.${kind}`, internal: kind === 'CustomResourceDefinition' ? ['apiextensions.CustomResourceDefinition'] : [] };
  if ((group || apiVersion === 'v1') && Object.hasOwn(everyVersion, kind)) return everyVersion[kind];
  if (Object.hasOwn(unversioned, kind)) return { type: unversioned[kind] };
  return undefined;
}

/**
 * Why the codec cannot decode a body of `apiVersion` and `kind` into the internal type `internal`
 * (`core.ConfigMap`): the kind is not registered (`no kind "X" is registered for version "v"`), or no
 * conversion leads from its Go type to `internal` (`converting (v1.Pod) to (core.ConfigMap): unknown
 * conversion`). Undefined when the body converts (the same kind in another version of the scheme), which
 * leaves the handler's own checks (the API version in the data) to answer. `typeError`, given the Go type
 * of a registered kind, is the decode's own error, which comes first.
 */
export function otherKindReason(apiVersion: string, kind: string, internal: string, typeError?: () => string | undefined, lookup: typeof schemeKind = schemeKind): string | undefined {
  const registered = lookup(apiVersion, kind);
  if (registered === undefined) return `no kind ${goQuote(kind)} is registered for version ${goQuote(apiVersion)} in scheme "pkg/runtime/scheme.go:110"`;
  const decodeError = typeError?.();
  if (decodeError !== undefined) return decodeError;
  if (registered.internal?.includes(internal) === true) return undefined;
  return `converting (${registered.type}) to (${internal}): unknown conversion`;
}

/** The version part of an apiVersion (`v1beta1` of `policy/v1beta1`), as the decode error's prefix names it. */
export function versionOf(apiVersion: string): string {
  return apiVersion.slice(apiVersion.indexOf('/') + 1);
}
