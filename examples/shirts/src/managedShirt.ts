// The Shirt the example operator manages: the documentation's Shirt (./shirt.ts, unchanged, so its CRD
// stays equal to the docs') plus what an operator adds — a status subresource whose `phase` the operator
// writes, shown as a printer column.
//
// Regenerate crd/managed/ with `kubekit crd generate src/managedShirt.ts --out crd/managed`.
import { CustomResource, Field, PrinterColumn } from '@kubekit/decorators';
import { Shirt } from './shirt.js';

// What the operator observed.
export class ShirtStatus {
  // Selected while the shirt matches the operator's field selector; Released once it left it.
  @PrinterColumn() @Field({ type: 'string', enum: ['Selected', 'Released'] }) phase?: 'Selected' | 'Released';
  // The metadata.generation the phase was written for.
  @Field('integer') observedGeneration?: number;
}

// shirts.stable.example.com, version v1: the docs' Shirt with a status subresource.
@CustomResource({ group: 'stable.example.com', version: 'v1', kind: 'Shirt', subresources: { status: true } })
export class ManagedShirt extends Shirt {
  @Field(() => ShirtStatus) status?: ShirtStatus;
}
