/**
 * Deletes: DELETE of one object (preconditions; finalizers and deferred deletions only mark it
 * deleting) and DELETE of a collection (every selected object).
 */
import { FieldError, KubeError, goQuote, invalid, notSupported, parseJSON, type KubeObject } from '@kubekit/core';
import { apiserverMaxDepth, goJSONDepthMessage, scanNesting } from './internal/nesting.js';
import { addWarning, readBody, sendJSON } from './internal/http.js';
import { listObjects, parseInt64, parseListOptions, selectionOf, type ListOptions, type ListResult } from './listing.js';
import { checkKeyName, timestamp } from './objectMeta.js';
import { storedResourceOf, type ResourceType } from './resourceType.js';
import { requestContext, respondList, respondObject, type RestRequest } from './restRequest.js';
import type { ServerContext } from './serverContext.js';
import { storeKey } from './storage/objectStore.js';
import { maxRetries } from './writeHandler.js';
import { cloneJSON } from './internal/own.js';
import { checkRequestContext, type RequestContext } from './internal/requestContext.js';
import { queryBool } from './internal/queryBool.js';
import type { UserInfo } from './rbacAuthorizer.js';

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** DELETE of one object: finalizers and deferred deletions mark it deleting, else it goes. */
export async function deleteObject(ctx: ServerContext, r: RestRequest, namespace: string): Promise<void> {
  const options = await readDeleteOptions(ctx, r);
  checkKeyName(r.info.name);
  warnIfOrphaning(r, options);
  r.type.refuseDeletion?.(r.info.name);
  // The validating admission policies' warnings are sent, whether the deletion happens or not.
  const warnings: string[] = [];
  let view: KubeObject;
  try {
    view = await deleteOne(ctx, r.type, namespace, r.info.name, options, options.dryRun, { user: r.user, warnings, context: requestContext(r) });
  } finally {
    for (const w of warnings) addWarning(r.res, w);
  }
  respondDeleted(ctx, r, view);
}

/** The warning of a kind's deletes without a policy (the Job REST's: their default orphans the pods). */
function warnIfOrphaning(r: RestRequest, options: DeleteOptions): void {
  if (r.type.orphanWarning !== undefined && options.propagationPolicy === undefined) addWarning(r.res, r.type.orphanWarning);
}

function respondDeleted(ctx: ServerContext, r: RestRequest, view: KubeObject): void {
  const { type } = r;
  if (type.deleteReturnsObject || view.metadata.deletionTimestamp !== undefined) {
    respondObject(ctx, r, 200, view);
    return;
  }
  // StatusDetails' group is omitempty: a core kind's Status has none.
  const group = type.names.group === '' ? {} : { group: type.names.group };
  sendJSON(r.res, 200, {
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success',
    details: { name: view.metadata.name, ...group, kind: type.names.resource, uid: view.metadata.uid },
  });
}

/** The options of a DELETE that the embedded server honours (`metav1.DeleteOptions`). */
export interface DeleteOptions {
  uid?: string;
  resourceVersion?: string;
  /** `dryRun: ["All"]`: everything but the write. */
  dryRun: boolean;
  /** `propagationPolicy`, or the deprecated `orphanDependents` (true: `Orphan`, false: `Background`). */
  propagationPolicy?: PropagationPolicy;
  /** `gracePeriodSeconds`: how long a kind with graceful deletion (Pods) waits before the object goes. */
  gracePeriodSeconds?: number;
}

/** How a deletion treats the object's dependents (`metav1.DeletionPropagation`). */
export type PropagationPolicy = 'Foreground' | 'Background' | 'Orphan';

/** The finalizer of an owner whose dependents are orphaned before it goes. */
export const orphanFinalizer = 'orphan';
/** The finalizer of an owner deleted in the foreground: it goes once its blocking dependents are gone. */
export const foregroundFinalizer = 'foregroundDeletion';

/**
 * The finalizers a deletion leaves on an object (registry/store.go
 * `deletionFinalizersForGarbageCollection`): both garbage collector finalizers removed, then `orphan`
 * added when the policy (or, without one, an existing `orphan` finalizer or the kind's default) says
 * so, and `foregroundDeletion` likewise.
 */
export function deletionFinalizers(current: readonly string[], policy: PropagationPolicy | undefined, orphanByDefault: boolean): string[] {
  const orphan = policy !== undefined ? policy === 'Orphan' : current.includes(orphanFinalizer) || (orphanByDefault && !current.includes(foregroundFinalizer));
  const foreground = policy !== undefined ? policy === 'Foreground' : current.includes(foregroundFinalizer);
  const out = current.filter((f) => f !== orphanFinalizer && f !== foregroundFinalizer);
  if (orphan) out.push(orphanFinalizer);
  if (foreground) out.push(foregroundFinalizer);
  return out;
}

