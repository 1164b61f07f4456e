import { expect } from 'chai';
import fc from 'fast-check';
import {
  LabelSelector, everythingLabelSelector, labelSelectorFromSet, newLabelRequirement, nothingLabelSelector,
  parseLabelSelector, validatedLabelSelectorFromSet, SelectorParseError, type LabelOperator, type LabelRequirement,
} from '@kubekit/selectors';
import { FieldPath } from '@kubekit/core';
import { group, labelCases, parseError, title } from './helpers/fixtures.js';

type Labels = Record<string, string>;
interface VectorRequirement {
  zero?: boolean;
  key: string;
  op: string;
  values: string[];
}

function plain(reqs: readonly LabelRequirement[]): { key: string; op: string; values: string[] }[] {
  return reqs.map((r) => ({ key: r.key, op: r.operator, values: [...r.values] }));
}

/**
 * A selector holding exactly these requirements in this order, unvalidated, as Go's tests build an
 * `internalSelector{...}` literal (including the zero `Requirement{}`).
 */
function literal(reqs: readonly VectorRequirement[]): LabelSelector {
  return new LabelSelector(reqs.map((r) => ({ key: r.key, operator: r.op as LabelOperator, values: r.values })));
}

describe('parseLabelSelector', () => {
  for (const name of ['parse', 'setParser']) {
    describe(`upstream ${name === 'parse' ? 'TestSelectorParse / TestDeterministicParse' : 'TestSetSelectorParser'} vectors`, () => {
      for (const c of group(labelCases, name)) {
        const e = c.expected as { valid: boolean; string?: string; empty?: boolean; requirements?: unknown[]; error?: string };
        it(`does ${title(c)}`, () => {
          const input = c.input as string;
          if (e.valid) {
            const sel = parseLabelSelector(input);
            expect(sel.toString()).to.equal(e.string);
            expect(sel.isEmpty()).to.equal(e.empty);
            expect(plain(sel.requirements())).to.deep.equal(e.requirements);
          } else {
            expect(parseError(() => parseLabelSelector(input)).message).to.equal(e.error);
          }
        });
      }
    });
  }

  it('reports a bad key under <nil> (Go parses with a nil field path) and carries the field errors', () => {
    const err = parseError(() => parseLabelSelector('Key_ in (a)'));
    expect(err.message).to.equal('unable to parse requirement: <nil>: Invalid value: "Key_": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')');
    expect(err.fieldErrors.map((f) => f.field)).to.deep.equal(['<nil>']);
  });

  it('reports errors under the given field path (field.WithPath)', () => {
    expect(parseError(() => parseLabelSelector('Key_', { path: 'spec.selector' })).message).to.match(/^unable to parse requirement: spec\.selector: Invalid value: "Key_": /);
    expect(parseError(() => parseLabelSelector('x=a b', { path: FieldPath.root('spec').child('selector') })).message)
      .to.equal("found 'b', expected: ',' or 'end of string'");
    expect(parseError(() => parseLabelSelector('x in ()a', { path: 'spec.selector' })).message).to.equal("found 'a', expected: ',' or 'end of string'");
    expect(parseError(() => parseLabelSelector('x=a$', { path: 'spec.selector' })).message)
      .to.match(/^unable to parse requirement: spec\.selector\.values\[0\]\[x\]: Invalid value: "a\$": a valid label must be/);
  });

  it('gives the apiserver messages for malformed selectors beyond the upstream table', () => {
    const cases: [string, string][] = [
      ['!', "unable to parse requirement: found '', expected: identifier"],
      ['!,x', "unable to parse requirement: found ',', expected: identifier"],
      ['x in', "unable to parse requirement: found '' expected: '('"],
      ['x in (a', "unable to parse requirement: found '', expected: ',' or ')'"],
      ['x in (a b)', "unable to parse requirement: found 'b', expected: ',' or ')'"],
      ['x in (=)', "unable to parse requirement: found '=', expected: ',', ')' or identifier"],
      ['x in (a,=)', "unable to parse requirement: found '=', expected: ',', or identifier"],
      ['x = =', "unable to parse requirement: found '=', expected: identifier"],
      ['x>', "unable to parse requirement: values[0]: Invalid value: \"\": for 'Gt', 'Lt' operators, the value must be an integer"],
      ['x>-1', "unable to parse requirement: values[0][x]: Invalid value: \"-1\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"],
      ['x>9223372036854775808', "unable to parse requirement: values[0]: Invalid value: \"9223372036854775808\": for 'Gt', 'Lt' operators, the value must be an integer"],
      ['x<a', "unable to parse requirement: values[0]: Invalid value: \"a\": for 'Gt', 'Lt' operators, the value must be an integer"],
      [',', "found ',', expected: !, identifier, or 'end of string'"],
      ['x,', "found '', expected: identifier after ','"],
      ['x=a,,', "found ',', expected: identifier after ','"],
      ['x)', "unable to parse requirement: found ')', expected: in, notin, =, ==, !=, gt, lt"],
      ['x=a)', "found ')', expected: ',' or 'end of string'"],
      ['x!y', "unable to parse requirement: found '!', expected: in, notin, =, ==, !=, gt, lt"],
    ];
    for (const [input, message] of cases) expect(parseError(() => parseLabelSelector(input)).message, input).to.equal(message);
  });

  it('aggregates several requirement errors as [a, b]', () => {
    expect(parseError(() => parseLabelSelector('x>a$')).message).to.equal(
      "unable to parse requirement: [values[0]: Invalid value: \"a$\": for 'Gt', 'Lt' operators, the value must be an integer, values[0][x]: Invalid value: \"a$\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')]",
    );
  });

  it('reads in and notin as identifiers wherever a key or value is expected', () => {
    expect(parseLabelSelector('in in (notin),notin=in').toString()).to.equal('in in (notin),notin=in');
    expect(parseLabelSelector('!in').toString()).to.equal('!in');
  });

  it('keeps == and prints gt/lt with > and <', () => {
    expect(parseLabelSelector('a==b,c>3,d<4').toString()).to.equal('a==b,c>3,d<4');
    expect(plain(parseLabelSelector('c>03').requirements())).to.deep.equal([{ key: 'c', op: 'gt', values: ['03'] }]);
  });

  it('reads a NUL character as Go reads a 0 byte: the end of a token, or of the input where a token starts', () => {
    expect(parseLabelSelector('a\u0000=b').toString()).to.equal('a=b');
    expect(parseLabelSelector('!\u0000x').toString()).to.equal('!x');
    // A NUL right after a special symbol is swallowed with it; after whitespace it ends the input.
    expect(parseLabelSelector('a,\u0000b').toString()).to.equal('a,b');
    expect(parseLabelSelector('a \u0000b').toString()).to.equal('a');
    expect(parseLabelSelector('\u0000 x y z').isEmpty()).to.equal(true);
  });

  it('rejects a non-string selector with a SelectorParseError', () => {
    expect(parseError(() => parseLabelSelector(undefined as unknown as string)).message).to.equal('invalid label selector: expected a string, got undefined');
  });
});

