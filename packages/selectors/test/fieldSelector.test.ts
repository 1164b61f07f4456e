import { expect } from 'chai';
import fc from 'fast-check';
import {
  FieldSelector, andFieldSelectors, everythingFieldSelector, fieldSelectorFromSet, formatFieldSet, nothingFieldSelector,
  oneTermEqualFieldSelector, oneTermNotEqualFieldSelector, parseFieldSelector, SelectorParseError, escapeFieldValue,
  type FieldRequirement,
} from '@kubekit/selectors';
import { fieldCases, group, parseError, title } from './helpers/fixtures.js';

type Ast = { and: Ast[] } | { op: '=' | '!='; field: string; value: string };
type Fields = Record<string, string>;

/** Builds the selector tree of a vector's `selectorAst` from the same constructors Go's test uses. */
function build(ast: Ast): FieldSelector {
  if ('and' in ast) return andFieldSelectors(...ast.and.map(build));
  return ast.op === '=' ? oneTermEqualFieldSelector(ast.field, ast.value) : oneTermNotEqualFieldSelector(ast.field, ast.value);
}

function plain(reqs: readonly FieldRequirement[]): { field: string; op: string; value: string }[] {
  return reqs.map((r) => ({ field: r.field, op: r.operator, value: r.value }));
}

