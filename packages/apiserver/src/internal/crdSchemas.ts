/**
 * The OpenAPI v3 component schemas of `apiextensions.k8s.io/v1` CustomResourceDefinition, typed field by
 * field as the apiserver publishes them (abridged descriptions), under the apiserver's component names.
 *
 * kubectl computes the strategic merge patch of `kubectl apply` for a kind whose PATCH accepts
 * `application/strategic-merge-patch+json` from these schemas: every field of an object that differs
 * between the last-applied, the new and the live object must be found here, or kubectl prints
 * `warning: error calculating patch from openapi v3 spec: unable to find api field "spec"` and falls back.
 */

const p = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1';
const meta = 'io.k8s.apimachinery.pkg.apis.meta.v1';

/** The component name prefix of apiextensions.k8s.io/v1 (`io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1`). */
export const apiextensionsV1Prefix = p;

type Schema = Record<string, unknown>;

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const field = (name: string, description: string): Schema => ({ allOf: [ref(name)], description });
const str = (description: string): Schema => ({ type: 'string', description });
const bool = (description: string): Schema => ({ type: 'boolean', description });
const int = (description: string, format = 'int64'): Schema => ({ type: 'integer', format, description });
const strings = (description: string, listType = 'atomic'): Schema => ({ type: 'array', items: { type: 'string', default: '' }, description, 'x-kubernetes-list-type': listType });
const atomicList = (item: string, description: string): Schema => ({ type: 'array', items: { allOf: [ref(`${p}.${item}`)], default: {} }, description, 'x-kubernetes-list-type': 'atomic' });
const schemaMap = (description: string): Schema => ({ type: 'object', additionalProperties: { allOf: [ref(`${p}.JSONSchemaProps`)], default: {} }, description });
const anyJSON = (description: string): Schema => ({ description, 'x-kubernetes-preserve-unknown-fields': true });

