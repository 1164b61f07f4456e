/**
 * The wire types of `ConversionReview` (apiextensions.k8s.io/v1) and `AdmissionReview`
 * (admission.k8s.io/v1), as the apiserver sends and expects them.
 *
 * @see https://kubernetes.io/docs/reference/access-authn-authz/extensible-admission-controllers/#request
 * @see https://kubernetes.io/docs/tasks/extend-kubernetes/custom-resources/custom-resource-definition-versioning/#webhook-request-and-response
 */
import type { KubeObject, Status } from '@kubekit/core';

/** `request` of a ConversionReview. */
export interface ConversionRequest {
  /** Echoed in the response; the apiserver rejects a response with another uid. */
  uid: string;
  /** `group/version` every object is to be converted to. */
  desiredAPIVersion: string;
  objects: KubeObject[];
}

/** `response` of a ConversionReview. */
export interface ConversionResponse {
  uid: string;
  /** The objects in the order of the request's, each of `desiredAPIVersion`; empty on failure. */
  convertedObjects: KubeObject[];
  /** `status: 'Success'`, or `'Failure'` with a `message` the apiserver shows. */
  result: Status;
}

/** A ConversionReview, apiextensions.k8s.io/v1. */
export interface ConversionReview {
  apiVersion: 'apiextensions.k8s.io/v1' | 'apiextensions.k8s.io/v1beta1';
  kind: 'ConversionReview';
  request?: ConversionRequest;
  response?: ConversionResponse;
}

/** The operation an admission request is for. */
export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

/** The user a request is made by (authentication.k8s.io/v1 UserInfo). */
export interface UserInfo {
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

/** `request` of an AdmissionReview, with `object`/`oldObject` typed as `TObject`. */
export interface AdmissionRequest<TObject = KubeObject> {
  uid: string;
  kind: { group: string; version: string; kind: string };
  resource: { group: string; version: string; resource: string };
  subResource?: string;
  requestKind?: { group: string; version: string; kind: string };
  requestResource?: { group: string; version: string; resource: string };
  requestSubResource?: string;
  name?: string;
  namespace?: string;
  operation: AdmissionOperation;
  userInfo: UserInfo;
  /** The new object (CREATE, UPDATE); absent for DELETE. */
  object?: TObject;
  /** The existing object (UPDATE, DELETE). */
  oldObject?: TObject;
  /** Whether the request is a dry run: a handler must then have no side effects. */
  dryRun?: boolean;
  /** The operation's options (CreateOptions, UpdateOptions, DeleteOptions). */
  options?: Record<string, unknown>;
}

/** `response` of an AdmissionReview. */
export interface AdmissionResponse {
  uid: string;
  allowed: boolean;
  /** Why a request was denied: `code`, `reason`, `message` (the apiserver shows the message). */
  status?: Status;
  /** base64 of an RFC 6902 JSON patch (mutating webhooks). */
  patch?: string;
  patchType?: 'JSONPatch';
  auditAnnotations?: Record<string, string>;
  /** Shown to the client as `Warning` headers. */
  warnings?: string[];
}

/** An AdmissionReview, admission.k8s.io/v1. */
export interface AdmissionReview<TObject = KubeObject> {
  apiVersion: 'admission.k8s.io/v1' | 'admission.k8s.io/v1beta1';
  kind: 'AdmissionReview';
  request?: AdmissionRequest<TObject>;
  response?: AdmissionResponse;
}
