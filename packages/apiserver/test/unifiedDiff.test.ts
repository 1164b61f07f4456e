// The unified diff apimachinery's diff.Diff writes (go-difflib, a port of Python's difflib): each expected
// text is Python's difflib.unified_diff(a, b, n=3) of the same lines, without its file headers.
import { expect } from 'chai';
import { unifiedDiff } from '../src/internal/unifiedDiff.js';

const cases: [string, string, string][] = [
  ['a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm', 'a\nb\nX\nd\ne\nf\ng\nh\ni\nj\nk\nY\nm', '@@ -1,6 +1,6 @@\n a\n b\n-c\n+X\n d\n e\n f\n@@ -9,5 +9,5 @@\n i\n j\n k\n-l\n+Y\n m\n'],
  ['x\ny\nz', 'x\nz', '@@ -1,3 +1,2 @@\n x\n-y\n z\n'],
  ['one', 'two\nthree', '@@ -1 +1,2 @@\n-one\n+two\n+three\n'],
  ['a\nb\na\nb\nc', 'b\na\nc\nb\na', '@@ -1,5 +1,5 @@\n-a\n b\n a\n+c\n b\n-c\n+a\n'],
];

describe('unifiedDiff', () => {
  it('writes the hunks difflib writes (context of three lines, separate hunks, one-line ranges)', () => {
    for (const [a, b, expected] of cases) expect(unifiedDiff(a, b)).to.equal(expected);
  });

  it('writes nothing for equal texts', () => {
    expect(unifiedDiff('a\nb', 'a\nb')).to.equal('');
  });
});
