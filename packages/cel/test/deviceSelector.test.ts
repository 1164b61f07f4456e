// The environment of Dynamic Resource Allocation's device selectors: `device` and its fields, the result
// types a selector may have (cel-go's `Type.String()` words), the base libraries, ext.Bindings' `cel.bind`
// and the cost estimate. Every answer here is kube-apiserver 1.34.4's for the same expression in a
// ResourceClaim or DeviceClass (asked with a dry-run create; test/hostile/resourceClaims.test.ts compares
// them on both servers).
import { expect } from 'chai';
import { deviceSelectorIssue } from '../src/index.js';
import { compileExpression, celRuntime, environmentFunctions } from '../src/celEnvironment.js';
import { evaluate } from '../src/internal/interpreter.js';
import { IntType } from '../src/internal/types.js';
import { typeIdentifiers } from '../src/libraries/standard.js';

const invalid = (detail: string) => ({ type: 'Invalid', detail });
const tooComplex = { type: 'Forbidden', detail: 'too complex, exceeds cost limit' };

describe('deviceSelectorIssue', () => {
  it('takes selectors that evaluate to a bool or to the unknown type (an attribute)', () => {
    for (const expression of [
      'device.driver == "a"', 'device.attributes["x.com"].model == "a"', 'device.attributes["x.com"]["model"]',
      'device.capacity["x.com"].mem.compareTo(quantity("1Gi")) >= 0', 'device.attributes["x.com"].v.isGreaterThan(semver("1.0.0"))',
      'has(device.attributes.x)', 'device.attributes.exists(k, k == "a")', 'size(device.capacity) > 0', 'device.attributes[?"x"].hasValue()',
    ]) expect(deviceSelectorIssue(expression, 'new'), expression).to.equal(undefined);
  });

  it('answers syntax and type errors and other result types in the apiserver\'s words', () => {
    expect(deviceSelectorIssue('device.foo', 'new')).to.deep.equal(invalid("compilation failed: ERROR: <input>:1:7: undefined field 'foo'\n | device.foo\n | ......^"));
    expect(deviceSelectorIssue('1', 'new')).to.deep.equal(invalid('must evaluate to bool or the unknown type, not int'));
    expect(deviceSelectorIssue('device.driver.size()', 'stored')).to.deep.equal(invalid('must evaluate to bool or the unknown type, not int'));
    expect(deviceSelectorIssue('device', 'new')).to.deep.equal(invalid('must evaluate to bool or the unknown type, not kubernetes.DRADevice'));
    expect(deviceSelectorIssue('device.capacity["x.com"].mem', 'new')).to.deep.equal(invalid('must evaluate to bool or the unknown type, not kubernetes.Quantity'));
  });

  it('expands cel.bind as ext.Bindings does, and refuses its misuses in cel-go\'s words and positions', () => {
    for (const expression of [
      'cel.bind(dra, device.attributes["dra.example.com"], dra.model == "x")', 'cel.bind(x, 1, x > 0)', 'cel.bind(device, 1, device > 0)',
      'cel.bind(x, cel.bind(y, 2, y), x == 2)', 'cel.bind(__result__, 1, true)',
    ]) expect(deviceSelectorIssue(expression, 'new'), expression).to.equal(undefined);
    expect(deviceSelectorIssue('cel.bind(1, 2, true)', 'new')).to.deep.equal(invalid('compilation failed: ERROR: <input>:1:10: cel.bind() variable names must be simple identifiers\n | cel.bind(1, 2, true)\n | .........^'));
    expect(deviceSelectorIssue('cel.bind(x.y, 2, true)', 'new')).to.deep.equal(invalid('compilation failed: ERROR: <input>:1:11: cel.bind() variable names must be simple identifiers\n | cel.bind(x.y, 2, true)\n | ..........^'));
    expect(deviceSelectorIssue('cel.bind(x, 1, x)', 'new')).to.deep.equal(invalid('must evaluate to bool or the unknown type, not int'));
    // Not the macro: two arguments, or another target.
    expect(deviceSelectorIssue('cel.bind(x, 1)', 'new')).to.deep.equal(invalid([
      "compilation failed: ERROR: <input>:1:1: undeclared reference to 'cel' (in container '')", ' | cel.bind(x, 1)', ' | ^',
      "ERROR: <input>:1:9: undeclared reference to 'bind' (in container '')", ' | cel.bind(x, 1)', ' | ........^',
      "ERROR: <input>:1:10: undeclared reference to 'x' (in container '')", ' | cel.bind(x, 1)', ' | .........^',
    ].join('\n')));
    expect(deviceSelectorIssue('x.bind(y, 1, true)', 'new')?.detail).to.match(/^compilation failed: ERROR: <input>:1:1: undeclared reference to 'x'/);
    expect(deviceSelectorIssue('cel.bind(@result, 1, true)', 'new')).to.deep.equal(invalid("compilation failed: ERROR: <input>:1:10: Syntax error: token recognition error at: '@'\n | cel.bind(@result, 1, true)\n | .........^"));
  });

  it('refuses selectors whose estimated cost exceeds 1,000,000, with the sizes the DRA API bounds', () => {
    // Four nested loops over 32 domains or 32 names are too many; three are not.
    const over = [
      'device.attributes.all(d, device.attributes[d].all(k, device.attributes.all(d2, device.attributes[d2].all(k2, true))))',
      'device.attributes.all(d, device.attributes[d].all(k, device.attributes.all(d2, device.attributes[d2].exists(k2, k2 == k))))',
      'device.capacity.all(d, device.capacity[d].all(k, device.capacity.all(d2, device.capacity[d2].all(k2, device.capacity[d][k].isGreaterThan(device.capacity[d2][k2])))))',
      'cel.bind(m, device.attributes, m.all(d, m[d].all(k, m.all(d2, m[d2].all(k2, true)))))',
      'device.attributes.map(d, device.attributes[d].map(k, device.attributes.map(d2, device.attributes[d2].map(k2, 1)))).size() > 0',
      // A field selected on the outer map is of no known size: the regular expression's cost is unbounded.
      'device.attributes.a.s.matches("x.*y")',
    ];
    for (const expression of over) expect(deviceSelectorIssue(expression, 'new'), expression).to.deep.equal(tooComplex);
    const under = [
      'device.attributes.all(d, device.attributes[d].all(k, device.attributes.all(d2, true)))',
      // An attribute is at most 64 characters long, however it is selected.
      'device.attributes["a"].s.matches("x.*y")', 'device.attributes["a"]["s"].matches("x.*y")',
      'device.attributes.exists(d, device.attributes[d].exists(k, device.attributes[d][k].matches("^a+$")))',
      'device.driver.matches("a") && device.attributes.all(d, device.attributes[d].all(k, string(device.attributes[d][k]).matches(device.driver)))',
      '[1,2,3].map(x, [4,5,6].map(y, x*y)).size() > 0',
    ];
    for (const expression of under) expect(deviceSelectorIssue(expression, 'new'), expression).to.equal(undefined);
  });

  it('draws the line where kube-apiserver does (a loop over a list literal, its length stepped across the limit)', () => {
    // The reference took the first length and refused the second of each (and agreed with kubekit at every
    // length stepped through: 60–294 by 6, 10–126 by 4, 50–340 by 10). A list literal's items are not sized as
    // `device`: only paths that start at `device` are (kubekit sized them as the device object, of size 0,
    // which made `… == x` free and moved the line from 84/90 to 90/96).
    const list = (n: number): string => `[${Array.from({ length: n }, (_, i) => i).join(',')}]`;
    const families: [(n: number) => string, number, number][] = [
      [(n) => `${list(n)}.all(x, device.attributes.all(d, device.attributes[d].all(k, device.attributes[d][k] == x)))`, 84, 90],
      [(n) => `${list(n)}.all(x, device.attributes.all(d, device.attributes[d].all(k, string(device.attributes[d][k]).matches("a+b"))))`, 38, 42],
      [(n) => `${list(n)}.all(x, cel.bind(m, device.capacity, m.all(d, m[d].all(k, m[d][k].isLessThan(quantity("1Gi"))))))`, 90, 100],
    ];
    for (const [expression, ok, over] of families) {
      expect(deviceSelectorIssue(expression(ok), 'new'), expression(ok)).to.equal(undefined);
      expect(deviceSelectorIssue(expression(over), 'new'), expression(over)).to.deep.equal(tooComplex);
    }
  });

  it('refuses a constant regular expression that does not compile: matches() in the checker, find() when the program is built', () => {
    expect(deviceSelectorIssue('device.driver.matches("[")', 'new')).to.deep.equal(invalid('compilation failed: ERROR: <input>:1:23: invalid matches argument\n | device.driver.matches("[")\n | ......................^'));
    // An InternalError for the apiserver (its program instantiation failed).
    expect(deviceSelectorIssue('device.driver.find("[") == ""', 'new')).to.deep.equal({ type: 'InternalError', detail: 'program instantiation failed: error parsing regexp: missing closing ]: `[`' });
  });
});

