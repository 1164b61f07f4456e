import { expect } from 'chai';
import fc from 'fast-check';
import { skipManagedFieldsInEvent, skipManagedFieldsInList, skipManagedFieldsInObject } from '../../src/internal/skipManagedFields.js';

/** What the default transform leaves of an object: the same without `metadata.managedFields`. */
function dropped(obj: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(obj);
  const meta = copy.metadata as Record<string, unknown> | undefined;
  if (meta !== null && typeof meta === 'object' && !Array.isArray(meta)) delete meta.managedFields;
  return copy;
}

/** JSON as the apiserver writes custom resources: compact, keys sorted. */
function sortedJSON(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJSON).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${sortedJSON(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function write(value: unknown, style: 'compact' | 'spaced' | 'sorted'): string {
  return style === 'sorted' ? sortedJSON(value) : style === 'spaced' ? JSON.stringify(value, null, 2) : JSON.stringify(value);
}

/** Parsed back, as the informer would see it (-0 is 0 in JSON). */
function roundTrip(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}

const styles = fc.constantFrom('compact' as const, 'spaced' as const, 'sorted' as const);

const managedFields = [
  { manager: 'kubectl', operation: 'Update', apiVersion: 'v1', time: '2025-01-01T00:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { '.': {}, 'f:managedFields': {} }, 'f:status': { 'k:{"type":"Ready"}': { '.': {} } } } },
  { manager: 'a "quoted" \\ manager ]}', operation: 'Apply', fieldsV1: { 'f:metadata': { 'f:labels': { 'f:x]': {} } } } },
];

const arbObject = fc.record({
  apiVersion: fc.constant('stable.example.com/v1'),
  kind: fc.constant('Shirt'),
  metadata: fc.record({
    name: fc.string(),
    labels: fc.dictionary(fc.string(), fc.string()),
    annotations: fc.dictionary(fc.constantFrom('"managedFields":[', 'a', 'managedFields', '\\"'), fc.string()),
    managedFields: fc.constantFrom(managedFields, [], undefined),
    generation: fc.integer(),
    finalizers: fc.array(fc.string()),
    uid: fc.string(),
  }, { requiredKeys: ['name'] }),
  spec: fc.record({ managedFields: fc.jsonValue(), other: fc.jsonValue(), metadata: fc.record({ managedFields: fc.jsonValue() }) }, { requiredKeys: [] }),
  data: fc.record({ metadata: fc.record({ managedFields: fc.constant(managedFields) }) }, { requiredKeys: [] }),
}, { requiredKeys: ['apiVersion', 'kind', 'metadata'] });

describe('skipManagedFields', () => {
  it('does cut only object.metadata.managedFields from a watch event, whatever else is named so', () => {
    fc.assert(fc.property(arbObject, styles, (obj, style) => {
      // The event envelope is a Go struct: type first, whatever the object's key order.
      const text = style === 'sorted' ? `{"type":"MODIFIED","object":${sortedJSON(obj)}}` : write({ type: 'MODIFIED', object: obj }, style);
      expect(JSON.parse(skipManagedFieldsInEvent(text))).to.deep.equal(roundTrip({ type: 'MODIFIED', object: dropped(obj as Record<string, unknown>) }));
    }), { numRuns: 500 });
  });

  it('does cut only metadata.managedFields from an object', () => {
    fc.assert(fc.property(arbObject, styles, (obj, style) => {
      expect(JSON.parse(skipManagedFieldsInObject(write(obj, style)))).to.deep.equal(roundTrip(dropped(obj as Record<string, unknown>)));
    }), { numRuns: 300 });
  });

  it('does cut only items[*].metadata.managedFields from a list', () => {
    fc.assert(fc.property(fc.array(arbObject, { maxLength: 5 }), styles, (items, style) => {
      const list = { apiVersion: 'stable.example.com/v1', kind: 'ShirtList', metadata: { resourceVersion: '1', managedFields }, items };
      const expected = { ...list, items: items.map((o) => dropped(o as Record<string, unknown>)) };
      expect(JSON.parse(skipManagedFieldsInList(write(list, style)))).to.deep.equal(roundTrip(expected));
    }), { numRuns: 500 });
  });

  // A `"name":` right after an array may stand anywhere (here in spec, after `a`): when metadata has no
  // name of its own after managedFields, the fast path must not take that one for the array's end.
  it('does cut only managedFields when metadata has no name after it and spec has `],"name":`', () => {
    const arbNameless = fc.record({
      apiVersion: fc.constant('stable.example.com/v1'),
      kind: fc.constant('Shirt'),
      metadata: fc.record({ name: fc.string(), managedFields: fc.constantFrom(managedFields, [{ manager: 'm', fieldsV1: { 'f:spec': {} } }], []), uid: fc.string() }, { requiredKeys: ['managedFields'] }),
      spec: fc.record({ a: fc.array(fc.jsonValue(), { maxLength: 2 }), name: fc.string() }),
    });
    fc.assert(fc.property(fc.array(arbNameless, { minLength: 1, maxLength: 3 }), styles, (items, style) => {
      const obj = items[0];
      const event = style === 'sorted' ? `{"type":"MODIFIED","object":${sortedJSON(obj)}}` : write({ type: 'MODIFIED', object: obj }, style);
      expect(JSON.parse(skipManagedFieldsInEvent(event))).to.deep.equal(roundTrip({ type: 'MODIFIED', object: dropped(obj) }));
      expect(JSON.parse(skipManagedFieldsInObject(write(obj, style)))).to.deep.equal(roundTrip(dropped(obj)));
      const list = { apiVersion: 'stable.example.com/v1', items, kind: 'ShirtList', metadata: { resourceVersion: '1' } };
      expect(JSON.parse(skipManagedFieldsInList(write(list, style)))).to.deep.equal(roundTrip({ ...list, items: items.map((o) => dropped(o)) }));
    }), { numRuns: 300 });
    const text = '{"type":"ADDED","object":{"apiVersion":"v1","kind":"X","metadata":{"managedFields":[{"manager":"m"}],"namespace":"d"},"spec":{"a":[],"name":"keep"}}}';
    expect(JSON.parse(skipManagedFieldsInEvent(text))).to.deep.equal({ type: 'ADDED', object: { apiVersion: 'v1', kind: 'X', metadata: { namespace: 'd' }, spec: { a: [], name: 'keep' } } });
  });

  it('does cut managedFields wherever it stands among the metadata members', () => {
    for (const text of [
      '{"type":"ADDED","object":{"metadata":{"managedFields":[{"a":1}],"name":"x"}}}',
      '{"type":"ADDED","object":{"metadata":{"name":"x","managedFields":[{"a":1}]}}}',
      '{"type":"ADDED","object":{"metadata":{"managedFields":[]}}}',
      '{ "type" : "ADDED" , "object" : { "metadata" : { "name" : "x" , "managedFields" : [ { "a" : "]" } ] , "uid" : "u" } } }',
    ]) {
      const expected = JSON.parse(text) as { object: Record<string, unknown> };
      expected.object = dropped(expected.object);
      expect(JSON.parse(skipManagedFieldsInEvent(text)), text).to.deep.equal(expected);
    }
  });

  it('does leave text that is not well-formed as it is, for the parser to report', () => {
    for (const text of ['{"type":"ADDED","object":{"metadata":{"managedFields":[{"a":"', '{"object":{"metadata":{"managedFields":[[[', 'not json "managedFields"']) {
      expect(skipManagedFieldsInEvent(text)).to.equal(text);
    }
  });

  // Regression: the walk cut the member whatever stood around it, so text that is not JSON could come
  // out as JSON (two digit runs joined into one number, here an integer beyond 2^53).
  it('does not make JSON of text that is not: a member not set off by `,`, `{` or `}` stays', () => {
    for (const text of [
      '{"type":"ADDED","object":{"metadata":{"a":12345678"managedFields":5,9012345678}}}',
      '{"type":"ADDED","object":{"metadata":{"a":1234,"managedFields":[]5678901234567}}}',
      '{"type":"ADDED","object":{"metadata":{"a":1234 "managedFields":{} ,5678901234567}}}',
      '{"type":"ADDED","object":{"metadata":{"managedFields":[]5678901234567}}}',
    ]) {
      const out = skipManagedFieldsInEvent(text);
      expect(() => JSON.parse(out), text).to.throw(SyntaxError);
    }
  });
});
