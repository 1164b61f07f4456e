/**
 * An admission webhook's answer as the apiserver reads it (kube-apiserver 1.34.4): client-go's `Result.Into`
 * decodes the body into the AdmissionReview of the version sent, with the webhook client's codec (JSON or YAML
 * by sniffing; the admission.k8s.io kinds and meta/v1's), then `VerifyAdmissionResponse` checks it
 * (admission/plugin/webhook/request/admissionreview.go). A decoding error is the call's failure (`failed to
 * call webhook: …`); a verification error is an invalid response (`received invalid webhook response: …`).
 */
import { goQuote } from '@kubekit/core';
import { goJSONSyntaxError, goUnmarshalTypeError } from './goJSON.js';

/** What the body decoded to, or why it did not. */
export type DecodedReview = { review: Record<string, unknown> } | { callError: string };

/** The anonymous struct `json.Serializer`'s meta factory reads the apiVersion and kind into, as Go prints its type. */
const typeMetaStruct = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

/** The kinds `metav1.AddToGroupVersion` registers in each group version of the webhook client's scheme. */
const optionKinds = new Set(['WatchEvent', 'ListOptions', 'GetOptions', 'DeleteOptions', 'CreateOptions', 'UpdateOptions', 'PatchOptions']);
/** The kinds it registers unversioned, in `v1`. */
const unversionedKinds = new Set(['Status', 'APIVersions', 'APIGroupList', 'APIGroup', 'APIResourceList']);

/** The Go package (`v1`, `v1beta1`) of a kind the scheme knows under group/version, or undefined when it knows none. */
function registeredPackage(group: string, version: string, kind: string): string | undefined {
  if (group === 'admission.k8s.io' && (version === 'v1' || version === 'v1beta1')) {
    if (kind === 'AdmissionReview') return version;
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

/**
 * The first type error encoding/json reports unmarshalling `response` into `AdmissionResponse` (its keys read
 * case-sensitively, as sigs.k8s.io/json does; decoding goes on past an error and the first is returned).
 */
function responseTypeError(response: unknown): string | undefined {
  if (response === null || response === undefined) return undefined;
  const field = (name: string): { struct: string; name: string } => ({ struct: 'AdmissionResponse', name: `response.${name}` });
  if (!isRecord(response)) return goUnmarshalTypeError(response, 'v1.AdmissionResponse', { struct: 'AdmissionReview', name: 'response' });
  const checks: [string, (v: unknown) => string | undefined][] = [
    ['uid', (v) => (typeof v === 'string' ? undefined : goUnmarshalTypeError(v, 'types.UID', field('uid')))],
    ['allowed', (v) => (typeof v === 'boolean' ? undefined : goUnmarshalTypeError(v, 'bool', field('allowed')))],
    ['status', (v) => (isRecord(v) ? undefined : goUnmarshalTypeError(v, 'v1.Status', field('status')))],
    ['patch', (v) => (typeof v === 'string' ? base64Error(v) : goUnmarshalTypeError(v, '[]uint8', field('patch')))],
    ['patchType', (v) => (typeof v === 'string' ? undefined : goUnmarshalTypeError(v, 'v1.PatchType', field('patchType')))],
    ['auditAnnotations', (v) => (!isRecord(v) ? goUnmarshalTypeError(v, 'map[string]string', field('auditAnnotations'))
      : Object.values(v).map((a) => (typeof a === 'string' || a === null ? undefined : goUnmarshalTypeError(a, 'string', field('auditAnnotations')))).find((e) => e !== undefined))],
    ['warnings', (v) => (!Array.isArray(v) ? goUnmarshalTypeError(v, '[]string', field('warnings'))
      : v.map((w) => (typeof w === 'string' || w === null ? undefined : goUnmarshalTypeError(w, 'string', field('warnings')))).find((e) => e !== undefined))],
  ];
  // Members in the order written (JSON.parse keeps it, the last of a repeated key winning).
  const order = new Map(checks);
  for (const [key, value] of Object.entries(response)) {
    const check = order.get(key);
    if (check === undefined || value === null) continue;
    const error = check(value);
    if (error !== undefined) return error;
  }
  return undefined;
}

/**
 * Decodes a webhook's 2xx body (not empty) into the AdmissionReview of `version` (`v1` or `v1beta1`), as
 * `Result.Into` does: the body's apiVersion and kind (defaulted from the review's) must name the review's
 * own kind (another registered kind is an `unknown conversion`, an unregistered one `no kind … is
 * registered`); then `response` is read into `AdmissionResponse`.
 */
export function decodeAdmissionReview(text: string, version: string): DecodedReview {
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
  if (kind === '') kind = 'AdmissionReview';
  if (ver === '' && group === '') [group, ver] = ['admission.k8s.io', version];
  if (ver === '' && group === 'admission.k8s.io') ver = version;
  if (!(group === 'admission.k8s.io' && ver === version && kind === 'AdmissionReview')) {
    const pkg = registeredPackage(group, ver, kind);
    if (pkg === undefined) return { callError: `no kind ${goQuote(kind)} is registered for version ${goQuote(group === '' ? ver : `${group}/${ver}`)} in scheme "pkg/runtime/scheme.go:110"` };
    return { callError: `converting (${pkg}.${kind}) to (${version}.AdmissionReview): unknown conversion` };
  }
  const typeError = responseTypeError(body.response);
  if (typeError !== undefined) return { callError: typeError };
  return { review: body };
}

/** `GroupVersionKind.String()`: `<group>/<version>, Kind=<kind>`. */
function gvkString(apiVersion: string, kind: string): string {
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
