/**
 * `@kubekit/core` is the vocabulary every other kubekit package speaks: the wire types of Kubernetes
 * objects, lists, watch events and `Status`; {@link KubeError} with its `reason` and HTTP code;
 * {@link FieldError} with the apiserver's exact text; object keys; apiVersion helpers; JSON that
 * keeps integers beyond 2^53 exact; resource quantities ({@link Quantity}, `resource.Quantity`'s parser,
 * canonical text and exact arithmetic); and development TLS certificates ({@link generateCertificates}).
 *
 * Start with {@link KubeError} and {@link FieldError}.
 *
 * @packageDocumentation
 */

export { FakeClock, realClock } from './clock.js';
export { generateCertificates } from './certificates.js';
export {
  FieldError,
  FieldPath,
  aggregateMessage,
  duplicate,
  forbidden,
  internalError,
  invalid,
  notFound,
  notSupported,
  omitValue,
  required,
  tooLong,
  tooLongCharacters,
  tooMany,
  tooShort,
  typeInvalid,
} from './fieldError.js';
export { noopLogger } from './logger.js';
export { InvalidError, KubeError, isStatusReason, statusReasonCodes } from './kubeError.js';
export { humanDuration } from './humanDuration.js';
export { isSpace, trimSpace } from './goStrings.js';
export { formatApiVersion, parseApiVersion, pathSegmentErrors, resourcePath } from './groupVersion.js';
export { makeObjectKey, objectKey, splitObjectKey } from './objectKey.js';
export { asError, errorMessage, isInstanceOf } from './thrown.js';
export { cloneJSON } from './cloneJSON.js';
export { formatRFC3339Seconds, goTimeQuote, parseRFC3339, rfc3339Layout } from './goTime.js';
export { parseGoDuration, type GoDurationResult } from './goDuration.js';
export {
  Quantity,
  canonicalQuantity,
  decimalOfWritten,
  parseQuantityParts,
  quantityDecimal,
  quantityError,
  quantityFormatError,
  quantityNumericError,
  quantitySuffixError,
  stripTrailingZeros,
} from './quantity.js';
export { Decimal } from './internal/decimal.js';
export { hasLongDigitRun, isStackOverflow, jsonTypeName, parseJSON, stringifyJSON } from './json.js';
export { compareGoStrings, goFormatFloat, goJSON, goJSONString, goQuote, goSprint, utf8ByteLength } from './internal/goFormat.js';

export type { Clock, TimerHandle } from './clock.js';
export type { CertificateOptions, GeneratedCertificates } from './certificates.js';
export type { LogFields, Logger } from './logger.js';
export type { FieldErrorType, FieldPathLike } from './fieldError.js';
export type { GroupKind, GroupResource, KubeErrorOptions, StatusReason } from './kubeError.js';
export type { GroupVersion, GroupVersionKind, GroupVersionResource } from './groupVersion.js';
export type { ObjectKey } from './objectKey.js';
export type { QuantityDecimal, QuantityValue } from './quantity.js';
export type { GoTime, GoTimeError } from './goTime.js';
export type { ParseJSONOptions } from './json.js';
export type {
  ApiVersion,
  KubeList,
  KubeObject,
  ListMeta,
  ManagedFieldsEntry,
  ObjectMeta,
  OwnerReference,
  Status,
  StatusCause,
  StatusDetails,
  WatchEvent,
  WatchEventType,
} from './types.js';
