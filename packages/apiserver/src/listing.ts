/**
 * List semantics: selectors, `limit`/`continue` pagination over a consistent snapshot, and the
 * `resourceVersion`/`resourceVersionMatch` rules.
 *
 * @see https://kubernetes.io/docs/reference/using-api/api-concepts/#resource-versions
 */
import { FieldError, KubeError, forbidden, goQuote, invalid, notSupported, stringifyJSON, type KubeObject } from '@kubekit/core';
import { parseFieldSelector, parseLabelSelector, type FieldSelector, type LabelSelector } from './internal/semantics.js';
import { decodeContinue, encodeContinue } from './internal/continueToken.js';
import { queryBool } from './internal/queryBool.js';
import type { ResourceType } from './resourceType.js';
import type { ServerContext } from './serverContext.js';

/** The list options of a request (`metav1.ListOptions`), parsed and validated. */
export interface ListOptions {
  labelSelector: LabelSelector | undefined;
  fieldSelector: FieldSelector | undefined;
  limit: number;
  continueToken: string;
  resourceVersion: string;
  resourceVersionMatch: '' | 'Exact' | 'NotOlderThan';
  watch: boolean;
  allowWatchBookmarks: boolean;
  sendInitialEvents: boolean | undefined;
  timeoutSeconds: number | undefined;
}

/** The selection of a list or watch: namespace plus label and field selectors. */
export interface Selection {
  namespace: string;
  matches: (object: KubeObject) => boolean;
}

/**
 * Parses `metav1.ListOptions` from a query, converting field labels through the resource type.
 * @param negotiate the list handler's negotiation of its answer, run between the options' validation and
 *   the conversion of the field labels (handlers/get.go ListResource)
 * @throws KubeError `BadRequest` for unparsable selectors and unsupported field labels, `Invalid` for
 *   inconsistent options (as `ValidateListOptions`), and whatever `negotiate` throws.
 */
export function parseListOptions(query: URLSearchParams, type: ResourceType, watch: boolean, negotiate?: () => void): ListOptions {
  const labelText = query.get('labelSelector') ?? '';
  const fieldText = query.get('fieldSelector') ?? '';
  const labelSelector = labelText === '' ? undefined : parseLabelSelector(labelText);
  // DecodeParameters parses the selector (a syntax error is its 400); its labels are converted only after
  // the options are validated (handlers/get.go: an unknown label is a 400 after a 422 of the options).
  const parsedFields = fieldText === '' ? undefined : parseFieldSelector(fieldText);
  const limitText = query.get('limit');
  const limit = limitText === null ? 0 : parseInt64(limitText);
  const timeoutText = query.get('timeoutSeconds');
  const timeoutSeconds = timeoutText === null ? undefined : parseInt64(timeoutText);
  const sie = query.get('sendInitialEvents');
  const opts: ListOptions = {
    labelSelector,
    fieldSelector: parsedFields,
    limit: limit > 0 ? limit : 0,
    continueToken: query.get('continue') ?? '',
    resourceVersion: query.get('resourceVersion') ?? '',
    resourceVersionMatch: (query.get('resourceVersionMatch') ?? '') as ListOptions['resourceVersionMatch'],
    watch,
    allowWatchBookmarks: queryBool(query.get('allowWatchBookmarks')) === true,
    sendInitialEvents: sie === null || sie === '' ? undefined : queryBool(sie),
    timeoutSeconds,
  };
  // SetListOptionsDefaults with the WatchList feature on (handlers/get.go, before the validation): a
  // watch from no resourceVersion or "0" that asks nothing else is one with sendInitialEvents from
  // a state not older than that, so that its initial events end with the `k8s.io/initial-events-end`
  // bookmark when it allows bookmarks.
  if (watch && opts.sendInitialEvents === undefined && opts.resourceVersionMatch === '' && (opts.resourceVersion === '' || opts.resourceVersion === '0')) {
    opts.sendInitialEvents = true;
    opts.resourceVersionMatch = 'NotOlderThan';
  }
  validateListOptions(opts);
  // The list handler negotiates its answer here: a 406 after the options' 422, before a field label's 400.
  negotiate?.();
  opts.fieldSelector = parsedFields?.transform((label, value) => type.convertFieldLabel(label, value));
  return opts;
}

const minInt64 = -(2n ** 63n);
const maxInt64 = 2n ** 63n - 1n;

/**
 * An integer query parameter as the apiserver converts it (`runtime.Convert_Slice_string_To_int64`:
 * `strconv.ParseInt(s, 10, 64)` of the first value); a parse error is a 400 with Go's text, as the
 * list handler answers it (`DecodeParameters` → `errors.NewBadRequest`, handlers/get.go).
 */
export function parseInt64(text: string): number {
  let problem: string | undefined;
  if (!/^[+-]?[0-9]+$/.test(text)) problem = 'invalid syntax';
  else {
    const n = BigInt(text);
    if (n < minInt64 || n > maxInt64) problem = 'value out of range';
  }
  if (problem !== undefined) throw KubeError.badRequest(`strconv.ParseInt: parsing ${goQuote(text)}: ${problem}`);
  return Number(text);
}

