// The ScaleHandler's conversions of managed fields between an object and its Scale, on cases of the upstream
// table (k8s.io/apimachinery v0.34.4 pkg/util/managedfields/scalehandler_test.go: TestTransformManagedFieldsToSubresource
// and TestTransformingManagedFieldsToParent), with its mappings: apps/v1 keeps the replicas at spec.replicas.
import type { ManagedFieldsEntry } from '@kubekit/core';
import { expect } from 'chai';
import { parentEntriesOf, replicasPathMappings, scaleEntriesOf } from '../../src/managedFields/scaleHandler.js';

const mappings = replicasPathMappings(['apps/v1'], '.spec.replicas');
const time = '2013-02-03T00:00:00Z';
const replicas = { 'f:spec': { 'f:replicas': {} } };
const entry = (manager: string, operation: 'Apply' | 'Update', apiVersion: string, fieldsV1: Record<string, unknown>, more: Partial<ManagedFieldsEntry> = {}): ManagedFieldsEntry =>
  ({ manager, operation, apiVersion, ...(more.time !== undefined ? { time: more.time } : {}), fieldsType: 'FieldsV1', fieldsV1, ...(more.subresource !== undefined ? { subresource: more.subresource } : {}) });

describe('ScaleHandler: managed fields between an object and its Scale', () => {
  describe('to the Scale (ToSubresource)', () => {
    it('filters the entries that own the replicas and moves them to autoscaling/v1, keeping their time', () => {
      expect(scaleEntriesOf([
        entry('manager-1', 'Apply', 'apps/v1', { 'f:spec': { 'f:another-field': {} } }),
        entry('manager-2', 'Apply', 'apps/v1', replicas, { time }),
      ], mappings)).to.deep.equal([entry('manager-2', 'Apply', 'autoscaling/v1', replicas, { time })]);
    });

    it('transforms every entry that owns them, subresource entries included', () => {
      expect(scaleEntriesOf([
        entry('manager-1', 'Apply', 'apps/v1', replicas),
        entry('manager-2', 'Apply', 'apps/v1', replicas),
        entry('manager-3', 'Apply', 'apps/v1', replicas, { subresource: 'scale' }),
      ], mappings)).to.deep.equal([
        entry('manager-1', 'Apply', 'autoscaling/v1', replicas),
        entry('manager-2', 'Apply', 'autoscaling/v1', replicas),
        entry('manager-3', 'Apply', 'autoscaling/v1', replicas, { subresource: 'scale' }),
      ]);
    });

    it('drops entries of an unknown API version', () => {
      expect(scaleEntriesOf([entry('manager-1', 'Apply', 'apps/v10', replicas)], mappings)).to.equal(undefined);
    });
  });

  describe('back to the object (ToParent)', () => {
    const selector = { 'f:spec': { 'f:replicas': {}, 'f:selector': {} } };
    it('different managers, apply then update: the Scale writer takes the replicas', () => {
      expect(parentEntriesOf([entry('test', 'Apply', 'apps/v1', selector)], [entry('scale', 'Update', 'autoscaling/v1', replicas, { subresource: 'scale' })], mappings, 'apps/v1')).to.deep.equal([
        entry('test', 'Apply', 'apps/v1', { 'f:spec': { 'f:selector': {} } }),
        entry('scale', 'Update', 'apps/v1', replicas, { subresource: 'scale' }),
      ]);
    });

    it('different managers, apply then apply: sorted as the apiserver sorts entries', () => {
      expect(parentEntriesOf([entry('test', 'Apply', 'apps/v1', selector)], [entry('scale', 'Apply', 'autoscaling/v1', replicas, { subresource: 'scale' })], mappings, 'apps/v1')).to.deep.equal([
        entry('scale', 'Apply', 'apps/v1', replicas, { subresource: 'scale' }),
        entry('test', 'Apply', 'apps/v1', { 'f:spec': { 'f:selector': {} } }),
      ]);
    });

    it('keeps a parent entry whose fields the Scale does not own, and drops a Scale entry without the replicas', () => {
      expect(parentEntriesOf([entry('test', 'Apply', 'apps/v1', { 'f:spec': { 'f:selector': {} } })], [entry('scale', 'Update', 'autoscaling/v1', { 'f:status': { 'f:replicas': {} } }, { subresource: 'scale' })], mappings, 'apps/v1')).to.deep.equal([
        entry('test', 'Apply', 'apps/v1', { 'f:spec': { 'f:selector': {} } }),
      ]);
    });

    it('removes a parent entry the Scale writer took every field from', () => {
      expect(parentEntriesOf([entry('test', 'Apply', 'apps/v1', replicas)], [entry('scale', 'Update', 'autoscaling/v1', replicas, { subresource: 'scale' })], mappings, 'apps/v1')).to.deep.equal([
        entry('scale', 'Update', 'apps/v1', replicas, { subresource: 'scale' }),
      ]);
    });

    it('applies without stealing when the applier keeps its entry', () => {
      expect(parentEntriesOf([entry('test', 'Apply', 'apps/v1', selector)], [
        entry('test', 'Apply', 'autoscaling/v1', replicas),
        entry('test', 'Apply', 'autoscaling/v1', replicas, { subresource: 'scale' }),
      ], mappings, 'apps/v1')).to.deep.equal([
        entry('test', 'Apply', 'apps/v1', selector),
        entry('test', 'Apply', 'apps/v1', replicas, { subresource: 'scale' }),
      ]);
    });

    it('reads two entries of one identifier as the later one, as Go\'s map does (what a write through /scale leaves)', () => {
      const parent = [entry('m', 'Update', 'apps/v1', replicas), entry('m', 'Update', 'apps/v1', { 'f:spec': { 'f:selector': {} } }, { time })];
      expect(scaleEntriesOf(parent, mappings)).to.equal(undefined);
      expect(parentEntriesOf(parent, undefined, mappings, 'apps/v1')).to.deep.equal([entry('m', 'Update', 'apps/v1', { 'f:spec': { 'f:selector': {} } }, { time })]);
    });

    it('reads managed fields it cannot take as entries as none', () => {
      expect(scaleEntriesOf({ bogus: 1 } as unknown as ManagedFieldsEntry[], mappings)).to.equal(undefined);
      expect(scaleEntriesOf([null] as unknown as ManagedFieldsEntry[], mappings)).to.equal(undefined);
    });
  });
});