const propagationPolicies = ['Foreground', 'Background', 'Orphan'];

/**
 * The `DeleteOptions` of a DELETE as the apiserver reads them (handlers/delete.go `DeleteResource`):
 * from the body when there is one (then the query is not read at all), else from the query; then
 * `ValidateDeleteOptions` (a bad `dryRun` or `propagationPolicy` is a 422 on `DeleteOptions`).
 */
async function readDeleteOptions(ctx: ServerContext, r: RestRequest): Promise<DeleteOptions> {
  const body = await readBody(r.req, ctx.limits.maxRequestBodyBytes);
  let raw: RawDeleteOptions = { dryRun: undefined, propagation: undefined, orphan: undefined, preconditions: {} };
  // A `null` body decodes to no options at all (kube-apiserver 1.34.4 deletes as without a body).
  const nullBody = body.length > 0 && body.toString('utf8').trim() === 'null';
  if (body.length > 0 && !nullBody) {
    const text = body.toString('utf8');
    const excess = scanNesting(text, apiserverMaxDepth);
    if (excess !== undefined) throw KubeError.badRequest(goJSONDepthMessage(excess));
    const parsed = parseJSON(text);
    if (!isObject(parsed)) throw KubeError.badRequest(`json: cannot unmarshal ${Array.isArray(parsed) ? 'array' : typeof parsed} into Go value of type v1.DeleteOptions`);
    // The DeleteOptions decoder knows only meta.k8s.io's kinds: another kind is its "no kind" error (which
    // kube-apiserver 1.34.4 answers as a 500; kubekit as the client's mistake it is), and nothing is deleted.
    if (typeof parsed.kind === 'string' && parsed.kind !== '' && parsed.kind !== 'DeleteOptions') {
      const version = typeof parsed.apiVersion === 'string' ? parsed.apiVersion : '';
      throw KubeError.badRequest(`no kind ${goQuote(parsed.kind)} is registered for version ${goQuote(version)} in scheme "pkg/runtime/scheme.go:110"`);
    }
    raw = rawDeleteOptions(parsed);
  } else {
    const values = r.query.getAll('dryRun');
    // The query's conversions (runtime.Convert_Slice_string_To_Pointer_int64 / _bool): an integer
    // that strconv.ParseInt refuses is the 400 of DecodeParameters; a bool is false only for 0, f,
    // false, n or no (any case), true for anything else.
    const grace = r.query.get('gracePeriodSeconds');
    // Convert_url_Values_To_v1_DeleteOptions: `uid` and `resourceVersion` (their first values, when not
    // empty) are preconditions, on a collection's every object too.
    const preconditions: Record<string, unknown> = {};
    for (const key of ['uid', 'resourceVersion']) {
      const value = r.query.get(key) ?? '';
      if (value !== '') preconditions[key] = value;
    }
    raw = {
      dryRun: values.length > 0 ? values : undefined,
      propagation: r.query.get('propagationPolicy') ?? undefined,
      orphan: queryBool(r.query.get('orphanDependents')),
      preconditions,
      grace: grace === null ? undefined : parseInt64(grace),
    };
  }
  return validatedDeleteOptions(raw);
}

/** The members of a DeleteOptions document before `ValidateDeleteOptions`. */
interface RawDeleteOptions {
  dryRun: unknown;
  propagation: unknown;
  orphan: unknown;
  preconditions: Record<string, unknown>;
  grace?: number;
}

/**
 * The members of a decoded DeleteOptions object (a DELETE's body, an Eviction's `deleteOptions`), with
 * encoding/json's words for a member of the wrong JSON type.
 */
