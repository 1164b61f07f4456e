import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { effectiveFormat, isKnownFormat, normalizeFormatName, supportedStringFormats, unrecognizedFormats, validatesFormat } from '../src/formats.js';
import type { JSONSchemaProps } from '../src/types.js';
import { validateValue } from '../src/validateValue.js';

const fixtures = new URL('./fixtures/value/', import.meta.url);
const formats = JSON.parse(readFileSync(new URL('formats.json', fixtures), 'utf8')) as Record<string, { valid: string[]; invalid: string[] }>;

describe('validatesFormat', () => {
  for (const [format, { valid, invalid }] of Object.entries(formats)) {
    if (format === '//') continue;
    it(`accepts valid and rejects invalid ${format} values (kube-openapi strfmt tests)`, () => {
      for (const v of valid) expect(validatesFormat(format, v), `${format} ${JSON.stringify(v)}`).to.equal(true);
      for (const v of invalid) expect(validatesFormat(format, v), `${format} ${JSON.stringify(v)}`).to.equal(false);
    });
  }

  it('has a test for every supported string format', () => {
    for (const f of supportedStringFormats) expect(formats, f).to.have.property(f);
  });

  it('validates nothing for an unknown format', () => {
    expect(validatesFormat('no-such-format', 'anything')).to.equal(true);
    expect(isKnownFormat('no-such-format')).to.equal(false);
  });

  it('passes kube-openapi\'s extended-format fixture (pkg/validation/validate/fixtures/formats)', () => {
    const suites = JSON.parse(readFileSync(new URL('extended-format.json', fixtures), 'utf8')) as { description: string; schema: JSONSchemaProps; tests: { description: string; data: unknown; valid: boolean }[] }[];
    for (const s of suites) {
      for (const t of s.tests) {
        const errors = validateValue(s.schema, t.data, 'data', { stripUnsupportedFormats: false });
        expect(errors.length === 0, `${s.description}: ${t.description}: ${errors.join('; ')}`).to.equal(t.valid);
      }
    }
  });
});

describe('normalizeFormatName', () => {
  it('drops dashes as go-openapi does', () => {
    expect(normalizeFormatName('date-time')).to.equal('datetime');
    expect(normalizeFormatName('k8s-short-name')).to.equal('k8sshortname');
    expect(isKnownFormat('date-time') && isKnownFormat('datetime')).to.equal(true);
  });
});

describe('effectiveFormat', () => {
  // v1.34's StripUnsupportedFormatsPostProcessorForVersion (apiextensions-apiserver pkg/apiserver/validation/
  // formats.go) keeps a format of the supported set whatever the node's type, and drops int32, int64,
  // float and double (later versions keep those on integers and numbers). Found by the randomized
  // differential suite: kube-apiserver v1.34.4 answers "must be of type integer", not "of type int32".
  it('keeps supported formats whatever the type and drops the rest, as the v1.34 apiserver does', () => {
    expect(effectiveFormat('string', 'date-time')).to.equal('date-time');
    expect(effectiveFormat(undefined, 'uuid')).to.equal('uuid');
    expect(effectiveFormat('string', 'int32')).to.equal('');
    expect(effectiveFormat('string', 'my-custom')).to.equal('');
    expect(effectiveFormat('integer', 'int32')).to.equal('');
    expect(effectiveFormat('integer', 'int64')).to.equal('');
    expect(effectiveFormat('integer', 'date')).to.equal('date');
    expect(effectiveFormat('number', 'double')).to.equal('');
    expect(effectiveFormat('number', 'float')).to.equal('');
    expect(effectiveFormat('boolean', 'byte')).to.equal('byte');
  });

  // A 1.34 apiserver validates with the formats of its minimum compatibility version, 1.33
  // (environment.DefaultCompatibilityVersion()): k8s-short-name and k8s-long-name, new in 1.34, are not
  // validated yet. Found by the randomized differential suite.
  it('drops the formats a 1.34 apiserver does not validate yet (k8s-short-name, k8s-long-name)', () => {
    expect(effectiveFormat('string', 'k8s-short-name')).to.equal('');
    expect(effectiveFormat('string', 'k8s-long-name')).to.equal('');
    expect(validateValue({ type: 'string', format: 'k8s-short-name' }, 'Not A Name', 'spec.x')).to.deep.equal([]);
  });

  it('makes validateValue ignore a stripped format and check a kept one', () => {
    expect(validateValue({ type: 'string', format: 'my-custom' }, 'x', 'spec.f')).to.deep.equal([]);
    expect(validateValue({ type: 'integer', format: 'date' }, 5, 'spec.f')).to.deep.equal([]);
    expect(validateValue({ type: 'string', format: 'date' }, '2026-02-30', 'spec.f').map(String)).to.deep.equal([
      'spec.f: Invalid value: "2026-02-30":  in body must be of type date: "2026-02-30"',
    ]);
  });
});

describe('formats in validateValue', () => {
  const schema = (format: string): JSONSchemaProps => ({ type: 'object', properties: { f: { type: 'string', format } } });
  for (const [format, { valid, invalid }] of Object.entries(formats)) {
    // A 1.34 apiserver does not validate the two formats new in 1.34 (see effectiveFormat).
    if (format === '//' || invalid.length === 0 || format === 'k8s-short-name' || format === 'k8s-long-name') continue;
    it(`reports an invalid ${format} with the apiserver's message`, () => {
      expect(validateValue(schema(format), { f: valid[0] }, '')).to.deep.equal([]);
      expect(validateValue(schema(format), { f: invalid[0] }, '').map(String)).to.deep.equal([
        `f: Invalid value: ${JSON.stringify(invalid[0])}: f in body must be of type ${format}: ${JSON.stringify(invalid[0])}`,
      ]);
    });
  }

  it('reports a non-string value for an untyped format node with the value\'s Go format', () => {
    expect(validateValue({ type: 'object', properties: { f: { format: 'date' } } }, { f: 3 }, '').map(String)).to.deep.equal([
      'f: Invalid value: "int64": f in body must be of type date: "int64"',
    ]);
  });
});

// strategy.go WarningsOnCreate/WarningsOnUpdate (apiextensions-apiserver pkg/registry/customresourcedefinition)
// with validation.GetUnrecognizedFormats: a string node's format outside the supported set at the
// compatibility version; an update warns only of formats the old CRD did not have.
describe('unrecognizedFormats', () => {
  const crd = (props: Record<string, JSONSchemaProps>) => ({ spec: { versions: [{ name: 'v1', schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: props } } } } }] } });

  it('names the unsupported formats of string nodes at any depth, once each', () => {
    expect(unrecognizedFormats(crd({
      a: { type: 'string', format: 'colour' }, b: { type: 'array', items: { type: 'string', format: 'k8s-short-name' } },
      c: { type: 'object', additionalProperties: { type: 'string', format: 'colour' } }, d: { type: 'integer', format: 'int32' },
      e: { type: 'string', format: 'date-time' }, f: { type: 'string', format: 'int64' },
    })).sort()).to.deep.equal(['colour', 'int64', 'k8s-short-name']);
  });

  it('names on update only the formats the old CRD did not have', () => {
    const old = crd({ a: { type: 'string', format: 'colour' } });
    expect(unrecognizedFormats(crd({ a: { type: 'string', format: 'colour' }, b: { type: 'string', format: 'shade' } }), old)).to.deep.equal(['shade']);
  });
});