/**
 * `ValidateListOptions` of apimachinery 1.34 (meta/internalversion/validation), with its messages in
 * its order; the WatchList feature is on, and a watch with `sendInitialEvents` no longer needs
 * `allowWatchBookmarks`.
 */
function validateListOptions(o: ListOptions): void {
  const errs: FieldError[] = [];
  const match = o.resourceVersionMatch;
  const rvm = 'resourceVersionMatch';
  if (o.watch) {
    if (o.sendInitialEvents !== undefined && match !== 'NotOlderThan') errs.push(forbidden(rvm, 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'));
    if (match !== '') {
      if (o.sendInitialEvents === undefined) errs.push(forbidden(rvm, 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'));
      if (match !== 'NotOlderThan') errs.push(notSupported(rvm, match, ['NotOlderThan']));
      // With the defaults above this is every watch from "" or "0" (`watch=true&continue=abc`); a watch
      // from a resourceVersion ignores its continue.
      if (o.continueToken !== '') errs.push(forbidden(rvm, 'resourceVersionMatch is forbidden when continue is provided'));
    }
  } else {
    if (match !== '') {
      if (o.resourceVersion === '') errs.push(forbidden(rvm, 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
      if (o.continueToken !== '') errs.push(forbidden(rvm, 'resourceVersionMatch is forbidden when continue is provided'));
      if (match !== 'Exact' && match !== 'NotOlderThan') errs.push(notSupported(rvm, match, ['Exact', 'NotOlderThan', '']));
      if (match === 'Exact' && o.resourceVersion === '0') errs.push(forbidden(rvm, 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
    }
    if (o.sendInitialEvents !== undefined) errs.push(forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list'));
  }
  if (errs.length > 0) throw KubeError.invalid({ group: 'meta.k8s.io', kind: 'ListOptions' }, '', errs);
}

/** The selection predicate of a list or watch in a namespace (`''` for all). */
export function selectionOf(type: ResourceType, namespace: string, opts: ListOptions, name = ''): Selection {
  const { labelSelector, fieldSelector } = opts;
  const nameMatch = name;
  return {
    namespace,
    matches: (o) => {
      if (nameMatch !== '' && o.metadata.name !== nameMatch) return false;
      if (labelSelector !== undefined && !labelSelector.matches(o.metadata.labels ?? {})) return false;
      if (fieldSelector !== undefined && !fieldSelector.matches(type.fieldSet(o))) return false;
      return true;
    },
  };
}

/** The largest resourceVersion Go's `strconv.ParseUint(rv, 10, 64)` reads. */
const maxUint64 = 18446744073709551615n;

/**
 * Parses the resourceVersion of a list as the storage layer does (`APIObjectVersioner.ParseResourceVersion`):
 * not an unsigned 64-bit decimal, it is a 400 "invalid resource version: …" with the parse error.
 */
export function parseListResourceVersion(text: string): bigint {
  const problem = resourceVersionProblem(text);
  if (problem !== undefined) throw KubeError.badRequest(`invalid resource version: ${problem.toString()}`);
  return BigInt(text);
}

/**
 * Why `text` is not a resourceVersion for `APIObjectVersioner.ParseResourceVersion` (an unsigned 64-bit
 * decimal), as its field error, or undefined when it is one.
 */
export function resourceVersionProblem(text: string): FieldError | undefined {
  let problem: string | undefined;
  if (!/^[0-9]+$/.test(text)) problem = 'invalid syntax';
  else if (BigInt(text) > maxUint64) problem = 'value out of range';
  return problem === undefined ? undefined : invalid('resourceVersion', text, `strconv.ParseUint: parsing ${goQuote(text)}: ${problem}`);
}

/** Parses a resourceVersion parameter. */
export function parseResourceVersion(text: string, what = 'resourceVersion'): number {
  if (!/^\d+$/.test(text)) {
    throw KubeError.invalid({ group: 'meta.k8s.io', kind: 'ListOptions' }, '', [invalid(what, text, 'must be a non-negative integer')]);
  }
  return Number(text);
}

const continueTooOld = 'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

/** One page of a list. */
export interface ListResult {
  items: KubeObject[];
  resourceVersion: number;
  continueToken: string;
  remainingItemCount: number | undefined;
}

function isPromise<T>(v: T | Promise<T>): v is Promise<T> {
  return typeof (v as { then?: unknown }).then === 'function';
}

/** The first index in sorted `keys` not less than `from`. */
function lowerBound(keys: readonly string[], from: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] < from) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Lists objects of a type: in key order, selected, paginated. Reads the current state, or the state at
 * the token's (or `Exact`) resourceVersion rebuilt from the history. A resourceVersion the store has not
 * reached is first waited for, as the apiserver's watch cache does (`ResourceVersionWaiter`).
 *
 * Which state a resourceVersion N > 0 lists (delegator.ShouldDelegateList, watch_cache.go
 * waitUntilFreshAndList): `Exact`, a continue token's N, and the legacy exact match (no
 * resourceVersionMatch, a limit) list the state at N; no resourceVersionMatch without a limit, and
 * `NotOlderThan`, the latest state once it is at least N. `0` is any state: the latest.
 *
 * @throws KubeError `Expired` (410) for continue tokens or resourceVersions older than the history,
 *   `Timeout` (504) for resourceVersions the store does not reach within the wait, `TooManyRequests`
 *   (429) when too many reads wait, or the signal's reason once it aborts.
 */
export async function listObjects(ctx: ServerContext, type: ResourceType, selection: Selection, opts: ListOptions,
  candidates?: (rv: number) => ReadonlySet<string> | undefined, signal?: AbortSignal | (() => AbortSignal)): Promise<ListResult> {
  const { store } = ctx;
  let start = '';
  // The resourceVersion to wait for, and whether the list is of the state at exactly that version.
  let wanted: bigint | undefined;
  let exact = false;
  if (opts.continueToken !== '') {
    const token = decodeContinue(opts.continueToken);
    // The storage's ValidateListOptions, once the token decodes.
    if (opts.resourceVersion !== '' && opts.resourceVersion !== '0') throw KubeError.badRequest('specifying resource version is not allowed when using continue');
    start = token.start;
    // A negative rv asks for the latest state (storage.ValidateListOptions); a positive one for that state.
    if (token.rv > 0n) {
      wanted = token.rv;
      exact = true;
    }
  } else if (opts.resourceVersion !== '' && opts.resourceVersion !== '0') {
    wanted = parseListResourceVersion(opts.resourceVersion);
    exact = opts.resourceVersionMatch === 'Exact' || (opts.resourceVersionMatch === '' && opts.limit > 0);
  }
  if (wanted !== undefined) await ctx.resourceVersions.waitUntilFresh(wanted, { signal, wait: type.watchCache !== false });

  let rv = store.resourceVersion;
  let snapshot: Map<string, KubeObject> | undefined;
  if (wanted !== undefined && exact) {
    const at = Number(wanted);
    if (opts.continueToken !== '' && at < store.oldestResourceVersion) {
      const fresh = encodeContinue(store.resourceVersion, start.slice(0, -1));
      throw new KubeError('Expired', continueTooOld, { details: { causes: [{ reason: 'ResourceVersionTooOld', message: fresh }] } });
    }
    if (at !== rv) snapshot = store.snapshotAt(type.bucket, at);
    rv = at;
  }

  let keys: readonly string[];
  let get: (key: string) => KubeObject | undefined;
  if (snapshot !== undefined) {
    const snap = snapshot;
    keys = [...snap.keys()].sort();
    get = (k) => snap.get(k);
  } else {
    const indexed = candidates?.(rv);
    keys = indexed !== undefined ? [...indexed].sort() : store.keys(type.bucket);
    get = (k) => store.get(type.bucket, k);
  }

  const prefix = selection.namespace === '' ? '' : `${selection.namespace}/`;
  let i = lowerBound(keys, start > prefix ? start : prefix);
  const items: KubeObject[] = [];
  const limit = opts.limit;
  let lastKey = '';
  let more = false;
  for (; i < keys.length; i++) {
    const key = keys[i];
    if (prefix !== '' && !key.startsWith(prefix)) break;
    if (limit > 0 && items.length >= limit) {
      more = true;
      break;
    }
    const stored = get(key);
    if (stored === undefined) continue;
    const shown = type.fromStorage(stored);
    const view = isPromise(shown) ? await shown : shown;
    lastKey = key;
    if (selection.matches(view)) items.push(view);
  }
  const filtered = opts.labelSelector !== undefined || opts.fieldSelector !== undefined;
  let remainingItemCount: number | undefined;
  if (more && !filtered) {
    let n = 0;
    for (let j = i; j < keys.length && (prefix === '' || keys[j].startsWith(prefix)); j++) n++;
    remainingItemCount = n;
  }
  return { items, resourceVersion: rv, continueToken: more ? encodeContinue(rv, lastKey) : '', remainingItemCount };
}

/**
 * A built-in kind's list item as kube-apiserver writes it: without `apiVersion` and `kind` (its items are
 * typed Go objects whose TypeMeta is empty; only the list and each watch event's object carry them).
 * Custom resources are unstructured, and their items keep both.
 */
export function listItemJSON(o: KubeObject): string {
  return stringifyJSON(withoutTypeMeta(o));
}

/** `o` without `apiVersion` and `kind` (a copy of its top level when it has either): see {@link listItemJSON}. */
export function withoutTypeMeta(o: KubeObject): KubeObject {
  if (!Object.hasOwn(o, 'apiVersion') && !Object.hasOwn(o, 'kind')) return o;
  const { apiVersion: _apiVersion, kind: _kind, ...rest } = o;
  return rest as KubeObject;
}
