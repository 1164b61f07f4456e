/**
 * Answers an `AdmissionReview` with a typed handler: allowed or denied with the apiserver's `Status`
 * shape (`code`, `reason`, `message`), warnings, and for a mutating webhook an RFC 6902 JSON patch
 * computed from the object the handler returns (or changed in place).
 *
 * @see https://kubernetes.io/docs/reference/access-authn-authz/extensible-admission-controllers/#response
 */
import { errorMessage, KubeError, stringifyJSON, type KubeObject, type Status } from '@kubekit/core';
import { createJSONPatch } from './jsonPatch.js';
import type { AdmissionRequest, AdmissionResponse, AdmissionReview } from './reviewTypes.js';

/** What an admission handler decides. */
export type AdmissionResult<TObject = KubeObject> =
  | {
      allowed: true;
      /** Mutating handlers: the object to admit instead; the patch is the difference. @defaultValue the request's `object`, as the handler left it */
      object?: TObject;
      warnings?: string[];
      auditAnnotations?: Record<string, string>;
    }
  | {
      allowed: false;
      /** Shown to the client after `admission webhook "<name>" denied the request: `. */
      message?: string;
      /** HTTP code of the rejection (the apiserver raises anything below 400 to 400). @defaultValue 403 */
      code?: number;
      /** @defaultValue `'Forbidden'` */
      reason?: string;
      details?: Status['details'];
      warnings?: string[];
      auditAnnotations?: Record<string, string>;
    };

/**
 * An admission handler. It gets the request with `object` and `oldObject` typed; a mutating handler's
 * `object` is its own copy, to change in place or replace. Returning nothing allows the request;
 * throwing a `KubeError` denies it with the error's code, reason and message, any other error denies
 * it with code 500.
 */
export type AdmissionHandler<TObject = KubeObject> = (request: AdmissionRequest<TObject>) => AdmissionResult<TObject> | void | Promise<AdmissionResult<TObject> | void>;

/** An allowing result, with optional warnings. */
export function allow<TObject = KubeObject>(warnings?: string[]): AdmissionResult<TObject> {
  return warnings === undefined || warnings.length === 0 ? { allowed: true } : { allowed: true, warnings };
}

/** A denying result with the apiserver's defaults (403 Forbidden) unless `code`/`reason` say otherwise. */
export function deny<TObject = KubeObject>(message: string, options: { code?: number; reason?: string; warnings?: string[] } = {}): AdmissionResult<TObject> {
  return { allowed: false, message, ...options };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The deepest object a handler is given, as the apiserver's JSON decoder allows. */
const maxDepth = 10_000;

/** How deeply `value` nests (iteratively; stops counting past the limit). */
function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (d > deepest) deepest = d;
    if (deepest > maxDepth) return deepest;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (typeof child === 'object' && child !== null) stack.push([child, d + 1]);
  }
  return deepest;
}

const operations = new Set(['CREATE', 'UPDATE', 'DELETE', 'CONNECT']);

