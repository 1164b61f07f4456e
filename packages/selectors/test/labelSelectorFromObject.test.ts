import { expect } from 'chai';
import fc from 'fast-check';
import {
  SelectorParseError, labelSelectorAsMap, labelSelectorFromObject, parseLabelSelector, validateLabelSelector,
  type LabelSelectorObject,
} from '@kubekit/selectors';
import { parseError } from './helpers/fixtures.js';

describe('labelSelectorFromObject', () => {
  // upstream: staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/helpers_test.go TestLabelSelectorAsSelector
  const matchLabels = { foo: 'bar' };
  const matchExpressions = [{ key: 'baz', operator: 'In', values: ['qux', 'norf'] }];
  const cases: [string, LabelSelectorObject | null, string][] = [
    ['nil selects nothing', null, ''],
    ['{} selects everything', {}, ''],
    ['matchLabels', { matchLabels }, 'foo=bar'],
    ['matchExpressions', { matchExpressions }, 'baz in (norf,qux)'],
    ['both', { matchLabels, matchExpressions }, 'baz in (norf,qux),foo=bar'],
  ];
  for (const [name, input, text] of cases) {
    it(`converts ${name} as LabelSelectorAsSelector (TestLabelSelectorAsSelector)`, () => {
      const copy = structuredClone(input);
      const sel = labelSelectorFromObject(input);
      expect(sel.toString()).to.equal(text);
      if (text !== '') expect(sel.toString()).to.equal(parseLabelSelector(text).toString());
      expect(input).to.deep.equal(copy);
    });
  }

  it('tells nothing (nil) from everything ({})', () => {
    expect(labelSelectorFromObject(null).matchesNothing()).to.equal(true);
    expect(labelSelectorFromObject(undefined).matches({})).to.equal(false);
    expect(labelSelectorFromObject({}).isEmpty()).to.equal(true);
    expect(labelSelectorFromObject({ matchLabels: {}, matchExpressions: [] }).matches({ a: 'b' })).to.equal(true);
  });

  it('rejects Exists with values (TestLabelSelectorAsSelector error case), with the apiserver text', () => {
    const err = parseError(() => labelSelectorFromObject({ matchExpressions: [{ key: 'baz', operator: 'Exists', values: ['qux', 'norf'] }] }));
    expect(err.message).to.equal('values: Invalid value: ["qux","norf"]: values set must be empty for exists and does not exist');
    expect(err.fieldErrors).to.have.length(1);
  });

  it('passes empty values as a nil slice, printed null', () => {
    expect(parseError(() => labelSelectorFromObject({ matchExpressions: [{ key: 'a', operator: 'In' }] })).message)
      .to.equal("values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty");
    expect(parseError(() => labelSelectorFromObject({ matchExpressions: [{ key: 'a', operator: 'NotIn', values: [] }] })).message)
      .to.equal("values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty");
  });

  it('rejects unknown operators, quoted as Go quotes them', () => {
    expect(parseError(() => labelSelectorFromObject({ matchExpressions: [{ key: 'a', operator: 'in', values: ['b'] }] })).message)
      .to.equal('"in" is not a valid label selector operator');
    expect(parseError(() => labelSelectorFromObject({ matchExpressions: [{ key: 'a', operator: 'Tab\there' }] })).message)
      .to.equal('"Tab\\there" is not a valid label selector operator');
  });

  it('keeps expression values in their order, sorts requirements by key, and matches', () => {
    const sel = labelSelectorFromObject({
      matchLabels: { tier: 'web' },
      matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['prod', 'dev'] }, { key: 'app', operator: 'Exists' }, { key: 'old', operator: 'DoesNotExist' }],
    });
    expect(sel.toString()).to.equal('app,env notin (dev,prod),!old,tier=web');
    expect(sel.requirements()[1].values).to.deep.equal(['prod', 'dev']);
    expect(sel.matches({ app: 'x', tier: 'web', env: 'test' })).to.equal(true);
    expect(sel.matches({ app: 'x', tier: 'web', env: 'dev' })).to.equal(false);
    expect(sel.matches({ app: 'x', tier: 'web', old: '' })).to.equal(false);
    expect(sel.requiresExactMatch('tier')).to.equal('web');
  });

  it('reports the first bad matchLabels entry in key order', () => {
    expect(parseError(() => labelSelectorFromObject({ matchLabels: { z: 'a b', a: 'c d' } })).message).to.match(/^values\[0\]\[a\]: Invalid value: "c d"/);
  });

  it('checks untyped input the way Go decodes JSON: null is the zero value, wrong kinds are errors', () => {
    const garbage = (v: unknown): string => parseError(() => labelSelectorFromObject(v as LabelSelectorObject)).message;
    expect(garbage(5)).to.equal('json: cannot unmarshal number into Go value of type v1.LabelSelector');
    expect(garbage([])).to.equal('json: cannot unmarshal array into Go value of type v1.LabelSelector');
    expect(garbage({ matchLabels: 'a=b' })).to.equal('json: cannot unmarshal string into Go struct field LabelSelector.matchLabels of type map[string]string');
    expect(garbage({ matchLabels: { a: 1 } })).to.equal('json: cannot unmarshal number into Go struct field LabelSelector.matchLabels of type string');
    expect(garbage({ matchExpressions: {} })).to.equal('json: cannot unmarshal object into Go struct field LabelSelector.matchExpressions of type []v1.LabelSelectorRequirement');
    expect(garbage({ matchExpressions: ['x'] })).to.equal('json: cannot unmarshal string into Go struct field LabelSelector.matchExpressions of type v1.LabelSelectorRequirement');
    expect(garbage({ matchExpressions: [{ key: 1 }] })).to.equal('json: cannot unmarshal number into Go struct field LabelSelector.matchExpressions.key of type string');
    expect(garbage({ matchExpressions: [{ key: 'a', operator: true }] })).to.equal('json: cannot unmarshal bool into Go struct field LabelSelector.matchExpressions.operator of type v1.LabelSelectorOperator');
    expect(garbage({ matchExpressions: [{ key: 'a', operator: 'In', values: 'b' }] })).to.equal('json: cannot unmarshal string into Go struct field LabelSelector.matchExpressions.values of type []string');
    expect(garbage({ matchExpressions: [{ key: 'a', operator: 'In', values: [1] }] })).to.equal('json: cannot unmarshal number into Go struct field LabelSelector.matchExpressions.values of type string');
    // null: Go's zero values.
    expect(labelSelectorFromObject({ matchLabels: null, matchExpressions: null }).isEmpty()).to.equal(true);
    expect(labelSelectorFromObject({ matchLabels: { a: null } } as unknown as LabelSelectorObject).toString()).to.equal('a=');
    expect(garbage({ matchExpressions: [null] })).to.equal('"" is not a valid label selector operator');
    expect(labelSelectorFromObject({ matchExpressions: [{ key: 'a', operator: 'In', values: [null] }] } as unknown as LabelSelectorObject).toString()).to.equal('a in ()');
    expect(labelSelectorFromObject({ matchLabels: { a: 'b' }, extra: 1 } as unknown as LabelSelectorObject).toString()).to.equal('a=b');
  });

  it('throws nothing but SelectorParseError for any JSON-shaped garbage (property)', () => {
    const op = fc.oneof(fc.constantFrom('In', 'NotIn', 'Exists', 'DoesNotExist'), fc.string());
    const shaped = fc.record({
      matchLabels: fc.oneof(fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.jsonValue())), fc.jsonValue()),
      matchExpressions: fc.oneof(
        fc.array(fc.oneof(fc.record({ key: fc.string(), operator: op, values: fc.oneof(fc.array(fc.string()), fc.jsonValue()) }, { requiredKeys: [] }), fc.jsonValue())),
        fc.jsonValue(),
      ),
    }, { requiredKeys: [] });
    fc.assert(fc.property(fc.oneof(shaped, fc.jsonValue(), fc.anything()), (input) => {
      try {
        const sel = labelSelectorFromObject(input as LabelSelectorObject);
        sel.matches({});
        sel.toString();
      } catch (err) {
        if (!(err instanceof SelectorParseError)) throw err;
      }
    }), { numRuns: 500 });
  });
});

