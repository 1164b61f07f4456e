// The Kubernetes documentation's CronTab ("Extend the Kubernetes API with CustomResourceDefinitions"),
// with every feature the page adds to it: the cronSpec pattern and default, replicas between 1 and 10
// defaulting to 1, status and scale subresources, the Spec/Replicas/Age printer columns, the short
// name ct and the category all.
//
// These declarations use line comments on purpose: `kubekit crd generate` turns doc comments into
// schema descriptions, and this CRD is meant to equal the documentation's, which has none.
//
// Regenerate crd/ with `npm run crd` (or `kubekit crd generate src/crontab.ts --out crd`).
import { CustomResource, CustomResourceObject, Field, PrinterColumn } from '@kubekit/decorators';

// What to run and how often.
export class CronTabSpec {
  @PrinterColumn({ name: 'Spec', description: 'The cron spec defining the interval a CronJob is run' })
  @Field({ type: 'string', pattern: String.raw`^(\d+|\*)(/\d+)?(\s+(\d+|\*)(/\d+)?){4}$`, default: '5 0 * * *' })
  cronSpec?: string;

  @Field('string') image?: string;

  @PrinterColumn({ name: 'Replicas', description: 'The number of jobs launched by the CronJob' })
  @Field({ type: 'integer', minimum: 1, maximum: 10, default: 1 })
  replicas?: number;
}

// What the controller observed; the scale subresource reads replicas and labelSelector from here.
export class CronTabStatus {
  @Field('integer') replicas?: number;
  @Field('string') labelSelector?: string;
}

// crontabs.stable.example.com, version v1, namespaced.
@PrinterColumn({ name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' })
@CustomResource({
  group: 'stable.example.com',
  version: 'v1',
  kind: 'CronTab',
  shortNames: ['ct'],
  categories: ['all'],
  subresources: {
    status: true,
    scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.labelSelector' },
  },
})
export class CronTab extends CustomResourceObject {
  @Field(() => CronTabSpec) spec?: CronTabSpec;
  @Field(() => CronTabStatus) status?: CronTabStatus;
}
