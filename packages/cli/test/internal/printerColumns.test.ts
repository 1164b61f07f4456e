import { expect } from 'chai';
import { cellText, visibleColumns } from '../../src/internal/printerColumns.js';

const now = new Date('2024-01-01T00:01:00Z');
const object = {
  metadata: { creationTimestamp: '2024-01-01T00:00:00Z' },
  spec: { s: 'x', i: 3, f: 2.5, b: false, big: 12345678901234567890n, list: [1, 2], obj: { a: 1 }, bad: 'then', zero: '' },
};

describe('cellText', () => {
  it('values cells as the apiserver\'s table convertor does', () => {
    const cell = (type: 'string' | 'integer' | 'number' | 'boolean' | 'date', path: string): string => cellText(object, { name: 'X', type, jsonPath: path }, now);
    expect(cell('string', '.spec.s')).to.equal('x');
    expect(cell('string', '.spec.i')).to.equal('3');
    expect(cell('string', '.spec.list')).to.equal('[1,2]');
    expect(cell('string', '.spec.obj')).to.equal('{"a":1}');
    expect(cell('integer', '.spec.i')).to.equal('3');
    expect(cell('integer', '.spec.f')).to.equal('2');
    expect(cell('integer', '.spec.big')).to.equal('12345678901234567890');
    expect(cell('integer', '.spec.s')).to.equal('');
    expect(cell('number', '.spec.f')).to.equal('2.5');
    expect(cell('boolean', '.spec.b')).to.equal('false');
    expect(cell('boolean', '.spec.s')).to.equal('');
    expect(cell('date', '.metadata.creationTimestamp')).to.equal('60s');
    expect(cell('date', '.spec.bad')).to.equal('<invalid>');
    expect(cell('date', '.spec.zero')).to.equal('<unknown>');
    expect(cell('string', '.spec.missing')).to.equal('');
  });
});

describe('visibleColumns', () => {
  it('shows priority 0 columns, all with wide, and Age when a version declares none', () => {
    const columns = [
      { name: 'A', type: 'string' as const, jsonPath: '.a' },
      { name: 'B', type: 'string' as const, jsonPath: '.b', priority: 1 },
    ];
    expect(visibleColumns(columns, false).map((c) => c.name)).to.deep.equal(['A']);
    expect(visibleColumns(columns, true).map((c) => c.name)).to.deep.equal(['A', 'B']);
    expect(visibleColumns(undefined, false)).to.deep.equal([{ name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' }]);
  });
});
