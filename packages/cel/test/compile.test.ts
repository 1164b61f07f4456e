// The package's face: compile an expression in the Kubernetes environment, evaluate it against JSON,
// estimate its cost. Semantics are the engine's (tested in the other files against upstream tables);
// these tests hold the API's contract: typing from the schema, conversions both ways, errors, limits.
import { expect } from 'chai';
import { CelError, compile, estimateCost, perCallLimit, ruleDeclType, stringFormatValidators } from '../src/index.js';
import type { Schema } from '../src/index.js';
import { parseExprCached } from '../src/internal/ast.js';
import { CelIssues } from '../src/internal/issues.js';

const replicas: Schema = { type: 'object', properties: { replicas: { type: 'integer' }, maxReplicas: { type: 'integer' } } };

describe('compile', () => {
  it('compiles and evaluates against a JSON object typed by the schema (the @example)', () => {
    const program = compile('self.replicas <= self.maxReplicas', { schema: replicas });
    expect(program.resultType).to.equal('bool');
    expect(program.usesOldSelf).to.equal(false);
    expect(program.estimatedCost).to.deep.equal({ min: 5n, max: 5n });
    expect(program.evaluate({ replicas: 3, maxReplicas: 5 })).to.deep.equal({ value: true, cost: 5 });
    expect(program.evaluate({ replicas: 6, maxReplicas: 5 }).value).to.equal(false);
  });

  it('throws a CelError (Invalid, stage compile) with cel-go\'s message when the expression does not compile', () => {
    const err = (() => {
      try {
        compile('self == true', { schema: { type: 'integer' } });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).to.be.instanceOf(CelError);
    expect((err as CelError).reason).to.equal('Invalid');
    expect((err as CelError).stage).to.equal('compile');
    expect((err as CelError).message).to.equal("ERROR: <input>:1:6: found no matching overload for '_==_' applied to '(int, bool)'\n | self == true\n | .....^");
    expect(() => compile('self.nope > 0', { schema: replicas })).to.throw(CelError, "undefined field 'nope'");
    expect(() => compile('self.replicas +')).to.throw(CelError, 'Syntax error');
  });

  it('refuses a schema CEL cannot see', () => {
    expect(() => compile('true', { schema: { type: 'array' } })).to.throw(CelError, 'unable to convert the schema to CEL declarations');
  });

  it('types self as dyn without a schema: objects are maps, integers int, other numbers double', () => {
    expect(compile('self.a.b + [1, 2]').evaluate({ a: { b: [0] } }).value).to.deep.equal([0n, 1n, 2n]);
    expect(compile('self.t * 2.0').evaluate({ t: 1.5 }).value).to.equal(3);
    expect(compile("self.name.startsWith('a') && self.n == 3").evaluate({ name: 'abc', n: 3 }).value).to.equal(true);
    expect(compile('self').evaluate(null).value).to.equal(null);
  });

  it('gives results back as plain JavaScript', () => {
    const value = (expr: string): unknown => compile(expr).evaluate({}).value;
    expect(value("duration('90m')")).to.equal('5400s');
    expect(value("timestamp('2024-01-01T00:00:00+02:00')")).to.equal('2024-01-01T00:00:00+02:00');
    expect(value('3u')).to.equal(3n);
    expect(value('optional.of(1)')).to.equal(1n);
    expect(value('optional.none()')).to.equal(undefined);
    expect(value('type(1)')).to.equal('int');
    expect(value("b'ab'")).to.deep.equal(new Uint8Array([97, 98]));
    const map = value("{'a': [1, 2], '__proto__': [3]}") as Record<string, unknown>;
    expect(Object.getPrototypeOf(map)).to.equal(null);
    expect(Object.keys(map)).to.deep.equal(['a', '__proto__']);
    expect(map.a).to.deep.equal([1n, 2n]);
  });

  it('converts objects with their schema: formats, escaped property names, resource roots', () => {
    const schema: Schema = { type: 'object', properties: { 'x-y': { type: 'integer' }, d: { type: 'string', format: 'date' } } };
    const self = compile('self', { schema }).evaluate({ 'x-y': 1, d: '2024-02-03' }).value;
    expect({ ...(self as object) }).to.deep.equal({ 'x-y': 1n, d: '2024-02-03T00:00:00Z' });
    expect(compile('self.x__dash__y == 1 && self.d.getFullYear() == 2024', { schema }).evaluate({ 'x-y': 1, d: '2024-02-03' }).value).to.equal(true);
    const root = compile("self.metadata.name.startsWith('a') && self.kind == 'K'", { schema, isResourceRoot: true });
    expect(root.evaluate({ apiVersion: 'v1', kind: 'K', metadata: { name: 'abc' } }).value).to.equal(true);
    expect(() => compile("self.kind == 'K'", { schema })).to.throw(CelError, "undefined field 'kind'");
  });

  it('binds oldSelf, optional with optionalOldSelf', () => {
    const v: Schema = { type: 'object', properties: { v: { type: 'integer' } } };
    const t = compile('self.v > oldSelf.v', { schema: v });
    expect(t.usesOldSelf).to.equal(true);
    expect(t.evaluate({ v: 2 }, { v: 1 }).value).to.equal(true);
    const o = compile('oldSelf.hasValue() ? oldSelf.value().v < self.v : true', { schema: v, optionalOldSelf: true });
    expect(o.evaluate({ v: 2 }).value).to.equal(true);
    expect(o.evaluate({ v: 2 }, { v: 3 }).value).to.equal(false);
  });

  it('throws a CelError (stage evaluate) for runtime errors and past the cost limit', () => {
    expect(() => compile("self['x']").evaluate({})).to.throw(CelError, 'no such key: x');
    const quadratic = compile('self.all(x, self.all(y, true))');
    const big = Array.from({ length: 2000 }, (_, i) => i);
    expect(() => quadratic.evaluate(big)).to.throw(CelError, 'operation cancelled: actual cost limit exceeded');
    expect(quadratic.evaluate(big.slice(0, 10)).cost).to.be.below(perCallLimit);
    expect(() => quadratic.evaluate(big.slice(0, 10), undefined, { costLimit: 10 })).to.throw(CelError, 'actual cost limit exceeded');
  });

  // cel-go v0.26 (interpreter/attributes.go refQualify, as vendored by Kubernetes 1.34) qualifies a field
  // of a value that is neither map, list nor object with "no such key", and a presence test of it is
  // false (errorOnBadPresenceTest is off); a list gives "unsupported index type". Found by the
  // randomized differential suite (a rule on an x-kubernetes-int-or-string default).
  it('selects a field of a scalar dyn value as cel-go does: no such key, has() false, .? none', () => {
    expect(() => compile('self.nope == 1').evaluate(5)).to.throw(CelError, 'no such key: nope');
    expect(() => compile('self.nope == 1').evaluate('s')).to.throw(CelError, 'no such key: nope');
    expect(compile('has(self.nope)').evaluate(5).value).to.equal(false);
    expect(compile('self.?nope.hasValue()').evaluate(true).value).to.equal(false);
    expect(() => compile('self.nope == 1').evaluate([1])).to.throw(CelError, "unsupported index type 'string' in list");
    expect(() => compile('has(self.nope)').evaluate([1])).to.throw(CelError, "unsupported index type 'string' in list");
  });

  // cel-go v0.26's evalUnary/evalBinary (interpreter/interpretable.go): an operand without the function's
  // trait (Sizer, Comparer, Adder, …) is "no such overload: <function>"; one that has it but not the
  // overload is a plain "no such overload". Found by the randomized differential suite (size() of an
  // int-or-string integer).
  it('names the function when a dyn operand lacks its trait, as cel-go does', () => {
    expect(() => compile('size(self) < 10').evaluate(7)).to.throw(CelError, /^no such overload: size$/);
    expect(() => compile('self.size() < 10').evaluate(true)).to.throw(CelError, /^no such overload: size$/);
    expect(() => compile('self - 1 > 0').evaluate('s')).to.throw(CelError, /^no such overload: _-_$/);
    expect(() => compile('self % 2 == 0').evaluate(1.5)).to.throw(CelError, /^no such overload: _%_$/);
    expect(() => compile('self < 1').evaluate([1])).to.throw(CelError, /^no such overload: _<_$/);
    expect(() => compile('self < 1').evaluate('s')).to.throw(CelError, /^no such overload$/);
    expect(() => compile('self + 1 > 0').evaluate('s')).to.throw(CelError, /^no such overload$/);
  });

  it('can be evaluated many times with different objects', () => {
    const p = compile('self.replicas', { schema: replicas });
    for (let i = 0; i < 5; i++) expect(p.evaluate({ replicas: i }).value).to.equal(BigInt(i));
  });
});

describe('estimateCost', () => {
  it('estimates as the apiserver does for a rule at the schema (the @example)', () => {
    const schema: Schema = { type: 'object', properties: { names: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 64 } } } };
    expect(estimateCost("self.names.all(n, n.startsWith('a'))", schema)).to.deep.equal({ min: 3n, max: 53n });
  });

  it('is unbounded for unbounded data, and throws for expressions that do not compile', () => {
    const schema: Schema = { type: 'object', properties: { names: { type: 'array', items: { type: 'string' } } } };
    expect(estimateCost("self.names.all(n, n.matches('^a+$'))", schema).max > 10_000_000n).to.equal(true);
    expect(() => estimateCost('self.names > 1', schema)).to.throw(CelError, "found no matching overload for '_>_'");
  });
});

