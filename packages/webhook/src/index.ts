/**
 * `@kubekit/webhook`: conversion and admission webhooks in TypeScript. An HTTPS server
 * ({@link startWebhookServer}, or {@link WebhookServer} as a `Manager` runnable) answers
 * `ConversionReview`s at `/convert` with the apiserver's rules and `AdmissionReview`s at `/validate`
 * and `/mutate` with typed handlers, mutations becoming RFC 6902 patches; development certificates,
 * reloaded when their files change; Prometheus metrics; and the `ValidatingWebhookConfiguration`/
 * `MutatingWebhookConfiguration` and CRD `conversion` objects that point the apiserver at it.
 *
 * Start with {@link startWebhookServer}.
 *
 * @packageDocumentation
 */

export { allow, admissionRequestOf, deny, reviewAdmission } from './admissionReview.js';
export { certificateFileNames, generateCertificates, readCertificates, writeCertificates } from './certificates.js';
export { conversionRequestOf, reviewConversion } from './conversionReview.js';
export { createJSONPatch, escapePointerToken, jsonEqual } from './jsonPatch.js';
export { webhookConfigurations } from './webhookConfiguration.js';
export { WebhookMetrics } from './webhookMetrics.js';
export { WebhookServer, startWebhookServer } from './webhookServer.js';

export type { AdmissionHandler, AdmissionResult, ReviewAdmissionOptions } from './admissionReview.js';
export type { CertificateFiles, CertificateOptions, WebhookCertificates } from './certificates.js';
export type { ConvertFunc, Converter } from './conversionReview.js';
export type { JSONPatchOperation } from './jsonPatch.js';
export type {
  AdmissionOperation,
  AdmissionRequest,
  AdmissionResponse,
  AdmissionReview,
  ConversionRequest,
  ConversionResponse,
  ConversionReview,
  UserInfo,
} from './reviewTypes.js';
export type {
  LabelSelectorSpec,
  MutatingWebhook,
  MutatingWebhookConfiguration,
  RuleWithOperations,
  ValidatingWebhook,
  ValidatingWebhookConfiguration,
  WebhookClientConfig,
  WebhookConfigurationOptions,
} from './webhookConfiguration.js';
export type { ReviewResult } from './webhookMetrics.js';
export type { AnyAdmissionHandler, RunningWebhookServer, WebhookRoute, WebhookServerOptions, WebhookTLSOptions } from './webhookServer.js';
