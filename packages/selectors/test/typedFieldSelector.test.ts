// Type tests: each `@ts-expect-error` line must fail to compile (the type check of the tests,
// `tsc -p tsconfig.test.json`, fails if one compiles), and the runtime assertions run under mocha.
import { expect } from 'chai';
import {
  FieldSelector, fieldLabels, fieldSelectorFor, parseFieldSelector, typedFieldSelector,
  type FieldLabelsOf, type FieldRequirement, type UnknownFieldTerms,
} from '@kubekit/selectors';
import { parseError } from './helpers/fixtures.js';

type ShirtFields = 'metadata.name' | 'metadata.namespace' | 'spec.color' | 'spec.size';

/** The KEP-4358 Shirt, declaring its field labels as @kubekit/decorators will. */
class Shirt {
  declare readonly [fieldLabels]?: ShirtFields;
  spec = { color: 'blue', size: 'M' };
}

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
function assertType<T extends true>(): T | undefined {
  return undefined;
}

/** Type-checks `fn` without running it: the home of lines that must not compile. */
function typeOnly(fn: () => unknown): void {
  expect(fn).to.be.a('function');
}

describe('typedFieldSelector', () => {
  it('checks set keys against the declared field labels', () => {
    const sel = typedFieldSelector<'spec.color' | 'metadata.name'>({ 'spec.color': 'blue' });
    expect(sel.toString()).to.equal('spec.color=blue');
    typeOnly(() => {
      // @ts-expect-error 'spec.colour' is not a declared field label
      typedFieldSelector<'spec.color' | 'metadata.name'>({ 'spec.colour': 'blue' });
    });
    typeOnly(() => {
      // @ts-expect-error values are strings
      typedFieldSelector<'spec.color'>({ 'spec.color': 3 });
    });
  });
});

describe('fieldSelectorFor', () => {
  const shirts = fieldSelectorFor<ShirtFields>();

  it('accepts literal selectors over the declared labels and rejects others at compile time', () => {
    expect(shirts.parse('spec.color=blue,spec.size!=XL').toString()).to.equal('spec.color=blue,spec.size!=XL');
    expect(shirts.parse('metadata.name==a\\,b,').toString()).to.equal('metadata.name=a\\,b');
    expect(shirts.parse('').isEmpty()).to.equal(true);
    typeOnly(() => {
      // @ts-expect-error misspelt field label
      shirts.parse('spec.colour=blue');
    });
    typeOnly(() => {
      // @ts-expect-error a term without an operator
      shirts.parse('spec.color');
    });
    typeOnly(() => {
      // @ts-expect-error one bad term among good ones
      shirts.parse('spec.color=blue,status.phase=Running');
    });
    // A text known only at run time cannot be checked by the compiler.
    const dynamic: string = ['spec', 'size=M'].join('.');
    expect(shirts.parse(dynamic).requiresExactMatch('spec.size')).to.equal('M');
  });

  it('names the offending terms in the type the compiler reports', () => {
    assertType<Equal<UnknownFieldTerms<'spec.color=a,spec.colour=b,x', ShirtFields>, 'spec.colour=b' | 'x'>>();
    assertType<Equal<UnknownFieldTerms<'spec.color=a\\,x', ShirtFields>, never>>();
  });

  it('types field names in builders, requirements, exact-match lookups and field sets', () => {
    const sel = shirts.and(shirts.equal('spec.size', 'M'), shirts.notEqual('metadata.name', 'old'), shirts.fromSet({ 'spec.color': 'red' }));
    expect(sel.toString()).to.equal('spec.size=M,metadata.name!=old,spec.color=red');
    expect(sel.requiresExactMatch('spec.color')).to.equal('red');
    expect(sel.matches({ 'spec.size': 'M', 'metadata.name': 'new', 'spec.color': 'red' })).to.equal(true);
    expect(sel.matches((field) => (field === 'spec.color' ? 'red' : field === 'spec.size' ? 'M' : undefined))).to.equal(true);
    const fields: readonly FieldRequirement<ShirtFields>[] = sel.requirements();
    expect(fields.map((r) => r.field)).to.deep.equal(['spec.size', 'metadata.name', 'spec.color']);
    typeOnly(() => {
      // @ts-expect-error not a declared field label
      shirts.equal('spec.sizes', 'M');
    });
    typeOnly(() => {
      // @ts-expect-error not a declared field label
      sel.requiresExactMatch('spec.colour');
    });
    typeOnly(() => {
      // @ts-expect-error not a declared field label
      shirts.fromSet({ 'status.phase': 'x' });
    });
    expect(shirts.everything().isEmpty()).to.equal(true);
  });

  it('lets a typed selector be used as an untyped one, but not the other way round', () => {
    const typed = shirts.parse('spec.color=blue');
    const untyped: FieldSelector = typed;
    expect(untyped.toString()).to.equal('spec.color=blue');
    typeOnly(() => {
      // @ts-expect-error an unchecked selector is not a selector over ShirtFields
      const unchecked: FieldSelector<ShirtFields> = parseFieldSelector('anything=x');
      return unchecked;
    });
  });

  it('reads the field labels a resource type declares', () => {
    assertType<Equal<FieldLabelsOf<Shirt>, ShirtFields>>();
    assertType<Equal<FieldLabelsOf<'a' | 'b'>, 'a' | 'b'>>();
    assertType<Equal<FieldLabelsOf<{ spec: unknown }>, never>>();
    const viaClass = fieldSelectorFor<Shirt>();
    expect(viaClass.parse('spec.color=blue').toString()).to.equal('spec.color=blue');
    typeOnly(() => {
      // @ts-expect-error Shirt does not declare status.phase
      viaClass.parse('status.phase=x');
    });
    expect(new Shirt().spec.color).to.equal('blue');
  });

  it('infers the labels from an array and then also checks them at run time', () => {
    const inferred = fieldSelectorFor(['spec.color', 'metadata.name']);
    expect(inferred.fields).to.deep.equal(['spec.color', 'metadata.name']);
    expect(inferred.parse('metadata.name=x').toString()).to.equal('metadata.name=x');
    typeOnly(() => {
      // @ts-expect-error spec.size is not in the array
      inferred.parse('spec.size=x');
    });
    const dynamic: string = 'spec.size=x';
    expect(parseError(() => inferred.parse(dynamic)).message).to.equal('field label not supported: spec.size');
    expect(parseError(() => inferred.narrow(parseFieldSelector('x=1'))).message).to.equal('field label not supported: x');
    expect(inferred.narrow(parseFieldSelector('spec.color=1')).requiresExactMatch('spec.color')).to.equal('1');
    // Without run-time labels, narrow only changes the type.
    expect(shirts.fields).to.equal(undefined);
    expect(shirts.narrow(parseFieldSelector('x=1')).toString()).to.equal('x=1');
  });

  it('keeps transform typed by the labels it produces', () => {
    const out = shirts.parse('spec.color=blue').transform((field, value) => [field === 'spec.color' ? 'spec.colour' : field, value] as const);
    const r: FieldRequirement<'spec.colour' | ShirtFields> = out.requirements()[0];
    expect(r.field).to.equal('spec.colour');
  });
});
