// How Go's net/url reads a request's path and query. The tables are Go 1.26's src/net/url/url_test.go
// (unescapeTests for PathUnescape, parseTests for ParseQuery); the rest are kube-apiserver 1.34.4's
// answers, which requestTargets.test.ts checks end to end.
import { expect } from 'chai';
import { parseGoQuery, pathUnescape } from '../src/internal/goURL.js';

describe('pathUnescape (url.PathUnescape)', () => {
  const table: [string, string | undefined][] = [
    ['', ''],
    ['abc', 'abc'],
    ['1%41', '1A'],
    ['1%41%42%43', '1ABC'],
    ['%4a', 'J'],
    ['%6F', 'o'],
    ['%', undefined],
    ['%a', undefined],
    ['%1', undefined],
    ['123%45%6', undefined],
    ['%zzzzz', undefined],
    // A path keeps `+`; url_test.go sends the `+` cases as %20.
    ['a+b', 'a+b'],
    ['a%20b', 'a b'],
    ['/api%2Fv1', '/api/v1'],
    ['%2E%2E', '..'],
    ['%E2%82%AC', '€'],
    ['%00', '\x00'],
    // Not UTF-8: Go keeps the byte; kubekit's strings hold UTF-16, so it is U+FFFD.
    ['%FF', '\ufffd'],
    ['%C3%28', '\ufffd('],
  ];
  for (const [input, want] of table) {
    it(JSON.stringify(input), () => expect(pathUnescape(input)).to.equal(want));
  }
});

describe('parseGoQuery (req.URL.Query())', () => {
  const pairs = (q: string): [string, string][] => [...parseGoQuery(q)];
  const table: [string, [string, string][]][] = [
    ['a=1', [['a', '1']]],
    ['a=1&b=2', [['a', '1'], ['b', '2']]],
    ['a=1&a=2&a=banana', [['a', '1'], ['a', '2'], ['a', 'banana']]],
    ['ascii=%3Ckey%3A+0x90%3E', [['ascii', '<key: 0x90>']]],
    ['a=1;b=2', []],
    ['a;b=1', []],
    ['a=%3B', [['a', ';']]],
    ['a%3Bb=1', [['a;b', '1']]],
    ['a=1&a=2;a=banana', [['a', '1']]],
    ['a;b&c=1', [['c', '1']]],
    ['a=1&b=2;a=3&c=4', [['a', '1'], ['c', '4']]],
    ['a=1&b=2;c=3', [['a', '1']]],
    [';', []],
    ['a=1;', []],
    ['a=1&;', [['a', '1']]],
    [';a=1&b=2', [['b', '2']]],
    ['a=1&b=2;', [['a', '1']]],
    // An escape that is not %XX leaves its pair out, and only its pair.
    ['labelSelector=x%3Da%zz&limit=1', [['limit', '1']]],
    ['a%zz=1&b=2', [['b', '2']]],
    ['a=%&b=%4', []],
    // An empty pair is skipped; an empty key is a key; a key without `=` has an empty value.
    ['&a=1&&', [['a', '1']]],
    ['=x&y', [['', 'x'], ['y', '']]],
    // The fragment is not split off a request-target.
    ['a=b#c', [['a', 'b#c']]],
  ];
  for (const [query, want] of table) {
    it(JSON.stringify(query), () => expect(pairs(query)).to.deep.equal(want));
  }

  it('reads no pair at all past 10,000 (urlmaxqueryparams)', () => {
    const at = Array.from({ length: 10_000 }, (_, i) => `p${i}=1`).join('&');
    expect([...parseGoQuery(at)].length).to.equal(10_000);
    expect([...parseGoQuery(`${at}&x=1`)]).to.deep.equal([]);
  });
});
