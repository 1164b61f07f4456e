import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import fc from 'fast-check';
import { formatRFC3339Seconds, parseRFC3339 } from '@kubekit/core';

interface Vector { value: string; error?: string; text?: string; nanos?: number; zero?: boolean }

// Go's own answers (written by scripts/gen-go-time): each value passed to time.Parse(time.RFC3339, value)
// by Go 1.26 (the toolchain the reference kube-apiserver 1.34.4 is built with), with err.Error() or
// t.UTC().Format(time.RFC3339), t.Nanosecond() and t.IsZero(). Hand-picked edge cases (each element's errors, range errors, Go's
// leniencies: a one-digit hour, a comma before the fraction, offsets up to ±24:60) and seeded mutations.
const vectors = JSON.parse(readFileSync(new URL('./fixtures/go_time_rfc3339.json', import.meta.url), 'utf8')) as Vector[];

describe('parseRFC3339', () => {
  it(`answers each of ${vectors.length} values as Go's time.Parse(time.RFC3339, …) does`, () => {
    for (const v of vectors) {
      const r = parseRFC3339(v.value);
      if (v.error !== undefined) expect(r, JSON.stringify(v.value)).to.deep.equal({ ok: false, error: v.error });
      else expect(r.ok && { text: r.text, nanos: r.nanos, zero: r.zero }, JSON.stringify(v.value)).to.deep.equal({ text: v.text, nanos: v.nanos, zero: v.zero });
    }
  });

  it('words the errors kube-apiserver 1.34.4 answers for a malformed creationTimestamp', () => {
    expect(parseRFC3339('yesterday')).to.deep.equal({ ok: false, error: 'parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"' });
    expect(parseRFC3339('2026-11-26 10:00:00Z')).to.deep.equal({ ok: false, error: 'parsing time "2026-11-26 10:00:00Z" as "2006-01-02T15:04:05Z07:00": cannot parse " 10:00:00Z" as "T"' });
    expect(parseRFC3339('2026-02-30T10:00:00Z')).to.deep.equal({ ok: false, error: 'parsing time "2026-02-30T10:00:00Z": day out of range' });
  });

  it('reads every time Date writes in RFC 3339 as the same instant', () => {
    fc.assert(fc.property(fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }), (d) => {
      const r = parseRFC3339(d.toISOString());
      expect(r.ok && r.seconds * 1000 + r.nanos / 1e6).to.equal(d.getTime());
    }));
  });
});

describe('formatRFC3339Seconds', () => {
  it('writes years before 1 and after 9999 as Go does', () => {
    expect(formatRFC3339Seconds(-62135596800)).to.equal('0001-01-01T00:00:00Z');
    expect(formatRFC3339Seconds(-62135596800 - 3600)).to.equal('0000-12-31T23:00:00Z');
    expect(formatRFC3339Seconds(253402300799 + 3600)).to.equal('10000-01-01T00:59:59Z');
  });
});
