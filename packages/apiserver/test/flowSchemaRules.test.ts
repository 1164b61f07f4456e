import { expect } from 'chai';
import { compileFlowSchemaRules, type RequestDigest } from '../src/flowSchemaRules.js';

type Info = RequestDigest['info'];
const user = { username: 'goodu', uid: '1', groups: ['goodg1', 'goodg2'] };
// k8s.io/apiserver/pkg/util/flowcontrol/match_test.go TestLiterals: a namespaced and a cluster-scoped
// resource request and a non-resource one.
const reqRN: Info = { isResourceRequest: true, path: '/apis/goodapig/v1/namespaces/goodns/goodrscs', verb: 'goodverb', group: 'goodapig', namespace: 'goodns', resource: 'goodrscs', subresource: '' };
const reqRU: Info = { ...reqRN, path: '/apis/goodapig/v1/goodrscs', namespace: '' };
const reqN: Info = { isResourceRequest: false, path: '/openapi/v2', verb: 'goodverb', group: '', namespace: '', resource: '', subresource: '' };

const userSubject = (name: string): unknown => ({ kind: 'User', user: { name } });
const groupSubject = (name: string): unknown => ({ kind: 'Group', group: { name } });
const serviceAccountSubject = (namespace: string, name: string): unknown => ({ kind: 'ServiceAccount', serviceAccount: { namespace, name } });
const resourceRule = (more: Record<string, unknown> = {}): unknown => ({ verbs: ['goodverb'], apiGroups: ['goodapig'], resources: ['goodrscs'], namespaces: ['goodns'], ...more });
const nonResourceRule = (more: Record<string, unknown> = {}): unknown => ({ verbs: ['goodverb'], nonResourceURLs: ['/openapi/v2'], ...more });

/** Whether a FlowSchema with this one rule matches. */
function matches(rule: Record<string, unknown>, info: Info, u = user): boolean {
  return compileFlowSchemaRules({ rules: [rule] })({ user: u, info });
}