describe('LabelSelector', () => {
  describe('matches (upstream TestSelectorMatches / TestEverything vectors)', () => {
    for (const c of group(labelCases, 'match')) {
      const e = c.expected as { matches: boolean; empty?: boolean };
      it(`does ${title(c)}`, () => {
        const sel = parseLabelSelector(c.selector as string);
        const labels = c.labels as Labels;
        expect(sel.matches(labels)).to.equal(e.matches);
        expect(sel.matches((k) => labels[k])).to.equal(e.matches, 'with a getter');
        if (e.empty !== undefined) expect(sel.isEmpty()).to.equal(e.empty);
      });
    }
  });

  describe('matches requirements built directly (upstream TestRequirementSelectorMatching vectors)', () => {
    for (const c of group(labelCases, 'requirementMatch')) {
      it(`does ${title(c)}`, () => {
        const sel = literal(c.requirements as VectorRequirement[]);
        expect(sel.matches(c.labels as Labels)).to.equal((c.expected as { matches: boolean }).matches);
      });
    }
  });

  it('follows Requirement.Matches for every operator, including absent labels and int64 comparison', () => {
    const m = (sel: string, labels: Labels): boolean => parseLabelSelector(sel).matches(labels);
    expect(m('x in (a,b)', { x: 'b' })).to.equal(true);
    expect(m('x in (a,b)', {})).to.equal(false);
    expect(m('x notin (a,b)', {})).to.equal(true);
    expect(m('x notin (a,b)', { x: 'a' })).to.equal(false);
    expect(m('x!=a', {})).to.equal(true);
    expect(m('x=', { x: '' })).to.equal(true);
    expect(m('x=', {})).to.equal(false);
    expect(m('x>5', { x: '6' })).to.equal(true);
    expect(m('x>5', { x: '+6' })).to.equal(true);
    expect(m('x<5', { x: '-60' })).to.equal(true);
    expect(m('x>5', { x: '5' })).to.equal(false);
    expect(m('x>5', {})).to.equal(false);
    expect(m('x>5', { x: '6.0' })).to.equal(false);
    expect(m('x>9007199254740992', { x: '9007199254740993' })).to.equal(true);
    expect(m('x<9223372036854775807', { x: '9223372036854775806' })).to.equal(true);
    expect(m('x>1', { x: '9223372036854775808' })).to.equal(false);
    expect(m('x', { x: '' })).to.equal(true);
    expect(m('!x', { x: '' })).to.equal(false);
  });

  it('reads null or undefined labels as no labels (a nil labels.Set)', () => {
    expect(parseLabelSelector('!x').matches(undefined)).to.equal(true);
    expect(parseLabelSelector('x').matches(null)).to.equal(false);
  });

  it('reads inherited and non-string properties as absent labels', () => {
    expect(parseLabelSelector('constructor').matches({})).to.equal(false);
    expect(parseLabelSelector('!toString').matches({})).to.equal(true);
    expect(parseLabelSelector('n').matches({ n: 1 } as unknown as Labels)).to.equal(false);
  });

  describe('toString (upstream TestToString vectors)', () => {
    for (const c of group(labelCases, 'toString')) {
      it(`does ${title(c)}`, () => {
        expect(literal(c.requirements as VectorRequirement[]).toString()).to.equal((c.expected as { string: string }).string);
      });
    }
  });

  it('prints several values sorted without reordering the stored ones (safeSort)', () => {
    const sel = everythingLabelSelector().add({ key: 'x', operator: 'in', values: ['b', 'a', 'b'] });
    expect(sel.toString()).to.equal('x in (a,b,b)');
    expect(sel.requirements()[0].values).to.deep.equal(['b', 'a', 'b']);
  });

  describe('requiresExactMatch (upstream TestRequiresExactMatch vectors)', () => {
    for (const c of group(labelCases, 'requiresExactMatch')) {
      const e = c.expected as { found: boolean; value: string };
      it(`does ${title(c)}`, () => {
        expect(literal(c.requirements as VectorRequirement[]).requiresExactMatch(c.label as string)).to.equal(e.found ? e.value : undefined);
      });
    }
  });

  it('decides requiresExactMatch by the first requirement on the label only', () => {
    expect(parseLabelSelector('a!=x,a=y').requiresExactMatch('a')).to.equal(undefined);
    expect(parseLabelSelector('a=y,a!=x').requiresExactMatch('a')).to.equal('y');
  });

  it('adds requirements and re-sorts by key (upstream TestAdd), validating them', () => {
    const one = everythingLabelSelector().add(newLabelRequirement('key', 'in', ['value']));
    expect(plain(one.requirements())).to.deep.equal([{ key: 'key', op: 'in', values: ['value'] }]);
    const two = one.add(newLabelRequirement('key2', '=', ['value2']));
    expect(two.toString()).to.equal('key in (value),key2=value2');
    expect(one.add({ key: 'a', operator: 'exists', values: [] }).toString()).to.equal('a,key in (value)');
    expect(parseError(() => one.add({ key: 'a', operator: 'in', values: [] })).message)
      .to.equal("values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty");
    expect(one.toString()).to.equal('key in (value)');
  });

  it('is empty only without requirements (upstream TestSetIsEmpty, TestNilMapIsValid)', () => {
    expect(labelSelectorFromSet({}).isEmpty()).to.equal(true);
    expect(labelSelectorFromSet(null).isEmpty()).to.equal(true);
    expect(everythingLabelSelector().isEmpty()).to.equal(true);
    expect(parseLabelSelector('a').isEmpty()).to.equal(false);
  });

  it('tells nothingLabelSelector apart (upstream TestMatchesNothing)', () => {
    expect(nothingLabelSelector().matchesNothing()).to.equal(true);
    expect(everythingLabelSelector().matchesNothing()).to.equal(false);
    expect(labelSelectorFromSet({ key: 'value' }).matchesNothing()).to.equal(false);
    for (const s of ['', 'a', '!a', 'a=b', 'a!=b', 'a in (b)', 'a notin (b)', 'a,!a', 'a=b,a!=b', 'a in (b),a notin (b)']) {
      expect(parseLabelSelector(s).matchesNothing(), s).to.equal(false);
    }
    const n = nothingLabelSelector();
    expect(n.matches({})).to.equal(false);
    expect(n.isEmpty()).to.equal(false);
    expect(n.toString()).to.equal('');
    expect(n.requirements()).to.deep.equal([]);
    expect(n.add(newLabelRequirement('a', 'exists')).matchesNothing()).to.equal(true);
  });
});

