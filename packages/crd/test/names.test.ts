import { expect } from 'chai';
import { validateCustomResourceDefinitionNames } from '@kubekit/crd';
import type { CustomResourceDefinitionNames } from '@kubekit/crd';

const dns1035 = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

describe('validateCustomResourceDefinitionNames', () => {
  it('accepts the docs page names', () => {
    expect(validateCustomResourceDefinitionNames({ plural: 'crontabs', singular: 'crontab', kind: 'CronTab', shortNames: ['ct'], categories: ['all'] })).to.deep.equal([]);
  });

  it('reports each bad name at its path', () => {
    const names: CustomResourceDefinitionNames = { plural: 'cron-tabs-', singular: 'x'.repeat(64), kind: 'Cron_Tab', listKind: 'CronTabList', shortNames: [''], categories: ['a.b'] };
    expect(validateCustomResourceDefinitionNames(names, 'status.acceptedNames').map(String)).to.deep.equal([
      `status.acceptedNames.plural: Invalid value: "cron-tabs-": ${dns1035}`,
      `status.acceptedNames.singular: Invalid value: "${'x'.repeat(64)}": must be no more than 63 characters`,
      `status.acceptedNames.kind: Invalid value: "Cron_Tab": may have mixed case, but should otherwise match: ${dns1035}`,
      `status.acceptedNames.shortNames[0]: Invalid value: "": ${dns1035}`,
      `status.acceptedNames.categories[0]: Invalid value: "a.b": ${dns1035}`,
    ]);
  });

  it('refuses kind equal to listKind', () => {
    expect(validateCustomResourceDefinitionNames({ plural: 'crontabs', kind: 'CronTab', listKind: 'CronTab' }).map(String)).to.deep.equal([
      'spec.names.listKind: Invalid value: "CronTab": kind and listKind may not be the same',
    ]);
  });

  it('reports malformed input without throwing', () => {
    expect(validateCustomResourceDefinitionNames({ plural: 1 } as never).map(String)).to.deep.equal([
      'spec.names.plural: Invalid value: 1: json: cannot unmarshal number into Go value of type string',
    ]);
  });
});
