// RE2 as Go's regexp runs it: the vectors in fixtures/regex-go.json are Go's own answers (written by
// scripts/gen-go-regex from Go's regexp test tables — find_test.go's findTests and testdata/re2-search.txt —
// plus kubekit's cases in scripts/gen-go-regex/extra.json); the CEL cases follow
// k8s.io/apiextensions-apiserver v0.34.4 pkg/apiserver/schema/cel/validation_test.go ("regex" rules) and
// what kube-apiserver v1.34.4 answers for the rules at the end (checked with @kubekit/envtest).
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { CelError, compile } from '../src/index.js';
import { compileRegex } from '../src/internal/regex.js';
import { ErrVal } from '../src/internal/values.js';

interface GoAnswer {
  source: string;
  pattern: string;
  text: string;
  /** regexp.Compile's error. */
  error?: string;
  /** FindStringIndex's match, absent when there is none. */
  find?: string;
  /** FindAllString with n = -1, 0, 1, 2. */
  all?: string[][];
}

const answers = JSON.parse(readFileSync(new URL('./fixtures/regex-go.json', import.meta.url), 'utf8')) as GoAnswer[];
const counts = [-1, 0, 1, 2];

/** What kubekit answers for a pair, in the fixture's shape. */
function kubekit(a: GoAnswer): Omit<GoAnswer, 'source' | 'pattern' | 'text'> {
  const re = compileRegex(a.pattern);
  if (re instanceof ErrVal) return { error: re.message };
  const find = re.find(a.text);
  return { ...(find === undefined ? {} : { find }), all: counts.map((n) => re.findAll(a.text, n)) };
}

describe('compileRegex', () => {
  const sources = [...new Set(answers.map((a) => a.source))];
  for (const source of sources) {
    const mine = answers.filter((a) => a.source === source);
    it(`answers as Go's regexp for the ${mine.length} pairs of ${source}`, () => {
      const wrong = mine.flatMap((a) => {
        const { source: _s, pattern, text, ...go } = a;
        const got = kubekit(a);
        return JSON.stringify(got) === JSON.stringify(go) ? [] : [{ pattern, text, go, got }];
      });
      expect(wrong).to.deep.equal([]);
    });
  }

  it('holds vectors from each source (the fixture is not empty or truncated)', () => {
    expect(answers.filter((a) => a.source === 'go:regexp/find_test.go').length).to.be.greaterThan(50);
    expect(answers.filter((a) => a.source === 'go:regexp/testdata/re2-search.txt').length).to.be.greaterThan(1000);
    expect(answers.filter((a) => a.error !== undefined).length).to.be.greaterThan(20);
  });

  it('answers in time linear in the text where a backtracking engine takes exponential time', () => {
    // Each of these needs about 2^n steps of a backtracking engine (JavaScript's RegExp) on n characters.
    const hostile: [string, string, string | undefined][] = [
      ['(a+)+$', `${'a'.repeat(50)}!`, undefined],
      ['(x+x+)+y', 'x'.repeat(50), undefined],
      ['(a|aa)+b', 'a'.repeat(50), undefined],
      ['^(\\w+\\s?)*$', `${'word '.repeat(10)}!`, undefined],
      ['(.*a){12}', 'a'.repeat(50), 'a'.repeat(50)],
    ];
    for (const [pattern, text, match] of hostile) {
      const re = compileRegex(pattern);
      if (re instanceof ErrVal) throw new Error(re.message);
      expect(re.find(text), pattern).to.equal(match);
      expect(re.findAll(text, -1), pattern).to.deep.equal(match === undefined ? [] : [match]);
      expect(re.test(text), pattern).to.equal(match !== undefined);
    }
  });

  it('accepts a group name used twice, as Go does, and keeps Go\'s words for a later error', () => {
    const re = compileRegex('(?P<n>a)|(?<n>b)');
    expect(re).not.to.be.instanceOf(ErrVal);
    expect((re as Exclude<typeof re, ErrVal>).findAll('abc', -1)).to.deep.equal(['a', 'b']);
    expect((compileRegex('(?P<n>a)(?P<n>b)(') as ErrVal).message).to.equal('error parsing regexp: missing closing ): `(?P<n>a)(?P<n>b)(`');
  });
});

