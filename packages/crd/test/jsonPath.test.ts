import { expect } from 'chai';
import { evaluateJSONPath, parseJSONPath } from '@kubekit/crd';

const object = { spec: { color: 'blue', 'x.y': 1, items: [{ name: 'a' }, { name: 'b' }], map: { k: 'v' } }, metadata: { name: 'n' } };

// Printer column and scale paths, as kubectl's JSONPath evaluates them (previously two copies, in the
// apiserver's tables and the CLI's select).
describe('evaluateJSONPath', () => {
  it('follows fields, quoted names, indexes and wildcards', () => {
    expect(evaluateJSONPath(object, '.spec.color')).to.deep.equal(['blue']);
    expect(evaluateJSONPath(object, "{.spec['x.y']}")).to.deep.equal([1]);
    expect(evaluateJSONPath(object, '.spec.items[1].name')).to.deep.equal(['b']);
    expect(evaluateJSONPath(object, '.spec.items[-1].name')).to.deep.equal(['b']);
    expect(evaluateJSONPath(object, '.spec.items[*].name')).to.deep.equal(['a', 'b']);
    expect(evaluateJSONPath(object, '.spec.map.*')).to.deep.equal(['v']);
    expect(evaluateJSONPath(object, '.')).to.deep.equal([object]);
    expect(evaluateJSONPath(object, '.spec.items[?(@.name=="a")].name')).to.deep.equal(['a']);
    expect(evaluateJSONPath(object, "$.metadata['name']")).to.deep.equal(['n']);
  });

  it('finds nothing for missing fields and unsupported syntax', () => {
    expect(evaluateJSONPath(object, '.spec.size')).to.deep.equal([]);
    expect(evaluateJSONPath(object, '.spec.items[5]')).to.deep.equal([]);
    expect(evaluateJSONPath(object, '.spec.color.x')).to.deep.equal([]);
    expect(parseJSONPath('.spec.items[0:1]')).to.equal(undefined);
    expect(parseJSONPath('..name')).to.equal(undefined);
    expect(evaluateJSONPath(object, 'spec.color')).to.deep.equal([]);
  });
});
