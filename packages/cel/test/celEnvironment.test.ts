// The libraries of the Kubernetes CEL environment, expression by expression. Expected values follow
// cel-go's and k8s.io/apiserver's library tests (cel-go ext/strings_test.go, ext/sets_test.go,
// ext/lists_test.go, optional tests in cel/cel_test.go; apiserver pkg/cel/library lists, regex, urls,
// ip, cidr and quantity tests), and the CEL spec for the standard library.
import { expect } from 'chai';
import type { Schema as JSONSchemaProps } from '../src/index.js';
import { celRuntime, compileExpression, ruleEnvironment } from '../src/celEnvironment.js';
import { ruleDeclType } from '../src/schemaTypes.js';
import { evaluate } from '../src/internal/interpreter.js';
import { BoolType } from '../src/internal/types.js';
import { ErrVal, fromJSON } from '../src/internal/values.js';

const selfSchema: JSONSchemaProps = {
  type: 'object',
  properties: {
    s: { type: 'string' }, i: { type: 'integer' }, d: { type: 'number' }, l: { type: 'array', items: { type: 'integer' } },
    m: { type: 'object', additionalProperties: { type: 'string' } }, t: { type: 'string', format: 'date-time' },
  },
};
const selfValue = { s: 'hello', i: 42, d: 1.5, l: [3, 1, 2], m: { a: 'x', b: 'y' }, t: '2023-06-15T10:30:00Z' };

/** Compiles and runs `expr` with `self` bound; returns the value, the error text, or the compile error. */
function run(expr: string): unknown {
  const decl = ruleDeclType(selfSchema, false)!;
  const compiled = compileExpression(expr, ruleEnvironment({ self: decl, optionalOldSelf: false }), decl, BoolType, '', 'not a bool');
  if (!compiled.ok) return `compile: ${compiled.detail}`;
  const { value } = evaluate(compiled.expr.checked, celRuntime, new Map([['self', fromJSON(selfValue, selfSchema)]]), 1_000_000);
  return value instanceof ErrVal ? `error: ${value.message}` : value;
}

