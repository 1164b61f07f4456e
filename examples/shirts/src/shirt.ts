// KEP-4358's Shirt, exactly as the Kubernetes documentation declares it in "Selectable fields for
// custom resources": spec.color and spec.size are selectable and shown as printer columns.
//
// These declarations use line comments on purpose: `kubekit crd generate` turns doc comments into
// schema descriptions, and this CRD is meant to equal the documentation's, which has none.
//
// Regenerate crd/ with `npm run crd` (or `kubekit crd generate src/shirt.ts --out crd`).
import { CustomResource, CustomResourceObject, Field, PrinterColumn, Selectable } from '@kubekit/decorators';

// The spec of a Shirt. Both fields are Selectable<string>, so typed field selectors accept them:
// fieldSelector(Shirt, { 'spec.color': 'blue' }).
export class ShirtSpec {
  @Selectable() @PrinterColumn() @Field('string') color?: Selectable<string>;
  @Selectable() @PrinterColumn() @Field('string') size?: Selectable<string>;
}

// shirts.stable.example.com, version v1, namespaced.
@CustomResource({ group: 'stable.example.com', version: 'v1', kind: 'Shirt' })
export class Shirt extends CustomResourceObject {
  @Field(() => ShirtSpec) spec?: ShirtSpec;
}