function rawDeleteOptions(parsed: Record<string, unknown>): RawDeleteOptions {
  const member = (key: string): unknown => (Object.hasOwn(parsed, key) ? parsed[key] : undefined);
  const dryRun = member('dryRun');
  const propagation = member('propagationPolicy');
  const orphan = member('orphanDependents');
  const grace = member('gracePeriodSeconds');
  // encoding/json names a number's literal only when an integer field could not take it.
  const typeError = (value: unknown, field: string, goType: string): KubeError => KubeError.badRequest(`json: cannot unmarshal ${typeof value === 'number' && goType === 'int64' ? `number ${String(value)}` : Array.isArray(value) ? 'array' : typeof value} into Go struct field DeleteOptions.${field} of type ${goType}`);
  if (orphan !== undefined && orphan !== null && typeof orphan !== 'boolean') throw typeError(orphan, 'orphanDependents', 'bool');
  if (grace !== undefined && grace !== null && typeof grace !== 'bigint' && !(typeof grace === 'number' && Number.isInteger(grace))) throw typeError(grace, 'gracePeriodSeconds', 'int64');
  const preconditions = member('preconditions');
  if (dryRun !== undefined && dryRun !== null && (!Array.isArray(dryRun) || dryRun.some((v) => typeof v !== 'string'))) {
    throw KubeError.badRequest(`json: cannot unmarshal ${Array.isArray(dryRun) ? 'array' : typeof dryRun} into Go struct field DeleteOptions.dryRun of type []string`);
  }
  if (propagation !== undefined && propagation !== null && typeof propagation !== 'string') throw typeError(propagation, 'propagationPolicy', 'v1.DeletionPropagation');
  return { dryRun, propagation, orphan, preconditions: isObject(preconditions) ? preconditions : {}, ...(grace === undefined || grace === null ? {} : { grace: Number(grace) }) };
}

/** The options of a decoded DeleteOptions object, validated (`ValidateDeleteOptions`: its 422 on `DeleteOptions`). */
export function deleteOptionsOf(parsed: Record<string, unknown>): DeleteOptions {
  return validatedDeleteOptions(rawDeleteOptions(parsed));
}

function validatedDeleteOptions({ dryRun, propagation, orphan, preconditions, grace }: RawDeleteOptions): DeleteOptions {
  const dryRunValues = (dryRun ?? []) as string[];
  const errs: FieldError[] = [];
  if (typeof propagation === 'string' && !propagationPolicies.includes(propagation)) {
    errs.push(notSupported('propagationPolicy', propagation, [...propagationPolicies, 'nil']));
  }
  if (dryRunValues.some((v) => v !== 'All')) errs.push(notSupported('dryRun', dryRunValues, ['All']));
  if (typeof orphan === 'boolean' && typeof propagation === 'string') {
    errs.push(invalid('propagationPolicy', propagation, 'orphanDependents and deletionPropagation cannot be both set'));
  }
  if (errs.length > 0) throw KubeError.invalid({ group: 'meta.k8s.io', kind: 'DeleteOptions' }, '', errs);
  return {
    uid: typeof preconditions.uid === 'string' ? preconditions.uid : undefined,
    resourceVersion: typeof preconditions.resourceVersion === 'string' ? preconditions.resourceVersion : undefined,
    dryRun: dryRunValues.length > 0,
    propagationPolicy: typeof propagation === 'string' ? propagation as PropagationPolicy : orphan === true ? 'Orphan' : orphan === false ? 'Background' : undefined,
    ...(grace === undefined ? {} : { gracePeriodSeconds: grace }),
  };
}

/**
 * The graceful part of `rest.BeforeDelete` for a kind with graceful deletion (Pods), applied to `marked`
 * (a copy of the object): `undefined` when the deletion is not graceful (the kind has none, or the object
 * is being deleted with no grace period left), `'pending'` when a graceful deletion already under way
 * is kept as it is (no shorter period was asked for: nothing is written), else the grace period, in
 * seconds, with `deletionTimestamp` (now plus the period), `deletionGracePeriodSeconds` and the
 * generation set, or a pending deletion brought forward to the shorter period asked for.
 */
function gracefulDeletion(ctx: ServerContext, type: ResourceType, marked: KubeObject, requested: number | undefined): number | 'pending' | undefined {
  if (type.gracefulDeletePeriod === undefined) return undefined;
  // Negative periods are 1 s on the delete path.
  let grace = requested !== undefined && requested < 0 ? 1 : requested;
  const meta = marked.metadata;
  if (typeof meta.deletionGracePeriodSeconds === 'number' && meta.deletionGracePeriodSeconds < 0) meta.deletionGracePeriodSeconds = 1;
  const now = ctx.clock.now();
  if (meta.deletionTimestamp !== undefined) {
    const current = meta.deletionGracePeriodSeconds;
    if (current === undefined || current === 0) return undefined;
    // Only a shorter period may be asked for; the deletion is brought forward by the difference, not
    // before now (then 1 s, unless 0 was asked for).
    if (grace === undefined || grace >= current) return 'pending';
    let at = Date.parse(meta.deletionTimestamp) - current * 1000 + grace * 1000;
    if (at < now) {
      at = now;
      if (grace !== 0) grace = 1;
    }
    meta.deletionTimestamp = timestamp(at);
    meta.deletionGracePeriodSeconds = grace;
    return grace;
  }
  const period = type.gracefulDeletePeriod(marked, grace);
  meta.deletionTimestamp = timestamp(now + period * 1000);
  meta.deletionGracePeriodSeconds = period;
  if (typeof meta.generation === 'number' && meta.generation > 0) meta.generation++;
  return period;
}

