import { aggregateMessage, type FieldError } from './fieldError.js';
import type { Status, StatusCause, StatusDetails } from './types.js';
import { goQuote } from './internal/goFormat.js';

/**
 * The `reason` values of `metav1.StatusReason`, each with the HTTP code the apiserver answers with.
 * This table is the only place where reasons map to codes.
 */
export const statusReasonCodes = {
  BadRequest: 400,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  MethodNotAllowed: 405,
  NotAcceptable: 406,
  AlreadyExists: 409,
  Conflict: 409,
  Gone: 410,
  Expired: 410,
  RequestEntityTooLarge: 413,
  UnsupportedMediaType: 415,
  Invalid: 422,
  TooManyRequests: 429,
  InternalError: 500,
  ServerTimeout: 500,
  ServiceUnavailable: 503,
  Timeout: 504,
  Unknown: 500,
} as const satisfies Record<string, number>;

/** A Kubernetes `Status` reason. */
export type StatusReason = keyof typeof statusReasonCodes;

const reasonByCode: ReadonlyMap<number, StatusReason> = new Map<number, StatusReason>([
  [400, 'BadRequest'], [401, 'Unauthorized'], [403, 'Forbidden'], [404, 'NotFound'],
  [405, 'MethodNotAllowed'], [406, 'NotAcceptable'], [409, 'Conflict'], [410, 'Gone'],
  [413, 'RequestEntityTooLarge'], [415, 'UnsupportedMediaType'], [422, 'Invalid'],
  [429, 'TooManyRequests'], [500, 'InternalError'], [503, 'ServiceUnavailable'], [504, 'Timeout'],
]);

/** Whether `reason` is one of the reasons kubekit knows. */
export function isStatusReason(reason: unknown): reason is StatusReason {
  return typeof reason === 'string' && Object.hasOwn(statusReasonCodes, reason);
}

/** Options of a {@link KubeError}. */
export interface KubeErrorOptions {
  /** The HTTP code. @defaultValue the code of `reason` in {@link statusReasonCodes} */
  code?: number;
  /** `Status.details` (name, group, kind, causes, retryAfterSeconds). @defaultValue none */
  details?: StatusDetails;
  /** The underlying error. @defaultValue none */
  cause?: unknown;
}

/**
 * An error with a Kubernetes `reason` and HTTP `code`, convertible to and from a `Status` object.
 * Callers branch on `reason` (or on a subclass with `instanceof`), never on the message.
 *
 * @example
 * ```ts
 * const err = KubeError.notFound({ group: 'stable.example.com', resource: 'shirts' }, 'example1');
 * err.code;    // 404
 * err.message; // 'shirts.stable.example.com "example1" not found'
 * ```
 */
export class KubeError extends Error {
  override name = 'KubeError';
  readonly reason: StatusReason;
  readonly code: number;
  readonly details: StatusDetails | undefined;

  constructor(reason: StatusReason, message: string, options: KubeErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.reason = reason;
    this.code = options.code ?? statusReasonCodes[reason];
    this.details = options.details;
  }

  /** The `Status.details.causes`, or an empty list. */
  get causes(): StatusCause[] {
    return this.details?.causes ?? [];
  }

  /** The error as the apiserver's `Status` body. */
  toStatus(): Status {
    const status: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: this.message };
    // StatusReasonUnknown is "" upstream, and `reason` is omitempty: a Status of an unknown reason has none.
    if (this.reason !== 'Unknown') status.reason = this.reason;
    if (this.details !== undefined) {
      // StatusDetails' fields are all `omitempty` upstream: an empty name, group or kind is left out.
      const d: StatusDetails = { ...this.details };
      for (const k of ['name', 'group', 'kind', 'uid'] as const) if (d[k] === '') delete d[k];
      if (d.causes !== undefined && d.causes.length === 0) delete d.causes;
      status.details = d;
    }
    status.code = this.code;
    return status;
  }

  /**
   * The error a `Status` body (and the HTTP code it came with) stands for. A body that is not a
   * `Status` becomes an error with the reason of the HTTP code.
   */
  static fromStatus(status: unknown, httpCode?: number): KubeError {
    const s = (typeof status === 'object' && status !== null ? status : {}) as Status;
    const code = typeof s.code === 'number' && s.code > 0 ? s.code : httpCode ?? 500;
    const reason: StatusReason = isStatusReason(s.reason) ? s.reason : reasonByCode.get(code) ?? 'Unknown';
    const message = typeof s.message === 'string' && s.message !== '' ? s.message : `the server responded with the status code ${code} but did not return more information`;
    return new KubeError(reason, message, { code, details: s.details });
  }

  /** `NotFound`: `<resource>.<group> "<name>" not found`. */
  static notFound(resource: GroupResource, name: string): KubeError {
    return new KubeError('NotFound', `${groupResourceText(resource)} ${goQuote(name)} not found`, {
      details: { name, group: resource.group, kind: resource.resource },
    });
  }

  /** `AlreadyExists`: `<resource>.<group> "<name>" already exists`. */
  static alreadyExists(resource: GroupResource, name: string): KubeError {
    return new KubeError('AlreadyExists', `${groupResourceText(resource)} ${goQuote(name)} already exists`, {
      details: { name, group: resource.group, kind: resource.resource },
    });
  }

  /** `Conflict`: `Operation cannot be fulfilled on <resource>.<group> "<name>": <why>`. */
  static conflict(resource: GroupResource, name: string, why: string): KubeError {
    return new KubeError('Conflict', `Operation cannot be fulfilled on ${groupResourceText(resource)} ${goQuote(name)}: ${why}`, {
      details: { name, group: resource.group, kind: resource.resource },
    });
  }

  /**
   * `Invalid` (422): `<Kind>.<group> "<name>" is invalid: <errors>`, with one cause per field error.
   */
  static invalid(kind: GroupKind, name: string, errors: readonly FieldError[]): KubeError {
    const causes: StatusCause[] = errors.map((e) => ({ reason: e.type, message: e.body(), field: e.field }));
    const qualified = kind.group === '' ? kind.kind : `${kind.kind}.${kind.group}`;
    const message = `${qualified} ${goQuote(name)} is invalid: ${aggregateMessage(errors)}`;
    return new InvalidError(message, errors, { details: { name, group: kind.group, kind: kind.kind, causes } });
  }

  /** `BadRequest` (400) with the given message. */
  static badRequest(message: string): KubeError {
    return new KubeError('BadRequest', message);
  }
}

/** A `KubeError` with reason `Invalid` that also keeps the `FieldError`s it was made from. */
export class InvalidError extends KubeError {
  override name = 'InvalidError';
  readonly fieldErrors: readonly FieldError[];

  constructor(message: string, fieldErrors: readonly FieldError[], options: KubeErrorOptions = {}) {
    super('Invalid', message, options);
    this.fieldErrors = fieldErrors;
  }
}

/** A group and a resource (plural), as in `shirts.stable.example.com`. */
export interface GroupResource {
  group: string;
  resource: string;
}

/** A group and a kind, as in `Shirt.stable.example.com`. */
export interface GroupKind {
  group: string;
  kind: string;
}

function groupResourceText(r: GroupResource): string {
  return r.group === '' ? r.resource : `${r.resource}.${r.group}`;
}
