import { expect } from 'chai';
import { formatTable } from '../../src/internal/table.js';

describe('formatTable', () => {
  it('aligns columns as kubectl\'s tabwriter does (minimum width 6, padding 3)', () => {
    expect(formatTable([['NAME', 'COLOR', 'SIZE'], ['example1', 'blue', 'S'], ['example3', 'green', 'M']])).to.equal(
      'NAME       COLOR   SIZE\nexample1   blue    S\nexample3   green   M\n',
    );
    expect(formatTable([['A', 'B'], ['x', 'y']])).to.equal('A     B\nx     y\n');
  });

  it('cuts a cell at its first line break', () => {
    expect(formatTable([['NAME', 'NOTE'], ['a', 'one\ntwo']])).to.equal('NAME   NOTE\na      one...\n');
  });

  it('counts characters, not UTF-16 units', () => {
    expect(formatTable([['NAME', 'X'], ['🙂🙂', 'y']])).to.equal('NAME   X\n🙂🙂     y\n');
  });
});
