// The RuntimeClass admission plugin's toleration merge, against the tables of upstream's
// pkg/util/tolerations/tolerations_test.go (TestIsSuperset, TestMergeTolerations; Kubernetes v1.34.4).
import { expect } from 'chai';
import { isSuperset, mergeTolerations, toleration } from '../src/runtimeClassAdmission.js';

/** Upstream's named tolerations. */
const named: Readonly<Record<string, Record<string, unknown>>> = {
  all: { operator: 'Exists' },
  'all-nosched': { operator: 'Exists', effect: 'NoSchedule' },
  'all-noexec': { operator: 'Exists', effect: 'NoExecute' },
  foo: { key: 'foo', operator: 'Exists' },
  'foo-bar': { key: 'foo', operator: 'Equal', value: 'bar' },
  'foo-nosched': { key: 'foo', operator: 'Exists', effect: 'NoSchedule' },
  'foo-bar-nosched': { key: 'foo', operator: 'Equal', value: 'bar', effect: 'NoSchedule' },
  'foo-baz-nosched': { key: 'foo', operator: 'Equal', value: 'baz', effect: 'NoSchedule' },
  'faz-nosched': { key: 'faz', operator: 'Exists', effect: 'NoSchedule' },
  'faz-baz-nosched': { key: 'faz', operator: 'Equal', value: 'baz', effect: 'NoSchedule' },
  'foo-prefnosched': { key: 'foo', operator: 'Exists', effect: 'PreferNoSchedule' },
  'foo-noexec': { key: 'foo', operator: 'Exists', effect: 'NoExecute' },
  'foo-bar-noexec': { key: 'foo', operator: 'Equal', value: 'bar', effect: 'NoExecute' },
  'foo-noexec-10': { key: 'foo', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 },
  'foo-noexec-0': { key: 'foo', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 0 },
  'foo-bar-noexec-10': { key: 'foo', operator: 'Equal', value: 'bar', effect: 'NoExecute', tolerationSeconds: 10 },
};

describe('RuntimeClassAdmission', () => {
  it('knows which toleration tolerates a superset of another (TestIsSuperset)', () => {
    const supersets: [string, string[]][] = [
      ['all', ['all-nosched', 'all-noexec', 'foo', 'foo-bar', 'foo-nosched', 'foo-bar-nosched', 'foo-baz-nosched', 'faz-nosched', 'faz-baz-nosched', 'foo-prefnosched', 'foo-noexec', 'foo-bar-noexec', 'foo-noexec-10', 'foo-noexec-0', 'foo-bar-noexec-10']],
      ['all-nosched', ['foo-nosched', 'foo-bar-nosched', 'foo-baz-nosched', 'faz-nosched', 'faz-baz-nosched']],
      ['all-noexec', ['foo-noexec', 'foo-bar-noexec', 'foo-noexec-10', 'foo-noexec-0', 'foo-bar-noexec-10']],
      ['foo', ['foo-bar', 'foo-nosched', 'foo-bar-nosched', 'foo-baz-nosched', 'foo-prefnosched', 'foo-noexec', 'foo-bar-noexec', 'foo-noexec-10', 'foo-noexec-0', 'foo-bar-noexec-10']],
      ['foo-bar', ['foo-bar-nosched', 'foo-bar-noexec', 'foo-bar-noexec-10']],
      ['foo-nosched', ['foo-bar-nosched', 'foo-baz-nosched']],
      ['foo-bar-nosched', []],
      ['faz-nosched', ['faz-baz-nosched']],
      ['faz-baz-nosched', []],
      ['foo-prefnosched', []],
      ['foo-noexec', ['foo-noexec', 'foo-bar-noexec', 'foo-noexec-10', 'foo-noexec-0', 'foo-bar-noexec-10']],
      ['foo-bar-noexec', ['foo-bar-noexec-10']],
      ['foo-noexec-10', ['foo-noexec-0', 'foo-bar-noexec-10']],
      ['foo-noexec-0', []],
      ['foo-bar-noexec-10', []],
    ];
    for (const [superName, subs] of supersets) {
      for (const sub of Object.keys(named)) {
        // Every toleration is a superset of itself.
        const expected = sub === superName || subs.includes(sub);
        expect(isSuperset(toleration(named[superName]), toleration(named[sub])), `${superName} ⊇ ${sub}`).to.equal(expected);
      }
    }
  });

  it('merges two lists, keeping only the supersets, in order (TestMergeTolerations)', () => {
    const cases: [string, string[], string[], string[]][] = [
      ['disjoint', ['foo-bar-nosched', 'faz-baz-nosched', 'foo-noexec-10'], ['foo-prefnosched', 'foo-baz-nosched'], ['foo-bar-nosched', 'faz-baz-nosched', 'foo-noexec-10', 'foo-prefnosched', 'foo-baz-nosched']],
      ['duplicate', ['foo-bar-nosched', 'faz-baz-nosched', 'foo-noexec-10'], ['foo-bar-nosched', 'faz-baz-nosched', 'foo-noexec-10'], ['foo-bar-nosched', 'faz-baz-nosched', 'foo-noexec-10']],
      ['merge redundant', ['foo-bar-nosched', 'foo-baz-nosched'], ['foo-nosched', 'faz-baz-nosched'], ['foo-nosched', 'faz-baz-nosched']],
      ['merge all', ['foo-bar-nosched', 'foo-baz-nosched', 'foo-noexec-10'], ['all'], ['all']],
      ['merge into all', ['all'], ['foo-bar-nosched', 'foo-baz-nosched', 'foo-noexec-10'], ['all']],
    ];
    for (const [name, a, b, expected] of cases) {
      expect(mergeTolerations(a.map((n) => named[n]), b.map((n) => named[n])), name).to.deep.equal(expected.map((n) => named[n]));
    }
  });

  it('reads an empty operator as Equal only on the superset side, as upstream does', () => {
    expect(isSuperset(toleration({ key: 'k', value: 'v' }), toleration({ key: 'k', operator: 'Equal', value: 'v' }))).to.equal(true);
    expect(isSuperset(toleration({ key: 'k', operator: 'Equal', value: 'v' }), toleration({ key: 'k', value: 'v' }))).to.equal(false);
  });
});
