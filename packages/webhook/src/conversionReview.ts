/**
 * Answers a `ConversionReview` with the apiserver's rules: the response echoes the request's `uid`,
 * holds one converted object per request object in the same order, each with `apiVersion` set to
 * `desiredAPIVersion` and the original's `kind` and metadata (only `labels` and `annotations` may be
 * changed by a conversion; the apiserver rejects changes of name, namespace or uid and restores the
 * rest), and a failed conversion fails the whole review with `result.status: Failure` and a message.
 *
 * @see https://github.com/kubernetes/kubernetes/blob/master/staging/src/k8s.io/apiextensions-apiserver/pkg/apiserver/conversion/webhook_converter.go
 */
import { errorMessage, KubeError, type KubeObject, type ObjectMeta } from '@kubekit/core';
import type { ConversionReview } from './reviewTypes.js';

/** Converts one object to another version of its kind. */
export interface Converter {
  /**
   * Returns `object` as `desiredAPIVersion` (`group/version`). The result's `apiVersion`, `kind` and
   * metadata other than labels and annotations are set by the caller; throwing fails the review with
   * the error's message. `object` must not be modified.
   */
  convert(object: KubeObject, desiredAPIVersion: string): KubeObject | Promise<KubeObject>;
}

/** A converter given as a function. */
export type ConvertFunc = Converter['convert'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads and checks a ConversionReview's request; throws `BadRequest` naming what is wrong. */
export function conversionRequestOf(body: unknown): { apiVersion: ConversionReview['apiVersion']; uid: string; desiredAPIVersion: string; objects: KubeObject[] } {
  if (!isRecord(body)) throw new KubeError('BadRequest', 'expected a ConversionReview object');
  const apiVersion = body.apiVersion;
  if (apiVersion !== 'apiextensions.k8s.io/v1' && apiVersion !== 'apiextensions.k8s.io/v1beta1') {
    throw new KubeError('BadRequest', `unsupported apiVersion ${JSON.stringify(apiVersion)}: expected apiextensions.k8s.io/v1 (or v1beta1)`);
  }
  if (body.kind !== 'ConversionReview') throw new KubeError('BadRequest', `unsupported kind ${JSON.stringify(body.kind)}: expected ConversionReview`);
  const request = Object.hasOwn(body, 'request') ? body.request : undefined;
  if (!isRecord(request)) throw new KubeError('BadRequest', 'ConversionReview has no request');
  const { uid, desiredAPIVersion, objects } = request;
  if (typeof uid !== 'string' || uid === '') throw new KubeError('BadRequest', 'request.uid: must be a non-empty string');
  if (typeof desiredAPIVersion !== 'string' || !/^[^/\s]+\/[^/\s]+$/.test(desiredAPIVersion)) {
    throw new KubeError('BadRequest', `request.desiredAPIVersion: must be group/version, got ${JSON.stringify(desiredAPIVersion)}`);
  }
  if (!Array.isArray(objects)) throw new KubeError('BadRequest', 'request.objects: must be a list');
  objects.forEach((o, i) => {
    if (!isRecord(o) || !isRecord(o.metadata)) throw new KubeError('BadRequest', `request.objects[${i}]: must be an object with metadata`);
  });
  return { apiVersion, uid, desiredAPIVersion, objects: objects as KubeObject[] };
}

function stringMap(value: unknown, what: string): Record<string, string> | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value)) throw new Error(`invalid metadata.${what}: must be a map of strings`);
  for (const k of Object.keys(value)) {
    if (typeof value[k] !== 'string') throw new Error(`metadata.${what}[${k}] must be a string`);
  }
  return value as Record<string, string>;
}

/** The original metadata with the converted object's labels and annotations, as the apiserver keeps it. */
function restoreMetadata(original: ObjectMeta, converted: unknown): ObjectMeta {
  if (converted === undefined || converted === original) return original;
  if (!isRecord(converted)) throw new Error('invalid metadata in converted object');
  const labels = stringMap(Object.hasOwn(converted, 'labels') ? converted.labels : undefined, 'labels');
  const annotations = stringMap(Object.hasOwn(converted, 'annotations') ? converted.annotations : undefined, 'annotations');
  if (labels === original.labels && annotations === original.annotations) return original;
  // Built afresh rather than copied and `delete`d: deleting puts an object in V8's slow dictionary mode.
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(original)) if (key !== 'labels' && key !== 'annotations') out[key] = (original as Record<string, unknown>)[key];
  if (labels !== undefined) out.labels = labels;
  if (annotations !== undefined) out.annotations = annotations;
  return out as ObjectMeta;
}

/**
 * Converts every object of a ConversionReview with `converter` and returns the review's response
 * (see the file's contract). Objects already of `desiredAPIVersion` are returned unchanged without
 * calling the converter.
 *
 * @throws KubeError (reason `BadRequest`) when `body` is not a ConversionReview with a request;
 *   conversion errors are not thrown but answered as `result.status: Failure`
 * @example
 * ```ts
 * const response = await reviewConversion(parseJSON(body), { convert: (o, to) => ({ ...o, apiVersion: to }) });
 * ```
 */
export async function reviewConversion(body: unknown, converter: Converter): Promise<ConversionReview> {
  const { apiVersion, uid, desiredAPIVersion, objects } = conversionRequestOf(body);
  const convertedObjects: KubeObject[] = new Array<KubeObject>(objects.length);
  let i = 0;
  try {
    for (; i < objects.length; i++) {
      const original = objects[i];
      if (original.apiVersion === desiredAPIVersion) {
        convertedObjects[i] = original;
        continue;
      }
      const result = converter.convert(original, desiredAPIVersion);
      const converted = result instanceof Promise ? await result : result;
      if (!isRecord(converted)) throw new Error('the converter returned no object');
      const kind = original.kind;
      const metadata = restoreMetadata(original.metadata, Object.hasOwn(converted, 'metadata') ? converted.metadata : undefined);
      if (converted.apiVersion === desiredAPIVersion && converted.kind === kind && converted.metadata === metadata) {
        convertedObjects[i] = converted;
        continue;
      }
      // The header first and the spread after it is V8's fast path; the header is then set over the body's.
      const out = { apiVersion: desiredAPIVersion, kind, metadata, ...(converted as object) } as KubeObject;
      out.apiVersion = desiredAPIVersion;
      out.kind = kind;
      out.metadata = metadata;
      convertedObjects[i] = out;
    }
  } catch (err) {
    const name = objects[i]?.metadata?.name;
    const message = `converting ${String(objects[i]?.apiVersion)}, Kind=${String(objects[i]?.kind)} ${name === undefined ? '' : `"${name}" `}to ${desiredAPIVersion}: ${errorMessage(err)}`;
    return { apiVersion, kind: 'ConversionReview', response: { uid, convertedObjects: [], result: { status: 'Failure', message } } };
  }
  return { apiVersion, kind: 'ConversionReview', response: { uid, convertedObjects, result: { status: 'Success' } } };
}