describe('compileFlowSchemaRules', () => {
  describe('match_test.go TestLiterals', () => {
    it('matches a namespaced resource request by user, group, and each wildcard', () => {
      const rules = [
        { subjects: [userSubject('goodu')], resourceRules: [resourceRule()] },
        { subjects: [groupSubject('goodg1')], resourceRules: [resourceRule()] },
        { subjects: [userSubject('*')], resourceRules: [resourceRule()] },
        { subjects: [groupSubject('*')], resourceRules: [resourceRule()] },
        { subjects: [userSubject('goodu')], resourceRules: [resourceRule({ verbs: ['*'] })] },
        { subjects: [userSubject('goodu')], resourceRules: [resourceRule({ apiGroups: ['*'] })] },
        { subjects: [userSubject('goodu')], resourceRules: [resourceRule({ resources: ['*'] })] },
        { subjects: [userSubject('goodu')], resourceRules: [resourceRule({ namespaces: ['*'] })] },
      ];
      expect(rules.map((r) => matches(r, reqRN))).to.deep.equal(rules.map(() => true));
    });

    it('does not match a namespaced resource request when one part differs', () => {
      const rules = [
        { subjects: [userSubject('badu')], resourceRules: [resourceRule()] },
        { subjects: [groupSubject('badg')], resourceRules: [resourceRule()] },
        { subjects: [userSubject('goodu')], resourceRules: [resourceRule({ verbs: ['badverb'] })] },
        { subjects: [userSubject('goodu')], resourceRules: [resourceRule({ apiGroups: ['badapig'] })] },
        { subjects: [userSubject('goodu')], resourceRules: [resourceRule({ resources: ['badrscs'] })] },
        { subjects: [userSubject('goodu')], resourceRules: [resourceRule({ namespaces: ['badns'] })] },
      ];
      expect(rules.map((r) => matches(r, reqRN))).to.deep.equal(rules.map(() => false));
    });

    it('matches a cluster-scoped request only with clusterScope', () => {
      const cluster = (more: Record<string, unknown>): unknown => resourceRule({ namespaces: undefined, clusterScope: true, ...more });
      const good = [{}, { verbs: ['*'] }, { apiGroups: ['*'] }, { resources: ['*'] }].map((m) => ({ subjects: [userSubject('goodu')], resourceRules: [cluster(m)] }));
      const bad = [{ verbs: ['badverb'] }, { apiGroups: ['badapig'] }, { resources: ['badrscs'] }, { clusterScope: false }].map((m) => ({ subjects: [userSubject('goodu')], resourceRules: [cluster(m)] }));
      expect([good.map((r) => matches(r, reqRU)), bad.map((r) => matches(r, reqRU))]).to.deep.equal([good.map(() => true), bad.map(() => false)]);
      // A namespace wildcard does not reach cluster-scoped requests.
      expect(matches({ subjects: [userSubject('goodu')], resourceRules: [resourceRule({ namespaces: ['*'] })] }, reqRU)).to.equal(false);
    });

    it('matches a non-resource request by verb and URL', () => {
      const good = [{}, { verbs: ['*'] }, { nonResourceURLs: ['*'] }].map((m) => ({ subjects: [userSubject('goodu')], nonResourceRules: [nonResourceRule(m)] }));
      const bad = [{ verbs: ['badverb'] }, { nonResourceURLs: ['/closedapi/v2'] }].map((m) => ({ subjects: [userSubject('goodu')], nonResourceRules: [nonResourceRule(m)] }));
      expect([good.map((r) => matches(r, reqN)), bad.map((r) => matches(r, reqN))]).to.deep.equal([good.map(() => true), bad.map(() => false)]);
    });
  });

  it('takes a resource request only to resource rules and a non-resource one only to non-resource rules', () => {
    const rule = { subjects: [userSubject('goodu')], resourceRules: [resourceRule({ verbs: ['*'] })], nonResourceRules: [nonResourceRule({ nonResourceURLs: ['/apis/*'] })] };
    expect([matches(rule, reqRN), matches(rule, { ...reqN, path: '/apis/goodapig/v1/namespaces/goodns/goodrscs' }), matches({ ...rule, resourceRules: [] }, reqRN)]).to.deep.equal([true, true, false]);
  });

  it('matches a subresource as `resource/subresource` (rule.go rsJoin)', () => {
    const status = { ...reqRN, subresource: 'status' };
    const rule = (resources: string[]): Record<string, unknown> => ({ subjects: [userSubject('goodu')], resourceRules: [resourceRule({ resources })] });
    expect([matches(rule(['goodrscs/status']), status), matches(rule(['goodrscs']), status), matches(rule(['goodrscs/status']), reqRN), matches(rule(['*']), status)]).to.deep.equal([true, false, false, true]);
  });

  it('treats `*` as a wildcard only as the sole member of a list (rule.go containsString)', () => {
    const rule = { subjects: [userSubject('goodu')], resourceRules: [resourceRule({ verbs: ['*', 'other'] })] };
    expect([matches(rule, reqRN), matches(rule, { ...reqRN, verb: '*' })]).to.deep.equal([false, true]);
  });

  // gen_test.go genNonResourceRule: `/p/g/*` and `/p/g` both cover the paths below `/p/g`.
  it('matches a non-resource URL, the paths below it, and any path for `*`', () => {
    const rule = (urls: string[]): Record<string, unknown> => ({ subjects: [userSubject('goodu')], nonResourceRules: [nonResourceRule({ nonResourceURLs: urls })] });
    const paths = ['/t/g', '/t/g/', '/t/g/p1', '/t/g/p1/q', '/t/gx', '/t', '/'];
    const at = (urls: string[]): boolean[] => paths.map((path) => matches(rule(urls), { ...reqN, path }));
    expect({ star: at(['/t/g/*']), plain: at(['/t/g']), slash: at(['/t/g/']), root: at(['/']), all: at(['/x', '*']) }).to.deep.equal({
      star: [false, true, true, true, false, false, false],
      plain: [true, true, true, true, false, false, false],
      slash: [false, true, true, true, false, false, false],
      root: [true, true, true, true, true, true, true],
      all: [true, true, true, true, true, true, true],
    });
  });

  // gen_test.go genServiceAccount: a name or namespace with one more character is another account.
  it('matches a service account by its user name, and every account of a namespace for `*`', () => {
    const rule = (namespace: string, name: string): Record<string, unknown> => ({ subjects: [serviceAccountSubject(namespace, name)], resourceRules: [resourceRule()] });
    const as = (username: string): typeof user => ({ ...user, username });
    const users = ['system:serviceaccount:ns:sa', 'system:serviceaccount:nsx:sa', 'system:serviceaccount:ns:sax', 'system:serviceaccount:ns:', 'ns:sa', 'system:serviceaccounts:ns:sa'];
    expect({
      one: users.map((u) => matches(rule('ns', 'sa'), reqRN, as(u))),
      all: users.map((u) => matches(rule('ns', '*'), reqRN, as(u))),
    }).to.deep.equal({
      one: [true, false, false, false, false, false],
      all: [true, false, true, true, false, false],
    });
  });

  it('matches any of a rule\'s subjects, any of a FlowSchema\'s rules, and nothing without rules', () => {
    const digest = { user, info: reqRN };
    const fs = compileFlowSchemaRules({ rules: [
      { subjects: [userSubject('other')], resourceRules: [resourceRule()] },
      { subjects: [groupSubject('nope'), groupSubject('goodg2')], resourceRules: [resourceRule({ verbs: ['x'] }), resourceRule()] },
    ] });
    expect([fs(digest), compileFlowSchemaRules({})(digest), compileFlowSchemaRules({ rules: [{ subjects: [{ kind: 'User' }, { kind: 'Other', user: { name: 'goodu' } }], resourceRules: [resourceRule()] }] })(digest)]).to.deep.equal([true, false, false]);
  });
});
