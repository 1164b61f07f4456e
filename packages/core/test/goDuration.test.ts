// Go's time.ParseDuration: the cases of Go 1.26's src/time/time_test.go (parseDurationTests and
// parseDurationErrorTests; those with bytes that are not UTF-8 left out, as a JS string cannot hold them),
// with the error texts Go prints.
import { expect } from 'chai';
import { parseGoDuration } from '@kubekit/core';

const ns = 1n;
const us = 1000n * ns;
const ms = 1000n * us;
const s = 1000n * ms;
const m = 60n * s;
const h = 60n * m;

describe('parseGoDuration (time.ParseDuration)', () => {
  const valid: [string, bigint][] = [
    ['0', 0n], ['5s', 5n * s], ['30s', 30n * s], ['1478s', 1478n * s],
    ['-5s', -5n * s], ['+5s', 5n * s], ['-0', 0n], ['+0', 0n],
    ['5.0s', 5n * s], ['5.6s', 5n * s + 600n * ms], ['5.s', 5n * s], ['.5s', 500n * ms], ['1.0s', s], ['1.00s', s], ['1.004s', s + 4n * ms], ['1.0040s', s + 4n * ms], ['100.00100s', 100n * s + ms],
    ['10ns', 10n], ['11us', 11n * us], ['12\u00b5s', 12n * us], ['12\u03bcs', 12n * us], ['13ms', 13n * ms], ['14s', 14n * s], ['15m', 15n * m], ['16h', 16n * h],
    ['3h30m', 3n * h + 30n * m], ['10.5s4m', 4n * m + 10n * s + 500n * ms], ['-2m3.4s', -(2n * m + 3n * s + 400n * ms)], ['1h2m3s4ms5us6ns', h + 2n * m + 3n * s + 4n * ms + 5n * us + 6n], ['39h9m14.425s', 39n * h + 9n * m + 14n * s + 425n * ms],
    ['52763797000ns', 52763797000n], ['0.3333333333333333333h', 20n * m], ['9007199254740993ns', 2n ** 53n + 1n],
    ['9223372036854775807ns', 2n ** 63n - 1n], ['9223372036854775.807us', 2n ** 63n - 1n], ['9223372036s854ms775us807ns', 2n ** 63n - 1n],
    ['-9223372036854775808ns', -(2n ** 63n)], ['-9223372036854775.808us', -(2n ** 63n)], ['-9223372036s854ms775us808ns', -(2n ** 63n)], ['-2562047h47m16.854775808s', -(2n ** 63n)],
    ['0.100000000000000000000h', 6n * m], ['0.830103483285477580700h', 49n * m + 48n * s + 372539827n],
  ];
  for (const [text, want] of valid) it(`reads ${JSON.stringify(text)}`, () => expect(parseGoDuration(text)).to.deep.equal({ nanoseconds: want }));

  const invalid: [string, string][] = [
    ['', 'time: invalid duration ""'], ['3', 'time: missing unit in duration "3"'], ['-', 'time: invalid duration "-"'], ['s', 'time: invalid duration "s"'],
    ['.', 'time: invalid duration "."'], ['-.', 'time: invalid duration "-."'], ['.s', 'time: invalid duration ".s"'], ['+.s', 'time: invalid duration "+.s"'],
    ['1d', 'time: unknown unit "d" in duration "1d"'], ['\ufffd', 'time: invalid duration "\\xef\\xbf\\xbd"'],
    ['\ufffd hello \ufffd world', 'time: invalid duration "\\xef\\xbf\\xbd hello \\xef\\xbf\\xbd world"'],
    ['9223372036854775810ns', 'time: invalid duration "9223372036854775810ns"'], ['9223372036854775808ns', 'time: invalid duration "9223372036854775808ns"'],
    ['-9223372036854775809ns', 'time: invalid duration "-9223372036854775809ns"'], ['9223372036854776us', 'time: invalid duration "9223372036854776us"'],
    ['3000000h', 'time: invalid duration "3000000h"'], ['9223372036854775.808us', 'time: invalid duration "9223372036854775.808us"'],
    ['9223372036854ms775us808ns', 'time: invalid duration "9223372036854ms775us808ns"'],
    // The unit is quoted as time's quote writes it: every byte outside ASCII as \xNN.
    ['1\u00e9s', 'time: unknown unit "\\xc3\\xa9s" in duration "1\\xc3\\xa9s"'], ['1x"', 'time: unknown unit "x\\"" in duration "1x\\""'],
  ];
  for (const [text, want] of invalid) it(`refuses ${JSON.stringify(text)}`, () => expect(parseGoDuration(text)).to.deep.equal({ error: want }));
});