describe('cel.bind', () => {
  // Where the environment has ext.Bindings (compileExpression's CheckEnv.bindings), evaluated as cel-go does.
  const env = { variables: new Map([['n', IntType]]), ...environmentFunctions('new'), objectTypes: new Map(), typeIdents: typeIdentifiers, bindings: true };
  const run = (source: string): unknown => {
    const r = compileExpression(source, env, undefined, undefined, '', '');
    if (!r.ok) throw new Error(r.detail);
    return evaluate(r.expr.checked, celRuntime, new Map([['n', 3n]]), 1_000_000).value;
  };

  it('binds a name to a value for the expression it scopes, shadowing a variable of that name', () => {
    expect(run('cel.bind(sq, n * n, sq + sq)')).to.equal(18n);
    expect(run('cel.bind(n, 1, n) + n')).to.equal(4n);
    expect(run('cel.bind(a, n, cel.bind(b, a + 1, a * b))')).to.equal(12n);
    expect(run('cel.bind(xs, [1, 2, n], xs.all(x, x > 0) && size(xs) == 3)')).to.equal(true);
  });

  it('is a plain call where the environment does not have it', () => {
    const r = compileExpression('cel.bind(x, 1, x > 0)', { ...env, bindings: false }, undefined, undefined, '', '');
    expect(r.ok).to.equal(false);
    expect(r.ok ? '' : r.detail).to.match(/undeclared reference to 'cel'/);
  });
});
