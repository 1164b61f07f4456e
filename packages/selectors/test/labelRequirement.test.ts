import { expect } from 'chai';
import {
  formatLabelRequirement, labelOperators, newLabelRequirement, validateLabelRequirement, type LabelOperator,
} from '@kubekit/selectors';
import { FieldError as CoreFieldError } from '@kubekit/core';
import { group, labelCases, parseError, title } from './helpers/fixtures.js';

describe('newLabelRequirement', () => {
  describe('upstream TestRequirementConstructor vectors', () => {
    for (const c of group(labelCases, 'newRequirement')) {
      const e = c.expected as { valid: boolean; string: string | null; errors: { type: string; field: string; badValue: unknown; detail: string }[] | null; error: string | null };
      it(`does ${title(c)}`, () => {
        const key = c.key as string;
        const op = c.operator as LabelOperator;
        const values = c.values as string[];
        if (e.valid) {
          expect(formatLabelRequirement(newLabelRequirement(key, op, values))).to.equal(e.string);
          expect(validateLabelRequirement(key, op, values)).to.deep.equal([]);
        } else {
          const err = parseError(() => newLabelRequirement(key, op, values));
          expect(err.message).to.equal(e.error);
          expect(err.fieldErrors.map((f) => ({ type: f.type, field: f.field, badValue: f.badValue, detail: f.detail }))).to.deep.equal(e.errors);
        }
      });
    }
  });

  it('prints a nil values slice as null, as LabelSelectorAsSelector passes one', () => {
    expect(parseError(() => newLabelRequirement('x', 'in', null)).message).to.equal("values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty");
  });

  it("prints JSON bad values as Go's json.Marshal does", () => {
    expect(parseError(() => newLabelRequirement('x', 'exists', ['<a&b>'])).message).to.equal(
      "[values: Invalid value: [\"\\u003ca\\u0026b\\u003e\"]: values set must be empty for exists and does not exist, values[0][x]: Invalid value: \"<a&b>\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')]",
    );
    expect(parseError(() => newLabelRequirement('x', '<op>' as LabelOperator, [])).message).to.equal(
      'operator: Unsupported value: "\\u003cop\\u003e": supported values: "in", "notin", "=", "==", "!=", "gt", "lt", "exists", "!"',
    );
  });

  it('puts errors under the given path and keeps them FieldErrors that can be re-rooted', () => {
    const errs = validateLabelRequirement('Bad_', 'gt', ['x'], { path: 'spec.selector' });
    expect(errs.map((e) => e.field)).to.deep.equal(['spec.selector.key', 'spec.selector.values[0]']);
    expect(errs.every((e) => e instanceof CoreFieldError)).to.equal(true);
    const json = validateLabelRequirement('x', 'in', [])[0];
    expect(json.withPrefix('spec').toString()).to.equal("spec.values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty");
  });

  it('returns a frozen requirement holding a copy of the values', () => {
    const values = ['b', 'a'];
    const r = newLabelRequirement('x', 'in', values);
    values.push('c');
    expect(r.values).to.deep.equal(['b', 'a']);
    expect(Object.isFrozen(r)).to.equal(true);
    expect(Object.isFrozen(r.values)).to.equal(true);
  });
});

describe('formatLabelRequirement', () => {
  it('prints every operator as Requirement.String does', () => {
    const cases: [LabelOperator, string[], string][] = [
      ['=', ['v'], 'k=v'], ['==', ['v'], 'k==v'], ['!=', ['v'], 'k!=v'], ['in', ['b', 'a'], 'k in (a,b)'], ['notin', [''], 'k notin ()'],
      ['exists', [], 'k'], ['!', [], '!k'], ['gt', ['1'], 'k>1'], ['lt', ['2'], 'k<2'],
    ];
    for (const [operator, values, text] of cases) expect(formatLabelRequirement({ key: 'k', operator, values })).to.equal(text);
  });

  it('lists the operators in the order the apiserver names them', () => {
    expect(labelOperators).to.deep.equal(['in', 'notin', '=', '==', '!=', 'gt', 'lt', 'exists', '!']);
  });
});
