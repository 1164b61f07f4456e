/**
 * A webhook's answer as the apiserver reads it (kube-apiserver 1.34.4): client-go's `Result.Into` decodes the
 * body into the review of the version sent, with the webhook client's codec (JSON or YAML by sniffing; the
 * review's group's kinds and meta/v1's). An admission review is then checked by `VerifyAdmissionResponse`
 * (admission/plugin/webhook/request/admissionreview.go): a decoding error is the call's failure (`failed to
 * call webhook: …`), a verification error an invalid response (`received invalid webhook response: …`). A
 * conversion review is checked by the converter (conversion.ts).
 */
import { goQuote } from '@kubekit/core';
import { goJSONSyntaxError, goUnmarshalTypeError } from './goJSON.js';

/** What the body decoded to, or why it did not. */
export type DecodedReview = { review: Record<string, unknown> } | { callError: string };

/** A check of one member of a review's `response`: the type error encoding/json reports, if any. */
type FieldCheck = (value: unknown, field: { struct: string; name: string }) => string | undefined;

/** A review type of a webhook client's scheme, and how its `response` is unmarshalled. */
export interface ReviewKind {
  group: string;
  kind: string;
  /** The group's other kinds the scheme registers (in v1 and v1beta1). */
  otherKinds: ReadonlySet<string>;
  /** The Go struct of `response` (`AdmissionResponse`) and its type as encoding/json names it (`v1.AdmissionResponse`). */
  responseStruct: string;
  responseType: string;
  /** The members of `response` encoding/json checks, by their json name. */
  fields: ReadonlyMap<string, FieldCheck>;
}

/** The anonymous struct `json.Serializer`'s meta factory reads the apiVersion and kind into, as Go prints its type. */
const typeMetaStruct = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

/** The kinds `metav1.AddToGroupVersion` registers in each group version of the webhook client's scheme. */
const optionKinds = new Set(['WatchEvent', 'ListOptions', 'GetOptions', 'DeleteOptions', 'CreateOptions', 'UpdateOptions', 'PatchOptions']);
/** The kinds it registers unversioned, in `v1`. */
const unversionedKinds = new Set(['Status', 'APIVersions', 'APIGroupList', 'APIGroup', 'APIResourceList']);