describe('parseFieldSelector', () => {
  describe('upstream TestSelectorParse / TestDeterministicParse vectors', () => {
    for (const c of group(fieldCases, 'parse')) {
      const e = c.expected as { valid: boolean; string?: string; empty?: boolean; requirements?: unknown[]; error?: string };
      it(`does ${title(c)}`, () => {
        const input = c.input as string;
        if (e.valid) {
          const sel = parseFieldSelector(input);
          expect(sel.toString()).to.equal(e.string);
          expect(sel.isEmpty()).to.equal(e.empty);
          expect(plain(sel.requirements())).to.deep.equal(e.requirements);
        } else {
          expect(parseError(() => parseFieldSelector(input)).message).to.equal(e.error);
        }
      });
    }
  });

  it('sorts the raw terms before parsing, so the output order is the byte order of the terms as written', () => {
    expect(parseFieldSelector('z=1,a!=2,m==3').toString()).to.equal('a!=2,m=3,z=1');
    // '==' sorts before '=a' ('=' < 'a'), so the printed '=' terms keep the raw order, not their own.
    expect(parseFieldSelector('x=a,x==b').toString()).to.equal('x=b,x=a');
    // Byte order is code point order: U+10000 (a surrogate pair in UTF-16) sorts after U+FFFD.
    expect(parseFieldSelector('\u{10000}=1,\ufffd=2').toString()).to.equal('\ufffd=2,\u{10000}=1');
  });

  it('prints == as = and reports it as operator =', () => {
    const sel = parseFieldSelector('spec.color==blue');
    expect(sel.toString()).to.equal('spec.color=blue');
    expect(plain(sel.requirements())).to.deep.equal([{ field: 'spec.color', op: '=', value: 'blue' }]);
  });

  it('ignores empty terms and terms whose field and value are both empty', () => {
    expect(parseFieldSelector(',,a=b,,').toString()).to.equal('a=b');
    const onlyEquals = parseFieldSelector('=');
    expect(onlyEquals.isEmpty()).to.equal(true);
    expect(onlyEquals.toString()).to.equal('');
    expect(parseFieldSelector('=,x=y').toString()).to.equal('x=y');
    // An empty field with a value, or an empty value, is a real term.
    expect(parseFieldSelector('=x').toString()).to.equal('=x');
    expect(parseFieldSelector('!=x').toString()).to.equal('!=x');
    // '!=' alone has an empty field and value too, so it is dropped like '='.
    expect(parseFieldSelector('!=').isEmpty()).to.equal(true);
    expect(parseFieldSelector('a=').requirements()).to.deep.equal([{ field: 'a', operator: '=', value: '' }]);
  });

  it('trims nothing: spaces belong to field names and values', () => {
    const sel = parseFieldSelector(' a = b ');
    expect(plain(sel.requirements())).to.deep.equal([{ field: ' a ', op: '=', value: ' b ' }]);
    expect(sel.matches({ a: 'b' })).to.equal(false);
    expect(sel.matches({ ' a ': ' b ' })).to.equal(true);
  });

  it('splits each term at its first operator, so a field name never holds one', () => {
    expect(plain(parseFieldSelector('a!b=c').requirements())).to.deep.equal([{ field: 'a!b', op: '=', value: 'c' }]);
    expect(plain(parseFieldSelector('a!!=c').requirements())).to.deep.equal([{ field: 'a!', op: '!=', value: 'c' }]);
    expect(parseError(() => parseFieldSelector('a!==c')).message).to.equal('invalid field selector: unescaped character in value: 61');
    // Field names are not unescaped: a backslash before '=' stays in the name.
    expect(plain(parseFieldSelector('a\\=b').requirements())).to.deep.equal([{ field: 'a\\', op: '=', value: 'b' }]);
    expect(plain(parseFieldSelector('a\\,b=c').requirements())).to.deep.equal([{ field: 'a\\,b', op: '=', value: 'c' }]);
  });

  it('reports the error of the first bad term in sorted order, naming the whole selector', () => {
    expect(parseError(() => parseFieldSelector('b=\\a,a=x=y')).message).to.equal('invalid field selector: unescaped character in value: 61');
    expect(parseError(() => parseFieldSelector('a=\\a,b=x=y')).message).to.equal('invalid field selector: invalid escape sequence: \\a');
    expect(parseError(() => parseFieldSelector('z,a=b')).message).to.equal("invalid selector: 'z,a=b'; can't understand 'z'");
    expect(parseError(() => parseFieldSelector('a=b\\')).message).to.equal('invalid field selector: invalid escape sequence: \\');
    expect(parseError(() => parseFieldSelector('a=b,c')).message).to.equal("invalid selector: 'a=b,c'; can't understand 'c'");
    expect(parseError(() => parseFieldSelector('a=\\한')).message).to.equal('invalid field selector: invalid escape sequence: \\한');
  });

  it('accepts any field name and keeps big integers and unicode values exact', () => {
    const sel = parseFieldSelector('spec.serial=12345678901234567890,메타=값');
    expect(sel.matches({ 'spec.serial': '12345678901234567890', 메타: '값' })).to.equal(true);
    expect(sel.matches({ 'spec.serial': '12345678901234567000', 메타: '값' })).to.equal(false);
  });

  it('applies a transform after parsing (ParseAndTransformSelector), dropping terms mapped to empty', () => {
    const sel = parseFieldSelector('spec.host=a,status.phase=Running', (field, value) =>
      field === 'spec.host' ? ['spec.nodeName', value] : field === 'status.phase' ? ['', ''] : [field, value]);
    expect(sel.toString()).to.equal('spec.nodeName=a');
    // Unlike plain parsing, with a transform the '=' term reaches the transform function.
    const seen: string[] = [];
    parseFieldSelector('=,a=b', (f, v) => {
      seen.push(`${f}=${v}`);
      return [f, v];
    });
    expect(seen).to.deep.equal(['=', 'a=b']);
  });

  it('propagates an error thrown by the transform', () => {
    const boom = new Error('field label not supported: x');
    expect(() => parseFieldSelector('x=1', () => {
      throw boom;
    })).to.throw(boom);
  });

  it('rejects a non-string selector with a SelectorParseError', () => {
    expect(parseError(() => parseFieldSelector(5 as unknown as string)).message).to.equal('invalid field selector: expected a string, got number');
  });
});

