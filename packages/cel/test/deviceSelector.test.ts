// The environment of Dynamic Resource Allocation's device selectors: `device` and its fields, the result
// types a selector may have (cel-go's `Type.String()` words), the base libraries. Every message here is
// kube-apiserver 1.34.4's for the same expression in a DeviceClass (test/hostile/resourceClaims.test.ts
// compares them on both servers).
import { expect } from 'chai';
import { deviceSelectorError } from '../src/index.js';

describe('deviceSelectorError', () => {
  it('takes selectors that evaluate to a bool or to the unknown type (an attribute)', () => {
    for (const expression of [
      'device.driver == "a"', 'device.attributes["x.com"].model == "a"', 'device.attributes["x.com"]["model"]',
      'device.capacity["x.com"].mem.compareTo(quantity("1Gi")) >= 0', 'device.attributes["x.com"].v.isGreaterThan(semver("1.0.0"))',
      'has(device.attributes.x)', 'device.attributes.exists(k, k == "a")', 'size(device.capacity) > 0', 'device.attributes[?"x"].hasValue()',
    ]) expect(deviceSelectorError(expression, 'new'), expression).to.equal(undefined);
  });

  it('answers syntax and type errors and other result types in the apiserver\'s words', () => {
    expect(deviceSelectorError('device.foo', 'new')).to.equal("compilation failed: ERROR: <input>:1:7: undefined field 'foo'\n | device.foo\n | ......^");
    expect(deviceSelectorError('1', 'new')).to.equal('must evaluate to bool or the unknown type, not int');
    expect(deviceSelectorError('device.driver.size()', 'stored')).to.equal('must evaluate to bool or the unknown type, not int');
    expect(deviceSelectorError('device', 'new')).to.equal('must evaluate to bool or the unknown type, not kubernetes.DRADevice');
    expect(deviceSelectorError('device.capacity["x.com"].mem', 'new')).to.equal('must evaluate to bool or the unknown type, not kubernetes.Quantity');
  });

  it('does not check an expression that uses cel.bind (the DRA environment has ext.Bindings)', () => {
    expect(deviceSelectorError('cel.bind(dra, device.attributes["x.com"], dra.a)', 'new')).to.equal(undefined);
  });
});
