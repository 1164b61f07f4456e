// The RBAC escalation check's rule comparison (`Covers`) on upstream's own table:
// https://github.com/kubernetes/kubernetes/blob/v1.34.4/staging/src/k8s.io/component-helpers/auth/rbac/validation/policy_comparator_test.go
// (module k8s.io/component-helpers@v0.34.4), transcribed as data in fixtures/rbacCovers.json. Upstream compares the
// uncovered rules without regard to order (`rulesMatch`: the same length, and each expected rule deeply equal to
// some actual one), and so does this test. `compactString` is checked against `rbacv1helpers.CompactString`'s
// format (k8s.io/kubernetes pkg/apis/rbac/v1/evaluation_helpers.go).
// The `CompactRules` table (pkg/registry/rbac/validation/policy_compact_test.go) is not here: kubekit's
// `compactRules` is not exported.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { compactString, uncoveredRules } from '../src/rbacEscalation.js';
import type { PolicyRule } from '../src/rbacAuthorizer.js';

interface CoversCase {
  name: string;
  owner: PolicyRule[];
  servant: PolicyRule[];
  covered: boolean;
  uncovered: PolicyRule[];
}

const fixture = JSON.parse(readFileSync(new URL('./fixtures/rbacCovers.json', import.meta.url), 'utf8')) as { source: string; cases: CoversCase[] };

/** Upstream's `rulesMatch`: the same number of rules, and each expected rule equal to some actual one. */
function rulesMatch(expected: readonly PolicyRule[], actual: readonly PolicyRule[]): boolean {
  return expected.length === actual.length && expected.every((e) => actual.some((a) => isDeepStrictEqual(e, a)));
}

describe('RBAC escalation: Covers (policy_comparator_test.go)', () => {
  it('has the upstream table', () => {
    expect(fixture.cases).to.have.length(23);
  });

  for (const c of fixture.cases) {
    it(c.name, () => {
      const actual = uncoveredRules(c.owner, c.servant);
      expect(rulesMatch(c.uncovered, actual), `uncovered: expected ${JSON.stringify(c.uncovered)}, got ${JSON.stringify(actual)}`).to.equal(true);
      expect(actual.length === 0, 'covered').to.equal(c.covered);
      expect(c.uncovered.length === 0, 'fixture: covered iff nothing uncovered').to.equal(c.covered);
    });
  }
});

describe('RBAC escalation: compactString (rbacv1helpers.CompactString)', () => {
  const cases: [PolicyRule, string][] = [
    [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'list'] }, '{APIGroups:["apps"], Resources:["deployments"], Verbs:["get" "list"]}'],
    // The core group is a non-empty list of one empty string.
    [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }, '{APIGroups:[""], Resources:["pods"], Verbs:["get"]}'],
    [{ apiGroups: [''], resources: ['secrets'], resourceNames: ['a', 'b'], verbs: ['get'] }, '{APIGroups:[""], Resources:["secrets"], ResourceNames:["a" "b"], Verbs:["get"]}'],
    [{ nonResourceURLs: ['/healthz', '/api/*'], verbs: ['get'] }, '{NonResourceURLs:["/healthz" "/api/*"], Verbs:["get"]}'],
    // Empty lists are left out.
    [{ apiGroups: ['apps'], resources: ['deployments'], resourceNames: [], nonResourceURLs: [], verbs: ['*'] }, '{APIGroups:["apps"], Resources:["deployments"], Verbs:["*"]}'],
    [{ verbs: [] }, '{}'],
    // All five, in CompactString's order whatever the object's.
    [{ verbs: ['get'], resourceNames: ['n'], nonResourceURLs: ['/x'], resources: ['r'], apiGroups: ['g'] }, '{APIGroups:["g"], Resources:["r"], NonResourceURLs:["/x"], ResourceNames:["n"], Verbs:["get"]}'],
    // %q escapes.
    [{ apiGroups: [''], resources: ['configmaps'], resourceNames: ['a"b\\c', 'tab\there'], verbs: ['get'] }, '{APIGroups:[""], Resources:["configmaps"], ResourceNames:["a\\"b\\\\c" "tab\\there"], Verbs:["get"]}'],
  ];
  for (const [rule, want] of cases) {
    it(want, () => {
      expect(compactString(rule)).to.equal(want);
    });
  }
});