describe('labelSelectorFromSet', () => {
  describe('upstream TestSetMatches / TestSetSelectorString vectors', () => {
    for (const c of group(labelCases, 'fromSet')) {
      const e = c.expected as { matches?: boolean; string: string; empty?: boolean };
      it(`does ${title(c)}`, () => {
        const sel = labelSelectorFromSet(c.selectorSet as Labels);
        expect(sel.toString()).to.equal(e.string);
        if (e.matches !== undefined) expect(sel.matches(c.labels as Labels)).to.equal(e.matches);
        if (e.empty !== undefined) expect(sel.isEmpty()).to.equal(e.empty);
      });
    }
  });

  it('does not validate (the server would reject bad labels)', () => {
    expect(labelSelectorFromSet({ 'bad key': 'a b' }).toString()).to.equal('bad key=a b');
  });
});

describe('validatedLabelSelectorFromSet', () => {
  for (const c of group(labelCases, 'validatedSelectorFromSet')) {
    const e = c.expected as { valid: boolean; string: string | null; error: string | null };
    it(`does ${title(c)}`, () => {
      if (e.valid) expect(validatedLabelSelectorFromSet(c.set as Labels).toString()).to.equal(e.string);
      else expect(parseError(() => validatedLabelSelectorFromSet(c.set as Labels)).message).to.equal(e.error);
    });
  }
});