describe('labelSelectorAsMap', () => {
  // upstream: staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/helpers_test.go TestLabelSelectorAsMap
  const expr = (operator: string, values: string[]) => [{ key: 'baz', operator, values }];
  it('converts what a plain map can express', () => {
    expect(labelSelectorAsMap(null)).to.equal(undefined);
    expect(labelSelectorAsMap({ matchLabels: { foo: 'bar' } })).to.deep.equal({ foo: 'bar' });
    expect(labelSelectorAsMap({ matchLabels: { foo: 'bar' }, matchExpressions: expr('In', ['norf']) })).to.deep.equal({ foo: 'bar', baz: 'norf' });
    expect(labelSelectorAsMap({ matchExpressions: expr('In', ['norf']) })).to.deep.equal({ baz: 'norf' });
  });

  it('rejects the rest with the upstream messages', () => {
    expect(parseError(() => labelSelectorAsMap({ matchLabels: { foo: 'bar' }, matchExpressions: expr('In', ['norf', 'qux']) })).message)
      .to.equal('operator "In" without a single value cannot be converted into the old label selector format');
    for (const op of ['NotIn', 'Exists', 'DoesNotExist']) {
      expect(parseError(() => labelSelectorAsMap({ matchExpressions: expr(op, []) })).message)
        .to.equal(`operator "${op}" cannot be converted into the old label selector format`);
    }
    expect(parseError(() => labelSelectorAsMap({ matchExpressions: expr('Foo', []) })).message).to.equal('"Foo" is not a valid selector operator');
  });
});

