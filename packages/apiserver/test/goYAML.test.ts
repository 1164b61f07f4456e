// jsonToGoYAML against sigs.k8s.io/yaml@v1.6.0's JSONToYAML (go-yaml v2.4.2), the converter behind
// kube-apiserver's `Accept: application/yaml` answers. The vectors in fixtures/go-yaml-vectors.json are
// Go's own output (scripts/gen-yaml-vectors): hand-written edge cases of go-yaml's quoting, folding,
// number and key-order rules, seeded random documents, and realistic objects.
//
// Vectors marked `unstable` are left out of the byte comparison: their map holds keys that sorter.go's
// keyList.Less does not order transitively, so Go's own answer changes from run to run with Go's random
// map order (the generator runs each input 20 times to find them). Pairs and small groups of the same
// keys are stable and compared.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { isMap, isScalar, isSeq, parseDocument, Scalar } from 'yaml';
import { KubeError } from '@kubekit/core';
import { GoYAMLError, jsonToGoYAML } from '../src/internal/goYAML.js';
import { goYAMLPlainString } from '../src/internal/goYAMLResolve.js';
import { nestingOf } from '../src/internal/nesting.js';

interface Vector {
  kind: 'hand' | 'random' | 'realistic';
  json: string;
  yaml?: string;
  error?: string;
  unstable?: boolean;
}

const vectors = JSON.parse(readFileSync(new URL('../fixtures/go-yaml-vectors.json', import.meta.url), 'utf8')) as Vector[];

/**
 * The value a YAML 1.1 reader (the yaml package) sees in a document, in the shape JSON.parse gives:
 * maps with their keys as strings, -0 as 0 (go-yaml writes `0`). A plain scalar go-yaml reads as a
 * string but the yaml package as something else is its text. The readers differ there: `1e400`
 * overflows a float64 and `0x10000000000000000` a uint64 (strings for go-yaml, which stringv writes
 * unquoted), and Go's ParseFloat wants an underscore between digits (`._5` is a string for go-yaml,
 * 0.5 for the yaml package). Whether go-yaml reads a text as a string is goYAMLPlainString, whose
 * every answer the byte comparison above checks against Go (a wrong one quotes or unquotes a string).
 */
function readBack(node: unknown): unknown {
  if (isMap(node)) {
    const m = new Map<string, unknown>();
    for (const pair of node.items) m.set(String(readBack(pair.key)), readBack(pair.value));
    return m;
  }
  if (isSeq(node)) return node.items.map(readBack);
  if (isScalar(node)) {
    const v = node.value;
    const source = node.source;
    if (node.type === Scalar.PLAIN && typeof v !== 'string' && typeof source === 'string' && goYAMLPlainString(source)) return source;
    return Object.is(v, -0) ? 0 : v;
  }
  throw new Error(`unexpected YAML node ${String(node)}`);
}

/** JSON.parse's value with objects as Maps (so `__proto__` is a key like any other) and -0 as 0. */
function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v !== null && typeof v === 'object') return new Map(Object.keys(v).map((k) => [k, canonical((v as Record<string, unknown>)[k])]));
  return Object.is(v, -0) ? 0 : v;
}

function hasOverflow(v: unknown): boolean {
  if (typeof v === 'number') return !Number.isFinite(v);
  if (v !== null && typeof v === 'object') return Object.values(v).some(hasOverflow);
  return false;
}

