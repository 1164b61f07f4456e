// kube-apiserver 1.34 compiles the rules of a CRD it is given in its environment for new expressions
// (compatibility version 1.33), which does not have cel-go's ext.Lists (`sort`, `sortBy`, `distinct`,
// `flatten`, `lists.range`, `reverse`, `slice`; introduced at 1.34): a CRD that uses them is refused, where
// kubekit took it, so a CRD checked by kubekit was refused by a cluster. `first()` is the optional library's,
// declared in both environments. (packages/crd/test/validationRules/compileRules.test.ts has the update of a
// CRD whose old version holds such a rule, which no 1.34 server can create.)
import { expect } from 'chai';
import { describeOnBothServers, type Send } from './sender.js';

const rules: [string, string][] = [
  ['self.l.sort() == self.l', "ERROR: <input>:1:12: undeclared reference to 'sort' (in container '')\n | self.l.sort() == self.l\n | ...........^"],
  ['self.l.sortBy(x, x) == self.l', "ERROR: <input>:1:14: undeclared reference to 'sortBy' (in container '')\n | self.l.sortBy(x, x) == self.l\n | .............^\n"
    + "ERROR: <input>:1:15: undeclared reference to 'x' (in container '')\n | self.l.sortBy(x, x) == self.l\n | ..............^\n"
    + "ERROR: <input>:1:18: undeclared reference to 'x' (in container '')\n | self.l.sortBy(x, x) == self.l\n | .................^"],
  ['self.l.distinct() == self.l', "ERROR: <input>:1:16: undeclared reference to 'distinct' (in container '')\n | self.l.distinct() == self.l\n | ...............^"],
  ['self.l.reverse() == self.l', "ERROR: <input>:1:15: undeclared reference to 'reverse' (in container '')\n | self.l.reverse() == self.l\n | ..............^"],
  ['self.l.slice(0, 1) == self.l', "ERROR: <input>:1:13: undeclared reference to 'slice' (in container '')\n | self.l.slice(0, 1) == self.l\n | ............^"],
  ['[[1]].flatten() == [1]', "ERROR: <input>:1:14: undeclared reference to 'flatten' (in container '')\n | [[1]].flatten() == [1]\n | .............^"],
  // Not a CEL function in any environment (kubekit called it unsupported).
  ['[1].includes(1)', "ERROR: <input>:1:13: undeclared reference to 'includes' (in container '')\n | [1].includes(1)\n | ............^"],
  ['lists.range(2) == [0, 1]', "ERROR: <input>:1:1: undeclared reference to 'lists' (in container '')\n | lists.range(2) == [0, 1]\n | ^\n"
    + "ERROR: <input>:1:12: undeclared reference to 'range' (in container '')\n | lists.range(2) == [0, 1]\n | ...........^"],
];

const crd = (i: number, rule: string): string => JSON.stringify({
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `w${i}s.celenv.example.com` },
  spec: {
    group: 'celenv.example.com', scope: 'Namespaced', names: { plural: `w${i}s`, singular: `w${i}`, kind: `W${i}`, listKind: `W${i}List` },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: {
      type: 'object', properties: { l: { type: 'array', maxItems: 10, items: { type: 'integer' } } }, 'x-kubernetes-validations': [{ rule }],
    } } } } }],
  },
});

async function run(s: Send): Promise<void> {
  for (const [i, [rule, error]] of rules.entries()) {
    const a = await s('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions?dryRun=All', crd(i, rule));
    expect(a.status, `${rule}: ${a.text}`).to.equal(422);
    expect(a.message.replace(/^.*"OptionalOldSelf":null\}: /s, ''), rule).to.equal(`compilation failed: ${error}`);
  }
  const first = await s('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions?dryRun=All', crd(99, 'self.l.first() == optional.of(1)'));
  expect(first.status, first.text).to.equal(201);
}

describeOnBothServers('hostile input: CRD rules compile in the environment for new expressions, kubekit and the real kube-apiserver', run);
