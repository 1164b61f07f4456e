import { expect } from 'chai';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { FieldError } from '@kubekit/core';
import { validateCustomResourceDefinition, validateCustomResourceDefinitionUpdate } from '@kubekit/crd';
import type { CustomResourceDefinition, JSONSchemaProps } from '@kubekit/crd';

const docs = JSON.parse(readFileSync(new URL('./fixtures/docs_crds.json', import.meta.url), 'utf8')) as {
  crds: Record<string, CustomResourceDefinition>;
};

function crontab(): CustomResourceDefinition {
  return structuredClone(docs.crds.crontab);
}

function messages(crd: unknown): string[] {
  return validateCustomResourceDefinition(crd as CustomResourceDefinition).map(String);
}

const dns1035 = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const dns1123Subdomain = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

describe('validateCustomResourceDefinition', () => {
  describe('the docs page', () => {
    for (const [name, crd] of Object.entries(docs.crds)) {
      it(`accepts the ${name} CRD`, () => {
        expect(messages(crd)).to.deep.equal([]);
      });
    }
  });

  describe('upstream schema cases (TestValidateCustomResourceDefinition)', () => {
    // Cases of apiextensions-apiserver's validation_test.go whose errors all concern the schema; each
    // schema becomes the only version's, which the apiserver reports at spec.validation.openAPIV3Schema.
    const ported = JSON.parse(readFileSync(new URL('./fixtures/crd_validation_schema_cases.json', import.meta.url), 'utf8')) as {
      cases: { name: string; schema: JSONSchemaProps; errors: { type: string; field: string }[] }[];
    };
    const types: Record<string, string> = {
      invalid: 'FieldValueInvalid', required: 'FieldValueRequired', forbidden: 'FieldValueForbidden', unsupported: 'FieldValueNotSupported',
      invalidtypecode: 'FieldValueTypeInvalid', duplicate: 'FieldValueDuplicate', tooMany: 'FieldValueTooMany',
    };
    const key = (e: { type: string; field: string }) => `${e.type} ${e.field}`;
    for (const c of ported.cases) {
      it(`reports exactly the errors upstream expects for "${c.name}"`, () => {
        const crd: CustomResourceDefinition = {
          apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'plural.group.com' },
          spec: {
            group: 'group.com', scope: 'Namespaced', names: { plural: 'plural', singular: 'singular', kind: 'Plural', listKind: 'PluralList' },
            versions: [{ name: 'version', served: true, storage: true, schema: { openAPIV3Schema: c.schema } }],
          },
        };
        const got = validateCustomResourceDefinition(crd).map(key).sort();
        const want = c.errors.map((e) => key({ type: types[e.type], field: e.field })).sort();
        expect(got).to.deep.equal(want);
      });
    }
  });

  describe('metadata', () => {
    it('requires the name <plural>.<group>', () => {
      const crd = crontab();
      crd.metadata.name = 'crontab.stable.example.com';
      expect(messages(crd)).to.deep.equal(['metadata.name: Invalid value: "crontab.stable.example.com": must be spec.names.plural+"."+spec.group']);
      crd.metadata.name = 'CronTabs';
      expect(messages(crd)).to.deep.equal([
        `metadata.name: Invalid value: "CronTabs": ${dns1123Subdomain}`,
        'metadata.name: Invalid value: "CronTabs": must be spec.names.plural+"."+spec.group',
      ]);
      delete crd.metadata.name;
      expect(messages(crd)).to.deep.equal(['metadata.name: Required value: name or generateName is required']);
    });

    it('forbids a namespace', () => {
      const crd = crontab();
      crd.metadata.namespace = 'default';
      expect(messages(crd)).to.deep.equal(['metadata.namespace: Forbidden: not allowed on this type']);
    });

    it('checks the api-approved annotation for protected groups', () => {
      const crd = crontab();
      crd.spec.group = 'stable.k8s.io';
      crd.metadata.name = 'crontabs.stable.k8s.io';
      expect(messages(crd)).to.deep.equal([
        'metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111',
      ]);
      crd.metadata.annotations = { 'api-approved.kubernetes.io': 'https://github.com/kubernetes/kubernetes/pull/78458' };
      expect(messages(crd)).to.deep.equal([]);
      crd.metadata.annotations = { 'api-approved.kubernetes.io': 'unapproved, experimental' };
      expect(messages(crd)).to.deep.equal([]);
      crd.metadata.annotations = { 'api-approved.kubernetes.io': 'yes' };
      expect(messages(crd)).to.have.length(1);
      expect(messages(crd)[0]).to.match(/^metadata\.annotations\[api-approved\.kubernetes\.io\]: Invalid value: "yes": protected groups must have approval annotation/);
    });
  });

  describe('group and scope', () => {
    it('requires a group that is a DNS subdomain with a dot', () => {
      const crd = crontab();
      crd.spec.group = '';
      expect(messages(crd)).to.deep.equal([
        'metadata.name: Invalid value: "crontabs.stable.example.com": must be spec.names.plural+"."+spec.group',
        'spec.group: Required value',
      ]);
      crd.spec.group = 'example';
      crd.metadata.name = 'crontabs.example';
      expect(messages(crd)).to.deep.equal(['spec.group: Invalid value: "example": should be a domain with at least one dot']);
      crd.spec.group = 'Example.com';
      crd.metadata.name = 'crontabs.Example.com';
      expect(messages(crd)).to.include(`spec.group: Invalid value: "Example.com": ${dns1123Subdomain}`);
    });

    it('requires the scope Namespaced or Cluster', () => {
      const crd = crontab();
      (crd.spec as { scope?: string }).scope = undefined;
      expect(messages(crd)).to.deep.equal(['spec.scope: Required value']);
      (crd.spec as { scope: string }).scope = 'Global';
      expect(messages(crd)).to.deep.equal(['spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"']);
      crd.spec.scope = 'Cluster';
      expect(messages(crd)).to.deep.equal([]);
    });
  });

  describe('names', () => {
    it('defaults singular and listKind from kind, as the v1 API does', () => {
      const crd = crontab();
      delete crd.spec.names.singular;
      delete crd.spec.names.listKind;
      expect(messages(crd)).to.deep.equal([]);
    });

    it('requires plural and kind', () => {
      const crd = crontab();
      crd.spec.names.plural = '';
      crd.spec.names.kind = '';
      crd.metadata.name = '.stable.example.com';
      expect(messages(crd)).to.deep.equal([
        `metadata.name: Invalid value: ".stable.example.com": ${dns1123Subdomain}`,
        'spec.names.plural: Required value',
        'spec.names.kind: Required value',
        'spec.names.listKind: Required value',
      ]);
    });

    it('checks each name against DNS-1035, kind and listKind in any case', () => {
      const crd = crontab();
      crd.spec.names = { plural: 'cronTabs', singular: 'cron_tab', kind: 'Cron-Tab-', listKind: 'Cron-Tab-', shortNames: ['ct', '1ct'], categories: ['all', 'All'] };
      crd.metadata.name = 'cronTabs.stable.example.com';
      const got = messages(crd).filter((m) => m.startsWith('spec.names'));
      expect(got).to.deep.equal([
        `spec.names.plural: Invalid value: "cronTabs": ${dns1035}`,
        `spec.names.singular: Invalid value: "cron_tab": ${dns1035}`,
        `spec.names.kind: Invalid value: "Cron-Tab-": may have mixed case, but should otherwise match: ${dns1035}`,
        `spec.names.listKind: Invalid value: "Cron-Tab-": may have mixed case, but should otherwise match: ${dns1035}`,
        `spec.names.shortNames[1]: Invalid value: "1ct": ${dns1035}`,
        'spec.names.listKind: Invalid value: "Cron-Tab-": kind and listKind may not be the same',
        `spec.names.categories[1]: Invalid value: "All": ${dns1035}`,
      ]);
    });
  });

  describe('versions', () => {
    function twoVersions(): CustomResourceDefinition {
      const crd = crontab();
      crd.spec.versions.push({ ...structuredClone(crd.spec.versions[0]), name: 'v2', storage: false });
      return crd;
    }

    it('accepts several versions with one storage version', () => {
      expect(messages(twoVersions())).to.deep.equal([]);
    });

    it('requires DNS-1035 version names, reported for the version and for spec.version', () => {
      const crd = crontab();
      crd.spec.versions[0].name = 'V1';
      expect(messages(crd)).to.deep.equal([
        `spec.versions[0].name: Invalid value: "V1": ${dns1035}`,
        `spec.version: Invalid value: "V1": ${dns1035}`,
      ]);
    });

    it('requires unique names', () => {
      const crd = twoVersions();
      crd.spec.versions[1].name = 'v1';
      const got = messages(crd);
      expect(got).to.have.length(1);
      expect(got[0]).to.match(/^spec\.versions: Invalid value: \[\{"Name":"v1","Served":true,"Storage":true,"Deprecated":false,"DeprecationWarning":null,"Schema":null,/);
      expect(got[0]).to.match(/: must contain unique version names$/);
    });

    it('requires exactly one storage version', () => {
      const none = twoVersions();
      none.spec.versions[0].storage = false;
      const got = messages(none);
      expect(got.map((m) => m.replace(/Invalid value: .*: /, 'Invalid value: …: '))).to.deep.equal([
        'spec.versions: Invalid value: …: must have exactly one version marked as storage version',
        'status.storedVersions: Invalid value: …: must have at least one stored version',
      ]);
      expect(got[1]).to.equal('status.storedVersions: Invalid value: null: must have at least one stored version');
      const both = twoVersions();
      both.spec.versions[1].storage = true;
      expect(messages(both).map((m) => m.replace(/Invalid value: \[\{"Name".*\}\]: /, 'Invalid value: …: '))).to.deep.equal([
        'spec.versions: Invalid value: …: must have exactly one version marked as storage version',
        'status.storedVersions: Invalid value: ["v1"]: must have the storage version v2',
      ]);
    });

    it('accepts versions that are not served (the apiserver does)', () => {
      const crd = twoVersions();
      crd.spec.versions[0].served = false;
      crd.spec.versions[1].served = false;
      expect(messages(crd)).to.deep.equal([]);
    });

    it('requires at least one version', () => {
      const crd = crontab();
      crd.spec.versions = [];
      expect(messages(crd)).to.deep.equal([
        'spec.versions: Invalid value: []: must have exactly one version marked as storage version',
        'status.storedVersions: Invalid value: null: must have at least one stored version',
      ]);
    });

    it('requires a schema in every version', () => {
      const crd = twoVersions();
      delete crd.spec.versions[1].schema;
      expect(messages(crd)).to.deep.equal(['spec.versions[1].schema.openAPIV3Schema: Required value']);
    });

    it('checks deprecation warnings', () => {
      const crd = crontab();
      crd.spec.versions[0].deprecationWarning = 'use v2';
      expect(messages(crd)).to.deep.equal(['spec.versions[0].deprecationWarning: Invalid value: "use v2": can only be set for deprecated versions']);
      crd.spec.versions[0].deprecated = true;
      expect(messages(crd)).to.deep.equal([]);
      crd.spec.versions[0].deprecationWarning = 'use\tv2';
      expect(messages(crd)).to.deep.equal([
        'spec.versions[0].deprecationWarning: Invalid value: "use\\tv2": must only contain printable UTF-8 characters; non-printable character found at index 3',
      ]);
      crd.spec.versions[0].deprecationWarning = 'x'.repeat(257);
      expect(messages(crd)[0]).to.match(/must be <= 256 characters long$/);
    });

    it('reports schema errors at spec.validation when every version has the same schema, per version otherwise', () => {
      const crd = twoVersions();
      const bad = crd.spec.versions[0].schema!.openAPIV3Schema!.properties!.spec.properties!.replicas as JSONSchemaProps;
      bad.uniqueItems = true;
      crd.spec.versions[1].schema = structuredClone(crd.spec.versions[0].schema);
      expect(messages(crd)).to.deep.equal([
        'spec.validation.openAPIV3Schema.properties[spec].properties[replicas].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic',
      ]);
      delete (crd.spec.versions[1].schema!.openAPIV3Schema!.properties!.spec.properties!.replicas as JSONSchemaProps).uniqueItems;
      expect(messages(crd)).to.deep.equal([
        'spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[replicas].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic',
      ]);
    });
  });

  describe('preserveUnknownFields and conversion', () => {
    it('refuses preserveUnknownFields: true', () => {
      const crd = crontab();
      crd.spec.preserveUnknownFields = true;
      expect(messages(crd)).to.deep.equal([
        'spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
      ]);
      crd.spec.versions[0].schema!.openAPIV3Schema!.properties!.spec.properties!.replicas.default = 1;
      expect(messages(crd)).to.deep.equal([
        'spec.preserveUnknownFields: Invalid value: true: must be false in order to use defaults in the schema',
        'spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
      ]);
    });

    it('checks the conversion strategy', () => {
      const crd = crontab();
      crd.spec.conversion = { strategy: 'Sometimes' as 'None' };
      expect(messages(crd)).to.deep.equal(['spec.conversion.strategy: Unsupported value: "Sometimes": supported values: "None", "Webhook"']);
      crd.spec.conversion = { strategy: 'None', webhook: { clientConfig: { url: 'https://example.com' }, conversionReviewVersions: ['v1'] } };
      expect(messages(crd)).to.deep.equal([
        'spec.conversion.webhookClientConfig: Forbidden: should not be set when strategy is not set to Webhook',
        'spec.conversion.conversionReviewVersions: Forbidden: should not be set when strategy is not set to Webhook',
      ]);
    });

    it('checks webhook conversion', () => {
      const crd = crontab();
      crd.spec.conversion = { strategy: 'Webhook' } as CustomResourceDefinition['spec']['conversion'];
      expect(messages(crd)).to.deep.equal([
        'spec.conversion.webhookClientConfig: Required value: required when strategy is set to Webhook',
        'spec.conversion.conversionReviewVersions: Required value',
      ]);
      crd.spec.conversion = { strategy: 'Webhook', webhook: { clientConfig: { url: 'https://example.com/convert' }, conversionReviewVersions: ['v1'] } };
      expect(messages(crd)).to.deep.equal([]);
      crd.spec.conversion.webhook!.clientConfig = { url: 'http://user@example.com/x?a=1#f' };
      crd.spec.conversion.webhook!.conversionReviewVersions = ['v2', 'v2', 'V3'];
      expect(messages(crd)).to.deep.equal([
        'spec.conversion.webhookClientConfig.url: Invalid value: "http": \'https\' is the only allowed URL scheme; desired format: https://host[/path]',
        'spec.conversion.webhookClientConfig.url: Invalid value: "user": user information is not permitted in the URL',
        'spec.conversion.webhookClientConfig.url: Invalid value: "f": fragments are not permitted in the URL',
        'spec.conversion.webhookClientConfig.url: Invalid value: "a=1": query parameters are not permitted in the URL',
        'spec.conversion.conversionReviewVersions[1]: Invalid value: "v2": duplicate version',
        `spec.conversion.conversionReviewVersions[2]: Invalid value: "V3": ${dns1035}`,
        'spec.conversion.conversionReviewVersions: Invalid value: ["v2","v2","V3"]: must include at least one of v1, v1beta1',
      ]);
      crd.spec.conversion.webhook!.clientConfig = { service: { namespace: '', name: 'svc', path: '/a//b', port: 0 } };
      crd.spec.conversion.webhook!.conversionReviewVersions = ['v1beta1'];
      expect(messages(crd)).to.deep.equal([
        'spec.conversion.webhookClientConfig.service.namespace: Required value',
        'spec.conversion.webhookClientConfig.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive',
        'spec.conversion.webhookClientConfig.service.path: Invalid value: "/a//b": segment[1] may not be empty',
      ]);
      crd.spec.conversion.webhook!.clientConfig = { url: 'https://example.com', service: { namespace: 'ns', name: 'svc' } };
      expect(messages(crd)).to.deep.equal(['spec.conversion.webhookClientConfig: Required value: exactly one of url or service is required']);
    });
  });

  describe('decoding', () => {
    it('reports wrong JSON types and unknown fields and checks nothing else', () => {
      const crd = crontab() as unknown as Record<string, Record<string, unknown>>;
      crd.spec.scope = 5;
      crd.spec.colour = 'blue';
      (crd.spec.names as Record<string, unknown>).shortNames = 'ct';
      expect(messages(crd)).to.deep.equal([
        'spec.colour: Forbidden: unknown field',
        'spec.names.shortNames: Invalid value: "ct": json: cannot unmarshal string into Go value of type []string',
        'spec.scope: Invalid value: 5: json: cannot unmarshal number into Go value of type string',
      ]);
    });

    it('treats keys holding undefined as absent, as JSON does', () => {
      const crd = crontab() as unknown as Record<string, Record<string, unknown>>;
      crd.spec.colour = undefined;
      crd.spec.conversion = undefined;
      (crd.spec.names as Record<string, unknown>).shortNames = undefined;
      expect(messages(crd)).to.deep.equal([]);
    });

    it('requires apiVersion apiextensions.k8s.io/v1 and kind CustomResourceDefinition', () => {
      const crd = crontab() as unknown as Record<string, unknown>;
      crd.apiVersion = 'apiextensions.k8s.io/v1beta1';
      delete crd.kind;
      expect(messages(crd)).to.deep.equal([
        'apiVersion: Unsupported value: "apiextensions.k8s.io/v1beta1": supported values: "apiextensions.k8s.io/v1"',
        'kind: Required value',
      ]);
    });

    it('gives a schema nested 1,000 levels deep one clear error instead of overflowing the stack', () => {
      for (const depth of [1_000, 100_000]) {
        const crd = crontab();
        let leaf: JSONSchemaProps = { type: 'string' };
        for (let i = 0; i < depth; i++) leaf = { type: 'object', properties: { a: leaf } };
        crd.spec.versions[0].schema = { openAPIV3Schema: leaf };
        const errs = validateCustomResourceDefinition(crd);
        expect(errs).to.have.length(1);
        expect(errs[0].type).to.equal('FieldValueForbidden');
        expect(errs[0].field).to.match(/^spec\.versions\[0\]\.schema\.openAPIV3Schema(\.properties\[a\]){257}$/);
        expect(errs[0].detail).to.equal("must not be nested more than 256 levels deep (kubekit's bound; the schema below this point is not validated)");
      }
    });

    it('refuses a default nested too deeply for JSON decoding', () => {
      const crd = crontab();
      let value: unknown = 1;
      for (let i = 0; i < 2_000; i++) value = [value];
      crd.spec.versions[0].schema!.openAPIV3Schema!.properties!.spec.properties!.image.default = value as string;
      const errs = messages(crd);
      expect(errs).to.have.length(1);
      expect(errs[0]).to.contain("must not be nested more than 1000 levels deep (kubekit's bound)");
    });
  });

  describe('robustness', () => {
    it('handles cyclic and non-JSON input', () => {
      const crd = crontab() as unknown as Record<string, unknown>;
      const cycle: Record<string, unknown> = { type: 'object' };
      cycle.properties = { self: cycle };
      (crd.spec as CustomResourceDefinition['spec']).versions[0].schema = { openAPIV3Schema: cycle as JSONSchemaProps };
      crd.apiVersion = cycle;
      const errs = messages(crd);
      expect(errs[0]).to.equal('apiVersion: Unsupported value: "{…}": supported values: "apiextensions.k8s.io/v1"');
      expect(errs.some((e) => e.includes("must not be nested more than 256 levels deep"))).to.equal(true);
      const withFunction = crontab();
      (withFunction.spec.versions[0].schema!.openAPIV3Schema!.properties!.spec.properties!.image as Record<string, unknown>).default = () => 1;
      expect(messages(withFunction)).to.deep.equal([
        'spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[image].default: Invalid value: "function": must be a JSON value, but holds a function',
      ]);
      expect(messages(null)).to.deep.equal(['apiVersion: Required value', 'kind: Required value']);
      expect(messages('crd')).to.deep.equal([
        'apiVersion: Required value',
        'kind: Required value',
        ': Invalid value: "crd": json: cannot unmarshal string into Go value of type v1.CustomResourceDefinition',
      ]);
      expect(validateCustomResourceDefinitionUpdate(null as unknown as CustomResourceDefinition, 5 as unknown as CustomResourceDefinition)).to.have.length(2);
    });

    const base = [docs.crds.crontabSubresources, docs.crds.shirt, docs.crds.crontabDefaulting, docs.crds.crontabPrinterColumns];
    const values = fc.oneof(
      fc.constantFrom<unknown>(null, undefined, '', 'x', '.spec', '.status.replicas', 'object', 'array', 'string', 'integer', 'map', 'set', 'atomic', 0, -1, 1.5, true, false,
        'Webhook', 'Cluster', 'v1', 'metadata', 2n ** 70n),
      fc.constantFrom<unknown>([], {}, [{}], { type: 'object' }, { 'x-kubernetes-int-or-string': true }, { type: 'array' },
        [{ rule: 'self.x > 0' }], [{ rule: 'self.size() < 3', messageExpression: "'too ' + 'big'" }], [{ rule: 'self == oldSelf', optionalOldSelf: true }],
        [{ rule: 'self.all(x, x.contains("a"))' }], [{ rule: '(' }]).map((v) => structuredClone(v)),
      fc.jsonValue({ maxDepth: 3 }),
    );
    const mutation = fc.record({ path: fc.array(fc.nat({ max: 40 }), { minLength: 1, maxLength: 12 }), action: fc.constantFrom('set', 'delete', 'add'), key: fc.constantFrom(
      'type', 'properties', 'items', 'default', 'allOf', 'anyOf', 'not', 'x-kubernetes-list-type', 'x-kubernetes-list-map-keys', 'x-kubernetes-embedded-resource',
      'x-kubernetes-preserve-unknown-fields', 'additionalProperties', 'metadata', 'jsonPath', 'nullable', 'enum', 'pattern', 'required', 'storage', 'name',
      'x-kubernetes-validations'), value: values });

    function mutate(root: unknown, m: { path: number[]; action: string; key: string; value: unknown }): void {
      let node = root;
      for (const step of m.path) {
        if (node === null || typeof node !== 'object') return;
        const keys = Object.keys(node);
        if (keys.length === 0) break;
        const k = keys[step % keys.length];
        const child = (node as Record<string, unknown>)[k];
        if (child === null || typeof child !== 'object') {
          if (m.action === 'delete') delete (node as Record<string, unknown>)[k];
          else (node as Record<string, unknown>)[k] = m.value;
          return;
        }
        node = child;
      }
      if (node === null || typeof node !== 'object') return;
      const record = node as Record<string, unknown>;
      if (m.action === 'add') record[Array.isArray(node) ? String(record.length as unknown as number) : m.key] = m.value;
      else if (m.action === 'delete') delete record[m.key];
      else record[m.key] = m.value;
    }

    it('never throws and returns field errors for 10,000 randomly mutated CRDs', () => {
      fc.assert(fc.property(fc.nat({ max: base.length - 1 }), fc.array(mutation, { minLength: 1, maxLength: 4 }), (which, mutations) => {
        const crd = structuredClone(base[which]);
        for (const m of mutations) mutate(crd, m);
        const errs = validateCustomResourceDefinition(crd);
        for (const e of errs) {
          expect(e).to.be.instanceOf(FieldError);
          expect(e.toString()).to.be.a('string');
        }
        const update = validateCustomResourceDefinitionUpdate(crd, base[which]);
        expect(update).to.be.an('array');
      }), { numRuns: 10_000 });
    }).timeout(60_000);
  });
});

describe('validateCustomResourceDefinitionUpdate', () => {
  function stored(): CustomResourceDefinition {
    const crd = crontab();
    crd.status = { storedVersions: ['v1'], conditions: [{ type: 'Established', status: 'True' }], acceptedNames: { plural: 'crontabs', kind: 'CronTab' } };
    return crd;
  }

  it('accepts an unchanged CRD', () => {
    expect(validateCustomResourceDefinitionUpdate(crontab(), stored())).to.deep.equal([]);
  });

  it('keeps group and plural immutable, and scope and kind once Established', () => {
    const next = crontab();
    next.spec.group = 'other.example.com';
    next.spec.names.plural = 'crons';
    next.spec.names.kind = 'Cron';
    next.spec.scope = 'Cluster';
    const got = validateCustomResourceDefinitionUpdate(next, stored()).map(String);
    expect(got).to.include.members([
      'spec.scope: Invalid value: "Cluster": field is immutable',
      'spec.names.kind: Invalid value: "Cron": field is immutable',
      'spec.group: Invalid value: "other.example.com": field is immutable',
      'spec.names.plural: Invalid value: "crons": field is immutable',
    ]);
    const notEstablished = stored();
    notEstablished.status!.conditions = [];
    const relaxed = validateCustomResourceDefinitionUpdate(next, notEstablished).map(String);
    expect(relaxed).to.not.include('spec.scope: Invalid value: "Cluster": field is immutable');
    expect(relaxed).to.include('spec.group: Invalid value: "other.example.com": field is immutable');
  });

  it('keeps previously stored versions in spec.versions', () => {
    const old = stored();
    old.status!.storedVersions = ['v1beta1', 'v1'];
    expect(validateCustomResourceDefinitionUpdate(crontab(), old).map(String)).to.deep.equal([
      'status.storedVersions[0]: Invalid value: "v1beta1": missing from spec.versions; v1beta1 was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in v1beta1 and removes v1beta1 from status.storedVersions',
    ]);
  });

  it('records a new storage version instead of refusing it', () => {
    const next = crontab();
    next.spec.versions[0].storage = false;
    next.spec.versions.push({ ...structuredClone(next.spec.versions[0]), name: 'v2', storage: true });
    expect(validateCustomResourceDefinitionUpdate(next, stored())).to.deep.equal([]);
  });

  // defaulting.validate (apiextensions-apiserver pkg/apiserver/schema/defaulting/validation.go) runs the
  // node's CEL rules on a default that passed schema validation, once with oldSelf = the default and,
  // with CRDValidationRatcheting, once without an old value; found by the randomized differential suite.
  it('refuses a default that fails the x-kubernetes-validations of its node', () => {
    const crd = crontab();
    const spec = crd.spec.versions[0].schema!.openAPIV3Schema!.properties!.spec;
    spec.properties!.tags = { type: 'array', items: { type: 'string', default: 'bbcj', 'x-kubernetes-validations': [{ rule: 'size(self) < 4' }] } };
    spec.properties!.limits = {
      type: 'object', default: { min: 5, max: 1 },
      properties: { min: { type: 'integer' }, max: { type: 'integer' } },
      'x-kubernetes-validations': [{ rule: 'self.min <= self.max', message: 'min exceeds max', fieldPath: '.min' }, { rule: 'self == oldSelf', message: 'immutable' }],
    };
    expect(messages(crd)).to.deep.equal([
      'spec.validation.openAPIV3Schema.properties[spec].properties[tags].items.default: Invalid value: "string": failed rule: size(self) < 4',
      'spec.validation.openAPIV3Schema.properties[spec].properties[limits].default.min: Invalid value: "object": min exceeds max',
    ]);
    spec.properties!.tags.items = { type: 'string', default: 'bbc', 'x-kubernetes-validations': [{ rule: 'size(self) < 4' }] };
    spec.properties!.limits.default = { min: 1, max: 5 };
    expect(messages(crd)).to.deep.equal([]);
  });

  // defaulting.validate checks a default against Structural.ToKubeOpenAPI() (apiextensions-apiserver
  // pkg/apiserver/schema/kubeopenapi.go), which carries x-kubernetes-int-or-string as an extension
  // only: unlike the custom resource validator's schema, it gets no [integer, string] type. Answers of
  // kube-apiserver v1.34.4; found by the randomized differential suite.
  it('checks a default of an x-kubernetes-int-or-string node against its declared type only', () => {
    const crd = crontab();
    const spec = crd.spec.versions[0].schema!.openAPIV3Schema!.properties!.spec;
    spec.properties!.any = { 'x-kubernetes-int-or-string': true, default: true as unknown as string };
    spec.properties!.half = { 'x-kubernetes-int-or-string': true, default: 1.5 as unknown as string };
    expect(messages(crd)).to.deep.equal([]);
    spec.properties!.typed = { 'x-kubernetes-int-or-string': true, type: 'string', default: true as unknown as string };
    expect(messages(crd)).to.include('spec.validation.openAPIV3Schema.properties[spec].properties[typed].default: Invalid value: "boolean":  in body must be of type string: "boolean"');
    delete spec.properties!.typed;
    spec.properties!.anyOf = { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }], default: true as unknown as string };
    expect(messages(crd)).to.deep.equal([
      'spec.validation.openAPIV3Schema.properties[spec].properties[anyOf].default: Invalid value: "": "" must validate at least one schema (anyOf)',
      'spec.validation.openAPIV3Schema.properties[spec].properties[anyOf].default: Invalid value: "boolean":  in body must be of type integer: "boolean"',
    ]);
  });

  // Structural.ToKubeOpenAPI() keeps a default's formats as written (no StripUnsupportedFormats), so
  // kube-openapi's registry checks them all, k8s-short-name included (answers of kube-apiserver v1.34.4,
  // which validates objects without that format). Found by the randomized differential suite.
  it('checks a default against every format the validator knows, even those objects are not checked against', () => {
    const crd = crontab();
    const spec = crd.spec.versions[0].schema!.openAPIV3Schema!.properties!.spec;
    spec.properties!.handle = { type: 'string', format: 'k8s-short-name', default: 'Bad Name' };
    spec.properties!.count = { type: 'integer', format: 'int32', default: 5000000000 };
    spec.properties!.shade = { type: 'string', format: 'colour', default: 'x' };
    expect(messages(crd)).to.deep.equal([
      'spec.validation.openAPIV3Schema.properties[spec].properties[handle].default: Invalid value: "Bad Name":  in body must be of type k8s-short-name: "Bad Name"',
    ]);
  });

  it('ratchets rules the stored CRD already broke', () => {
    const old = stored();
    const spec = old.spec.versions[0].schema!.openAPIV3Schema!.properties!.spec;
    // A set of non-atomic objects and a default with an unknown field: both refused on create.
    spec.properties!.ports = { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'object', properties: { port: { type: 'integer' } } } };
    spec.properties!.image = { type: 'object', properties: { name: { type: 'string' } }, default: { name: 'x', tag: 'latest' } };
    expect(messages(old)).to.deep.equal([
      'spec.validation.openAPIV3Schema.properties[spec].properties[image].default: Invalid value: {"name":"x","tag":"latest"}: must not have unknown fields',
      'spec.validation.openAPIV3Schema.properties[spec].properties[ports].items.x-kubernetes-map-type: Invalid value: null: must be atomic as item of a list with x-kubernetes-list-type=set',
    ]);
    const next = structuredClone(old);
    next.spec.versions[0].schema!.openAPIV3Schema!.properties!.spec.properties!.cronSpec.description = 'changed';
    expect(validateCustomResourceDefinitionUpdate(next, old)).to.deep.equal([]);
    // Structural schemas are never ratcheted while unknown fields are pruned.
    next.spec.versions[0].schema!.openAPIV3Schema!.properties!.spec.properties!.cronSpec = { description: 'no type' } as JSONSchemaProps;
    expect(validateCustomResourceDefinitionUpdate(next, old).map(String)).to.deep.equal([
      'spec.validation.openAPIV3Schema.properties[spec].properties[cronSpec].type: Required value: must not be empty for specified object fields',
    ]);
  });

  // Modelled on TestValidateCustomResourceDefinitionUpdate ("invalid types updates allowed if old object has
  // invalid types", "allow nullable key in list of type map if pre-existing", "schema not required if old
  // object is missing schema", "webhookconfig: should pass on invalid ConversionReviewVersion with old invalid versions").
  it('ratchets invalid types, nullable list-map keys, missing schemas and unrecognised review versions', () => {
    const old = stored();
    const spec = old.spec.versions[0].schema!.openAPIV3Schema!.properties!.spec;
    spec.properties!.foo = { type: 'bogus' as 'string' };
    spec.properties!.ports = {
      type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'],
      items: { type: 'object', properties: { name: { type: 'string', nullable: true } } },
    };
    expect(messages(old).map((m) => m.replace(/:.*/, ''))).to.deep.equal([
      'spec.validation.openAPIV3Schema.properties[spec].properties[foo].type',
      'spec.validation.openAPIV3Schema.properties[spec].properties[ports].items.properties[name].default',
      'spec.validation.openAPIV3Schema.properties[spec].properties[ports].items.properties[name].nullable',
    ]);
    const next = structuredClone(old);
    (next.spec.versions[0].schema!.openAPIV3Schema!.properties!.spec.properties!.foo as JSONSchemaProps).type = 'bogus2' as 'string';
    expect(validateCustomResourceDefinitionUpdate(next, old)).to.deep.equal([]);

    const legacy = stored();
    legacy.spec.preserveUnknownFields = true;
    delete legacy.spec.versions[0].schema;
    const legacyNext = structuredClone(legacy);
    legacyNext.spec.versions[0].deprecated = true;
    expect(validateCustomResourceDefinitionUpdate(legacyNext, legacy)).to.deep.equal([]);
    expect(messages(legacyNext)).to.include('spec.versions[0].schema.openAPIV3Schema: Required value');

    const webhook = stored();
    webhook.spec.conversion = { strategy: 'Webhook', webhook: { clientConfig: { url: 'https://example.com' }, conversionReviewVersions: ['v9'] } };
    expect(validateCustomResourceDefinitionUpdate(structuredClone(webhook), webhook)).to.deep.equal([]);
    const valid = structuredClone(webhook);
    valid.spec.conversion!.webhook!.conversionReviewVersions = ['v1'];
    expect(validateCustomResourceDefinitionUpdate(structuredClone(webhook), valid).map(String)).to.deep.equal([
      'spec.conversion.conversionReviewVersions: Invalid value: ["v9"]: must include at least one of v1, v1beta1',
    ]);
  });

  it('allows preserveUnknownFields: true only if it was already set', () => {
    const old = stored();
    old.spec.preserveUnknownFields = true;
    const next = structuredClone(old);
    expect(validateCustomResourceDefinitionUpdate(next, old)).to.deep.equal([]);
    expect(validateCustomResourceDefinitionUpdate(next, stored()).map(String)).to.deep.equal([
      'spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
    ]);
  });

  it('keeps metadata.name immutable', () => {
    const next = crontab();
    next.metadata.name = 'crons.stable.example.com';
    expect(validateCustomResourceDefinitionUpdate(next, stored()).map(String)).to.include('metadata.name: Invalid value: "crons.stable.example.com": field is immutable');
  });
});
