import type { KubeObject, ObjectMeta } from '@kubekit/core';
import { customResourceInfo, isCustomResource } from './customResourceObject.js';
import { lookupRecord } from './internal/metadata.js';
import type { ClassRef } from './types.js';

/**
 * What a conversion function returns: the object of the target version without `apiVersion` and
 * `kind` (they are set for it); `metadata` may be left out (the original's is kept), and of a returned
 * `metadata` only `labels` and `annotations` count, as the apiserver allows a conversion to change
 * nothing else.
 */
export type ConvertedObject<T> = Omit<T, 'apiVersion' | 'kind' | 'metadata'> & { metadata?: Pick<ObjectMeta, 'labels' | 'annotations'> };

/** The two directions between one spoke version and the hub. */
export interface SpokeConversion<THub, TSpoke> {
  /** Converts a spoke object to the hub version; nothing may be lost that `fromHub` must restore. */
  toHub(spoke: TSpoke): ConvertedObject<THub>;
  /** Converts a hub object to the spoke version. */
  fromHub(hub: THub): ConvertedObject<TSpoke>;
}

interface Spoke {
  readonly className: string;
  readonly toHub: (o: KubeObject) => ConvertedObject<KubeObject>;
  readonly fromHub: (o: KubeObject) => ConvertedObject<KubeObject>;
}

/**
 * The original metadata with `given`'s labels and annotations. The rest copy defines every other key as
 * data (an own `__proto__` key of a decoded request stays a key, where an assignment would set the
 * copy's prototype), and needs no `delete`, which slows objects down.
 */
function mergedMetadata(original: ObjectMeta, given: Pick<ObjectMeta, 'labels' | 'annotations'>): ObjectMeta {
  const { labels: _labels, annotations: _annotations, ...rest } = original;
  const out: ObjectMeta = rest;
  if (Object.hasOwn(given, 'labels') && given.labels !== undefined) out.labels = given.labels;
  if (Object.hasOwn(given, 'annotations') && given.annotations !== undefined) out.annotations = given.annotations;
  return out;
}

function withHeader(body: ConvertedObject<KubeObject>, apiVersion: string, original: KubeObject): KubeObject {
  if (typeof body !== 'object' || body === null) throw new TypeError(`conversion to ${apiVersion} returned ${body === null ? 'null' : typeof body}, expected an object`);
  const given = Object.hasOwn(body, 'metadata') ? body.metadata : undefined;
  const kind = original.kind;
  const metadata = given === undefined || given === null ? original.metadata : mergedMetadata(original.metadata, given);
  // The header first and the body spread after it is V8's fast path (a spread followed by more
  // properties is two orders of magnitude slower); the header is then set again over the body's.
  const out = { apiVersion, kind, metadata, ...(body as object) } as KubeObject;
  out.apiVersion = apiVersion;
  out.kind = kind;
  out.metadata = metadata;
  return out;
}

/**
 * Hub-and-spoke conversion between the versions of one custom resource kind, declared beside its
 * decorated classes: each spoke version converts to and from the hub, and a spoke-to-spoke
 * conversion goes through the hub (as controller-runtime's `Hub`/`Convertible`). It is a `Converter`
 * for `@kubekit/webhook`'s server, and declaring it marks the kind for webhook conversion, so that
 * {@link customResourceDefinitions} (and `kubekit crd generate`) emit `spec.conversion` with strategy
 * `Webhook`, `conversionReviewVersions: ['v1']` and the `conversionWebhook` client config it is given.
 *
 * Conversion functions get the whole typed object and must not modify it; a converted object may share
 * parts (such as `metadata`) with the object it was converted from.
 */
export class HubAndSpokeConversion<THub> {
  /** `group/version` of the hub. */
  readonly hubAPIVersion: string;
  private readonly hubClass: ClassRef<THub>;
  private readonly spokes = new Map<string, Spoke>();
  private readonly group: string;
  private readonly kind: string;

