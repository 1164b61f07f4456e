import { expect } from 'chai';
import { humanDuration } from '@kubekit/core';

const s = 1000;
const m = 60 * s;
const h = 60 * m;
const d = 24 * h;

describe('humanDuration', () => {
  it('formats as apimachinery\'s duration.HumanDuration (cases after its duration_test.go)', () => {
    const cases: [number, string][] = [
      [-2 * s, '<invalid>'],
      [-1 * s, '0s'],
      [0, '0s'],
      [1 * s, '1s'],
      [119 * s, '119s'],
      [2 * m, '2m'],
      [2 * m + 30 * s, '2m30s'],
      [9 * m + 59 * s, '9m59s'],
      [10 * m, '10m'],
      [179 * m, '179m'],
      [3 * h, '3h'],
      [3 * h + 20 * m, '3h20m'],
      [8 * h, '8h'],
      [47 * h + 59 * m, '47h'],
      [48 * h, '2d'],
      [2 * d + 5 * h, '2d5h'],
      [8 * d, '8d'],
      [729 * d, '729d'],
      [730 * d, '2y'],
      [731 * d, '2y1d'],
      [8 * 365 * d, '8y'],
      [100 * 365 * d, '100y'],
    ];
    for (const [ms, text] of cases) expect(humanDuration(ms), `${ms} ms`).to.equal(text);
  });
});
