import { expect } from 'chai';
import { parseInt64 } from '../../src/internal/int64.js';

describe('parseInt64', () => {
  it('accepts what strconv.ParseInt(s, 10, 64) accepts, exactly', () => {
    expect(parseInt64('0')).to.equal(0);
    expect(parseInt64('+5')).to.equal(5);
    expect(parseInt64('-12')).to.equal(-12);
    expect(parseInt64('007')).to.equal(7);
    expect(parseInt64('999999999999999')).to.equal(999999999999999);
    expect(parseInt64('9007199254740993')).to.equal(9007199254740993n);
    expect(parseInt64('9223372036854775807')).to.equal(9223372036854775807n);
    expect(parseInt64('-9223372036854775808')).to.equal(-9223372036854775808n);
  });

  it('rejects what strconv.ParseInt rejects', () => {
    for (const s of ['', '+', '-', '1.0', '1e3', '0x10', '1_000', ' 1', '1 ', '٣', '9223372036854775808', '-9223372036854775809']) {
      expect(parseInt64(s), s).to.equal(undefined);
    }
  });
});