/** The Go package (`v1`, `v1beta1`) of a kind the scheme knows under group/version, or undefined when it knows none. */
function registeredPackage(review: ReviewKind, group: string, version: string, kind: string): string | undefined {
  if (group === review.group && (version === 'v1' || version === 'v1beta1')) {
    if (kind === review.kind || review.otherKinds.has(kind)) return version;
    if (optionKinds.has(kind)) return 'v1';
  }
  if (group === '' && version === 'v1' && unversionedKinds.has(kind)) return 'v1';
  return undefined;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** A standard base64 text as Go's `encoding/base64.StdEncoding` reads it into a `[]byte`, or the error it gives. */
function base64Error(text: string): string | undefined {
  const clean = text.replace(/[\r\n]/g, '');
  for (let i = 0; i < clean.length; i++) {
    const c = clean[i];
    if (/[A-Za-z0-9+/]/.test(c)) continue;
    if (c === '=' && (i === clean.length - 1 || (i === clean.length - 2 && clean[i + 1] === '=')) && clean.length % 4 === 0) break;
    return `illegal base64 data at input byte ${i}`;
  }
  if (clean.length % 4 !== 0) return `illegal base64 data at input byte ${clean.length - (clean.length % 4)}`;
  return undefined;
}

const typed = (ok: (v: unknown) => boolean, goType: string): FieldCheck => (v, field) => (ok(v) ? undefined : goUnmarshalTypeError(v, goType, field));
const stringMembers = (goType: string): FieldCheck => (v, field) => (!isRecord(v) ? goUnmarshalTypeError(v, goType, field)
  : Object.values(v).map((a) => (typeof a === 'string' || a === null ? undefined : goUnmarshalTypeError(a, 'string', field))).find((e) => e !== undefined));
const stringItems = (goType: string): FieldCheck => (v, field) => (!Array.isArray(v) ? goUnmarshalTypeError(v, goType, field)
  : v.map((w) => (typeof w === 'string' || w === null ? undefined : goUnmarshalTypeError(w, 'string', field))).find((e) => e !== undefined));

/** admission.k8s.io's AdmissionReview. */
export const admissionReviewKind: ReviewKind = {
  group: 'admission.k8s.io', kind: 'AdmissionReview', otherKinds: new Set(), responseStruct: 'AdmissionResponse', responseType: 'v1.AdmissionResponse',
  fields: new Map<string, FieldCheck>([
    ['uid', typed((v) => typeof v === 'string', 'types.UID')],
    ['allowed', typed((v) => typeof v === 'boolean', 'bool')],
    ['status', typed(isRecord, 'v1.Status')],
    ['patch', (v, field) => (typeof v === 'string' ? base64Error(v) : goUnmarshalTypeError(v, '[]uint8', field))],
    ['patchType', typed((v) => typeof v === 'string', 'v1.PatchType')],
    ['auditAnnotations', stringMembers('map[string]string')],
    ['warnings', stringItems('[]string')],
  ]),
};

/** apiextensions.k8s.io's ConversionReview (its scheme has the CRD kinds too). */
export const conversionReviewKind: ReviewKind = {
  group: 'apiextensions.k8s.io', kind: 'ConversionReview', otherKinds: new Set(['CustomResourceDefinition', 'CustomResourceDefinitionList']),
  responseStruct: 'ConversionResponse', responseType: 'v1.ConversionResponse',
  fields: new Map<string, FieldCheck>([
    ['uid', typed((v) => typeof v === 'string', 'types.UID')],
    ['convertedObjects', typed(Array.isArray, '[]runtime.RawExtension')],
    ['result', typed(isRecord, 'v1.Status')],
  ]),
};

/**
 * The first type error encoding/json reports unmarshalling `response` (its keys read case-sensitively, as
 * sigs.k8s.io/json does; decoding goes on past an error and the first is returned).
 */
function responseTypeError(review: ReviewKind, response: unknown): string | undefined {
  if (response === null || response === undefined) return undefined;
  if (!isRecord(response)) return goUnmarshalTypeError(response, review.responseType, { struct: review.kind, name: 'response' });
  // Members in the order written (JSON.parse keeps it, the last of a repeated key winning).
  for (const [key, value] of Object.entries(response)) {
    const check = review.fields.get(key);
    if (check === undefined || value === null) continue;
    const error = check(value, { struct: review.responseStruct, name: `response.${key}` });
    if (error !== undefined) return error;
  }
  return undefined;
}

/**
 * Decodes a webhook's 2xx body (not empty) into the review of `version` (`v1` or `v1beta1`), as `Result.Into`
 * does: the body's apiVersion and kind (defaulted from the review's) must name the review's own kind (another
 * registered kind is an `unknown conversion`, an unregistered one `no kind … is registered`); then `response`
 * is read into its Go struct.
 */
export function decodeReview(text: string, review: ReviewKind, version: string): DecodedReview {
  const parseError = (why: string): DecodedReview => ({ callError: `couldn't get version/kind; json parse error: ${why}` });
  let body: unknown;
  if (/^\s*\{/.test(text)) {
    const syntax = goJSONSyntaxError(text);
    if (syntax !== undefined) return parseError(syntax);
    body = JSON.parse(text) as unknown;
  } else {
    // YAML: a JSON value as it is; a mapping (`a: b`) has no apiVersion or kind here; any other text a string.
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      body = /^\s*[^\s:#'"[{][^:\n]*:(\s|$)/.test(text) ? {} : text;
    }
    if (body === null) body = {};
    if (!isRecord(body)) return parseError(goUnmarshalTypeError(body, typeMetaStruct));
  }
  if (!isRecord(body)) return parseError(goUnmarshalTypeError(body, typeMetaStruct));
  for (const key of ['apiVersion', 'kind'] as const) {
    const v = body[key];
    if (v !== undefined && v !== null && typeof v !== 'string') return parseError(goUnmarshalTypeError(v, 'string', { struct: '', name: key }));
  }
  const apiVersion = typeof body.apiVersion === 'string' ? body.apiVersion : '';
  const parts = apiVersion === '' ? [] : apiVersion.split('/');
  if (parts.length > 2) return { callError: `unexpected GroupVersion string: ${apiVersion}` };
  let [group, ver] = parts.length === 2 ? parts : ['', parts[0] ?? ''];
  let kind = typeof body.kind === 'string' ? body.kind : '';
  // gvkWithDefaults: the kind, and the version of the default group, from the review's.
  if (kind === '') kind = review.kind;
  if (ver === '' && group === '') [group, ver] = [review.group, version];
  if (ver === '' && group === review.group) ver = version;
  if (!(group === review.group && ver === version && kind === review.kind)) {
    const pkg = registeredPackage(review, group, ver, kind);
    if (pkg === undefined) return { callError: `no kind ${goQuote(kind)} is registered for version ${goQuote(group === '' ? ver : `${group}/${ver}`)} in scheme "pkg/runtime/scheme.go:110"` };
    return { callError: `converting (${pkg}.${kind}) to (${version}.${review.kind}): unknown conversion` };
  }
  const typeError = responseTypeError(review, body.response);
  if (typeError !== undefined) return { callError: typeError };
  return { review: body };
}

/** `GroupVersionKind.String()`: `<group>/<version>, Kind=<kind>`. */
export function gvkString(apiVersion: string, kind: string): string {
  const slash = apiVersion.indexOf('/');
  const [group, version] = slash < 0 ? ['', apiVersion] : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
  return `${group}/${version}, Kind=${kind}`;
}

/**
 * `VerifyAdmissionResponse`: the response present; for v1 its uid the request's, the review's apiVersion and
 * kind as written `admission.k8s.io/v1, Kind=AdmissionReview`, and a patch with its type (a mutating
 * webhook's) or neither (a validating one's). Returns the response, or `{ invalid }`.
 */
export function verifyAdmissionResponse(review: Record<string, unknown>, version: string, uid: string, mutating: boolean): { response: Record<string, unknown> } | { invalid: string } {
  const response = review.response;
  if (!isRecord(response)) return { invalid: 'webhook response was absent' };
  if (version !== 'v1') return { response };
  const got = typeof response.uid === 'string' ? response.uid : '';
  if (got !== uid) return { invalid: `expected response.uid=${goQuote(uid)}, got ${goQuote(got)}` };
  const apiVersion = typeof review.apiVersion === 'string' ? review.apiVersion : '';
  const kind = typeof review.kind === 'string' ? review.kind : '';
  if (apiVersion !== 'admission.k8s.io/v1' || kind !== 'AdmissionReview') return { invalid: `expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got ${gvkString(apiVersion, kind)}` };
  const hasPatch = typeof response.patch === 'string' && response.patch !== '';
  const hasType = response.patchType !== undefined && response.patchType !== null;
  if (mutating) {
    if (hasPatch && !hasType) return { invalid: 'webhook returned response.patch but not response.patchType' };
    if (!hasPatch && hasType) return { invalid: 'webhook returned response.patchType but not response.patch' };
    if (hasType && response.patchType === '') return { invalid: 'webhook returned invalid response.patchType of ""' };
  } else {
    if (hasPatch) return { invalid: 'validating webhook may not return response.patch' };
    if (hasType) return { invalid: 'validating webhook may not return response.patchType' };
  }
  return { response };
}
