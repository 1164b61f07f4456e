// Go's encoding/json error words. The expected texts are kube-apiserver v1.34.4's answers to these
// bodies (its "couldn't get version/kind; json parse error: …" of a create), which quote
// encoding/json's scanner (scanner.go's stateX functions and quoteChar; decode_test.go's syntax-error
// table holds the same words).
import { expect } from 'chai';
import fc from 'fast-check';
import { goFoldASCIIName, goJSONObjectMembers, goJSONSyntaxError, goQuoteChar, goStringFieldMismatch, goUnmarshalTypeError } from '../src/internal/goJSON.js';

describe('goJSONSyntaxError', () => {
  const table: [string, string][] = [
    ['{"apiVersion": ', 'unexpected end of JSON input'],
    ['{', 'unexpected end of JSON input'],
    ['', 'unexpected end of JSON input'],
    ['   ', 'unexpected end of JSON input'],
    ['{"a":1}x', "invalid character 'x' after top-level value"],
    ['{"a":1}}', "invalid character '}' after top-level value"],
    ['nope', "invalid character 'o' in literal null (expecting 'u')"],
    ['{"a" 1}', "invalid character '1' after object key"],
    ['{"a":1 "b":2}', `invalid character '"' after object key:value pair`],
    ['[1 2]', "invalid character '2' after array element"],
    ['{"a":"\\x"}', "invalid character 'x' in string escape code"],
    ['{"a":tru}', "invalid character '}' in literal true (expecting 'e')"],
    ['{"a":nul', "invalid character ' ' in literal null (expecting 'l')"],
    ['{"a":-}', "invalid character '}' in numeric literal"],
    ['{"a":1.}', "invalid character '}' after decimal point in numeric literal"],
    ['{"a":1e}', "invalid character '}' in exponent of numeric literal"],
    ["{'a':1}", "invalid character '\\'' looking for beginning of object key string"],
    ['{"a":1,}', "invalid character '}' looking for beginning of object key string"],
    ['{"a":"\\u12g4"}', "invalid character 'g' in \\u hexadecimal character escape"],
    ['{"a":"x\ty"}', "invalid character '\\t' in string literal"],
    ['{"a":é}', "invalid character 'Ã' looking for beginning of value"],
    ['{"a":\u0001}', "invalid character '\\x01' looking for beginning of value"],
    ['{"a":\\}', "invalid character '\\\\' looking for beginning of value"],
    ['x', "invalid character 'x' looking for beginning of value"],
    ['[1', 'unexpected end of JSON input'],
    ['-', "invalid character ' ' in numeric literal"],
  ];
  for (const [text, message] of table) {
    it(`words ${JSON.stringify(text)} as Go does`, () => {
      expect(goJSONSyntaxError(text)).to.equal(message);
    });
  }

  it('accepts JSON: numbers, literals, escapes, nesting, surrounding space', () => {
    for (const text of ['0', '-0.5e+10', '1E3', 'true', 'false', 'null', '"\\u00e9\\n"', ' {"a":[1,{"b":[]},{}]} ', '[]', '{}']) {
      expect(goJSONSyntaxError(text), text).to.equal(undefined);
    }
  });

  it('refuses nesting past the limit with the opening character', () => {
    expect(goJSONSyntaxError('[[[1]]]', 2)).to.equal("invalid character '[' exceeded max depth");
    expect(goJSONSyntaxError('[[1]]', 2)).to.equal(undefined);
  });

  it('refuses exactly the texts JSON.parse refuses', () => {
    const alphabet = fc.constantFrom('{', '}', '[', ']', ',', ':', '"', '\\', 'u', '0', '1', '-', '.', 'e', '+', 't', 'r', 'n', 'l', ' ', 'a', '\t', 'x');
    fc.assert(fc.property(fc.array(alphabet, { maxLength: 12 }).map((a) => a.join('')), (text) => {
      let parses = true;
      try { JSON.parse(text); } catch { parses = false; }
      expect(goJSONSyntaxError(text) === undefined, text).to.equal(parses);
    }), { numRuns: 3000, seed: 1 });
    for (const text of ['{"a":1}', '[1,2]', '"x"', '{"a":{"b":[true,false,null,-1.5e-3]}}']) {
      expect(goJSONSyntaxError(text), text).to.equal(undefined);
    }
  });
});