describe('FieldSelector', () => {
  describe('matches (upstream TestSelectorMatches / TestEverything vectors)', () => {
    for (const c of group(fieldCases, 'match')) {
      const e = c.expected as { matches: boolean; empty?: boolean };
      it(`does ${title(c)}`, () => {
        const sel = parseFieldSelector(c.selector as string);
        const fields = c.fields as Fields;
        expect(sel.matches(fields)).to.equal(e.matches);
        expect(sel.matches((f) => fields[f])).to.equal(e.matches, 'with a getter');
        if (e.empty !== undefined) expect(sel.isEmpty()).to.equal(e.empty);
      });
    }
  });

  it('matches OneTermEqualSelector as upstream TestOneTermEqualSelector', () => {
    expect(oneTermEqualFieldSelector('x', 'y').matches({ x: 'y' })).to.equal(true);
    expect(oneTermEqualFieldSelector('x', 'y').matches({ x: 'z' })).to.equal(false);
  });

  it('reads an absent field as "" (fields.Set.Get), both from a record and from a getter', () => {
    expect(parseFieldSelector('spec.color=').matches({})).to.equal(true);
    expect(parseFieldSelector('spec.color!=blue').matches({})).to.equal(true);
    expect(parseFieldSelector('spec.color=blue').matches({})).to.equal(false);
    expect(parseFieldSelector('spec.color=').matches(() => undefined)).to.equal(true);
    expect(parseFieldSelector('spec.color!=').matches(() => undefined)).to.equal(false);
  });

  it('reads null or undefined fields as no fields (a nil fields.Set)', () => {
    expect(parseFieldSelector('a=').matches(undefined)).to.equal(true);
    expect(parseFieldSelector('a=b').matches(null)).to.equal(false);
  });

  it('reads inherited and non-string properties as absent', () => {
    expect(parseFieldSelector('toString=').matches({})).to.equal(true);
    expect(parseFieldSelector('constructor!=').matches({})).to.equal(false);
    expect(parseFieldSelector('__proto__=').matches({})).to.equal(true);
    expect(parseFieldSelector('n=5').matches({ n: 5 } as unknown as Fields)).to.equal(false);
    const own = JSON.parse('{"__proto__":"x"}') as Fields;
    expect(parseFieldSelector('__proto__=x').matches(own)).to.equal(true);
  });

  it('asks a lazy field set only for the fields it needs, stopping at the first failing term', () => {
    const asked: string[] = [];
    const getter = (f: string): string => {
      asked.push(f);
      return f === 'a' ? 'no' : 'x';
    };
    expect(parseFieldSelector('a=yes,b=x,c=x').matches(getter)).to.equal(false);
    expect(asked).to.deep.equal(['a']);
  });

  describe('requiresExactMatch (upstream TestRequiresExactMatch vectors)', () => {
    for (const c of group(fieldCases, 'requiresExactMatch')) {
      const e = c.expected as { value: string; found: boolean };
      it(`does ${title(c)}`, () => {
        const got = build(c.selectorAst as Ast).requiresExactMatch(c.field as string);
        expect(got).to.equal(e.found ? e.value : undefined);
      });
    }
  });

  it('takes the first = term for requiresExactMatch and ignores != terms', () => {
    const sel = parseFieldSelector('a!=x,a=y,a=z');
    expect(sel.requiresExactMatch('a')).to.equal('y');
    expect(parseFieldSelector('a!=x').requiresExactMatch('a')).to.equal(undefined);
  });

  describe('isEmpty (upstream TestSetIsEmpty vectors)', () => {
    for (const c of group(fieldCases, 'empty')) {
      const e = c.expected as { empty: boolean };
      it(`does ${title(c)}`, () => {
        expect(build(c.selectorAst as Ast).isEmpty()).to.equal(e.empty);
      });
    }
  });

  describe('transform (upstream TestTransform vectors)', () => {
    for (const c of group(fieldCases, 'transform')) {
      const e = c.expected as { string: string; empty: boolean };
      const map = c.transform as Record<string, [string, string]>;
      it(`does ${title(c)}`, () => {
        const out = parseFieldSelector(c.selector as string).transform((f, v) => map[f] ?? map['*'] ?? [f, v]);
        expect(out.toString()).to.equal(e.string);
        expect(out.isEmpty()).to.equal(e.empty);
      });
    }
  });

  it('does not re-sort after a transform, and keeps the selector it was called on unchanged', () => {
    const sel = parseFieldSelector('a=1,b=2');
    const out = sel.transform((f, v) => (f === 'a' ? ['z', v] : [f, v]));
    expect(out.toString()).to.equal('z=1,b=2');
    expect(sel.toString()).to.equal('a=1,b=2');
  });

  it('prints values escaped and reports them unescaped', () => {
    const sel = parseFieldSelector('a=\\\\\\,\\=');
    expect(sel.toString()).to.equal('a=\\\\\\,\\=');
    expect(sel.requirements()[0].value).to.equal('\\,=');
  });

  it('returns frozen requirements', () => {
    const reqs = parseFieldSelector('a=1').requirements();
    expect(Object.isFrozen(reqs)).to.equal(true);
    expect(Object.isFrozen(reqs[0])).to.equal(true);
  });
});

