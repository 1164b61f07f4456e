// The differential suite's normaliser maps away only what two servers may rightly answer differently
// (uids, resourceVersions, timestamps, generated-name suffixes, ages, continue tokens). Everything a
// client may rely on must survive it, or the suite could not fail: each case below is a deliberate
// difference that must still show after normalisation, next to a case that must not.
import { expect } from 'chai';
import { canonical, normalizeSteps, type Step } from './normalize.js';

const same = (a: Step[], b: Step[]): boolean => canonical(normalizeSteps(a)) === canonical(normalizeSteps(b));

const status = (o: { code?: number; reason?: string; message?: string; causes?: unknown[] } = {}): Step => ({
  label: 'create',
  status: o.code ?? 422,
  body: { kind: 'Status', code: o.code ?? 422, reason: o.reason ?? 'Invalid', message: o.message ?? 'Widget "w" is invalid: spec.x: Required value', details: { causes: o.causes ?? [{ reason: 'FieldValueRequired', field: 'spec.x' }] } },
});

const object = (name: string, uid: string, rv: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  metadata: { name, uid, resourceVersion: rv, creationTimestamp: '2026-01-01T00:00:00Z', ...extra },
});

describe('differential normalisation', () => {
  it('does keep status codes, reasons, messages, causes and warnings', () => {
    expect(same([status()], [status()])).to.equal(true);
    expect(same([status()], [status({ code: 400 })])).to.equal(false);
    expect(same([status()], [status({ reason: 'BadRequest' })])).to.equal(false);
    expect(same([status()], [status({ message: 'Widget "w" is invalid: spec.x: Required value ' })])).to.equal(false);
    expect(same([status()], [status({ causes: [{ reason: 'FieldValueRequired', field: 'spec.y' }] })])).to.equal(false);
    expect(same([{ label: 'get', status: 200, warnings: ['a'] }], [{ label: 'get', status: 200, warnings: ['b'] }])).to.equal(false);
  });

  it('does map uids and resourceVersions by their order of first appearance, keeping which are equal', () => {
    const a = [{ label: 'list', body: [object('a', 'u-1', '10'), object('b', 'u-2', '11')] }];
    const b = [{ label: 'list', body: [object('a', 'x-7', '99'), object('b', 'x-8', '120')] }];
    expect(same(a, b)).to.equal(true);
    // One uid (or resourceVersion) for two objects where the other server has two is a difference.
    expect(same(a, [{ label: 'list', body: [object('a', 'x-7', '99'), object('b', 'x-7', '120')] }])).to.equal(false);
    expect(same(a, [{ label: 'list', body: [object('a', 'x-7', '99'), object('b', 'x-8', '99')] }])).to.equal(false);
    // A uid copied into another member (a JSON patch moving /metadata/uid into spec, before metadata in
    // the body) is its placeholder there too; another string there is kept.
    const moved = (uid: string, copy: string): Step[] => [{ label: 'patch', body: { spec: { copy }, ...object('a', uid, '10') } }];
    expect(same(moved('u-1', 'u-1'), moved('x-7', 'x-7'))).to.equal(true);
    expect(same(moved('u-1', 'u-1'), moved('x-7', 'x-8'))).to.equal(false);
    // A list's own resourceVersion counts other writes to the server: neither compared nor numbered, so
    // the objects after it keep their numbers.
    const listed = (listRV: string): Step[] => [{ label: 'list', body: { kind: 'WidgetList', metadata: { resourceVersion: listRV }, items: [object('a', 'u', '10')] } }, { label: 'get', body: object('b', 'v', '11') }];
    expect(same(listed('10'), listed('12'))).to.equal(true);
    expect(same(listed('10'), [...listed('10').slice(0, 1), { label: 'get', body: object('b', 'v', '10') }])).to.equal(false);
    // A resourceVersion that is not a number is kept as it is.
    expect(same([{ label: 'get', body: object('a', 'u', 'abc') }], [{ label: 'get', body: object('a', 'u', 'abd') }])).to.equal(false);
  });

  it('does keep the wording of "Too large resource version", but not the version the server had reached', () => {
    const tooLarge = (wanted: string, current: string): Step[] => [{ label: 'list', status: 200, body: object('a', 'u', '7') }, { label: 'get', value: `Timeout: Too large resource version: ${wanted}, current: ${current}` }];
    expect(same(tooLarge('1000007', '7'), tooLarge('2000012', '13'))).to.equal(true);
    // The version waited for is an rv like any other: the same as an earlier one, or not.
    expect(same(tooLarge('7', '7'), tooLarge('2000012', '13'))).to.equal(false);
    expect(same(tooLarge('1000007', '7'), [{ label: 'list', status: 200, body: object('a', 'u', '7') }, { label: 'get', value: 'Timeout: Too large resource version: 1000007' }])).to.equal(false);
  });

  it('does replace only the generated suffix of a generateName, and keep the prefix', () => {
    const gen = (prefix: string, name: string): Step[] => [{ label: 'create', body: object(name, 'u', '1', { generateName: prefix }) }, { label: 'message', value: `${name} created` }];
    expect(same(gen('w-', 'w-abcde'), gen('w-', 'w-xyz12'))).to.equal(true);
    expect(same(gen('w-', 'w-abcde'), gen('v-', 'v-abcde'))).to.equal(false);
  });

  it('does keep a time-named key\'s presence and a name outside metadata', () => {
    expect(same([{ label: 'get', body: object('a', 'u', '1') }], [{ label: 'get', body: { metadata: { name: 'a', uid: 'u', resourceVersion: '1' } } }])).to.equal(false);
    expect(same([{ label: 'get', body: object('a', 'u', '1') }], [{ label: 'get', body: object('b', 'u', '1') }])).to.equal(false);
  });
});