describe('goQuoteChar', () => {
  it('quotes as strconv.Quote does, between single quotes', () => {
    expect(goQuoteChar(0x27)).to.equal("'\\''");
    expect(goQuoteChar(0x22)).to.equal(`'"'`);
    expect(goQuoteChar(0x0a)).to.equal("'\\n'");
    expect(goQuoteChar(0x7f)).to.equal("'\\x7f'");
    expect(goQuoteChar(0x85)).to.equal("'\\u0085'");
    expect(goQuoteChar(0xe9)).to.equal("'é'");
  });
});

describe('goUnmarshalTypeError', () => {
  it('names the JSON type and the Go type or struct field', () => {
    expect(goUnmarshalTypeError({}, '[]handlers.jsonPatchOp')).to.equal('json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp');
    expect(goUnmarshalTypeError(5, 'string', { struct: 'jsonPatchOp', name: 'op' })).to.equal('json: cannot unmarshal number into Go struct field jsonPatchOp.op of type string');
    expect(goUnmarshalTypeError(true, 'string', { struct: '', name: 'apiVersion' })).to.equal('json: cannot unmarshal bool into Go struct field .apiVersion of type string');
    expect(goUnmarshalTypeError([], 'x')).to.match(/unmarshal array/);
  });

  it('finds the first member Go would refuse, matching field names case-insensitively', () => {
    expect(goStringFieldMismatch({ a: 1, KIND: 2, apiVersion: 3 }, ['apiVersion', 'kind'])).to.deep.equal({ name: 'kind', value: 2 });
    expect(goStringFieldMismatch({ kind: null, apiVersion: 'v1' }, ['apiVersion', 'kind'])).to.equal(undefined);
  });

  it('folds keys as encoding/json does: ſ matches s, but ß and ﬅ match nothing', () => {
    expect(goStringFieldMismatch({ apiVerſion: 1 }, ['apiVersion', 'kind'])).to.deep.equal({ name: 'apiVersion', value: 1 });
    expect(goStringFieldMismatch({ \u212aind: 2 }, ['apiVersion', 'kind'])).to.deep.equal({ name: 'kind', value: 2 });
    expect(goStringFieldMismatch({ ﬅart: 3 }, ['start'])).to.equal(undefined);
    expect(goStringFieldMismatch({ apiVerſion: 1 }, ['apiVersion'], true)).to.equal(undefined);
  });
});

describe('goJSONObjectMembers', () => {
  it('gives every member of an object in order, values as written, duplicates kept', () => {
    const text = ' { "a" : 7.0 ,"b":{"c":[1,"]}",{"d":"\\""}]},"a":null, "\\u0065":"x\\\\"}';
    expect(goJSONObjectMembers(text)).to.deep.equal([
      { key: 'a', raw: '7.0' }, { key: 'b', raw: '{"c":[1,"]}",{"d":"\\""}]}' }, { key: 'a', raw: 'null' }, { key: 'e', raw: '"x\\\\"' },
    ]);
    expect(goJSONObjectMembers('{}')).to.deep.equal([]);
  });

  it('agrees with JSON.parse on any object (fast-check)', () => {
    fc.assert(fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.constantFrom(0, 2), (obj, indent) => {
      const text = JSON.stringify(obj, null, indent);
      const members = goJSONObjectMembers(text);
      expect(members.map((m) => m.key)).to.deep.equal(Object.keys(obj));
      expect(members.map((m) => JSON.parse(m.raw) as unknown)).to.deep.equal(Object.values(obj).map((v) => JSON.parse(JSON.stringify(v)) as unknown));
    }));
  });
});

describe('goFoldASCIIName', () => {
  it('folds as encoding/json does for ASCII field names: ASCII case, ſ as s and the Kelvin sign as k only', () => {
    expect(goFoldASCIIName('ſTaRt')).to.equal('start');
    expect(goFoldASCIIName('\u212aind')).to.equal('kind');
    expect(goFoldASCIIName('ß')).to.equal('ß');
    expect(goFoldASCIIName('ﬅart')).to.equal('ﬅart');
    expect(goFoldASCIIName('İ')).to.equal('İ');
  });
});