describe('compile caches', () => {
  it('declares a schema once for all its rules, and anew once the schema changed in place', () => {
    const schema: Schema = { type: 'object', properties: { a: { type: 'integer' } } };
    const first = ruleDeclType(schema, false);
    expect(ruleDeclType({ ...schema, 'x-kubernetes-validations': [{ rule: 'true' }] } as Schema, false)).to.equal(first);
    expect(compile('self.a > 0', { schema }).evaluate({ a: 1 }).value).to.equal(true);
    schema.properties!.a = { type: 'string' };
    expect(ruleDeclType(schema, false)).to.not.equal(first);
    expect(() => compile('self.a > 0', { schema })).to.throw(CelError, "found no matching overload for '_>_' applied to '(string, int)'");
    expect(ruleDeclType(schema, true)).to.not.equal(ruleDeclType(schema, false));
  });

  it('declares a resource root anew once its schema changed in place, as any other schema', () => {
    const schema: Schema = { type: 'object', properties: { a: { type: 'integer' } } };
    expect(compile('self.a > 0 && self.metadata.name != ""', { schema, isResourceRoot: true }).evaluate({ a: 1, metadata: { name: 'x' } }).value).to.equal(true);
    schema.properties!.a = { type: 'string' };
    expect(() => compile('self.a > 0', { schema, isResourceRoot: true })).to.throw(CelError, "found no matching overload for '_>_' applied to '(string, int)'");
    expect(compile('self.a + "!"', { schema, isResourceRoot: true }).evaluate({ a: 'x' }).value).to.equal('x!');
  });

  it('never gives one schema the declaration of another: text in the schema cannot forge the cache key', () => {
    // Under a key that joined the schema's words unquoted, this format made `a` and its parent read
    // like the second schema's `a` and `b`, so the second schema got the first one's declaration.
    const forged: Schema = { type: 'object', properties: { a: { type: 'string', format: '||||}"b":{integer|' } } };
    const plain: Schema = { type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer' } } };
    expect(() => compile('self.b > 0', { schema: forged })).to.throw(CelError, "undefined field 'b'");
    expect(compile('self.b > 0', { schema: plain }).evaluate({ a: 'x', b: 1 }).value).to.equal(true);
    // A bound that is not a number (the schema is not validated here) is not the bound's number.
    const lengths = { type: 'string', maxLength: '5' } as unknown as Schema;
    expect(ruleDeclType(lengths, false)).to.not.equal(ruleDeclType({ type: 'string', maxLength: 5 }, false));
    expect(ruleDeclType({ type: 'string', maxLength: null } as unknown as Schema, false)).to.not.equal(ruleDeclType({ type: 'string' }, false));
  });

  it('parses a source once, yet every compilation gets its own tree (the checker rewrites namespaced calls)', () => {
    const expr = "strings.quote(self) == '\"a\"' && lists.range(2) == [0, 1] && optional.of(self).hasValue()";
    const a = compile(expr, { schema: { type: 'string' } });
    const b = compile(expr, { schema: { type: 'string' } });
    expect(a.evaluate('a').value).to.equal(true);
    expect(b.evaluate('a').value).to.equal(true);
    // The remembered tree is the parser's, untouched by the checks above.
    const tree = parseExprCached('strings.quote(self)', new CelIssues('strings.quote(self)'))!;
    compile('strings.quote(self)');
    expect(parseExprCached('strings.quote(self)', new CelIssues('strings.quote(self)'))!.expr).to.deep.equal(tree.expr);
    expect(tree.expr).to.include({ kind: 'call', fn: 'quote' });
    expect(() => compile(`${expr} &&`)).to.throw(CelError, 'Syntax error');
    expect(() => compile(`${expr} &&`)).to.throw(CelError, 'Syntax error');
  });
});

describe('objects with keys named like prototype members', () => {
  it('see only declared properties: a "constructor" or "__proto__" key in the data is not a field', () => {
    const schema: Schema = { type: 'object', properties: { a: { type: 'integer' } }, 'x-kubernetes-preserve-unknown-fields': true };
    const data = JSON.parse('{"a": 1, "constructor": {"x": 1}, "__proto__": {"y": 2}, "toString": 3}') as unknown;
    expect(compile('self.a == 1 && self == self', { schema }).evaluate(data).value).to.equal(true);
    expect({ ...(compile('self', { schema }).evaluate(data).value as object) }).to.deep.equal({ a: 1n });
  });

  it('reads duration units from the input as text: a unit named like an Object member is no unit', () => {
    // Go's time.ParseDuration rejects `1valueOf`; strfmt's duration format then looks for number–unit
    // pairs (kube-openapi strfmt ParseDuration), and `2h` is one.
    const duration = stringFormatValidators.get('duration')!;
    expect([duration('1valueOf'), duration('1constructor'), duration('1__proto__'), duration('0valueOf 2h'), duration('1h')]).to.deep.equal([false, false, false, true, true]);
    expect(() => compile("duration('1constructor')")).to.throw(CelError, 'invalid duration argument');
    const program = compile('duration(self)', { schema: { type: 'string' } });
    expect(() => program.evaluate('1toString')).to.throw(CelError, 'invalid duration');
    expect(program.evaluate('90m').value).to.equal('5400s');
    // Fractions as Go computes them, in float64 (time_test.go): 0.3333333333333333333h is 20 minutes exactly.
    expect(program.evaluate('0.3333333333333333333h').value).to.equal('1200s');
    expect(program.evaluate('0.830103483285477580700h').value).to.equal('2988.372539827s');
    const typed = compile('self.d', { schema: { type: 'object', properties: { d: { type: 'string', format: 'duration' } } } });
    expect(() => typed.evaluate({ d: '1hasOwnProperty' })).to.throw(CelError, 'Invalid duration');
  });
});