/** The component schemas, keyed by component name. */
export function customResourceDefinitionSchemas(): Record<string, Schema> {
  return {
    [`${p}.CustomResourceDefinition`]: {
      description: 'CustomResourceDefinition represents a resource that should be exposed on the API server.',
      type: 'object',
      required: ['spec'],
      properties: {
        apiVersion: str('APIVersion defines the versioned schema of this representation of an object.'),
        kind: str('Kind is a string value representing the REST resource this object represents.'),
        metadata: field(`${meta}.ObjectMeta`, "Standard object's metadata."),
        spec: field(`${p}.CustomResourceDefinitionSpec`, 'spec describes how the user wants the resources to appear'),
        status: field(`${p}.CustomResourceDefinitionStatus`, 'status indicates the actual state of the CustomResourceDefinition'),
      },
      'x-kubernetes-group-version-kind': [{ group: 'apiextensions.k8s.io', kind: 'CustomResourceDefinition', version: 'v1' }],
    },
    [`${p}.CustomResourceDefinitionList`]: {
      description: 'CustomResourceDefinitionList is a list of CustomResourceDefinition objects.',
      type: 'object',
      required: ['items'],
      properties: {
        apiVersion: str('APIVersion defines the versioned schema of this representation of an object.'),
        items: { type: 'array', items: { allOf: [ref(`${p}.CustomResourceDefinition`)], default: {} }, description: 'items list individual CustomResourceDefinition objects' },
        kind: str('Kind is a string value representing the REST resource this object represents.'),
        metadata: field(`${meta}.ListMeta`, "Standard object's metadata."),
      },
      'x-kubernetes-group-version-kind': [{ group: 'apiextensions.k8s.io', kind: 'CustomResourceDefinitionList', version: 'v1' }],
    },
    [`${p}.CustomResourceDefinitionSpec`]: {
      description: 'CustomResourceDefinitionSpec describes how a user wants their resource to appear',
      type: 'object',
      required: ['group', 'names', 'scope', 'versions'],
      properties: {
        conversion: field(`${p}.CustomResourceConversion`, 'conversion defines conversion settings for the CRD.'),
        group: str('group is the API group of the defined custom resource.'),
        names: field(`${p}.CustomResourceDefinitionNames`, 'names specify the resource and kind names for the custom resource.'),
        preserveUnknownFields: bool('preserveUnknownFields indicates that object fields which are not specified in the OpenAPI schema should be preserved when persisting to storage.'),
        scope: str('scope indicates whether the defined custom resource is cluster- or namespace-scoped.'),
        versions: atomicList('CustomResourceDefinitionVersion', 'versions is the list of all API versions of the defined custom resource.'),
      },
    },
    [`${p}.CustomResourceDefinitionNames`]: {
      description: 'CustomResourceDefinitionNames indicates the names to serve this CustomResourceDefinition',
      type: 'object',
      required: ['plural', 'kind'],
      properties: {
        categories: strings('categories is a list of grouped resources this custom resource belongs to (e.g. \'all\').'),
        kind: str('kind is the serialized kind of the resource.'),
        listKind: str('listKind is the serialized kind of the list for this resource.'),
        plural: str('plural is the plural name of the resource to serve.'),
        shortNames: strings('shortNames are short names for the resource, exposed in API discovery documents.'),
        singular: str('singular is the singular name of the resource.'),
      },
    },
    [`${p}.CustomResourceDefinitionVersion`]: {
      description: 'CustomResourceDefinitionVersion describes a version for CRD.',
      type: 'object',
      required: ['name', 'served', 'storage'],
      properties: {
        additionalPrinterColumns: atomicList('CustomResourceColumnDefinition', 'additionalPrinterColumns specifies additional columns returned in Table output.'),
        deprecated: bool('deprecated indicates this version of the custom resource API is deprecated.'),
        deprecationWarning: str('deprecationWarning overrides the default warning returned to API clients.'),
        name: str('name is the version name, e.g. “v1”, “v2beta1”, etc.'),
        schema: field(`${p}.CustomResourceValidation`, 'schema describes the schema used for validation, pruning, and defaulting of this version of the custom resource.'),
        selectableFields: atomicList('SelectableField', 'selectableFields specifies paths to fields that may be used as field selectors.'),
        served: bool('served is a flag enabling/disabling this version from being served via REST APIs'),
        storage: bool('storage indicates this version should be used when persisting custom resources to storage.'),
        subresources: field(`${p}.CustomResourceSubresources`, 'subresources specify what subresources this version of the defined custom resource have.'),
      },
    },
    [`${p}.CustomResourceColumnDefinition`]: {
      description: 'CustomResourceColumnDefinition specifies a column for server side printing.',
      type: 'object',
      required: ['name', 'type', 'jsonPath'],
      properties: {
        description: str('description is a human readable description of this column.'),
        format: str('format is an optional OpenAPI type definition for this column.'),
        jsonPath: str('jsonPath is a simple JSON path (i.e. with array notation) which is evaluated against each custom resource to produce the value for this column.'),
        name: str('name is a human readable name for the column.'),
        priority: int('priority is an integer defining the relative importance of this column compared to others.', 'int32'),
        type: str('type is an OpenAPI type definition for this column.'),
      },
    },
    [`${p}.SelectableField`]: {
      description: 'SelectableField specifies the JSON path of a field that may be used with field selectors.',
      type: 'object',
      required: ['jsonPath'],
      properties: { jsonPath: str('jsonPath is a simple JSON path which is evaluated against each custom resource to produce a field selector value.') },
    },
    [`${p}.CustomResourceValidation`]: {
      description: 'CustomResourceValidation is a list of validation methods for CustomResources.',
      type: 'object',
      properties: { openAPIV3Schema: field(`${p}.JSONSchemaProps`, 'openAPIV3Schema is the OpenAPI v3 schema to use for validation and pruning.') },
    },
    [`${p}.CustomResourceSubresources`]: {
      description: 'CustomResourceSubresources defines the status and scale subresources for CustomResources.',
      type: 'object',
      properties: {
        scale: field(`${p}.CustomResourceSubresourceScale`, 'scale indicates the custom resource should serve a `/scale` subresource that returns an `autoscaling/v1` Scale object.'),
        status: { type: 'object', description: 'status indicates the custom resource should serve a `/status` subresource.' },
      },
    },
    [`${p}.CustomResourceSubresourceScale`]: {
      description: 'CustomResourceSubresourceScale defines how to serve the scale subresource for CustomResources.',
      type: 'object',
      required: ['specReplicasPath', 'statusReplicasPath'],
      properties: {
        labelSelectorPath: str('labelSelectorPath defines the JSON path inside of a custom resource that corresponds to Scale `status.selector`.'),
        specReplicasPath: str('specReplicasPath defines the JSON path inside of a custom resource that corresponds to Scale `spec.replicas`.'),
        statusReplicasPath: str('statusReplicasPath defines the JSON path inside of a custom resource that corresponds to Scale `status.replicas`.'),
      },
    },
    [`${p}.CustomResourceConversion`]: {
      description: 'CustomResourceConversion describes how to convert different versions of a CR.',
      type: 'object',
      required: ['strategy'],
      properties: {
        strategy: str('strategy specifies how custom resources are converted between versions. Allowed values are: None and Webhook.'),
        webhook: field(`${p}.WebhookConversion`, 'webhook describes how to call the conversion webhook.'),
      },
    },
    [`${p}.WebhookConversion`]: {
      description: 'WebhookConversion describes how to call a conversion webhook',
      type: 'object',
      required: ['conversionReviewVersions'],
      properties: {
        clientConfig: field(`${p}.WebhookClientConfig`, 'clientConfig is the instructions for how to call the webhook if strategy is `Webhook`.'),
        conversionReviewVersions: strings('conversionReviewVersions is an ordered list of preferred `ConversionReview` versions the Webhook expects.'),
      },
    },
    [`${p}.WebhookClientConfig`]: {
      description: 'WebhookClientConfig contains the information to make a TLS connection with the webhook.',
      type: 'object',
      properties: {
        caBundle: { type: 'string', format: 'byte', description: 'caBundle is a PEM encoded CA bundle which will be used to validate the webhook\'s server certificate.' },
        service: field(`${p}.ServiceReference`, 'service is a reference to the service for this webhook.'),
        url: str('url gives the location of the webhook, in standard URL form (`scheme://host:port/path`).'),
      },
    },
    [`${p}.ServiceReference`]: {
      description: 'ServiceReference holds a reference to Service.legacy.k8s.io',
      type: 'object',
      required: ['namespace', 'name'],
      properties: {
        name: str('name is the name of the service.'),
        namespace: str('namespace is the namespace of the service.'),
        path: str('path is an optional URL path at which the webhook will be contacted.'),
        port: int('port is an optional service port at which the webhook will be contacted.', 'int32'),
      },
    },
    [`${p}.CustomResourceDefinitionStatus`]: {
      description: 'CustomResourceDefinitionStatus indicates the state of the CustomResourceDefinition',
      type: 'object',
      properties: {
        acceptedNames: field(`${p}.CustomResourceDefinitionNames`, 'acceptedNames are the names that are actually being used to serve discovery.'),
        conditions: {
          type: 'array',
          items: { allOf: [ref(`${p}.CustomResourceDefinitionCondition`)], default: {} },
          description: 'conditions indicate state for particular aspects of a CustomResourceDefinition',
          'x-kubernetes-list-map-keys': ['type'],
          'x-kubernetes-list-type': 'map',
        },
        storedVersions: strings('storedVersions lists all versions of CustomResources that were ever persisted.'),
      },
    },
    [`${p}.CustomResourceDefinitionCondition`]: {
      description: 'CustomResourceDefinitionCondition contains details for the current condition of this pod.',
      type: 'object',
      required: ['type', 'status'],
      properties: {
        lastTransitionTime: { type: 'string', format: 'date-time', description: 'lastTransitionTime last time the condition transitioned from one status to another.' },
        message: str('message is a human-readable message indicating details about last transition.'),
        reason: str('reason is a unique, one-word, CamelCase reason for the condition\'s last transition.'),
        status: str('status is the status of the condition. Can be True, False, Unknown.'),
        type: str('type is the type of the condition. Types include Established, NamesAccepted and Terminating.'),
      },
    },
    [`${p}.ExternalDocumentation`]: {
      description: 'ExternalDocumentation allows referencing an external resource for extended documentation.',
      type: 'object',
      properties: { description: str('A short description of the target documentation.'), url: str('The URL of the target documentation.') },
    },
    [`${p}.ValidationRule`]: {
      description: 'ValidationRule describes a validation rule written in the CEL expression language.',
      type: 'object',
      required: ['rule'],
      properties: {
        fieldPath: str('fieldPath represents the field path returned when the validation fails.'),
        message: str('Message represents the message displayed when validation fails.'),
        messageExpression: str('MessageExpression declares a CEL expression that evaluates to the validation failure message that is returned when this rule fails.'),
        optionalOldSelf: bool('optionalOldSelf is used to opt a transition rule into evaluation even when the object is first created.'),
        reason: str('reason provides a machine-readable validation failure reason that is returned to the caller when a request fails this validation rule.'),
        rule: str('Rule represents the expression which will be evaluated by CEL.'),
      },
    },
    [`${p}.JSONSchemaProps`]: {
      description: 'JSONSchemaProps is a JSON-Schema following Specification Draft 4 (http://json-schema.org/).',
      type: 'object',
      properties: {
        $ref: { type: 'string' },
        $schema: { type: 'string' },
        additionalItems: anyJSON('JSONSchemaPropsOrBool represents JSONSchemaProps or a boolean value.'),
        additionalProperties: anyJSON('JSONSchemaPropsOrBool represents JSONSchemaProps or a boolean value.'),
        allOf: atomicList('JSONSchemaProps', ''),
        anyOf: atomicList('JSONSchemaProps', ''),
        default: anyJSON('default is a default value for undefined object fields.'),
        definitions: schemaMap(''),
        dependencies: { type: 'object', additionalProperties: anyJSON('JSONSchemaPropsOrStringArray represents a JSONSchemaProps or a string array.') },
        description: { type: 'string' },
        enum: { type: 'array', items: anyJSON('JSON represents any valid JSON value.'), 'x-kubernetes-list-type': 'atomic' },
        example: anyJSON('JSON represents any valid JSON value.'),
        exclusiveMaximum: { type: 'boolean' },
        exclusiveMinimum: { type: 'boolean' },
        externalDocs: ref(`${p}.ExternalDocumentation`),
        format: str('format is an OpenAPI v3 format string.'),
        id: { type: 'string' },
        // The object form of items (JSONSchemaPropsOrArray); the rare array form is a list, which a
        // strategic merge patch replaces as a whole.
        items: ref(`${p}.JSONSchemaProps`),
        maxItems: { type: 'integer', format: 'int64' },
        maxLength: { type: 'integer', format: 'int64' },
        maxProperties: { type: 'integer', format: 'int64' },
        maximum: { type: 'number', format: 'double' },
        minItems: { type: 'integer', format: 'int64' },
        minLength: { type: 'integer', format: 'int64' },
        minProperties: { type: 'integer', format: 'int64' },
        minimum: { type: 'number', format: 'double' },
        multipleOf: { type: 'number', format: 'double' },
        not: ref(`${p}.JSONSchemaProps`),
        nullable: { type: 'boolean' },
        oneOf: atomicList('JSONSchemaProps', ''),
        pattern: { type: 'string' },
        patternProperties: schemaMap(''),
        properties: schemaMap(''),
        required: strings(''),
        title: { type: 'string' },
        type: { type: 'string' },
        uniqueItems: { type: 'boolean' },
        'x-kubernetes-embedded-resource': bool('x-kubernetes-embedded-resource defines that the value is an embedded Kubernetes runtime.Object.'),
        'x-kubernetes-int-or-string': bool('x-kubernetes-int-or-string specifies that this value is either an integer or a string.'),
        'x-kubernetes-list-map-keys': strings('x-kubernetes-list-map-keys annotates an array with the x-kubernetes-list-type `map` by specifying the keys used as the index of the map.'),
        'x-kubernetes-list-type': str('x-kubernetes-list-type annotates an array to further describe its topology.'),
        'x-kubernetes-map-type': str('x-kubernetes-map-type annotates an object to further describe its topology.'),
        'x-kubernetes-preserve-unknown-fields': bool('x-kubernetes-preserve-unknown-fields stops the API server decoding step from pruning fields which are not specified in the validation schema.'),
        'x-kubernetes-validations': {
          type: 'array',
          items: { allOf: [ref(`${p}.ValidationRule`)], default: {} },
          description: 'x-kubernetes-validations describes a list of validation rules written in the CEL expression language.',
          'x-kubernetes-list-map-keys': ['rule'],
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-patch-merge-key': 'rule',
          'x-kubernetes-patch-strategy': 'merge',
        },
      },
    },
  };
}