describe('fieldSelectorFromSet', () => {
  describe('upstream TestSetMatches / TestNilMapIsValid vectors', () => {
    for (const c of group(fieldCases, 'fromSet')) {
      const e = c.expected as { matches: boolean; empty: boolean };
      it(`does ${title(c)}`, () => {
        const sel = fieldSelectorFromSet(c.selectorSet as Fields | null);
        expect(sel.matches(c.fields as Fields)).to.equal(e.matches);
        expect(sel.isEmpty()).to.equal(e.empty);
      });
    }
  });

  it('takes values literally, prints them escaped, sorted by field, and keeps an empty field and value', () => {
    const sel = fieldSelectorFromSet({ 'z': '=a,b', 'a': '\\' });
    expect(sel.toString()).to.equal('a=\\\\,z=\\=a\\,b');
    expect(sel.matches({ z: '=a,b', a: '\\' })).to.equal(true);
    expect(parseFieldSelector(sel.toString()).requirements()).to.deep.equal(sel.requirements());
    const blank = fieldSelectorFromSet({ '': '' });
    expect(blank.isEmpty()).to.equal(false);
    expect(blank.toString()).to.equal('=');
  });
});

describe('formatFieldSet', () => {
  for (const c of group(fieldCases, 'setString')) {
    it(`does ${title(c)} (fields_test.go)`, () => {
      expect(formatFieldSet(c.set as Fields)).to.equal((c.expected as { output: string }).output);
    });
  }
});

describe('andFieldSelectors', () => {
  it('prints an empty operand as an empty element, as Go joins the operands', () => {
    expect(andFieldSelectors(everythingFieldSelector(), parseFieldSelector('a=b')).toString()).to.equal(',a=b');
    expect(andFieldSelectors(parseFieldSelector('a=b,c=d'), oneTermNotEqualFieldSelector('e', 'f')).toString()).to.equal('a=b,c=d,e!=f');
    expect(andFieldSelectors().isEmpty()).to.equal(true);
    expect(andFieldSelectors(everythingFieldSelector()).isEmpty()).to.equal(true);
  });

  it('drops empty operands on transform, as andTerm.Transform does', () => {
    const sel = andFieldSelectors(everythingFieldSelector(), parseFieldSelector('a=b'));
    expect(sel.transform((f, v) => [f, v]).toString()).to.equal('a=b');
  });
});