const truths: Record<string, string[]> = {
  standard: [
    '1 + 2 == 3', '7 / 2 == 3', '-7 % 3 == -1', '2.0 * 3.0 == 6.0', '1u + 2u == 3u', "'ab' + 'c' == 'abc'", "b'ab' + b'c' == b'abc'",
    '[1] + [2] == [1, 2]', 'size("héllo") == 5', 'size([1, 2]) == 2', "size({'a': 1}) == 1", '"abc".size() == 3',
    '1 < 2 && 2 <= 2 && 3 > 2 && 3 >= 3', '1 < 1.5 && 2u > 1 && 1.0 < 2u', '"a" < "b" && b"a" < b"b"', 'false < true',
    'int("42") == 42 && uint("42") == 42u && double("1.5") == 1.5', 'int(3.9) == 3 && int(-3.9) == -3', 'string(1.5) == "1.5"',
    'string(1000000.0) == "1e+06"', 'string(true) == "true" && string(42u) == "42"', 'bool("true") && !bool("false")',
    'bytes("a") == b"a" && string(b"a") == "a"', 'type(1) == int && type("") == string && type([]) == list && type({}) == map',
    'type(type(1)) == type && type(null) == null_type', 'dyn(1) == 1.0', 'dyn(1) != "1"', '[1, 2] != [2, 1]',
    "{'a': 1} == {'a': 1}", "'a' in {'a': 1} && 2 in [1, 2]", 'null == null',
    'timestamp("2023-01-01T00:00:00Z") + duration("1h") == timestamp("2023-01-01T01:00:00Z")',
    'timestamp("2023-01-02T00:00:00Z") - timestamp("2023-01-01T00:00:00Z") == duration("24h")',
    'duration("1h30m").getMinutes() == 90 && duration("1.5s").getMilliseconds() == 1500',
    'timestamp("2023-06-15T10:30:00Z").getHours() == 10 && timestamp("2023-06-15T10:30:00Z").getHours("America/New_York") == 6',
    'timestamp("2023-06-15T10:30:00Z").getMonth() == 5 && timestamp("2023-06-15T10:30:00Z").getDayOfMonth() == 14',
    'timestamp("2023-06-15T10:30:00Z").getDate() == 15 && timestamp("2023-06-15T10:30:00Z").getDayOfWeek() == 4',
    'timestamp("2023-06-15T10:30:00Z").getDayOfYear() == 165 && timestamp("2023-06-15T10:30:00Z").getHours("+02:00") == 12',
    'string(timestamp("2023-06-15T10:30:00.5Z")) == "2023-06-15T10:30:00.5Z" && string(duration("1h30m")) == "5400s"',
    'int(timestamp("1970-01-01T00:00:10Z")) == 10', "'hello'.contains('ell') && 'hello'.startsWith('he') && 'hello'.endsWith('lo')",
    "'hello'.matches('^h.*o$') && matches('abc', 'b')", '[1, 2, 3].exists_one(x, x > 2)',
    '[1, 2, 3].map(x, x * 2) == [2, 4, 6] && [1, 2, 3].map(x, x > 1, x * 10) == [20, 30]', '[1, 2, 3].filter(x, x % 2 == 1) == [1, 3]',
    "{'a': 1, 'b': 2}.all(k, k in ['a', 'b'])", 'has({"a": 1}.a) && !has({"a": 1}.b)',
  ],
  self: [
    "self.s == 'hello' && self.i == 42 && self.d == 1.5 && self.l[1] == 1 && self.m['a'] == 'x' && self.m.b == 'y'",
    'self.t == timestamp("2023-06-15T10:30:00Z")', 'has(self.s) && has(self.m.a) && !has(self.m.c)', 'self.l.all(x, x > 0)',
  ],
  strings: [
    "'hello'.charAt(1) == 'e' && 'hello'.charAt(5) == ''", "'hello'.indexOf('l') == 2 && 'hello'.indexOf('l', 3) == 3 && 'hello'.indexOf('z') == -1",
    "'hello'.lastIndexOf('l') == 3 && 'hello'.lastIndexOf('l', 2) == 2", "'TacoCat'.lowerAscii() == 'tacocat' && 'TacoCat'.upperAscii() == 'TACOCAT'",
    "'hello hello'.replace('he', 'we') == 'wello wello' && 'hello hello'.replace('he', 'we', 1) == 'wello hello'",
    "'a,b,c'.split(',') == ['a', 'b', 'c'] && 'a,b,c'.split(',', 2) == ['a', 'b,c'] && 'abc'.split('') == ['a', 'b', 'c']",
    "'tacocat'.substring(4) == 'cat' && 'tacocat'.substring(0, 4) == 'taco'", "'  \\ttrim\\n '.trim() == 'trim'",
    // cel-go's trim is Go's strings.TrimSpace: U+0085 and U+3000 are space, U+FEFF is not.
    "'\\u0085\\u3000trim\\u00a0'.trim() == 'trim' && '\\ufefftrim'.trim() == '\\ufefftrim'",
    "['a', 'b'].join() == 'ab' && ['a', 'b'].join('-') == 'a-b'", "strings.quote('single-quote with \"double quote\"') == '\"single-quote with \\\\\"double quote\\\\\"\"'",
    "'%s is %d years, %.2f'.format([dyn('x'), dyn(7), dyn(1.234)]) == 'x is 7 years, 1.23'", "'%x %X %o %b'.format([255, 255, 8, 5]) == 'ff FF 10 101'",
    // apiextensions-apiserver celcoststability_test.go ("unicode strings", strings version 2)
    "'%d %s %f %s %s'.format([1, 'abc', 1.0, duration('1m'), timestamp('2000-01-01T00:00:00.000Z')]) == '1 abc 1.000000 60s 2000-01-01T00:00:00Z'",
    "'%e'.format([3.14]) == '3.140000×10⁰⁰'", "'%o %o %o'.format([7, 8, 9]) == '7 10 11'", "'%b %b %b'.format([7, 8, 9]) == '111 1000 1001'",
    "'%.1f'.format([1234567.89]) == '1,234,567.9'",
    "'héllo'.indexOf('l') == 2 && 'héllo'.substring(1, 2) == 'é'",
  ],
  lists: [
    '[1, 2, 3].isSorted() && ![3, 1].isSorted()', '[1, 2, 3].sum() == 6 && [1.5, 2.5].sum() == 4.0 && [duration("1s"), duration("1m")].sum() == duration("61s")',
    '[3, 1, 2].min() == 1 && [3, 1, 2].max() == 3 && ["b", "a"].min() == "a"', '[1, 2, 2, 3].indexOf(2) == 1 && [1, 2, 2, 3].lastIndexOf(2) == 2',
    '[1, 2, 2, 1].distinct() == [1, 2] && [[1], [2, 3]].flatten() == [1, 2, 3] && lists.range(3) == [0, 1, 2]',
    '[1, 2, 3].reverse() == [3, 2, 1] && [1, 2, 3, 4].slice(1, 3) == [2, 3] && [3, 1, 2].sort() == [1, 2, 3]',
    '[1, 2].first() == optional.of(1) && [1, 2].last().value() == 2 && [].first() == optional.none()',
    'self.l.sort() == [1, 2, 3] && self.l.max() == 3',
  ],
  regex: [
    "'abc 123'.find('[0-9]+') == '123' && 'abc'.find('[0-9]+') == ''", "'123 abc 456'.findAll('[0-9]+') == ['123', '456']",
    "'123 abc 456'.findAll('[0-9]+', 1) == ['123']", "'a1b2'.findAll('(?i)[A-Z]') == ['a', 'b']",
  ],
  sets: [
    'sets.contains([1, 2, 3], [3, 2]) && !sets.contains([1], [2])', 'sets.equivalent([1, 2], [2, 1, 1]) && !sets.equivalent([1], [1, 2])',
    'sets.intersects([1, 2], [2, 3]) && !sets.intersects([1], [2])',
  ],
  optionals: [
    'optional.of(1).hasValue() && !optional.none().hasValue() && optional.of(1).value() == 1',
    'optional.none().orValue(5) == 5 && optional.none().or(optional.of(2)) == optional.of(2)',
    'optional.ofNonZeroValue(0) == optional.none() && optional.ofNonZeroValue("a").hasValue()',
    "{'a': 1}[?'a'] == optional.of(1) && {'a': 1}[?'b'] == optional.none() && [1][?3] == optional.none()",
    "self.?s.orValue('') == 'hello' && self.m.?c.orValue('z') == 'z' && self.m[?'a'].value() == 'x'",
    'optional.of(2).optMap(x, x * 2) == optional.of(4) && optional.none().optMap(x, x * 2) == optional.none()',
    'optional.of(2).optFlatMap(x, optional.of(x + 1)) == optional.of(3)',
  ],
  comprehensions: [
    '[10, 20].all(i, v, v == (i + 1) * 10) && {"a": 1}.exists(k, v, k == "a" && v == 1)',
    '[1, 2].transformList(i, v, v * i) == [0, 2] && [1, 2, 3].transformList(i, v, v > 1, v) == [2, 3]',
    '{"a": 1}.transformMap(k, v, v + 1) == {"a": 2}', '[1, 2].existsOne(i, v, v == 2)',
  ],
  urls: [
    "url('https://example.com:80/path?query=val#fragment').getScheme() == 'https'",
    "url('https://example.com:80/path?a=1&a=2&b=3').getQuery() == {'a': ['1', '2'], 'b': ['3']}",
    "url('https://[::1]:80/').getHostname() == '::1' && url('https://[::1]:80/').getPort() == '80' && url('https://example.com/a%20b').getEscapedPath() == '/a%20b'",
    "isURL('https://example.com') && isURL('/absolute-path') && !isURL('relative') && url('/p').getHost() == ''",
  ],
  net: [
    "ip('192.168.0.1').family() == 4 && ip('::1').family() == 6 && isIP('1.2.3.4') && !isIP('1.2.3') && !isIP('::ffff:1.2.3.4')",
    "ip('127.0.0.1').isLoopback() && ip('0.0.0.0').isUnspecified() && ip('fe80::1').isLinkLocalUnicast() && ip('224.0.0.1').isLinkLocalMulticast()",
    "ip('8.8.8.8').isGlobalUnicast() && !ip('127.0.0.1').isGlobalUnicast() && ip.isCanonical('2001:db8::1') && !ip.isCanonical('2001:DB8::1')",
    "string(ip('2001:0db8:0000:0000:0000:0000:0000:0001')) == '2001:db8::1' && ip('1.2.3.4') == ip('1.2.3.4')",
    "cidr('192.168.0.0/24').containsIP(ip('192.168.0.5')) && !cidr('192.168.0.0/24').containsIP('192.168.1.5')",
    "cidr('10.0.0.0/8').containsCIDR('10.1.0.0/16') && !cidr('10.1.0.0/16').containsCIDR(cidr('10.0.0.0/8'))",
    "cidr('192.168.1.5/24').masked() == cidr('192.168.1.0/24') && cidr('192.168.1.0/24').prefixLength() == 24 && cidr('192.168.1.0/24').ip() == ip('192.168.1.0')",
    "isCIDR('10.0.0.0/8') && !isCIDR('10.0.0.0/33') && string(cidr('::1/128')) == '::1/128'",
  ],
  // k8s.io/apiserver pkg/cel/library/semver_test.go
  semver: [
    'semver("1.2.3") == semver("1.2.3") && semver("1.2.3") != semver("1.0.0") && isSemver("1.2.3-beta.1+build.1")',
    '!isSemver("") && !isSemver("v1.0.0") && !isSemver(" 1.0.0") && !isSemver("1. 0.0") && !isSemver("01.01.01") && !isSemver("1") && !isSemver("1.1")',
    'isSemver("v1.0.0", true) && isSemver("01.01.01", true) && isSemver("1", true) && isSemver("1.1", true) && !isSemver("1.0.0 ", true)',
    'semver("v01.01", true) == semver("1.1.0") && semver("1.0.0").isLessThan(semver("1.2.3")) && !semver("1.0.0").isLessThan(semver("1.0.0"))',
    'semver("1.2.3").isGreaterThan(semver("1.0.0")) && semver("1.0.0").compareTo(semver("1.2.3")) == -1 && semver("1.2.3").compareTo(semver("1.2.3")) == 0',
    'semver("1.2.3").major() == 1 && semver("1.2.3").minor() == 2 && semver("1.2.3").patch() == 3',
    'semver("1.0.0-alpha").isLessThan(semver("1.0.0-alpha.1")) && semver("1.0.0-alpha.beta").isLessThan(semver("1.0.0-beta")) && semver("1.0.0-rc.1").isLessThan(semver("1.0.0"))',
  ],
  quantity: [
    "quantity('1Gi') == quantity('1024Mi') && quantity('1k').isGreaterThan(quantity('999')) && quantity('500m').isLessThan(quantity('1'))",
    "quantity('1.5').asApproximateFloat() == 1.5 && quantity('2k').asInteger() == 2000 && !quantity('1.5').isInteger()",
    "quantity('1').add(quantity('500m')) == quantity('1500m') && quantity('1').add(2) == quantity('3') && quantity('1').sub(2) == quantity('-1')",
    "quantity('1Ki').compareTo(quantity('1024')) == 0 && sign(quantity('-1')) == -1 && isQuantity('1e3') && !isQuantity('1.5.5')",
  ],
};

