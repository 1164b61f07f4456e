// Selecting by field (extract + match) against selecting by label, on the same 10,000 custom
// resources, from one run. The field is a KEP-4358 selectable field (`.spec.color`); the label holds
// the same value, so both select the same third of the objects. Target: field / label ≤ 1.0.
// Run: node --import tsx --conditions=kubekit-source bench/attrs-defaulter/fieldSelection.ts
import { compileFieldGetter, compileFieldSet, createCustomResourceFields, selectorMatcher } from '@kubekit/attrs';
import { parseFieldSelector, parseLabelSelector } from '@kubekit/selectors';
import { measure, ratio, report } from '../internal/measure.js';

const colors = ['red', 'green', 'blue'];
const objects = Array.from({ length: 10_000 }, (_, i) => ({
  apiVersion: 'stable.example.com/v1',
  kind: 'Shirt',
  metadata: {
    name: `shirt-${i}`,
    namespace: `ns-${i % 10}`,
    uid: `6f1b6f0e-${i}-4c1a-9d3b-2b7f1c9e`,
    resourceVersion: String(100000 + i),
    generation: 1,
    labels: { app: 'shop', color: colors[i % 3], tier: i % 2 === 0 ? 'web' : 'api' },
    annotations: { 'example.com/note': 'x'.repeat(32) },
  },
  spec: { color: colors[i % 3], size: ['S', 'M', 'L', 'XL'][i % 4], quantity: i % 7, branded: i % 2 === 0 },
  status: { phase: 'Ready' },
}));

const options = {
  namespaced: true,
  selectableFields: [{ jsonPath: '.spec.color' }, { jsonPath: '.spec.size' }, { jsonPath: '.spec.quantity' }, { jsonPath: '.spec.branded' }],
};
const shirts = createCustomResourceFields(options);
const byField = selectorMatcher({ fields: shirts, fieldSelector: 'spec.color=blue' });
const byLabel = selectorMatcher({ fields: shirts, labelSelector: 'color=blue' });
const labelSelector = parseLabelSelector('color=blue');
const fieldSelector = parseFieldSelector('spec.color=blue');
const fieldSet = compileFieldSet(options);
const fieldGetter = compileFieldGetter(options);

const fieldCount = objects.filter(byField.matches).length;
const labelCount = objects.filter(byLabel.matches).length;
if (fieldCount !== labelCount || fieldCount !== objects.filter((o) => labelSelector.matches(o.metadata.labels)).length) {
  throw new Error(`selections differ: field ${fieldCount}, label ${labelCount}`);
}

const label = measure('label: LabelSelector.matches(metadata.labels)', objects, (o) => labelSelector.matches(o.metadata.labels));
const labelPredicate = measure('label: selectorMatcher (labels read from the object)', objects, (o) => byLabel.matches(o));
const field = measure('field: selectorMatcher (extract spec.color + match)', objects, (o) => byField.matches(o));
const lazy = measure('field: FieldSelector.matches(compileFieldGetter(o))', objects, (o) => fieldSelector.matches(fieldGetter(o)));
const eager = measure('field: FieldSelector.matches(compileFieldSet(o)) (all 6 fields)', objects, (o) => fieldSelector.matches(fieldSet(o)));
report([label, labelPredicate, field, lazy, eager]);
console.log(`${objects.length} objects, ${fieldCount} selected by each`);
ratio('field selection / label selection (target <= 1.0)', field, label);
ratio('field selection / label selection through selectorMatcher', field, labelPredicate);
ratio('lazy getter + FieldSelector / label selection', lazy, label);
ratio('eager field set + FieldSelector / label selection', eager, label);
