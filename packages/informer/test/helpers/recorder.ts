import { expect } from 'chai';
import type { KubeObject } from '@kubekit/core';
import type { ObjectEvent, ReflectorTarget } from '../../src/reflector.js';

function keyOf(o: KubeObject): string {
  return `${o.metadata.namespace ?? ''}/${o.metadata.name}`;
}

/** A reflector target that keeps a cache and counts anything applied twice or out of place. */
export class Recorder<T extends KubeObject = KubeObject> implements ReflectorTarget<T> {
  cache = new Map<string, T>();
  replaces = 0;
  applied = 0;
  anomalies: string[] = [];
  lastReplaceRv: string | undefined;

  replace(objects: T[], resourceVersion: string): void {
    this.cache = new Map(objects.map((o) => [keyOf(o), o]));
    this.replaces++;
    this.lastReplaceRv = resourceVersion;
  }

  apply(event: ObjectEvent<T>): void {
    this.applied++;
    const k = keyOf(event.object);
    const old = this.cache.get(k);
    if (event.type === 'DELETED') {
      if (old === undefined) this.anomalies.push(`DELETED of absent ${k}`);
      this.cache.delete(k);
      return;
    }
    if (event.type === 'ADDED' && old !== undefined) this.anomalies.push(`ADDED of present ${k}`);
    if (event.type === 'MODIFIED' && old === undefined) this.anomalies.push(`MODIFIED of absent ${k}`);
    if (old !== undefined && Number(old.metadata.resourceVersion) >= Number(event.object.metadata.resourceVersion)) {
      this.anomalies.push(`${event.type} of ${k} at rv ${event.object.metadata.resourceVersion} after ${old.metadata.resourceVersion}`);
    }
    this.cache.set(k, event.object);
  }

  /** `key@resourceVersion` of every cached object, sorted. */
  snapshot(): string[] {
    return [...this.cache.values()].map((o) => `${keyOf(o)}@${o.metadata.resourceVersion}`).sort();
  }
}

/** `key@resourceVersion` of objects, sorted. */
export function snapshotOf(objects: Iterable<KubeObject>): string[] {
  return [...objects].map((o) => `${keyOf(o)}@${o.metadata.resourceVersion}`).sort();
}

/** Asserts the recorder equals `expected` and saw no anomaly. */
export function expectInSync(recorder: Recorder, expected: Iterable<KubeObject>): void {
  expect(recorder.anomalies).to.deep.equal([]);
  expect(recorder.snapshot()).to.deep.equal(snapshotOf(expected));
}