describe('the Kubernetes CEL environment', () => {
  for (const [library, exprs] of Object.entries(truths)) {
    describe(library, () => {
      for (const e of exprs) {
        it(`evaluates ${e}`, () => {
          expect(run(e)).to.equal(true);
        });
      }
    });
  }

  describe('runtime errors', () => {
    const cases: [string, string][] = [
      ['9223372036854775807 + 1 > 0', 'error: integer overflow'],
      ['-9223372036854775808 - 1 < 0', 'error: integer overflow'],
      ['1 / 0 == 0', 'error: division by zero'],
      ['1 % 0 == 0', 'error: modulus by zero'],
      ['0u - 1u == 0u', 'error: unsigned integer overflow'],
      ['[1][2] == 1', "error: index '2' out of range in list size '1'"],
      ["{'a': 1}['b'] == 1", 'error: no such key: b'],
      ["int('x') == 1", 'error: strconv.ParseInt: parsing "x": invalid syntax'],
      ["'abc'.charAt(4) == ''", 'error: index out of range: 4'],
      ["'abc'.substring(2, 1) == ''", 'error: invalid substring range. start: 2, end: 1'],
      ['[].min() == 0', 'error: min called on empty list'],
      ["'a'.matches(self.s + '(')", 'error: error parsing regexp: missing closing ): `hello(`'],
      ['optional.none().value() == 1', 'error: optional.none() dereference'],
      ["sign(quantity('x')) == 1", "error: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"],
    ];
    for (const [expr, message] of cases) {
      it(`reports ${message} for ${expr}`, () => {
        expect(run(expr)).to.equal(message);
      });
    }

    it('absorbs errors in && and || as CEL specifies', () => {
      expect(run('1 / 0 == 0 || true')).to.equal(true);
      expect(run('false && 1 / 0 == 0')).to.equal(false);
      expect(run('1 / 0 == 0 && false')).to.equal(false);
      expect(run('[0, 1].exists(x, 1 / x == 1)')).to.equal(true);
      expect(run('true && 1 / 0 == 0')).to.equal('error: division by zero');
    });
  });

  describe('type errors', () => {
    const cases: [string, string][] = [
      ["1 == 'a'", "found no matching overload for '_==_' applied to '(int, string)'"],
      ['self.s.size() + "a" == 1', "found no matching overload for '_+_' applied to '(int, string)'"],
      ['self.i.startsWith("a")', "found no matching overload for 'startsWith' applied to 'int.(string)'"],
      ['[1, "a"] == []', "expected type 'int' but found 'string'"],
      ['undefinedVar == 1', "undeclared reference to 'undefinedVar' (in container '')"],
      ['self.s.noSuchFunction()', "undeclared reference to 'noSuchFunction' (in container '')"],
      ['self.i.all(x, true)', "expression of type 'int' cannot be range of a comprehension (must be list, map, or dynamic)"],
      ['self.all(1, true)', 'argument must be a simple name'],
      ['self.s.x == 1', "type 'string' does not support field selection"],
      ['1 > 0 ? 1 : "a" == "a"', "found no matching overload for '_?_:_' applied to '(bool, int, bool)'"],
      ['cel.bind(x, 1, x == 1)', "undeclared reference to 'cel' (in container '')"],
      // cel-go's standard macros have exists_one, not existsOne; only ext.TwoVarComprehensions' three-argument form is one.
      ['[1, 2, 3].existsOne(x, x == 1)', "undeclared reference to 'existsOne' (in container '')"],
      ['[1].sortBy(x, x) == [1]', "macro 'sortBy' is not supported by kubekit"],
      ["'a'.matches('(')", 'ERROR: <input>:1:13: invalid matches argument'],
      ["duration('1x') > duration('1s')", 'ERROR: <input>:1:10: invalid duration argument'],
      ["timestamp('2023-13-01T00:00:00Z') > timestamp(0)", 'ERROR: <input>:1:11: invalid timestamp argument'],
      ["{'a': 1, 'b': 'c'} == {}", "ERROR: <input>:1:15: expected type 'int' but found 'string'"],
    ];
    for (const [expr, message] of cases) {
      it(`reports ${message} for ${expr}`, () => {
        const r = run(expr);
        expect(r).to.be.a('string');
        expect(r as string).to.contain(message);
      });
    }
  });
});
