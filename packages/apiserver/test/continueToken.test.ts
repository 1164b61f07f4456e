// Continue tokens read as storage.DecodeContinue reads them (k8s.io/apiserver/pkg/storage/continue.go),
// which json.Unmarshals the token into `struct{ v string; rv int64; start string }`. What encoding/json
// does there (decode.go's object and literalStore): members are read in order; a key matches a field
// exactly or else by Unicode simple case folding (fold.go: so "ſtart" and "START" are "start"); a later
// member overwrites an earlier one, a null leaves the field as it was; a value of the wrong type is an
// UnmarshalTypeError that is kept (the first one only) while decoding goes on; an int64 is
// strconv.ParseInt of the number's text (so 1.0, 1e2 and 2^63 do not read, and the error quotes the
// text). Every expected answer below is kube-apiserver v1.34.4's to the same token (asked for this test:
// GET …/configmaps?limit=1&continue=<token>).
import { expect } from 'chai';
import fc from 'fast-check';
import { KubeError } from '@kubekit/core';
import { decodeContinue, encodeContinue } from '../src/internal/continueToken.js';

const token = (json: string): string => Buffer.from(json, 'utf8').toString('base64url');
const invalid = (words: string): string => `invalid continue token: continue key is not valid: ${words}`;
const rvType = (what: string): string => invalid(`json: cannot unmarshal ${what} into Go struct field continueToken.rv of type int64`);

function refusal(json: string): string {
  try {
    decodeContinue(token(json));
  } catch (err) {
    expect(err).to.be.instanceOf(KubeError);
    expect((err as KubeError).reason).to.equal('BadRequest');
    return (err as KubeError).message;
  }
  expect.fail(`${json} was accepted`);
}

