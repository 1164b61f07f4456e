/**
 * `ValidatingWebhookConfiguration` and `MutatingWebhookConfiguration` (admissionregistration.k8s.io/v1)
 * objects that point the apiserver at a webhook server, with the apiserver's defaults spelled out.
 *
 * @see https://kubernetes.io/docs/reference/access-authn-authz/extensible-admission-controllers/#configure-admission-webhooks-on-the-fly
 */
import type { ObjectMeta } from '@kubekit/core';

/** Where the apiserver reaches a webhook: a `url`, or a `service` in the cluster, and the CA to trust. */
export interface WebhookClientConfig {
  url?: string;
  service?: { namespace: string; name: string; path?: string; port?: number };
  /** base64 PEM of the CA that signed the serving certificate. */
  caBundle?: string;
}

/** Which requests a webhook sees. */
export interface RuleWithOperations {
  operations: ('CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT' | '*')[];
  apiGroups: string[];
  apiVersions: string[];
  resources: string[];
  /** @defaultValue `'*'` */
  scope?: 'Cluster' | 'Namespaced' | '*';
}

/** A label selector as the API writes it. */
export interface LabelSelectorSpec {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }[];
}

/** One webhook of a ValidatingWebhookConfiguration. */
export interface ValidatingWebhook {
  /** A fully qualified name, such as `validate.shirts.stable.example.com`. */
  name: string;
  clientConfig: WebhookClientConfig;
  rules?: RuleWithOperations[];
  /** @defaultValue `'Fail'` */
  failurePolicy?: 'Ignore' | 'Fail';
  /** @defaultValue `'Equivalent'` */
  matchPolicy?: 'Exact' | 'Equivalent';
  namespaceSelector?: LabelSelectorSpec;
  objectSelector?: LabelSelectorSpec;
  sideEffects: 'None' | 'NoneOnDryRun' | 'Some' | 'Unknown';
  /** 1 to 30. @defaultValue 10 */
  timeoutSeconds?: number;
  admissionReviewVersions: string[];
}

/** One webhook of a MutatingWebhookConfiguration. */
export interface MutatingWebhook extends ValidatingWebhook {
  /** @defaultValue `'Never'` */
  reinvocationPolicy?: 'Never' | 'IfNeeded';
}

/** admissionregistration.k8s.io/v1 ValidatingWebhookConfiguration. */
export interface ValidatingWebhookConfiguration {
  apiVersion: 'admissionregistration.k8s.io/v1';
  kind: 'ValidatingWebhookConfiguration';
  metadata: ObjectMeta;
  webhooks?: ValidatingWebhook[];
}

/** admissionregistration.k8s.io/v1 MutatingWebhookConfiguration. */
export interface MutatingWebhookConfiguration {
  apiVersion: 'admissionregistration.k8s.io/v1';
  kind: 'MutatingWebhookConfiguration';
  metadata: ObjectMeta;
  webhooks?: MutatingWebhook[];
}

/** Options of {@link webhookConfigurations}. */
export interface WebhookConfigurationOptions {
  /** `metadata.name` of the configurations, a DNS subdomain; webhooks are named `validate.<name>` and `mutate.<name>`. */
  name: string;
  /** The server: a base `url` (`https://127.0.0.1:9443`) or a `service`, and the `caBundle`; paths are appended. */
  clientConfig: WebhookClientConfig;
  rules: RuleWithOperations[];
  /** Emit a ValidatingWebhookConfiguration for this path. @defaultValue `'/validate'`; `false` for none */
  validatePath?: string | false;
  /** Emit a MutatingWebhookConfiguration for this path. @defaultValue `'/mutate'`; `false` for none */
  mutatePath?: string | false;
  /** @defaultValue `'Fail'` */
  failurePolicy?: 'Ignore' | 'Fail';
  /** @defaultValue `'None'` */
  sideEffects?: 'None' | 'NoneOnDryRun';
  /** @defaultValue 10 */
  timeoutSeconds?: number;
  /** @defaultValue `'Equivalent'` */
  matchPolicy?: 'Exact' | 'Equivalent';
  /** @defaultValue `'Never'` */
  reinvocationPolicy?: 'Never' | 'IfNeeded';
  namespaceSelector?: LabelSelectorSpec;
  objectSelector?: LabelSelectorSpec;
}

function withPath(config: WebhookClientConfig, path: string): WebhookClientConfig {
  const out: WebhookClientConfig = {};
  if (config.url !== undefined) out.url = `${config.url.replace(/\/+$/, '')}${path}`;
  if (config.service !== undefined) out.service = { ...config.service, path };
  if (config.caBundle !== undefined) out.caBundle = config.caBundle;
  return out;
}

/**
 * The webhook configurations for a server with `/validate` and `/mutate` paths, with every default
 * spelled out (`admissionReviewVersions: ['v1']`, `sideEffects: None`, `failurePolicy: Fail`,
 * `matchPolicy: Equivalent`, `timeoutSeconds: 10`, `reinvocationPolicy: Never`).
 *
 * @throws TypeError when `clientConfig` has neither or both of `url` and `service`, or `timeoutSeconds` is outside 1–30
 */
export function webhookConfigurations(options: WebhookConfigurationOptions): (ValidatingWebhookConfiguration | MutatingWebhookConfiguration)[] {
  const { clientConfig } = options;
  if ((clientConfig.url === undefined) === (clientConfig.service === undefined)) {
    throw new TypeError('webhookConfigurations: clientConfig needs exactly one of url and service');
  }
  const timeoutSeconds = options.timeoutSeconds ?? 10;
  if (!Number.isInteger(timeoutSeconds) || timeoutSeconds < 1 || timeoutSeconds > 30) {
    throw new TypeError(`webhookConfigurations: timeoutSeconds must be between 1 and 30 seconds, got ${timeoutSeconds}`);
  }
  const base = (prefix: string, path: string): ValidatingWebhook => {
    const webhook: ValidatingWebhook = {
      name: `${prefix}.${options.name}`,
      clientConfig: withPath(clientConfig, path),
      rules: options.rules.map((r) => ({ ...r, scope: r.scope ?? '*' })),
      failurePolicy: options.failurePolicy ?? 'Fail',
      matchPolicy: options.matchPolicy ?? 'Equivalent',
      sideEffects: options.sideEffects ?? 'None',
      timeoutSeconds,
      admissionReviewVersions: ['v1'],
    };
    if (options.namespaceSelector !== undefined) webhook.namespaceSelector = options.namespaceSelector;
    if (options.objectSelector !== undefined) webhook.objectSelector = options.objectSelector;
    return webhook;
  };
  const out: (ValidatingWebhookConfiguration | MutatingWebhookConfiguration)[] = [];
  const validatePath = options.validatePath ?? '/validate';
  const mutatePath = options.mutatePath ?? '/mutate';
  if (mutatePath !== false) {
    out.push({
      apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name: options.name },
      webhooks: [{ ...base('mutate', mutatePath), reinvocationPolicy: options.reinvocationPolicy ?? 'Never' }],
    });
  }
  if (validatePath !== false) {
    out.push({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: options.name }, webhooks: [base('validate', validatePath)] });
  }
  return out;
}