describe('validateLabelSelector', () => {
  // upstream: staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation_test.go TestLabelSelectorMatchExpression
  const one = (key: string, operator: string, values: string[]): LabelSelectorObject => ({ matchExpressions: [{ key, operator, values }] });
  it('accepts a valid selector', () => {
    expect(validateLabelSelector(one('key', 'In', ['value']), 'labelSelector')).to.deep.equal([]);
    expect(validateLabelSelector(null, 'labelSelector')).to.deep.equal([]);
  });

  it('reports one error for a bad key, operator or value, with the upstream detail', () => {
    const cases: [LabelSelectorObject, string][] = [
      [one('-key', 'In', ['value']), 'name part must consist of alphanumeric characters'],
      [one('key', 'abc', ['value']), 'not a valid selector operator'],
      [one('key', 'In', ['-value']), 'a valid label must be an empty string or consist of'],
    ];
    for (const [sel, detail] of cases) {
      const errs = validateLabelSelector(sel, 'labelSelector');
      expect(errs).to.have.length(1);
      expect(errs[0].toString()).to.contain(detail);
    }
  });

  it('words every error as the apiserver does', () => {
    const errs = validateLabelSelector({
      matchLabels: { 'a b': 'c' },
      matchExpressions: [
        { key: 'a', operator: 'In' },
        { key: 'b', operator: 'Exists', values: ['x'] },
        { key: 'c', operator: 'Foo<' },
      ],
    }, 'spec.selector').map(String);
    expect(errs).to.deep.equal([
      'spec.selector.matchLabels: Invalid value: "a b": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')',
      "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
      "spec.selector.matchExpressions[1].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
      'spec.selector.matchExpressions[2].operator: Invalid value: "Foo\\u003c": not a valid selector operator',
    ]);
  });

  it('honours the options for stored objects and subject access reviews', () => {
    const sel = one('key', 'Weird', ['-v']);
    expect(validateLabelSelector(sel, 'x')).to.have.length(2);
    expect(validateLabelSelector(sel, 'x', { allowUnknownOperatorInRequirement: true, allowInvalidLabelValueInSelector: true })).to.deep.equal([]);
  });

  it('turns undecodable input into a type error instead of throwing', () => {
    const errs = validateLabelSelector(7 as unknown as LabelSelectorObject, 'spec.selector');
    expect(errs.map(String)).to.deep.equal(['spec.selector: Invalid value: 7: json: cannot unmarshal number into Go value of type v1.LabelSelector']);
  });
});
