// The environment of admission expressions (k8s.io/apiserver admission/plugin/cel): its variables and their
// types, variable composition, the result types an expression must have (in cel-go's `Type.String()`
// words), the authorizer library, and evaluation with lazily evaluated variables. Every message here is
// kube-apiserver 1.34.4's for the same expression in a ValidatingAdmissionPolicy
// (test/hostile/validatingAdmissionPolicies.test.ts compares them on both servers).
import { expect } from 'chai';
import { AdmissionCompiler, celTypeString } from '../src/index.js';
import type { AdmissionCompileResult, AdmissionDeclarations, AuthorizationCheck } from '../src/index.js';

const decls: AdmissionDeclarations = { params: false, authorizer: true, environment: 'new' };
const detail = (r: AdmissionCompileResult): string => (r.ok ? `ok: ${r.program.resultType}` : r.detail);

describe('AdmissionCompiler', () => {
  it('declares the request, the namespace, the objects, and params and the authorizer only when asked', () => {
    const c = new AdmissionCompiler(false);
    expect(detail(c.compile("request.kind == 'x'", 'bool', decls))).to.equal("compilation failed: ERROR: <input>:1:14: found no matching overload for '_==_' applied to '(kubernetes.GroupVersionKind, string)'\n | request.kind == 'x'\n | .............^");
    expect(detail(c.compile("namespaceObject.metadata.uid == ''", 'bool', decls))).to.contain("undefined field 'uid'");
    expect(detail(c.compile('object.a == oldObject.a', 'bool', decls))).to.equal('ok: bool');
    expect(detail(c.compile('params == null', 'bool', decls))).to.contain("undeclared reference to 'params'");
    expect(detail(c.compile('params == null', 'bool', { ...decls, params: true }))).to.equal('ok: bool');
    expect(detail(c.compile("authorizer.path('/x').check('get').allowed()", 'string', { ...decls, authorizer: false }))).to.contain("undeclared reference to 'authorizer'");
    expect(detail(c.compile('variables.x == 1', 'bool', decls))).to.contain("undeclared reference to 'variables'");
  });

  it('requires the exact result type', () => {
    const c = new AdmissionCompiler(false);
    expect(detail(c.compile('object.x', 'bool', decls))).to.equal('must evaluate to bool but got dyn');
    expect(detail(c.compile("{'a': [1]}", 'string', decls))).to.equal('must evaluate to string but got map(string, list(int))');
    expect(detail(c.compile('1', 'stringOrNull', decls))).to.equal('must evaluate to one of [string null_type] but got int');
    expect(detail(c.compile('null', 'stringOrNull', decls))).to.equal('ok: null_type');
    expect(detail(c.compile("authorizer.requestResource.check('get')", 'bool', decls))).to.equal('must evaluate to bool but got kubernetes.authorization.Decision');
    expect(celTypeString({ kind: 'opaque', name: 'optional_type', params: [{ kind: 'int', name: 'int', params: [] }] })).to.equal('optional_type(int)');
  });

  it('composes variables: each sees those before it, typed, a failed one as dyn', () => {
    const c = new AdmissionCompiler(true);
    expect(detail(c.compileVariable('a', 'object.metadata.name', decls))).to.equal('ok: dyn');
    expect(detail(c.compileVariable('b', 'variables.a.size()', decls))).to.equal('ok: int');
    expect(detail(c.compileVariable('c', 'variables.d', decls))).to.contain("undefined field 'd'");
    expect(detail(c.compileVariable('d', 'request.userInfo', decls))).to.equal('ok: kubernetes.UserInfo');
    expect(detail(c.compile("variables.b == 'x'", 'bool', decls))).to.contain("found no matching overload for '_==_' applied to '(int, string)'");
    expect(detail(c.compile('variables.c == 1 && variables.d.username == 1', 'bool', decls))).to.equal('ok: bool');
  });
});

describe('AdmissionActivation', () => {
  const checks: AuthorizationCheck[] = [];
  const input = {
    object: { metadata: { name: 'abc' }, data: { n: 3 } }, oldObject: null, request: { operation: 'CREATE' }, namespaceObject: null,
    authorizer: {
      authorize: (check: AuthorizationCheck) => {
        checks.push(check);
        return { allowed: check.verb === 'get', reason: check.verb === 'get' ? '' : 'no' };
      },
      user: { username: 'u', groups: ['g'] },
      requestResource: { group: 'apps', resource: 'deployments', subresource: 'scale', namespace: 'ns', name: 'd' },
    },
  };

  it('evaluates with the variables computed once, when first selected, their cost counted apart', () => {
    const c = new AdmissionCompiler(true);
    c.compileVariable('size', 'object.metadata.name.size()', decls);
    c.compileVariable('bad', 'object.nope', decls);
    const a = c.activation(input);
    const twice = c.compile('variables.size + variables.size == 6', 'bool', decls);
    if (!twice.ok) throw new Error(twice.detail);
    expect(a.evaluate(twice.program)).to.deep.include({ ok: true, value: true });
    expect(a.takeVariableCost()).to.be.greaterThan(0);
    expect(a.takeVariableCost()).to.equal(0);
    const bad = c.compile('variables.bad == 1', 'bool', decls);
    if (!bad.ok) throw new Error(bad.detail);
    expect(a.evaluate(bad.program)).to.deep.include({ ok: false, error: 'composited variable "bad" fails to evaluate: no such key: nope' });
  });

  it('asks the authorizer what the checks build, as the user of the request', () => {
    const c = new AdmissionCompiler(false);
    const run = (expression: string): unknown => {
      const r = c.compile(expression, 'bool', decls);
      if (!r.ok) throw new Error(r.detail);
      const e = c.activation(input).evaluate(r.program);
      return e.ok ? e.value : e.error;
    };
    checks.length = 0;
    expect(run("authorizer.requestResource.check('get').allowed()")).to.equal(true);
    expect(run("authorizer.group('').resource('pods').subresource('log').namespace('n').name('p').check('list').reason() == 'no'")).to.equal(true);
    expect(run("authorizer.serviceAccount('ns', 'sa').path('/healthz').check('get').allowed()")).to.equal(true);
    expect(run("authorizer.group('').resource(' ').check('get').allowed()")).to.equal('resource must not be empty');
    expect(run("authorizer.serviceAccount('NS', 'sa').path('/x').check('get').allowed()")).to.equal('Invalid service account namespace');
    expect(checks).to.deep.equal([
      { resourceRequest: true, user: { username: 'u', groups: ['g'] }, verb: 'get', apiGroup: 'apps', resource: 'deployments', subresource: 'scale', namespace: 'ns', name: 'd', fieldSelector: '', labelSelector: '' },
      { resourceRequest: true, user: { username: 'u', groups: ['g'] }, verb: 'list', apiGroup: '', resource: 'pods', subresource: 'log', namespace: 'n', name: 'p', fieldSelector: '', labelSelector: '' },
      { resourceRequest: false, user: { username: 'system:serviceaccount:ns:sa', groups: ['system:serviceaccounts', 'system:serviceaccounts:ns'] }, verb: 'get', path: '/healthz' },
    ]);
  });

  it('charges an authorization check 350 000 and stops past the per-call limit', () => {
    const c = new AdmissionCompiler(false);
    const r = c.compile("[1, 2, 3].all(i, authorizer.path('/x').check('get').allowed())", 'bool', decls);
    if (!r.ok) throw new Error(r.detail);
    expect(c.activation(input).evaluate(r.program)).to.deep.include({ ok: false, error: 'operation cancelled: actual cost limit exceeded' });
  });
});
