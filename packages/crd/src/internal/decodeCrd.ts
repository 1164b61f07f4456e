/**
 * Decoding of a whole v1 CustomResourceDefinition (metadata, spec, status) into the {@link Crd} model,
 * with the strict-decoding rules of {@link Decoder}, plus the v1 defaults that decoding applies
 * (a webhook service's port 443).
 */
import { FieldError, FieldPath } from '@kubekit/core';
import { Decoder } from './decode.js';
import type { Condition, Conversion, Crd, Meta, Selectable, Spec, Status, Validation, Version } from './model.js';

const objectMetaKeys = new Set([
  'name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion', 'generation', 'creationTimestamp',
  'deletionTimestamp', 'deletionGracePeriodSeconds', 'labels', 'annotations', 'ownerReferences', 'finalizers',
  'managedFields',
]);
const crdKeys = new Set(['apiVersion', 'kind', 'metadata', 'spec', 'status']);
const specKeys = new Set(['group', 'names', 'scope', 'versions', 'conversion', 'preserveUnknownFields']);
const selectableFieldKeys = new Set(['jsonPath']);
const validationKeys = new Set(['openAPIV3Schema']);
const conversionKeys = new Set(['strategy', 'webhook']);
const webhookKeys = new Set(['clientConfig', 'conversionReviewVersions']);
const clientConfigKeys = new Set(['url', 'service', 'caBundle']);
const serviceKeys = new Set(['namespace', 'name', 'path', 'port']);
const statusKeys = new Set(['conditions', 'acceptedNames', 'storedVersions', 'observedGeneration']);
const conditionKeys = new Set(['type', 'status', 'lastTransitionTime', 'reason', 'message', 'observedGeneration']);
const versionKeys = new Set(['name', 'served', 'storage', 'deprecated', 'deprecationWarning', 'schema', 'subresources',
  'additionalPrinterColumns', 'selectableFields']);

/** A {@link Decoder} for whole CRDs. */
class CrdDecoder extends Decoder {
  crd(v: unknown): Crd {
    const root = FieldPath.root('');
    const o = this.object(v, root, 'v1.CustomResourceDefinition') ?? {};
    this.unknownKeys(o, crdKeys, root);
    return {
      metadata: this.meta(o.metadata, FieldPath.root('metadata')),
      spec: this.spec(o.spec, FieldPath.root('spec')),
      status: this.status(o.status, FieldPath.root('status')),
    };
  }

  private meta(v: unknown, path: FieldPath): Meta {
    const o = this.object(v, path, 'v1.ObjectMeta') ?? {};
    this.unknownKeys(o, objectMetaKeys, path);
    this.string(o.uid, path, 'uid');
    this.string(o.resourceVersion, path, 'resourceVersion');
    this.int(o.generation, path, 'generation', 64);
    this.stringArray(o.finalizers, path, 'finalizers');
    this.stringMap(o.labels, path.child('labels'));
    return {
      name: this.string(o.name, path, 'name') ?? '',
      generateName: this.string(o.generateName, path, 'generateName') ?? '',
      namespace: this.string(o.namespace, path, 'namespace') ?? '',
      annotations: this.stringMap(o.annotations, path.child('annotations')),
    };
  }

  private spec(v: unknown, path: FieldPath): Spec {
    const o = this.object(v, path, 'v1.CustomResourceDefinitionSpec') ?? {};
    this.unknownKeys(o, specKeys, path);
    return {
      group: this.string(o.group, path, 'group') ?? '',
      version: '',
      names: this.names(o.names, path.child('names')),
      scope: this.string(o.scope, path, 'scope') ?? '',
      versions: this.array(o.versions, path.child('versions'), '[]v1.CustomResourceDefinitionVersion', (x, p) => this.version(x, p)),
      conversion: this.conversion(o.conversion, path.child('conversion')),
      preserveUnknownFields: this.bool(o.preserveUnknownFields, path, 'preserveUnknownFields'),
    };
  }