  constructor(hub: ClassRef<THub>) {
    if (!isCustomResource(hub)) throw new TypeError(`hubAndSpokeConversion: ${(hub as { name?: string }).name} is not decorated with @CustomResource`);
    const info = customResourceInfo(hub);
    this.hubClass = hub;
    this.hubAPIVersion = info.apiVersion;
    this.group = info.group;
    this.kind = info.kind;
    lookupRecord(hub)!.conversion = { hub: lookupRecord(hub)!.className };
  }

  /** Every `group/version` this conversion knows: the hub's first, then the spokes' in declaration order. */
  get apiVersions(): string[] {
    return [this.hubAPIVersion, ...this.spokes.keys()];
  }

  /**
   * Adds a spoke version: a `@CustomResource` class of the hub's group and kind and another version.
   *
   * @throws TypeError when the class is not such a class, or its version is already declared
   */
  spoke<TSpoke>(cls: ClassRef<TSpoke>, conversion: SpokeConversion<THub, TSpoke>): this {
    if (!isCustomResource(cls)) throw new TypeError(`hubAndSpokeConversion: ${(cls as { name?: string }).name} is not decorated with @CustomResource`);
    const info = customResourceInfo(cls);
    const record = lookupRecord(cls)!;
    if (info.group !== this.group || info.kind !== this.kind) {
      throw new TypeError(`hubAndSpokeConversion: ${record.className} is ${info.kind}.${info.group}, not ${this.kind}.${this.group} as the hub ${lookupRecord(this.hubClass)!.className}`);
    }
    if (info.apiVersion === this.hubAPIVersion || this.spokes.has(info.apiVersion)) {
      throw new TypeError(`hubAndSpokeConversion: version ${info.version} of ${this.kind} is declared twice (${record.className})`);
    }
    this.spokes.set(info.apiVersion, {
      className: record.className,
      toHub: conversion.toHub as unknown as Spoke['toHub'],
      fromHub: conversion.fromHub as unknown as Spoke['fromHub'],
    });
    record.conversion = { hub: lookupRecord(this.hubClass)!.className };
    return this;
  }

  /**
   * Converts `object` to `desiredAPIVersion`: unchanged when it already is of that version, else to the
   * hub and from there to the desired spoke. The result has `apiVersion`, the original's `kind` and
   * metadata (with the conversion's labels and annotations).
   *
   * @throws TypeError when either version is not one of {@link HubAndSpokeConversion.apiVersions}
   */
  convert(object: KubeObject, desiredAPIVersion: string): KubeObject {
    const from = String(object.apiVersion);
    if (from === desiredAPIVersion) return object;
    const source = from === this.hubAPIVersion ? undefined : this.spokes.get(from);
    if (from !== this.hubAPIVersion && source === undefined) throw new TypeError(`no conversion from ${from} for ${this.kind}: expected one of ${this.apiVersions.join(', ')}`);
    const target = desiredAPIVersion === this.hubAPIVersion ? undefined : this.spokes.get(desiredAPIVersion);
    if (desiredAPIVersion !== this.hubAPIVersion && target === undefined) throw new TypeError(`no conversion to ${desiredAPIVersion} for ${this.kind}: expected one of ${this.apiVersions.join(', ')}`);
    const hub = source === undefined ? object : withHeader(source.toHub(object), this.hubAPIVersion, object);
    return target === undefined ? hub : withHeader(target.fromHub(hub), desiredAPIVersion, object);
  }
}

/**
 * Starts a hub-and-spoke conversion with `hub` as the hub version; add spokes with `.spoke()`.
 *
 * @example
 * ```ts
 * export const shirtConversion = hubAndSpokeConversion(ShirtV1).spoke(ShirtV1beta1, {
 *   toHub: ({ spec }) => ({ spec: { color: spec?.hue, size: spec?.size } }),
 *   fromHub: ({ spec }) => ({ spec: { hue: spec?.color, size: spec?.size } }),
 * });
 * ```
 */
export function hubAndSpokeConversion<THub>(hub: ClassRef<THub>): HubAndSpokeConversion<THub> {
  return new HubAndSpokeConversion(hub);
}