/**
 * The conflict of a failed precondition of a deletion (`rest.BeforeDelete`, and the eviction subresource's
 * own check before it writes), naming the kind, not the resource; `undefined` when both hold (or are unset).
 */
export function preconditionConflict(kind: { group: string; kind: string }, name: string, current: KubeObject, uid: string | undefined, resourceVersion: string | undefined): KubeError | undefined {
  const byKind = { group: kind.group, resource: kind.kind };
  if (uid !== undefined && uid !== current.metadata.uid) {
    return KubeError.conflict(byKind, name, `the UID in the precondition (${uid}) does not match the UID in record (${current.metadata.uid ?? ''}). The object might have been deleted and then recreated`);
  }
  if (resourceVersion !== undefined && resourceVersion !== current.metadata.resourceVersion) {
    return KubeError.conflict(byKind, name, `the ResourceVersion in the precondition (${resourceVersion}) does not match the ResourceVersion in record (${current.metadata.resourceVersion ?? ''}). The object might have been modified`);
  }
  return undefined;
}

/** Who asks for a deletion, and how it is admitted ({@link deleteOne}). */
export interface DeleteRequest {
  /** Who asked, for the admission webhooks. @defaultValue the server itself */
  user?: UserInfo;
  /** Takes the validating admission policies' warnings. */
  warnings?: string[];
  /**
   * The name validating admission is told: `''` for the objects of a collection DELETE (the apiserver's
   * `DeleteCollection` tells it the collection request's), `null` for a deletion not admitted (an evicted
   * pod's: `EvictionREST` deletes it with `ValidateAllObjectFunc`). @defaultValue the object's name
   */
  admissionName?: string | null;
  /** The request's context: its webhooks get what is left of its deadline, and nothing is stored once it has expired or been cancelled. */
  context?: RequestContext;
}

/**
 * Deletes (or marks deleting) one object; returns what the response shows. As the generic store's
 * `Delete` does: a kind with graceful deletion (Pods) is first written with its deletion timestamp and
 * grace period, and goes at once only when that period is 0 and no finalizer is pending (a watch sees
 * the update, then the deletion); finalizers (and deferred deletions) only mark the object deleting.
 * `request` says who asked and how it is admitted (none for the server's own deletions: the garbage
 * collector, the namespace finalizer).
 */