/** Reads and checks an AdmissionReview's request; throws `BadRequest` naming what is wrong. */
export function admissionRequestOf(body: unknown): { apiVersion: AdmissionReview['apiVersion']; request: AdmissionRequest } {
  if (!isRecord(body)) throw new KubeError('BadRequest', 'expected an AdmissionReview object');
  const apiVersion = body.apiVersion;
  if (apiVersion !== 'admission.k8s.io/v1' && apiVersion !== 'admission.k8s.io/v1beta1') {
    throw new KubeError('BadRequest', `unsupported apiVersion ${JSON.stringify(apiVersion)}: expected admission.k8s.io/v1 (or v1beta1)`);
  }
  if (body.kind !== 'AdmissionReview') throw new KubeError('BadRequest', `unsupported kind ${JSON.stringify(body.kind)}: expected AdmissionReview`);
  const request = Object.hasOwn(body, 'request') ? body.request : undefined;
  if (!isRecord(request)) throw new KubeError('BadRequest', 'AdmissionReview has no request');
  if (typeof request.uid !== 'string' || request.uid === '') throw new KubeError('BadRequest', 'request.uid: must be a non-empty string');
  if (typeof request.operation !== 'string' || !operations.has(request.operation)) {
    throw new KubeError('BadRequest', `request.operation: Unsupported value: ${JSON.stringify(request.operation)}: supported values: "CREATE", "UPDATE", "DELETE", "CONNECT"`);
  }
  for (const field of ['kind', 'resource'] as const) {
    if (!isRecord(request[field])) throw new KubeError('BadRequest', `request.${field}: must be an object`);
  }
  for (const field of ['object', 'oldObject'] as const) {
    const value = request[field];
    if (value !== undefined && value !== null && !isRecord(value)) throw new KubeError('BadRequest', `request.${field}: must be an object`);
    if (depthOf(value) > maxDepth) throw new KubeError('BadRequest', `request.${field}: nested deeper than ${maxDepth} levels`);
  }
  return { apiVersion, request: request as unknown as AdmissionRequest };
}

/** Options of {@link reviewAdmission}. */
export interface ReviewAdmissionOptions {
  /** Whether the handler may mutate: its result becomes a JSON patch. @defaultValue false */
  mutating?: boolean;
}

/**
 * Runs `handler` on an AdmissionReview and returns the review's response.
 *
 * @throws KubeError (reason `BadRequest`) when `body` is not an AdmissionReview with a request
 * @example
 * ```ts
 * const response = await reviewAdmission(parseJSON(body), (req) => (req.object?.spec ? allow() : deny('spec is required')));
 * ```
 */
export async function reviewAdmission<TObject = KubeObject>(body: unknown, handler: AdmissionHandler<TObject>, options: ReviewAdmissionOptions = {}): Promise<AdmissionReview> {
  const { apiVersion, request } = admissionRequestOf(body);
  const original = request.object ?? undefined;
  const given = options.mutating === true && original !== undefined ? { ...request, object: structuredClone(original) } : request;
  let response: AdmissionResponse;
  try {
    const result = (await handler(given as unknown as AdmissionRequest<TObject>)) ?? { allowed: true as const };
    response = respond(request.uid, result as AdmissionResult, original, options.mutating === true ? (given.object ?? undefined) : undefined);
  } catch (err) {
    const status: Status = err instanceof KubeError
      ? { status: 'Failure', code: err.code, reason: err.reason, message: err.message }
      : { status: 'Failure', code: 500, reason: 'InternalError', message: errorMessage(err) };
    response = { uid: request.uid, allowed: false, status };
  }
  return { apiVersion, kind: 'AdmissionReview', response };
}

function respond(uid: string, result: AdmissionResult, original: KubeObject | undefined, mutated: KubeObject | undefined): AdmissionResponse {
  if (!isRecord(result) || typeof result.allowed !== 'boolean') {
    throw new KubeError('InternalError', 'the admission handler returned neither { allowed: true } nor { allowed: false }');
  }
  const response: AdmissionResponse = { uid, allowed: result.allowed };
  if (result.warnings !== undefined && result.warnings.length > 0) response.warnings = [...result.warnings];
  if (result.auditAnnotations !== undefined) response.auditAnnotations = { ...result.auditAnnotations };
  if (!result.allowed) {
    response.status = { status: 'Failure', code: result.code ?? 403, reason: result.reason ?? 'Forbidden', message: result.message ?? '' };
    if (result.details !== undefined) response.status.details = result.details;
    return response;
  }
  const next = result.object ?? mutated;
  if (mutated !== undefined && next !== undefined && original !== undefined) {
    const patch = createJSONPatch(original, next);
    if (patch.length > 0) {
      response.patchType = 'JSONPatch';
      response.patch = Buffer.from(stringifyJSON(patch), 'utf8').toString('base64');
    }
  }
  return response;
}
