/**
 * Conversion between the versions of a custom resource: `None` (the apiVersion is rewritten, fields
 * stay as they are) and `Webhook` (a `ConversionReview` is POSTed to the CRD's
 * `spec.conversion.webhook.clientConfig`, a `url` or a `service` resolved to a local URL, https with the
 * CRD's `caBundle`).
 *
 * As in the apiserver, converting to the version an object already has never calls the webhook, and
 * no defaulting happens after a webhook conversion.
 *
 * @see https://kubernetes.io/docs/tasks/extend-kubernetes/custom-resources/custom-resource-definition-versioning/
 */
import { randomUUID } from 'node:crypto';
import { KubeError, goQuote, stringifyJSON, type KubeObject, type ObjectMeta } from '@kubekit/core';
import type { CustomResourceDefinition } from '@kubekit/crd';
import { loopbackServiceResolver, postReview, type WebhookClientConfig, type WebhookServiceResolver } from './internal/webhookClient.js';
import { cloneJSON, isObject } from './internal/own.js';
import { conversionReviewKind, decodeReview, gvkString } from './internal/webhookReview.js';

/** Converts objects of one CRD to a version. */
export interface Converter {
  /** Whether conversions may be asynchronous (webhooks). */
  readonly async: boolean;
  /** Converts `object` to `version` (a version name of the CRD's group). */
  convert(object: KubeObject, version: string): KubeObject | Promise<KubeObject>;
}

function versionOf(obj: KubeObject): string {
  const av = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const slash = av.indexOf('/');
  return slash < 0 ? av : av.slice(slash + 1);
}

/** The `None` strategy: the same fields under the new apiVersion. */
export class NoneConverter implements Converter {
  readonly async = false;

  constructor(private readonly group: string) {}

  convert(object: KubeObject, version: string): KubeObject {
    if (versionOf(object) === version) return object;
    return { ...object, apiVersion: `${this.group}/${version}` };
  }
}

/** Options of {@link converterFor}. */
export interface ConverterOptions {
  /** Where `service` references are dialled. @defaultValue the service's port on 127.0.0.1 */
  resolveService?: WebhookServiceResolver;
  /** The deadline of each call, sent as its `?timeout=` (the webhook client's 30 s). @defaultValue 30000 ms */
  timeoutMs?: number;
}

/**
 * The `Webhook` strategy: a `ConversionReview` round trip per object, checked as the apiserver checks
 * the answer (apiextensions-apiserver `webhook_converter.go`): the review's kind and `uid`, one object
 * back, its group/version and kind, the same name, namespace and uid; then the original metadata is
 * restored except labels and annotations, which must be maps of strings.
 */
export class WebhookConverter implements Converter {
  readonly async = true;
  private readonly clientConfig: WebhookClientConfig;
  private readonly kind: string;
  private readonly group: string;
  private readonly reviewVersion: string;
  private readonly resolveService: WebhookServiceResolver;
  private readonly timeoutMs: number;

  constructor(crd: CustomResourceDefinition, options: ConverterOptions = {}) {
    const webhook = crd.spec.conversion?.webhook;
    this.group = crd.spec.group;
    this.kind = crd.spec.names.kind;
    this.clientConfig = { ...webhook?.clientConfig };
    this.resolveService = options.resolveService ?? loopbackServiceResolver;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.reviewVersion = (webhook?.conversionReviewVersions ?? ['v1']).find((v) => v === 'v1' || v === 'v1beta1') ?? 'v1';
  }

  convert(object: KubeObject, version: string): KubeObject | Promise<KubeObject> {
    if (versionOf(object) === version) return object;
    return this.call(object, `${this.group}/${version}`);
  }

  private failure(from: KubeObject, message: string): KubeError {
    return new KubeError('InternalError', `conversion webhook for ${String(from.apiVersion)}, Kind=${this.kind} failed: ${message}`);
  }