const goodKey = fc.constantFrom('x', 'y', 'app', 'in', 'notin', 'example.com/tier', 'a.b-c_d', 'X9');
const goodValue = fc.constantFrom('', 'a', 'b', 'in', 'notin', 'v1.2', '0', '7', '42');
// Mostly valid, sometimes not, so that both the error paths and the round trip are exercised.
const key = fc.oneof({ arbitrary: goodKey, weight: 9 }, { arbitrary: fc.constantFrom('Bad_', '-x', 'a/b/c'), weight: 1 });
const value = fc.oneof({ arbitrary: goodValue, weight: 9 }, { arbitrary: fc.constantFrom('-1', 'a b', '_'), weight: 1 });
const ws = fc.constantFrom('', ' ', '\t', '\n', '  ');
const requirementOf = (k: fc.Arbitrary<string>, v: fc.Arbitrary<string>): fc.Arbitrary<string> => fc.oneof(
  fc.tuple(k, ws, fc.constantFrom('=', '==', '!='), ws, v).map((p) => p.join('')),
  fc.tuple(k, fc.constantFrom('>', '<'), fc.constantFrom('0', '7', '42', '0x1', '')).map((p) => p.join('')),
  fc.tuple(k, fc.constantFrom(' in ', ' notin ', '\tin\t'), fc.array(fc.oneof(v, ws), { maxLength: 4 })).map(([kk, op, vs]) => `${kk}${op}(${vs.join(',')})`),
  k,
  k.map((kk) => `!${kk}`),
);
// Some long valid selectors: beyond twelve requirements Go's unstable sort decides the order of equal keys.
const labelText = fc.oneof(
  fc.array(requirementOf(key, value), { maxLength: 8 }).map((rs) => rs.join(',')),
  fc.array(requirementOf(goodKey, goodValue), { minLength: 13, maxLength: 40 }).map((rs) => rs.join(',')),
);
const labelsArb = fc.dictionary(key, value, { maxKeys: 5 });

describe('LabelSelector properties', () => {
  it('parses its own canonical text back to the same selector: parse(print(parse(s))) = parse(s)', () => {
    fc.assert(fc.property(labelText, fc.array(labelsArb, { maxLength: 4 }), (text, sets) => {
      let first: LabelSelector;
      try {
        first = parseLabelSelector(text);
      } catch (err) {
        expect(err).to.be.instanceOf(SelectorParseError);
        return;
      }
      const second = parseLabelSelector(first.toString());
      expect(second.toString()).to.equal(first.toString());
      expect(second.requirements()).to.deep.equal(first.requirements());
      for (const set of sets) expect(second.matches(set)).to.equal(first.matches(set));
    }), { numRuns: 1000 });
  });

  it('throws a SelectorParseError for anything that is not a string', () => {
    fc.assert(fc.property(fc.anything().filter((x) => typeof x !== 'string'), (x) => {
      parseError(() => parseLabelSelector(x as string));
    }));
  });

  it('throws nothing but SelectorParseError for up to 1 KiB of random bytes or text', () => {
    const bytes = fc.uint8Array({ maxLength: 1024 });
    const inputs = fc.oneof(
      bytes.map((b) => Buffer.from(b).toString('latin1')),
      bytes.map((b) => new TextDecoder().decode(b)),
      fc.string({ unit: 'binary', maxLength: 1024 }),
      fc.string({ unit: fc.constantFrom('a', 'in', 'notin', '(', ')', ',', '=', '!', '<', '>', ' ', '\u0000', '1', '-', '/', '.'), maxLength: 1024 }),
    );
    fc.assert(fc.property(inputs, (text) => {
      try {
        const sel = parseLabelSelector(text);
        sel.matches({});
        sel.toString();
      } catch (err) {
        if (!(err instanceof SelectorParseError)) throw err;
        expect(err.reason).to.equal('BadRequest');
      }
    }), { numRuns: 1000 });
  });
});