describe('find and findAll', () => {
  const schema = { type: 'object', properties: { str: { type: 'string' }, p: { type: 'string' } } };
  const self = { str: '123 abc 456' };
  const truths = [
    "self.str.find('[0-9]+') == '123'",
    "self.str.find('[0-9]+') != '456'",
    "self.str.find('xyz') == ''",
    "self.str.findAll('[0-9]+') == ['123', '456']",
    "self.str.findAll('[0-9]+', 0) == []",
    "self.str.findAll('[0-9]+', 1) == ['123']",
    "self.str.findAll('[0-9]+', 2) == ['123', '456']",
    "self.str.findAll('[0-9]+', 3) == ['123', '456']",
    "self.str.findAll('[0-9]+', -1) == ['123', '456']",
    "self.str.findAll('xyz') == []",
    "self.str.findAll('xyz', 1) == []",
    "self.str.findAll('[0-9]+', 9223372036854775807) == ['123', '456']",
    "self.str.findAll('[0-9]+', -9223372036854775808) == ['123', '456']",
    "'baaab😀'.findAll('a*') == ['', 'aaa', '', '']",
    "'héllo wörld'.findAll('\\\\pL+') == ['héllo', 'wörld']",
  ];
  for (const rule of truths) {
    it(`evaluates ${rule}`, () => {
      expect(compile(rule, { schema }).evaluate(self).value).to.equal(true);
    });
  }

  const compileErrors: [string, string][] = [
    ["self.str.find(')') == ''", 'program instantiation failed: error parsing regexp: unexpected ): `)`'],
    ["self.str.findAll(')') == []", 'program instantiation failed: error parsing regexp: unexpected ): `)`'],
    ["self.str.findAll(')', 1) == []", 'program instantiation failed: error parsing regexp: unexpected ): `)`'],
    // kube-apiserver v1.34.4 refuses a CRD with this rule in these words.
    ["self.str.find('\\\\') == ''", 'program instantiation failed: error parsing regexp: trailing backslash at end of expression: ``'],
  ];
  for (const [rule, message] of compileErrors) {
    it(`refuses ${rule}`, () => {
      expect(() => compile(rule, { schema })).to.throw(CelError, message);
    });
  }

  // kube-apiserver v1.34.4's answers for a custom resource whose rule runs the pattern in self.p.
  const runtimeErrors: [string, string, string][] = [
    ["self.str.find(self.p) == ''", '(', 'Illegal regex: error parsing regexp: missing closing ): `(`'],
    ["self.str.findAll(self.p, 1).size() == 0", '\\', 'Illegal regex: error parsing regexp: trailing backslash at end of expression: ``'],
    ["self.str.find(self.p) == ''", '(?P<n>a)(?P<n>b', 'Illegal regex: error parsing regexp: missing closing ): `(?P<n>a)(?P<n>b`'],
    ['self.str.matches(self.p)', 'a++', 'error parsing regexp: invalid nested repetition operator: `++`'],
  ];
  for (const [rule, p, message] of runtimeErrors) {
    it(`reports ${message} for ${rule} with ${JSON.stringify(p)}`, () => {
      const program = compile(rule, { schema });
      expect(() => program.evaluate({ str: 'x', p })).to.throw(CelError, message);
    });
  }

  it('returns on hostile data with the answers kube-apiserver gives', () => {
    expect(compile('self.str.find(self.p)', { schema }).evaluate({ str: `${'a'.repeat(40)}!`, p: '(a+)+$' }).value).to.equal('');
    expect(compile('self.str.findAll(self.p)', { schema }).evaluate({ str: 'x'.repeat(46), p: '(x+x+)+y' }).value).to.deep.equal([]);
    expect(compile('self.str.findAll(self.p)', { schema }).evaluate({ str: 'abab', p: '(?P<n>a)(?P<n>b)' }).value).to.deep.equal(['ab', 'ab']);
    expect(compile('self.str.matches(self.p)', { schema }).evaluate({ str: 'abab', p: '(?P<n>a)(?P<n>b)' }).value).to.equal(true);
  });

  // A 1 KB pattern can compile to a million instructions (about 76 MB): such programs are not kept, so that
  // request data cannot make the cache hold gigabytes; ordinary patterns are compiled once.
  it('caches ordinary patterns and not huge programs', () => {
    expect(compileRegex('^[a-z]+$')).to.equal(compileRegex('^[a-z]+$'));
    const huge = `(?:${'a'.repeat(999)}b){1000}`;
    const first = compileRegex(huge);
    expect(first).to.not.be.instanceOf(ErrVal);
    expect(compileRegex(huge)).to.not.equal(first);
  });
});