  private async call(object: KubeObject, desired: string): Promise<KubeObject> {
    const uid = randomUUID();
    const review = {
      apiVersion: `apiextensions.k8s.io/${this.reviewVersion}`,
      kind: 'ConversionReview',
      request: { uid, desiredAPIVersion: desired, objects: [object] },
    };
    const text = await postReview(this.clientConfig, stringifyJSON(review), this.timeoutMs, this.resolveService, { timeoutParameter: true }).catch((err: unknown) => {
      throw this.failure(object, err instanceof Error ? err.message : String(err));
    });
    // Decoded as client-go's Result.Into decodes it, then checked as getConvertedObjectsFromResponse checks it.
    const decoded = decodeReview(text, conversionReviewKind, this.reviewVersion);
    if ('callError' in decoded) throw this.failure(object, decoded.callError);
    const body = decoded.review;
    const [apiVersion, kind] = [typeof body.apiVersion === 'string' ? body.apiVersion : '', typeof body.kind === 'string' ? body.kind : ''];
    if (this.reviewVersion === 'v1' && (apiVersion !== 'apiextensions.k8s.io/v1' || kind !== 'ConversionReview')) {
      throw this.failure(object, `expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got ${gvkString(apiVersion, kind)}`);
    }
    const response = isObject(body.response) ? body.response : undefined;
    if (response === undefined) throw this.failure(object, 'no response provided');
    const answeredUID = typeof response.uid === 'string' ? response.uid : '';
    if (this.reviewVersion === 'v1' && answeredUID !== uid) throw this.failure(object, `expected response.uid=${goQuote(uid)}, got ${goQuote(answeredUID)}`);
    const result = isObject(response.result) ? response.result : {};
    if (result.status !== 'Success') {
      throw this.failure(object, typeof result.message === 'string' && result.message !== '' ? result.message : `response.result.status was '${String(result.status ?? '')}', not 'Success'`);
    }
    const converted = Array.isArray(response.convertedObjects) ? response.convertedObjects : [];
    if (converted.length !== 1) throw new KubeError('InternalError', `conversion webhook for ${String(object.apiVersion)}, Kind=${this.kind} returned ${converted.length} objects, expected 1`);
    const out = converted[0];
    const invalidObject = (why: string): KubeError => new KubeError('InternalError', `conversion webhook for ${String(object.apiVersion)}, Kind=${this.kind} returned invalid object at index 0: ${why}`);
    if (!isObject(out)) throw invalidObject('not an object');
    if (out.apiVersion !== desired) throw invalidObject(`invalid groupVersion (expected ${desired}, received ${String(out.apiVersion ?? '')})`);
    if (out.kind !== object.kind) throw invalidObject(`invalid kind (expected ${String(object.kind)}, received ${String(out.kind ?? '')})`);
    const meta = isObject(out.metadata) ? out.metadata : undefined;
    for (const field of ['name', 'namespace', 'uid'] as const) {
      const want = object.metadata[field] ?? '';
      const got = meta?.[field] ?? '';
      if (want !== got) throw new KubeError('InternalError', `conversion webhook for ${String(object.apiVersion)}, Kind=${this.kind} returned invalid object: must have the same ${field === 'uid' ? 'UID' : field}: ${String(want)} != ${String(got)}`);
    }
    return { ...(out as KubeObject), metadata: this.restoreMetadata(object, meta) };
  }

  /** The original metadata with the converted object's labels and annotations (`restoreObjectMeta`). */
  private restoreMetadata(original: KubeObject, converted: Record<string, unknown> | undefined): ObjectMeta {
    if (converted === undefined) throw new KubeError('InternalError', `conversion webhook for ${String(original.apiVersion)}, Kind=${this.kind} returned invalid metadata: missing metadata in converted object`);
    // cloneJSON, not structuredClone: managed fields of a deep object nest past structuredClone's stack.
    const metadata: ObjectMeta = cloneJSON(original.metadata);
    for (const field of ['labels', 'annotations'] as const) {
      const value = Object.hasOwn(converted, field) ? converted[field] : undefined;
      if (value === undefined || value === null) {
        delete metadata[field];
        continue;
      }
      const bad = !isObject(value) ? `invalid metadata.${field} of type ${Array.isArray(value) ? '[]interface {}' : typeof value} in converted object`
        : Object.keys(value).filter((k) => typeof value[k] !== 'string').map((k) => `metadata.${field}[${k}] must be a string, but is ${typeof value[k]} in converted object`)[0];
      if (bad !== undefined) throw new KubeError('InternalError', `conversion webhook for ${String(original.apiVersion)}, Kind=${this.kind} returned invalid metadata: ${bad}`);
      metadata[field] = value as Record<string, string>;
    }
    return metadata;
  }
}

/** The converter of a CRD's `spec.conversion`. */
export function converterFor(crd: CustomResourceDefinition, options: ConverterOptions = {}): Converter {
  if (crd.spec.conversion?.strategy === 'Webhook') return new WebhookConverter(crd, options);
  return new NoneConverter(crd.spec.group);
}