describe('decodeContinue', () => {
  describe('keys that differ only in case (the last one wins, as in Go)', () => {
    const accepted: [string, string, { rv: bigint; start: string }][] = [
      ['every key in another case', '{"V":"meta.k8s.io/v1","rV":7,"sTaRt":"ns/a\\u0000"}', { rv: 7n, start: 'ns/a\u0000' }],
      ['a later "v" in the right version', '{"v":"x","V":"meta.k8s.io/v1","rv":7,"start":"ns/a"}', { rv: 7n, start: 'ns/a' }],
      ['a later null leaves the earlier value', '{"v":"meta.k8s.io/v1","rv":7,"RV":null,"start":"ns/a","START":null}', { rv: 7n, start: 'ns/a' }],
      ['a key with a long s (U+017F folds to s)', '{"v":"meta.k8s.io/v1","rv":7,"ſtart":"ns/a"}', { rv: 7n, start: 'ns/a' }],
      ['an escaped key', '{"v":"meta.k8s.io/v1","\\u0072v":7,"\\u017ftart":"ns/a"}', { rv: 7n, start: 'ns/a' }],
      ['unknown members, nested ones included', '{"":1,"v":"meta.k8s.io/v1","rv":7,"start":"ns/a","x":{"rv":0,"start":""}}', { rv: 7n, start: 'ns/a' }],
      ['a later exact duplicate', '{"v":"meta.k8s.io/v1","rv":0,"rv":7,"start":"","start":"ns/a"}', { rv: 7n, start: 'ns/a' }],
    ];
    for (const [what, json, expected] of accepted) {
      it(`reads ${what}`, () => {
        expect(decodeContinue(token(json))).to.deep.equal(expected);
      });
    }

    const refused: [string, string, string][] = [
      ['a later empty "START"', '{"v":"meta.k8s.io/v1","rv":7,"start":"ns/a","START":""}', invalid('encoded start key empty (version meta.k8s.io/v1)')],
      ['a later "ſTART" (U+017F)', '{"v":"meta.k8s.io/v1","rv":7,"start":"ns/a","ſTART":""}', invalid('encoded start key empty (version meta.k8s.io/v1)')],
      ['a later "V" in another version', '{"v":"meta.k8s.io/v1","V":"x","rv":7,"start":"ns/a"}', invalid('server does not recognize this encoded version x')],
      ['a later "Rv" of 0', '{"v":"meta.k8s.io/v1","rv":7,"Rv":0,"start":"ns/a"}', invalid('incorrect encoded start resourceVersion (version meta.k8s.io/v1)')],
    ];
    for (const [what, json, message] of refused) {
      it(`refuses ${what}`, () => {
        expect(refusal(json)).to.equal(message);
      });
    }

    it('does not fold what Go does not fold (ß is not ss, the ligature ﬅ is not st)', () => {
      // Only U+017F (s) and U+212A (k) fold into ASCII letters; JavaScript's toUpperCase would map these.
      expect(refusal('{"v":"meta.k8s.io/v1","rv":7,"ﬅart":"ns/a"}')).to.equal(invalid('encoded start key empty (version meta.k8s.io/v1)'));
    });
  });

  describe('type errors (the first one counts, later members do not undo it)', () => {
    const table: [string, string, string][] = [
      ['a string rv before a good "RV"', '{"v":"meta.k8s.io/v1","rv":"x","RV":7,"start":"ns/a"}', rvType('string')],
      ['a string rv before a good exact duplicate', '{"v":"meta.k8s.io/v1","rv":"x","rv":7,"start":"ns/a"}', rvType('string')],
      ['a number v before a good one', '{"v":5,"v":"meta.k8s.io/v1","rv":7,"start":"ns/a"}', invalid('json: cannot unmarshal number into Go struct field continueToken.v of type string')],
      ['an object rv before a number start', '{"v":"meta.k8s.io/v1","rv":{},"start":5}', rvType('object')],
      ['an array start before a good "Start"', '{"v":"meta.k8s.io/v1","rv":7,"start":[1],"Start":"ns/a"}', invalid('json: cannot unmarshal array into Go struct field continueToken.start of type string')],
      ['an object v before a string rv', '{"v":{"a":1},"rv":"s","start":"ns/a"}', invalid('json: cannot unmarshal object into Go struct field continueToken.v of type string')],
      ['a bool rv', '{"v":"meta.k8s.io/v1","rv":true,"start":"ns/a"}', rvType('bool')],
    ];
    for (const [what, json, message] of table) {
      it(`refuses ${what}`, () => {
        expect(refusal(json)).to.equal(message);
      });
    }
  });

  describe('rv as strconv.ParseInt reads the number text', () => {
    const refused: [string, string][] = [
      ['7.0', 'number 7.0'], ['1e2', 'number 1e2'], ['1E+2', 'number 1E+2'], ['5.5', 'number 5.5'],
      ['99999999999999999999', 'number 99999999999999999999'], ['-99999999999999999999', 'number -99999999999999999999'],
      ['9223372036854775808', 'number 9223372036854775808'],
    ];
    for (const [rv, what] of refused) {
      it(`refuses ${rv} quoting its text`, () => {
        expect(refusal(`{"v":"meta.k8s.io/v1","rv":${rv},"start":"ns/a"}`)).to.equal(rvType(what));
      });
    }

    it('reads the whole int64 range exactly, beyond 2^53 included', () => {
      for (const rv of ['9007199254740993', '9223372036854775807', '-9223372036854775808', '-5']) {
        expect(decodeContinue(token(`{"v":"meta.k8s.io/v1","rv":${rv},"start":"ns/a"}`)).rv).to.equal(BigInt(rv));
      }
    });

    it('refuses 0 and -0 only (a negative rv is valid: it asks for the latest state)', () => {
      for (const rv of ['0', '-0']) {
        expect(refusal(`{"v":"meta.k8s.io/v1","rv":${rv},"start":"ns/a"}`)).to.equal(invalid('incorrect encoded start resourceVersion (version meta.k8s.io/v1)'));
      }
    });
  });

  it('reads back every token it encodes', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), fc.stringMatching(/^[a-z0-9-]{1,20}\/[a-z0-9.-]{1,40}$/), (rv, key) => {
      expect(decodeContinue(encodeContinue(rv, key))).to.deep.equal({ rv: BigInt(rv), start: `${key}\u0000` });
    }));
  });
});
