/**
 * The Shirt of KEP-4358's conformance scenario (apiextensions-apiserver test/integration
 * fieldselector_test.go): v1 names the colour `spec.color`, v1beta1 names it `spec.hue`, each version
 * declares its own selectable field, and a hub-and-spoke conversion (v1 is the hub and the storage
 * version) renames the field between them. A field selector on either version selects the same shirts.
 */
import { CustomResource, CustomResourceObject, Field, PrinterColumn, Selectable, hubAndSpokeConversion } from '@kubekit/decorators';

/** The colours a shirt comes in. */
export type Colour = 'red' | 'green' | 'blue';
const colours: Colour[] = ['red', 'green', 'blue'];

/** v1's spec: the colour is `color`. */
export class ShirtSpecV1 {
  @Selectable() @PrinterColumn() @Field({ type: 'string', enum: colours }) color?: Selectable<Colour>;
  @PrinterColumn() @Field({ type: 'string', default: 'M' }) size?: string;
}

/** A Shirt in v1, the hub and storage version. */
@CustomResource({ group: 'versions.example.com', version: 'v1', kind: 'Shirt', storage: true, shortNames: ['vsh'] })
export class ShirtV1 extends CustomResourceObject {
  @Field(() => ShirtSpecV1) spec?: ShirtSpecV1;
}

/** v1beta1's spec: the colour is `hue`. */
export class ShirtSpecV1beta1 {
  @Selectable() @PrinterColumn() @Field({ type: 'string', enum: colours }) hue?: Selectable<Colour>;
  @PrinterColumn() @Field({ type: 'string', default: 'M' }) size?: string;
}

/** A Shirt in v1beta1, a spoke. */
@CustomResource({ group: 'versions.example.com', version: 'v1beta1', kind: 'Shirt', shortNames: ['vsh'] })
export class ShirtV1beta1 extends CustomResourceObject {
  @Field(() => ShirtSpecV1beta1) spec?: ShirtSpecV1beta1;
}

/** v1beta1 ⇄ v1: `spec.hue` is `spec.color`; everything else carries over. */
export const shirtConversion = hubAndSpokeConversion(ShirtV1).spoke(ShirtV1beta1, {
  toHub: ({ spec }) => {
    const { hue, ...rest } = spec ?? {};
    return { spec: hue === undefined ? rest : { ...rest, color: hue } };
  },
  fromHub: ({ spec }) => {
    const { color, ...rest } = spec ?? {};
    return { spec: color === undefined ? rest : { ...rest, hue: color } };
  },
});
