/**
 * Conversion between the versions of a custom resource: `None` (the apiVersion is rewritten, fields
 * stay as they are) and `Webhook` (a `ConversionReview` is POSTed to the CRD's
 * `spec.conversion.webhook.clientConfig.url`, https with the CRD's `caBundle`).
 *
 * As in the apiserver, converting to the version an object already has never calls the webhook, and
 * no defaulting happens after a webhook conversion.
 *
 * @see https://kubernetes.io/docs/tasks/extend-kubernetes/custom-resources/custom-resource-definition-versioning/
 */
import { randomUUID } from 'node:crypto';
import { request as httpsRequest } from 'node:https';
import { KubeError, parseJSON, stringifyJSON, type KubeObject } from '@kubekit/core';
import type { CustomResourceDefinition } from '@kubekit/crd';

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

/** The `Webhook` strategy: a `ConversionReview` round trip per object. */
export class WebhookConverter implements Converter {
  readonly async = true;
  private readonly url: URL;
  private readonly ca: string | undefined;
  private readonly kind: string;
  private readonly group: string;
  private readonly reviewVersion: string;

  constructor(crd: CustomResourceDefinition, private readonly timeoutMs = 10_000) {
    const webhook = crd.spec.conversion?.webhook;
    const url = webhook?.clientConfig?.url;
    this.group = crd.spec.group;
    this.kind = crd.spec.names.kind;
    if (url === undefined) {
      throw new KubeError('InternalError', `conversion webhook for ${this.group}, Kind=${this.kind}: only clientConfig.url is supported by the embedded API server (no services)`);
    }
    this.url = new URL(url);
    const bundle = webhook?.clientConfig?.caBundle;
    this.ca = bundle === undefined || bundle === '' ? undefined : Buffer.from(bundle, 'base64').toString('utf8');
    this.reviewVersion = (webhook?.conversionReviewVersions ?? ['v1']).includes('v1') ? 'v1' : 'v1beta1';
  }

  convert(object: KubeObject, version: string): KubeObject | Promise<KubeObject> {
    if (versionOf(object) === version) return object;
    return this.call(object, `${this.group}/${version}`);
  }

  private failure(desired: string, message: string): KubeError {
    return new KubeError('InternalError', `conversion webhook for ${desired}, Kind=${this.kind} failed: ${message}`);
  }

  private async call(object: KubeObject, desired: string): Promise<KubeObject> {
    const uid = randomUUID();
    const review = {
      apiVersion: `apiextensions.k8s.io/${this.reviewVersion}`,
      kind: 'ConversionReview',
      request: { uid, desiredAPIVersion: desired, objects: [object] },
    };
    const text = await this.post(stringifyJSON(review)).catch((err: unknown) => {
      throw this.failure(desired, err instanceof Error ? err.message : String(err));
    });
    let parsed: { response?: { uid?: string; convertedObjects?: KubeObject[]; result?: { status?: string; message?: string } } };
    try {
      parsed = parseJSON(text) as typeof parsed;
    } catch (err) {
      throw this.failure(desired, `unmarshal response: ${err instanceof Error ? err.message : String(err)}`);
    }
    const response = parsed.response;
    if (response === undefined) throw this.failure(desired, 'no response provided');
    if (response.result?.status !== 'Success') throw this.failure(desired, response.result?.message ?? 'conversion failed');
    const converted = response.convertedObjects ?? [];
    if (converted.length !== 1) throw this.failure(desired, `expected 1 converted objects, got ${converted.length}`);
    const out = converted[0];
    if (out.apiVersion !== desired) throw this.failure(desired, `invalid converted object: expected apiVersion ${desired}, got ${String(out.apiVersion)}`);
    return out;
  }

  private post(body: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const req = httpsRequest(this.url, {
        method: 'POST',
        ca: this.ca,
        headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'Content-Length': Buffer.byteLength(body) },
        timeout: this.timeoutMs,
      }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if ((res.statusCode ?? 500) >= 300) reject(new Error(`the server responded with ${res.statusCode}: ${text.slice(0, 200)}`));
          else resolve(text);
        });
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', reject);
      req.end(body);
    });
  }
}

/** The converter of a CRD's `spec.conversion`. */
export function converterFor(crd: CustomResourceDefinition): Converter {
  if (crd.spec.conversion?.strategy === 'Webhook') return new WebhookConverter(crd);
  return new NoneConverter(crd.spec.group);
}