  private version(v: unknown, path: FieldPath): Version | undefined {
    const o = this.object(v, path, 'v1.CustomResourceDefinitionVersion');
    if (o === undefined) return v === null ? { name: '', served: false, storage: false, deprecated: false } : undefined;
    this.unknownKeys(o, versionKeys, path);
    return {
      name: this.string(o.name, path, 'name') ?? '',
      served: this.bool(o.served, path, 'served') ?? false,
      storage: this.bool(o.storage, path, 'storage') ?? false,
      deprecated: this.bool(o.deprecated, path, 'deprecated') ?? false,
      deprecationWarning: this.string(o.deprecationWarning, path, 'deprecationWarning'),
      schema: this.validation(o.schema, path.child('schema')),
      subresources: this.subresources(o.subresources, path.child('subresources')),
      additionalPrinterColumns: this.array(o.additionalPrinterColumns, path.child('additionalPrinterColumns'),
        '[]v1.CustomResourceColumnDefinition', (x, p) => this.column(x, p)),
      selectableFields: this.array(o.selectableFields, path.child('selectableFields'), '[]v1.SelectableField', (x, p) => {
        const f = this.object(x, p, 'v1.SelectableField');
        if (f === undefined) return x === null ? { jsonPath: '' } : undefined;
        this.unknownKeys(f, selectableFieldKeys, p);
        return { jsonPath: this.string(f.jsonPath, p, 'jsonPath') ?? '' } satisfies Selectable;
      }),
    };
  }

  private validation(v: unknown, path: FieldPath): Validation | undefined {
    const o = this.object(v, path, 'v1.CustomResourceValidation');
    if (o === undefined) return undefined;
    this.unknownKeys(o, validationKeys, path);
    return { openAPIV3Schema: this.schema(o.openAPIV3Schema, path.child('openAPIV3Schema'), 0) };
  }





  private conversion(v: unknown, path: FieldPath): Conversion | undefined {
    const o = this.object(v, path, 'v1.CustomResourceConversion');
    if (o === undefined) return undefined;
    this.unknownKeys(o, conversionKeys, path);
    const out: Conversion = { strategy: this.string(o.strategy, path, 'strategy') ?? '' };
    const wp = path.child('webhook');
    const webhook = this.object(o.webhook, wp, 'v1.WebhookConversion');
    if (webhook !== undefined) {
      this.unknownKeys(webhook, webhookKeys, wp);
      out.conversionReviewVersions = this.stringArray(webhook.conversionReviewVersions, wp, 'conversionReviewVersions');
      const cp = wp.child('clientConfig');
      const cc = this.object(webhook.clientConfig, cp, 'v1.WebhookClientConfig');
      if (cc !== undefined) {
        this.unknownKeys(cc, clientConfigKeys, cp);
        const config: NonNullable<Conversion['webhookClientConfig']> = {
          url: this.string(cc.url, cp, 'url'),
          caBundle: this.string(cc.caBundle, cp, 'caBundle'),
        };
        if (config.caBundle !== undefined && !/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(config.caBundle)) {
          this.errors.push(new FieldError('FieldValueTypeInvalid', cp.child('caBundle'), config.caBundle, 'illegal base64 data'));
        }
        const sp = cp.child('service');
        const svc = this.object(cc.service, sp, 'v1.ServiceReference');
        if (svc !== undefined) {
          this.unknownKeys(svc, serviceKeys, sp);
          config.service = {
            namespace: this.string(svc.namespace, sp, 'namespace') ?? '',
            name: this.string(svc.name, sp, 'name') ?? '',
            path: this.string(svc.path, sp, 'path'),
            // v1 defaulting: SetDefaults_ServiceReference.
            port: this.int(svc.port, sp, 'port', 32) ?? 443,
          };
        }
        out.webhookClientConfig = config;
      }
    }
    return out;
  }

  private status(v: unknown, path: FieldPath): Status {
    const o = this.object(v, path, 'v1.CustomResourceDefinitionStatus') ?? {};
    this.unknownKeys(o, statusKeys, path);
    this.int(o.observedGeneration, path, 'observedGeneration', 64);
    return {
      conditions: this.array(o.conditions, path.child('conditions'), '[]v1.CustomResourceDefinitionCondition', (x, p) => {
        const c = this.object(x, p, 'v1.CustomResourceDefinitionCondition');
        if (c === undefined) return undefined;
        this.unknownKeys(c, conditionKeys, p);
        this.string(c.lastTransitionTime, p, 'lastTransitionTime');
        this.string(c.reason, p, 'reason');
        this.string(c.message, p, 'message');
        this.int(c.observedGeneration, p, 'observedGeneration', 64);
        return { type: this.string(c.type, p, 'type') ?? '', status: this.string(c.status, p, 'status') ?? '' } satisfies Condition;
      }),
      acceptedNames: this.names(o.acceptedNames, path.child('acceptedNames')),
      storedVersions: this.stringArray(o.storedVersions, path, 'storedVersions'),
    };
  }
}

/** Decodes a CRD. */
export function decodeCrd(raw: unknown): { crd: Crd; errors: FieldError[] } {
  const d = new CrdDecoder();
  const crd = d.crd(raw);
  return { crd, errors: d.errors };
}
