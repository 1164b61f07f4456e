import { expect } from 'chai';
import { findJSONPath, parseJSONPath } from '../../src/internal/jsonPath.js';

const object = { spec: { color: 'blue', 'x.y': 1, items: [{ name: 'a' }, { name: 'b' }], map: { k: 'v' } }, metadata: { name: 'n' } };

describe('findJSONPath', () => {
  it('follows fields, quoted names, indexes and wildcards', () => {
    expect(findJSONPath(object, '.spec.color')).to.deep.equal(['blue']);
    expect(findJSONPath(object, "{.spec['x.y']}")).to.deep.equal([1]);
    expect(findJSONPath(object, '.spec.items[1].name')).to.deep.equal(['b']);
    expect(findJSONPath(object, '.spec.items[-1].name')).to.deep.equal(['b']);
    expect(findJSONPath(object, '.spec.items[*].name')).to.deep.equal(['a', 'b']);
    expect(findJSONPath(object, '.spec.map.*')).to.deep.equal(['v']);
    expect(findJSONPath(object, '.')).to.deep.equal([object]);
  });

  it('finds nothing for missing fields and unsupported syntax', () => {
    expect(findJSONPath(object, '.spec.size')).to.deep.equal([]);
    expect(findJSONPath(object, '.spec.items[5]')).to.deep.equal([]);
    expect(findJSONPath(object, '.spec.color.x')).to.deep.equal([]);
    expect(parseJSONPath('.spec.items[?(@.name=="a")]')).to.equal(undefined);
    expect(parseJSONPath('..name')).to.equal(undefined);
    expect(findJSONPath(object, 'spec.color')).to.deep.equal([]);
  });
});
