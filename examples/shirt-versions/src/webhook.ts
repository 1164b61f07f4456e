/**
 * The Shirt webhook server: conversion at `/convert` (the hub-and-spoke conversion of `shirt.ts`) and a
 * validating webhook at `/validate` that refuses XXL shirts (the shop does not sell them). With
 * `matchPolicy: Equivalent` the apiserver sends v1beta1 requests converted to v1, so the handler sees
 * only v1 shirts.
 */
import { allow, deny, startWebhookServer, type AdmissionHandler, type RunningWebhookServer, type WebhookServerOptions } from '@kubekit/webhook';
import { shirtConversion, type ShirtV1 } from './shirt.js';

/** Refuses XXL shirts; warns about shirts without a colour. */
export const validateShirt: AdmissionHandler<ShirtV1> = (request) => {
  const spec = request.object?.spec;
  if (spec?.size === 'XXL') return deny(`size XXL is not sold (shirt ${request.name ?? ''})`, { code: 422, reason: 'Invalid' });
  return allow(spec?.color === undefined ? ['a shirt without a colour matches no colour selection'] : []);
};

/** Starts the Shirt webhook server on 127.0.0.1 (a generated certificate unless `tls` is given). */
export function startShirtWebhook(options: WebhookServerOptions = {}): Promise<RunningWebhookServer> {
  return startWebhookServer({ conversion: shirtConversion, validate: validateShirt, ...options });
}