describe('jsonToGoYAML', () => {
  for (const kind of ['hand', 'random', 'realistic'] as const) {
    it(`writes JSONToYAML's bytes for the ${kind} vectors`, () => {
      const list = vectors.filter((v) => v.kind === kind && !v.unstable);
      expect(list.length).to.be.greaterThan(kind === 'realistic' ? 5 : 300);
      const failures: string[] = [];
      for (const v of list) {
        let got: string;
        try {
          got = jsonToGoYAML(v.json);
        } catch (err) {
          if (!(err instanceof GoYAMLError)) throw err;
          got = `error: ${err.message}`;
        }
        const want = v.yaml ?? `error: ${v.error!}`;
        if (got !== want) failures.push(`${JSON.stringify(v.json).slice(0, 200)}\n  want ${JSON.stringify(want).slice(0, 400)}\n  got  ${JSON.stringify(got).slice(0, 400)}`);
      }
      expect(failures, failures.slice(0, 5).join('\n')).to.deep.equal([]);
    });
  }

  it('writes what the yaml package reads back as the JSON value', () => {
    let compared = 0;
    for (const v of vectors) {
      // Raw LS, PS and NEL are line breaks in YAML 1.1: go-yaml folds them in the JSON it reads (a raw
      // NEL in a string becomes a space), and writes LS and PS raw in single-quoted and literal scalars,
      // indenting after them; the yaml package reads YAML 1.2, where they are not breaks.
      if (v.yaml === undefined || v.unstable || /[\u0085\u2028\u2029]/.test(v.json + v.yaml)) continue;
      // The yaml package recurses, and runs out of stack at about a thousand levels.
      if (nestingOf(v.json, 10001).deepest > 500) continue;
      const value: unknown = JSON.parse(v.json);
      // A JSON number beyond float64 is a string for go-yaml (written as its text), Infinity for JSON.parse.
      if (hasOverflow(value)) continue;
      const want = canonical(value);
      const doc = parseDocument(jsonToGoYAML(v.json), { version: '1.1', uniqueKeys: false });
      expect(doc.errors, v.json.slice(0, 200)).to.deep.equal([]);
      const got = readBack(doc.contents);
      expect(got, v.json.slice(0, 200)).to.deep.equal(want);
      compared++;
    }
    expect(compared).to.be.greaterThan(1500);
  });

  it('quotes the example strings as kube-apiserver does', () => {
    expect(jsonToGoYAML('{"b":"1","a":"true","c":"2026-11-28T02:55:57Z","d":"0x1f","e":"~","f":"y","g":"plain"}')).to.equal(
      'a: "true"\nb: "1"\nc: "2026-11-28T02:55:57Z"\nd: "0x1f"\ne: "~"\nf: "y"\ng: plain\n',
    );
    expect(jsonToGoYAML('{"message":"only the following media types are accepted: application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch"}')).to.equal(
      'message: \'only the following media types are accepted: application/json;stream=watch,\n  application/vnd.kubernetes.protobuf;stream=watch\'\n',
    );
  });

  it('keeps the digits of integers beyond 2^53 and types numbers as go-yaml does', () => {
    expect(jsonToGoYAML('[9007199254740993,18446744073709551615,18446744073709551616,-0,1.0,1e6,1e400]')).to.equal(
      '- 9007199254740993\n- 18446744073709551615\n- 1.8446744073709552e+19\n- 0\n- 1\n- 1e+06\n- 1e400\n',
    );
  });

  it('treats __proto__ keys as data', () => {
    const yamlText = jsonToGoYAML('{"__proto__":{"polluted":true},"constructor":{"prototype":1}}');
    expect(yamlText).to.equal('__proto__:\n  polluted: true\nconstructor:\n  prototype: 1\n');
    expect(({} as Record<string, unknown>)['polluted']).to.equal(undefined);
  });

  it('converts nesting as deep as go-yaml reads, and refuses deeper with its words', () => {
    const depth = 10000;
    expect(jsonToGoYAML('['.repeat(depth) + ']'.repeat(depth))).to.equal('- '.repeat(depth - 1) + '[]\n');
    expect(() => jsonToGoYAML('['.repeat(depth + 1) + ']'.repeat(depth + 1)))
      .to.throw(GoYAMLError, 'yaml: exceeded max depth of 10000');
  });

  it('refuses what go-yaml refuses with a 500 GoYAMLError', () => {
    let caught: unknown;
    try {
      jsonToGoYAML('{"a":"\u007f"}');
    } catch (err) {
      caught = err;
    }
    expect(caught).to.be.instanceOf(KubeError);
    expect((caught as KubeError).code).to.equal(500);
    expect((caught as KubeError).message).to.equal('yaml: control characters are not allowed');
  });
});

describe('jsonToGoYAML and encoding/json', () => {
  it('folds a raw LS as go-yaml reads it, and keeps an escaped one (encoding/json escapes LS and PS)', () => {
    // JSONToYAML's answers for these bytes: the spaces around the raw LS are dropped, and the LS is
    // written raw in a single-quoted scalar, the next line indented.
    expect(jsonToGoYAML('{"a":"x \u2028 y"}')).to.equal("a: 'x\u2028  y'\n");
    expect(jsonToGoYAML('{"a":"x \\u2028 y"}')).to.equal('a: "x \\L y"\n');
  });
});