describe('nothingFieldSelector', () => {
  it('matches nothing, is not empty, prints as "" and survives transform and and-ing (fields.Nothing)', () => {
    const n = nothingFieldSelector();
    expect(n.matches({})).to.equal(false);
    expect(n.isEmpty()).to.equal(false);
    expect(n.matchesNothing()).to.equal(true);
    expect(n.toString()).to.equal('');
    expect(n.requirements()).to.deep.equal([]);
    expect(n.requiresExactMatch('a')).to.equal(undefined);
    expect(n.transform((f, v) => [f, v]).matchesNothing()).to.equal(true);
    const both = andFieldSelectors(n, parseFieldSelector('a=b'));
    expect(both.matches({ a: 'b' })).to.equal(false);
    expect(both.toString()).to.equal(',a=b');
    expect(everythingFieldSelector().matchesNothing()).to.equal(false);
  });
});

// Selectors built from the grammar, with field names and values drawn from characters that matter.
const fieldName = fc.string({ unit: fc.constantFrom('a', 'b', '.', ' ', '!', 'é', '😀', '\\', '-'), maxLength: 6 });
const rawValue = fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\\', ',', '=', '!', 'é', '\ud800'), maxLength: 6 });
const term = fc.tuple(fieldName, fc.constantFrom('=', '==', '!='), fc.oneof(rawValue.map(escapeFieldValue), rawValue))
  .map(([f, op, v]) => `${f}${op}${v}`);
const selectorText = fc.array(fc.oneof(term, fc.constant('')), { maxLength: 6 }).map((ts) => ts.join(','));
const fieldSetArb = fc.dictionary(fieldName, rawValue, { maxKeys: 4 });

function sortedRequirements(sel: FieldSelector): string[] {
  return sel.requirements().map((r) => JSON.stringify([r.field, r.operator, r.value])).sort();
}

describe('FieldSelector properties', () => {
  it('parses its own canonical text back to the same selector: parse(print(parse(s))) = parse(s)', () => {
    fc.assert(fc.property(selectorText, fc.array(fieldSetArb, { maxLength: 4 }), (text, sets) => {
      let first: FieldSelector;
      try {
        first = parseFieldSelector(text);
      } catch (err) {
        expect(err).to.be.instanceOf(SelectorParseError);
        return;
      }
      const second = parseFieldSelector(first.toString());
      // The same terms, matching the same objects ...
      expect(sortedRequirements(second)).to.deep.equal(sortedRequirements(first));
      for (const set of sets) expect(second.matches(set)).to.equal(first.matches(set));
      expect(second.isEmpty()).to.equal(first.isEmpty());
      // ... and in the same order too, unless '==' was written: the apiserver sorts the raw terms, and
      // 'x==b' sorts before 'x=a' while its printed form 'x=b' sorts after.
      if (!text.includes('==')) {
        expect(second.toString()).to.equal(first.toString());
        expect(second.requirements()).to.deep.equal(first.requirements());
      }
      // The canonical text is a fixpoint after one more round.
      expect(parseFieldSelector(second.toString()).toString()).to.equal(second.toString());
    }), { numRuns: 1000 });
  });

  it('throws a SelectorParseError for anything that is not a string', () => {
    fc.assert(fc.property(fc.anything().filter((x) => typeof x !== 'string'), (x) => {
      parseError(() => parseFieldSelector(x as string));
    }));
  });

  it('throws nothing but SelectorParseError for up to 1 KiB of random bytes or text', () => {
    const bytes = fc.uint8Array({ maxLength: 1024 });
    const inputs = fc.oneof(
      bytes.map((b) => Buffer.from(b).toString('latin1')),
      bytes.map((b) => new TextDecoder().decode(b)),
      fc.string({ unit: 'binary', maxLength: 1024 }),
      fc.string({ unit: fc.constantFrom('a', '=', '!', ',', '\\', ' ', '\u0000', 'é'), maxLength: 1024 }),
    );
    fc.assert(fc.property(inputs, (text) => {
      try {
        const sel = parseFieldSelector(text);
        sel.matches({});
        sel.toString();
      } catch (err) {
        if (!(err instanceof SelectorParseError)) throw err;
        expect(err.reason).to.equal('BadRequest');
      }
    }), { numRuns: 1000 });
  });
});