export async function deleteOne(ctx: ServerContext, type: ResourceType, namespace: string, name: string, options: DeleteOptions, dryRun: boolean, request: DeleteRequest = {}): Promise<KubeObject> {
  const { user, warnings, context } = request;
  const admissionName = request.admissionName === undefined ? name : request.admissionName;
  const key = storeKey(namespace, name);
  for (let attempt = 0; ; attempt++) {
    const current = ctx.store.get(type.bucket, key);
    if (current === undefined) throw KubeError.notFound(type.groupResource, name);
    const conflict = preconditionConflict(type.names, name, current, options.uid, options.resourceVersion);
    if (conflict !== undefined) throw conflict;
    const view = await type.fromStorage(current);
    // Admission, mutating then validating, once the object is read and the preconditions hold (the
    // generic store's and the namespace REST's `deleteValidation`), with the object as `oldObject`.
    if (admissionName !== null) {
      await ctx.admission?.mutateDelete(type, namespace, admissionName, dryRun, view, user, context);
      await ctx.admission?.validateDelete(type, namespace, admissionName, dryRun, view, user, warnings, context);
    }
    const existing = current.metadata.finalizers ?? [];
    const finalizers = deletionFinalizers(existing, options.propagationPolicy, type.orphanDependentsByDefault === true);
    const pending = finalizers.length > 0 || (type.deferDeletion?.(view) ?? false);
    const deleteNow = async (): Promise<KubeObject> => {
      if (!dryRun) {
        checkRequestContext(context);
        await ctx.store.delete(storedResourceOf(type), key, name, { rv: current.metadata.resourceVersion }).durable;
      }
      return view;
    };
    // Most deletions: no grace period, no finalizer; no copy of the object is made.
    if (type.gracefulDeletePeriod === undefined && !pending) return deleteNow();
    const marked = cloneJSON(view);
    const grace = gracefulDeletion(ctx, type, marked, options.gracePeriodSeconds);
    // A graceful deletion under way is kept, finalizers included (DeleteOptions cannot change them then).
    if (grace === 'pending') return view;
    if (grace === undefined && !pending) return deleteNow();
    const finalizersChanged = finalizers.length !== existing.length || finalizers.some((f, i) => f !== existing[i]);
    if (grace === undefined && current.metadata.deletionTimestamp !== undefined && !finalizersChanged) return view;
    if (finalizers.length > 0) marked.metadata.finalizers = finalizers;
    else delete marked.metadata.finalizers;
    if (grace === undefined && marked.metadata.deletionTimestamp === undefined) {
      // markAsDeleting: now, with no grace period.
      marked.metadata.deletionTimestamp = timestamp(ctx.clock.now());
      marked.metadata.deletionGracePeriodSeconds = 0;
      if (typeof marked.metadata.generation === 'number' && marked.metadata.generation > 0) marked.metadata.generation++;
    }
    if (current.metadata.deletionTimestamp === undefined) type.markDeleting?.(marked);
    const stored = await type.toStorage(marked);
    if (dryRun) return type.fromStorage(stored);
    if (ctx.store.get(type.bucket, key) !== current) {
      if (attempt >= maxRetries) throw KubeError.conflict(type.groupResource, name, 'the object has been modified; please apply your changes to the latest version and try again');
      continue;
    }
    checkRequestContext(context);
    const write = ctx.store.update(storedResourceOf(type), key, name, stored, current.metadata.resourceVersion);
    await write.durable;
    const written = write.event.object;
    // A graceful deletion with no grace period and no finalizer: the update, then the deletion.
    if (grace === 0 && !pending) await ctx.store.delete(storedResourceOf(type), key, name, { rv: written.metadata.resourceVersion }).durable;
    return type.fromStorage(written);
  }
}

/** store.go's deleteCollectionPageSize: how many objects a DELETE of a collection without a limit lists at a time. */
const deleteCollectionPageSize = 10_000;

/** DELETE of a collection: every selected object, as a list of what was deleted. */
export async function deleteCollection(ctx: ServerContext, r: RestRequest, namespace: string): Promise<void> {
  const { type } = r;
  const opts = parseListOptions(r.query, type, false);
  const options = await readDeleteOptions(ctx, r);
  warnIfOrphaning(r, options);
  const { dryRun } = options;
  const context = requestContext(r);
  const selection = selectionOf(type, namespace, opts);
  // store.DeleteCollection: with a limit, one page is deleted and answered, its continue token included, so
  // that a client deletes a collection page by page; without one, page after page of 10,000 from where the
  // continue token (if any) starts, answered as the first page with all the items. Each page is read
  // through the watch cache, a resourceVersion not reached yet waited for; each object listed is deleted.
  const hasLimit = opts.limit > 0;
  let pageOptions: ListOptions = { ...opts, limit: hasLimit ? opts.limit : deleteCollectionPageSize };
  const items: KubeObject[] = [];
  let first: ListResult | undefined;
  const warnings: string[] = [];
  try {
    // Bounded: each page's continue token starts after the last key it listed.
    for (;;) {
      const page = await listObjects(ctx, type, selection, pageOptions, undefined, () => context.signal!);
      items.push(...page.items);
      // The answer is the list as it was read, before the deletions: objects a deletion only marked
      // (finalizers, a grace period) appear as they were.
      for (const o of page.items) {
        try {
          await deleteOne(ctx, type, o.metadata.namespace ?? '', o.metadata.name ?? '', options, dryRun, { user: r.user, warnings, admissionName: '', context });
        } catch (err) {
          if (!(err instanceof KubeError && err.reason === 'NotFound')) throw err;
        }
      }
      first ??= page;
      if (hasLimit || page.continueToken === '') break;
      pageOptions = { ...pageOptions, continueToken: page.continueToken, resourceVersion: '', resourceVersionMatch: '' };
    }
  } finally {
    for (const w of warnings) addWarning(r.res, w);
  }
  // The list is written as a list's GET is (transformResponseObject): a Table or a PartialObjectMetadataList
  // when one was asked for, its includeObject read only then, after the deletions.
  respondList(ctx, r, items, { resourceVersion: String(first.resourceVersion), continueToken: first.continueToken, remainingItemCount: first.remainingItemCount });
}
