/**
 * Writes: create (POST), update (PUT), patch (PATCH: merge, JSON, strategic for built-ins, apply),
 * delete and deletecollection, on objects and on their `status` and `scale` subresources.
 *
 * The pipeline is the apiserver's: decode (prune, default in the request version) → system fields →
 * strategy (`PrepareForCreate`/`PrepareForUpdate`) → validation → conversion to the storage version →
 * store (optimistic concurrency on resourceVersion) → durable → the stored object read back and shown
 * in the request version. An update that changes nothing writes nothing (the resourceVersion stays).
 */
import { KubeError, FieldError, goJSON, goQuote, goSprint, isStackOverflow, jsonTypeName, parseJSON, type KubeObject } from '@kubekit/core';
import { parse as parseYAML, parseAllDocuments } from 'yaml';
import type { AdmissionAttributes } from './admission.js';
import { isReviewType, type ReviewResourceType } from './accessReviews.js';
import { RbacAuthorizer, serverUser } from './rbacAuthorizer.js';
import { deepEqual } from './internal/deepEqual.js';
import { jsonDuplicateFields, strictProblems, yamlDuplicateFields } from './internal/fieldValidation.js';
import { decodeProtobuf, protobufGroups, protobufMediaType } from './internal/protobuf.js';
import { addWarning, contentType, readBody, sendJSON } from './internal/http.js';
import { apiserverMaxDepth, checkPatchedDepth, goJSONDepthMessage, goYAMLDepthMessage, nestingOf, summarizeData, type DepthExcess } from './internal/nesting.js';
import { isYAMLStackOverflow, yamlIsDeep } from './internal/deepYAML.js';
import { yamlNumberAsDecoded } from './internal/yamlNumber.js';
import { queryBool } from './internal/queryBool.js';
import {
  checkKeyName,
  TimestampDecodeError, applyConversionError, dropMalformedTimestamps, fillSystemFieldsOnCreate, isDecodeError, wipeSystemFields, keepSystemFieldsOnUpdate, timestamp,
} from './objectMeta.js';
import { applyJSONPatch, applyMergePatch, applyStrategicMergePatch, patchTypeOf, type PatchType } from './patch.js';
import { WrittenTexts, firstJSONPatchOpProblem, floatOverflowIn, goJSONWithTexts, integralFloatPaths, mergePatchTexts, placedFloatOverflow, placedIntegralFloats, rawValueOf } from './internal/rawJSON.js';
import { AppliedConfiguration, applyManagedFields, managedFieldsDepthOK, updateManagedFields } from './managedFields/fieldManager.js';
import { fieldManagerContext, managerOf } from './managedFields/requestContext.js';
import { requestContext, respondObject, type RestRequest } from './restRequest.js';
import { cloneDecoded, encodeAsGo, encodedTextAsGo, mergePatchedTextAsGo } from './builtinGoJSON.js';
import type { GroupVersionKind } from './builtinSchemas.js';
import { applyToScale, checkPatchedBuiltinScale, checkPatchedCustomResourceScale, decodeBuiltinScale, decodeCustomResourceScale, liveScaleOf, scaleAnswerShape, scaleOf, scaleWriteManagedFields, withScaleReplicas } from './scaleSubresource.js';
import { validateWriteOptions, type WriteOptions } from './writeOptions.js';
import { storedResourceOf, type ResourceType, type WriteContext } from './resourceType.js';
import type { ServerContext } from './serverContext.js';
import { storeKey } from './storage/objectStore.js';
import { cloneJSON, isObject } from './internal/own.js';
import { checkRequestContext } from './internal/requestContext.js';
import { goJSONSyntaxError, goStringFieldMismatch, goUnmarshalTypeError } from './internal/goJSON.js';

/** How often an update is retried when the object changes under it. */
export const maxRetries = 16;

function writeContext(ctx: ServerContext, r: RestRequest, options: WriteOptions): WriteContext {
  const { kind, version } = r.type.names;
  return {
    fieldValidation: options.fieldValidation, warnings: [], duplicateFields: [], subresource: r.info.subresource, now: timestamp(ctx.clock.now()), user: r.user ?? serverUser, dryRun: options.dryRun, request: requestContext(r),
    // The codec's words for a body it cannot take (runtime.NewStrictDecodingError wrapped by the
    // serializer's "%s in version %q cannot be handled as a %s: %v").
    ...(r.info.verb === 'create' || r.info.verb === 'update' ? { strictError: (m: string) => KubeError.badRequest(`${kind} in version ${goQuote(version)} cannot be handled as a ${kind}: ${m}`) } : {}),
  };
}

/**
 * A custom resource's strict decoding errors name the kind and version the body says it is, twice: the
 * decoder filled the unstructured object before it reported them, and the typer reads its kind from there
 * (handlers/rest.go transformDecodeError; kube-apiserver 1.34.4, hostile seed 20270406), through /status too
 * (the Scale of /scale is decoded otherwise).
 */
function nameBodyKind(r: RestRequest, wctx: WriteContext, body: unknown): void {
  if (r.type.customResource !== true || (r.info.subresource !== '' && r.info.subresource !== 'status') || wctx.strictError === undefined || !isObject(body)) return;
  const kind = typeof body.kind === 'string' && body.kind !== '' ? body.kind : r.type.names.kind;
  const apiVersion = typeof body.apiVersion === 'string' ? body.apiVersion : '';
  const version = apiVersion === '' ? r.type.names.version : apiVersion.slice(apiVersion.indexOf('/') + 1);
  wctx.strictError = (m: string) => KubeError.badRequest(`${kind} in version ${goQuote(version)} cannot be handled as a ${kind}: ${m}`);
}

/** What a body is read for: the object of a create or update, or a patch of a type. */
type BodyUse = 'object' | PatchType;

/**
 * Reads a JSON (or YAML) object body, noting its duplicate fields unless they are ignored. Bodies
 * nested deeper than the apiserver's decoders allow get the apiserver's 400 for the request's kind of
 * body.
 */
async function readObject(ctx: ServerContext, r: RestRequest, wctx: WriteContext, use: BodyUse): Promise<unknown> {
  const body = await readBody(r.req, ctx.limits.maxRequestBodyBytes);
  const ct = contentType(r.req);
  if (ct === protobufMediaType && protobufGroups.includes(r.type.names.group)) {
    // The protobuf serializer reads its four-byte prefix before anything: without it the codec knows no
    // kind, and the handler's transformDecodeError words it with a summary of the body.
    if (!(body.length >= 4 && body[0] === 0x6b && body[1] === 0x38 && body[2] === 0x73 && body[3] === 0)) {
      const why = body.length === 0 ? 'empty data' : 'provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]';
      throw KubeError.badRequest(`the object provided is unrecognized (must be of type ${r.type.names.kind}): ${why} (${summarizeData(body)})`);
    }
    return decodeProtobuf(body);
  }
  // A create or update takes JSON, YAML or protobuf, not a patch media type (the codec factory's serializers).
  if (ct !== '' && ct !== 'application/json' && ct !== 'application/yaml' && ct !== 'text/yaml' && (patchTypeOf(ct) === undefined || use === 'object')) {
    throw new KubeError('UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf`);
  }
  const yaml = ct === 'application/yaml' || ct === 'text/yaml' || ct === 'application/apply-patch+yaml';
  // go-yaml's reader refuses bytes that are not UTF-8 (JSON decoding replaces them with U+FFFD).
  if (use === 'apply' && ct === 'application/apply-patch+yaml') {
    const bad = goYAMLUTF8Error(body);
    if (bad !== undefined) throw KubeError.badRequest(`error decoding YAML: error converting YAML to JSON: yaml: ${bad}`);
  }
  const text = body.toString('utf8');
  const { excess, deepest } = nestingOf(text, apiserverMaxDepth, yaml);
  if (excess !== undefined) throw tooDeep(r, use, yaml, excess, body, wctx);
  if (yaml && !looksLikeJSON(text)) {
    const duplicates = wctx.fieldValidation !== 'Ignore';
    // The YAML parser recurses: deep YAML is parsed on a worker thread with a large stack.
    if (yamlIsDeep(text, deepest)) return parsedDeepYAML(ctx, text, duplicates, wctx);
    let parsed: unknown;
    try {
      parsed = firstYAMLDocument(text);
    } catch (err) {
      if (isStackOverflow(err) || isYAMLStackOverflow(err)) return parsedDeepYAML(ctx, text, duplicates, wctx);
      const words = err instanceof Error ? err.message : String(err);
      // A create's or update's YAML that does not parse gives the codec no kind: the handler's
      // transformDecodeError words it with a summary of the body (the syntax error's own words are
      // go-yaml's there). The apply patcher words its decoding errors "error decoding YAML: …" (handlers/patch.go).
      if (use === 'object') throw KubeError.badRequest(`the object provided is unrecognized (must be of type ${r.type.names.kind}): ${words.trimEnd()} (${summarizeData(body)})`);
      throw KubeError.badRequest(`${use === 'apply' ? 'error decoding YAML: ' : ''}error converting YAML to JSON: ${words}`);
    }
    if (duplicates) wctx.duplicateFields = yamlDuplicateFields(text);
    // An empty document (no content, `null`, `~`, a comment) is YAML's null, as JSON's `null` is.
    if (use === 'object' && (parsed === null || parsed === undefined)) return nullObject(r, body);
    return parsed;
  }
  let parsed: unknown;
  try {
    parsed = parseJSON(text);
  } catch (err) {
    const syntax = goJSONSyntaxError(body);
    if (syntax === undefined) throw err;
    throw notDecodable(r, use, wctx, body, syntax);
  }
  if (use === 'object' && parsed === null) return nullObject(r, body);
  // A number beyond float64 (1e400): encoding/json's decoding into interface{} fails on it. The custom
  // resource codec and the JSON patch decoder (strict) name it; built-in kinds decode into their types.
  // A JSON patch's operations are decoded one by one, and Go keeps the first problem in document order:
  // only a `value` is decoded as a number, and a type error before it comes first (goShapeError below).
  if (use === 'json' && wctx.fieldValidation !== 'Ignore') {
    const problem = firstJSONPatchOpProblem(text);
    if (problem?.kind === 'overflow') throw KubeError.badRequest(`error decoding patch: json: cannot unmarshal number ${problem.literal} into Go struct field jsonPatchOp.value of type float64`);
  }
  // A merge patch is decoded into map[string]interface{} to look for duplicate fields (Strict and Warn,
  // the default): a number beyond float64 fails there, for every kind.
  // Under Ignore the patch is merged as text and the custom resource decoder of the result meets it.
  if (use === 'merge') {
    const literal = floatOverflowIn(text, 0, text.length);
    if (literal !== undefined && wctx.fieldValidation !== 'Ignore') throw KubeError.badRequest(`error decoding patch: json: cannot unmarshal number ${literal} into Go value of type float64`);
    if (literal !== undefined) wctx.patchOverflow = literal;
  }
  const overflow = use === 'object' && r.type.customResource === true && r.info.subresource !== 'scale' ? floatOverflowIn(text, 0, text.length) : undefined;
  if (overflow !== undefined) {
    const o = isObject(parsed) ? parsed : {};
    const kind = typeof o.kind === 'string' && o.kind !== '' ? o.kind : r.type.names.kind;
    const apiVersion = typeof o.apiVersion === 'string' ? o.apiVersion : '';
    const version = apiVersion === '' ? r.type.names.version : apiVersion.slice(apiVersion.indexOf('/') + 1);
    throw KubeError.badRequest(`${kind} in version ${goQuote(version)} cannot be handled as a ${r.type.names.kind}: json: cannot unmarshal number ${overflow} into Go value of type float64`);
  }
  const shape = goShapeError(use, parsed, wctx);
  if (shape !== undefined) throw notDecodable(r, use, wctx, body, shape);
  // The typed codec parses the apiVersion before it looks for a kind (schema.ParseGroupVersion): more than
  // one slash is no group version at all.
  if (use === 'object' && (r.type.customResource !== true || r.info.subresource === 'scale') && isObject(parsed) && typeof parsed.apiVersion === 'string' && parsed.apiVersion.split('/').length > 2) {
    const kind = r.info.subresource === 'scale' ? 'Scale' : r.type.names.kind;
    throw KubeError.badRequest(`the object provided is unrecognized (must be of type ${kind}): unexpected GroupVersion string: ${parsed.apiVersion} (${summarizeData(body)})`);
  }
  if (use === 'object' && r.type.customResource === true && r.info.subresource !== 'scale' && isObject(parsed)) checkCustomResourceEnvelope(r, parsed, text, body);
  // An apply configuration is YAML to the apply patcher even when it is written as JSON: go-yaml names its
  // duplicate keys by line (`line 1: key "a" already set in map`). The YAML parser is not given a deeply
  // nested one (9,000 levels of JSON ran it out of memory, inside a regular expression, killing the
  // process): those keep JSON's words.
  if (wctx.fieldValidation !== 'Ignore') {
    wctx.duplicateFields = use === 'json' ? jsonPatchStrictErrors(text, parsed)
      : use === 'apply' && !yamlIsDeep(text, deepest) ? applyDuplicateKeys(text) : jsonDuplicateFields(text);
  }
  wctx.bodyText = text;
  // A strategic merge patch is decoded into map[string]interface{} whatever the field validation: a number
  // beyond float64 fails there, for every kind, before anything is patched.
  if (use === 'strategic') {
    const literal = floatOverflowIn(text, 0, text.length);
    if (literal !== undefined) throw KubeError.badRequest(`json: cannot unmarshal number ${literal} into Go value of type float64`);
  }
  // Float literals with integral values (`1.0`), which parse as integers: where the object gets them
  // (and where a Scale sent to a custom resource's /scale has them, which its int32s refuse).
  // (A built-in kind's Scale, decoded as an int32 replicas, needs them too.)
  if ((r.type.customResource === true && (r.info.subresource !== 'scale' || use === 'object')) || (r.info.subresource === 'scale' && use === 'object')) {
    const floats = /\d[.eE]/.test(text);
    if (use === 'json') {
      // A JSON patch's (and under Ignore its numbers beyond float64, which need no `.` or `e`) are found
      // where its operations leave them, in each attempt (write's mutate).
      const overflow = wctx.fieldValidation === 'Ignore' && floatOverflowIn(text, 0, text.length) !== undefined;
      if (floats || overflow) wctx.jsonPatchFloats = { overflow };
    } else if (floats && (use === 'object' || use === 'merge')) {
      wctx.integralFloats = integralFloatPaths(rawValueOf(text));
    }
  }
  // Go decodes a JSON or strategic merge patch of `null` as no patch at all.
  if (parsed === null && (use === 'json' || use === 'strategic')) return use === 'json' ? [] : {};
  return parsed;
}

/** A create's or update's body that is `null`: a typed decoder reads it as an empty object; the custom resource decoder finds no kind in it. */
function nullObject(r: RestRequest, body: Buffer): Record<string, never> {
  if (r.type.customResource !== true || r.info.subresource === 'scale') return {};
  // The unstructured decoder quotes the body as sent (a YAML body's comment too).
  throw KubeError.badRequest(`the object provided is unrecognized (must be of type ${r.type.names.kind}): Object 'Kind' is missing in '${body.toString('utf8')}' (${summarizeData(body)})`);
}

async function parsedDeepYAML(ctx: ServerContext, text: string, duplicates: boolean, wctx: WriteContext): Promise<unknown> {
  const { value, duplicateFields } = await ctx.deepYAML.parse(text, duplicates);
  if (duplicates) wctx.duplicateFields = duplicateFields;
  return value;
}

/**
 * The unstructured decoder's answers to a custom resource body without a kind or apiVersion: the kind
 * missing is a decode error quoting the body as sent; an apiVersion missing mismatches the one served.
 */
function checkCustomResourceEnvelope(r: RestRequest, parsed: Record<string, unknown>, text: string, body: Buffer): void {
  const { kind, group, version } = r.type.names;
  if (typeof parsed.kind !== 'string' || parsed.kind === '') {
    throw KubeError.badRequest(`the object provided is unrecognized (must be of type ${kind}): Object 'Kind' is missing in '${text}' (${summarizeData(body)})`);
  }
  if (typeof parsed.apiVersion !== 'string' || parsed.apiVersion === '') {
    throw KubeError.badRequest(`the API version in the data () does not match the expected API version (${group}/${version})`);
  }
}

/** The members of a JSON patch operation (`handlers.jsonPatchOp`). */
const jsonPatchOpFields = new Set(['op', 'path', 'from', 'value']);

/**
 * The strict decoding errors of a JSON patch's operations under strict or warning field validation,
 * as handlers/patch.go words them: `json patch duplicate field "[0].op"`, then `json patch unknown
 * field "[1].bogus"` (sigs.k8s.io/json matches the members case-sensitively).
 */
function jsonPatchStrictErrors(text: string, ops: unknown): string[] {
  const out = jsonDuplicateFields(text).map((m) => `json patch ${m}`);
  if (!Array.isArray(ops)) return out;
  ops.forEach((op, i) => {
    if (!isObject(op)) return;
    for (const key of Object.keys(op)) if (!jsonPatchOpFields.has(key)) out.push(`json patch unknown field ${JSON.stringify(`[${i}].${key}`)}`);
  });
  return out;
}

/** The Go struct the apiserver first decodes a body into to find its kind (runtime/serializer/json/meta.go). */
const findKindStruct = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

/**
 * What Go's decoders say of a JSON body of the wrong shape for its use, or undefined: the apiserver
 * decodes an object's apiVersion and kind into {@link findKindStruct}, a JSON patch into
 * `[]handlers.jsonPatchOp` (strict and warning field validation) or `jsonpatch.Patch`, and merge and
 * strategic merge patches into maps.
 */
function goShapeError(use: BodyUse, parsed: unknown, wctx: WriteContext): string | undefined {
  const strict = wctx.fieldValidation !== 'Ignore';
  switch (use) {
    case 'object': {
      if (parsed === null) return undefined;
      if (!isObject(parsed)) return goUnmarshalTypeError(parsed, findKindStruct);
      const bad = goStringFieldMismatch(parsed, ['apiVersion', 'kind']);
      return bad === undefined ? undefined : goUnmarshalTypeError(bad.value, 'string', { struct: '', name: bad.name });
    }
    case 'json': {
      if (parsed === null) return undefined;
      if (!Array.isArray(parsed)) return goUnmarshalTypeError(parsed, strict ? '[]handlers.jsonPatchOp' : 'jsonpatch.Patch');
      for (const op of parsed as unknown[]) {
        if (op === null) continue;
        if (!isObject(op)) return goUnmarshalTypeError(op, strict ? 'handlers.jsonPatchOp' : 'jsonpatch.Operation');
        const bad = strict ? goStringFieldMismatch(op, ['op', 'path', 'from'], true) : undefined;
        if (bad !== undefined) return goUnmarshalTypeError(bad.value, 'string', { struct: 'jsonPatchOp', name: bad.name });
      }
      return undefined;
    }
    case 'merge':
      if (parsed === null) return 'Invalid JSON Patch';
      if (strict) return isObject(parsed) ? undefined : goUnmarshalTypeError(parsed, 'map[string]interface {}');
      // Without field validation, jsonpatch.MergePatch reads the patch: an array is merged as a value.
      return isObject(parsed) || Array.isArray(parsed) ? undefined : 'Invalid JSON Patch';
    case 'strategic':
      return parsed === null || isObject(parsed) ? undefined : goUnmarshalTypeError(parsed, 'map[string]interface {}');
    case 'apply':
      return undefined;
  }
}

/**
 * The apiserver's 400 for a JSON body Go cannot decode for its use, given Go's words: an object's decoder wraps the words with the kind it expected and the body's first bytes
 * (`transformDecodeError` in handlers/rest.go); the patch decoders of handlers/patch.go prefix them
 * with "error decoding patch: " under strict or warning field validation; without it, a merge patch
 * that is not JSON is jsonpatch's "Invalid JSON Patch".
 */
function notDecodable(r: RestRequest, use: BodyUse, wctx: WriteContext, body: Buffer, words: string): KubeError {
  const strict = wctx.fieldValidation !== 'Ignore';
  switch (use) {
    case 'object': {
      const kind = r.info.subresource === 'scale' ? 'Scale' : r.type.names.kind;
      return KubeError.badRequest(`the object provided is unrecognized (must be of type ${kind}): couldn't get version/kind; json parse error: ${words} (${summarizeData(body)})`);
    }
    case 'json': return KubeError.badRequest(strict ? `error decoding patch: ${words}` : words);
    // Without field validation, jsonpatch.MergePatch is the first to read the patch.
    case 'merge': return KubeError.badRequest(!strict || words === 'Invalid JSON Patch' ? 'Invalid JSON Patch' : `error decoding patch: ${words}`);
    case 'strategic': case 'apply': return KubeError.badRequest(words);
  }
}


/**
 * The first document of a YAML text, as sigs.k8s.io/yaml's `Unmarshal` (go-yaml's `Unmarshal`) reads
 * it: the documents after it are not parsed.
 */
function firstYAMLDocument(text: string): unknown {
  // Integers as bigints, so that the digits of one beyond 2^53 survive (yamlNumber.ts).
  const options = { intAsBigInt: true, version: '1.1', uniqueKeys: false } as const;
  try {
    return binaryAsText(parseYAML(text, options) as unknown);
  } catch (err) {
    if (!(err instanceof Error) || !err.message.includes('multiple documents')) throw err;
    const docs = parseAllDocuments(text, options);
    const first = Array.isArray(docs) ? docs[0] : docs;
    if (first === undefined) throw err;
    if (first.errors.length > 0) throw first.errors[0];
    return binaryAsText(first.toJS() as unknown);
  }
}

/**
 * A `!!binary` scalar becomes its bytes as text, as sigs.k8s.io/yaml's YAMLToJSON turns go-yaml's decoded
 * []byte into a string (invalid UTF-8 replaced); the `yaml` package gives a Uint8Array. Numbers become
 * what the apiserver's round trip through JSON makes of them ({@link yamlNumberAsDecoded}). Iterative.
 */
function binaryAsText(value: unknown): unknown {
  if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8');
  if (typeof value === 'number' || typeof value === 'bigint') return yamlNumberAsDecoded(value);
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    const o = v as Record<string, unknown>;
    for (const k of Object.keys(o)) {
      const x = o[k];
      if (x instanceof Uint8Array) Object.defineProperty(o, k, { value: Buffer.from(x).toString('utf8'), enumerable: true, writable: true, configurable: true });
      else if (typeof x === 'number' || typeof x === 'bigint') {
        const decoded = yamlNumberAsDecoded(x);
        if (decoded !== x) Object.defineProperty(o, k, { value: decoded, enumerable: true, writable: true, configurable: true });
      } else if (x !== null && typeof x === 'object') stack.push(x);
    }
  }
  return value;
}

/**
 * go-yaml's reader's error for bytes that are not UTF-8 (yaml_parser_update_buffer in readerc.go), or
 * undefined when the text is UTF-8.
 */
function goYAMLUTF8Error(bytes: Buffer): string | undefined {
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i];
    const width = b < 0x80 ? 1 : (b & 0xe0) === 0xc0 ? 2 : (b & 0xf0) === 0xe0 ? 3 : (b & 0xf8) === 0xf0 ? 4 : 0;
    if (width === 0) return 'invalid leading UTF-8 octet';
    if (i + width > bytes.length) return 'incomplete UTF-8 octet sequence';
    let value = width === 1 ? b : width === 2 ? b & 0x1f : width === 3 ? b & 0x0f : b & 0x07;
    for (let k = 1; k < width; k++) {
      const c = bytes[i + k];
      if ((c & 0xc0) !== 0x80) return 'invalid trailing UTF-8 octet';
      value = (value << 6) | (c & 0x3f);
    }
    if (!(width === 1 || (width === 2 && value >= 0x80) || (width === 3 && value >= 0x800) || (width === 4 && value >= 0x10000))) return 'invalid length of a UTF-8 sequence';
    if ((value >= 0xd800 && value <= 0xdfff) || value > 0x10ffff) return 'invalid Unicode character';
    i += width;
  }
  return undefined;
}

/**
 * Whether a YAML body is a JSON object, which the JSON parser reads (YAML is a superset of JSON, and
 * the YAML parser recurses where the JSON parser does not): kubectl and client-go send apply patches
 * as JSON.
 */
function looksLikeJSON(text: string): boolean {
  if (!text.trimStart().startsWith('{')) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The apiserver's 400 for a body nested past its decoders' limit, which depends on who decodes it:
 * the object decoder of create and update (`transformDecodeError` in handlers/rest.go), the patch
 * decoders of handlers/patch.go (`applyJSPatch`, `strategicPatchObject`, the apply patcher's YAML).
 */
function tooDeep(r: RestRequest, use: BodyUse, yaml: boolean, excess: DepthExcess, body: Buffer, wctx: WriteContext): KubeError {
  const strict = wctx.fieldValidation !== 'Ignore';
  // encoding/json stops at the first error in the text: one before the excess (a byte order mark, a
  // stray character) is reported instead of the depth (hostile seeds 20270253, 20270254).
  const json = yaml ? '' : goJSONSyntaxError(body, apiserverMaxDepth) ?? goJSONDepthMessage(excess);
  switch (use) {
    case 'object': {
      const kind = r.info.subresource === 'scale' ? 'Scale' : r.type.names.kind;
      const cause = yaml ? goYAMLDepthMessage(excess) : `couldn't get version/kind; json parse error: ${json}`;
      return KubeError.badRequest(`the object provided is unrecognized (must be of type ${kind}): ${cause} (${summarizeData(body)})`);
    }
    case 'json': return KubeError.badRequest(strict ? `error decoding patch: ${json}` : json);
    case 'merge': return KubeError.badRequest(strict ? `error decoding patch: ${json}` : 'Invalid JSON Patch');
    case 'strategic': return KubeError.badRequest(json);
    case 'apply': return KubeError.badRequest(`error decoding YAML: error converting YAML to JSON: ${goYAMLDepthMessage(excess)}`);
  }
}

/** Sets the request's warnings as `Warning` headers, once (later calls send only warnings added since). */
function sendWarnings(r: RestRequest, wctx: WriteContext): void {
  if (r.res.headersSent) return;
  for (const w of wctx.warnings.splice(0)) addWarning(r.res, w);
}

function checkNamespace(ctx: ServerContext, type: ResourceType, obj: KubeObject, namespace: string): void {
  if (!type.names.namespaced) return;
  const own = obj.metadata.namespace ?? '';
  if (own === '') obj.metadata.namespace = namespace;
  else if (namespace !== '' && own !== namespace) {
    throw KubeError.badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
}

/**
 * The NamespaceLifecycle plugin on a create: the namespace must exist and not be terminating. Its refusal is
 * `errors.NewForbidden` of the resource and the name admission sees (the generateName when no name is set).
 */
function checkNamespaceActive(ctx: ServerContext, type: ResourceType, obj: KubeObject): void {
  const namespace = obj.metadata.namespace ?? '';
  const phase = ctx.namespacePhase(namespace);
  if (phase === undefined) throw KubeError.notFound({ group: '', resource: 'namespaces' }, namespace);
  if (phase === 'Terminating') {
    const name = obj.metadata.name === undefined || obj.metadata.name === '' ? obj.metadata.generateName ?? '' : obj.metadata.name;
    const { group, resource } = type.groupResource;
    throw new KubeError('Forbidden', `${group === '' ? resource : `${resource}.${group}`} ${goQuote(name)} is forbidden: unable to create new content in namespace ${namespace} because it is being terminated`, {
      details: { name, ...(group === '' ? {} : { group }), kind: resource, causes: [{ reason: 'NamespaceTerminating', message: `namespace ${namespace} is being terminated`, field: 'metadata.namespace' }] },
    });
  }
}

function admissionAttributes(r: RestRequest, operation: 'CREATE' | 'UPDATE', namespace: string, name: string, dryRun: boolean, wctx: WriteContext): AdmissionAttributes {
  // The options as the request set them (a patch's are given to admission as UpdateOptions or CreateOptions).
  const options: Record<string, unknown> = {};
  if (dryRun) options.dryRun = r.query.getAll('dryRun');
  for (const k of ['fieldManager', 'fieldValidation']) if ((r.query.get(k) ?? '') !== '') options[k] = r.query.get(k);
  return { type: r.type, operation, namespace, name, subresource: r.info.subresource, dryRun, wctx, user: r.user, options };
}

/** The `group/version` (`version` for the core group) a resource is served in. */
function groupVersionOf(type: ResourceType): string {
  return type.names.group === '' ? type.names.version : `${type.names.group}/${type.names.version}`;
}

/** The group and kind an object says it is (the group sliced from its apiVersion, which may have any shape). */
function writtenGroupKind(obj: KubeObject): { group: string; kind: string } {
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const slash = apiVersion.indexOf('/');
  return { group: slash < 0 ? '' : apiVersion.slice(0, slash), kind: typeof obj.kind === 'string' ? obj.kind : '' };
}

function invalid(type: ResourceType, name: string, errs: FieldError[]): KubeError {
  return KubeError.invalid({ group: type.internalGroup ?? type.names.group, kind: type.names.kind }, name, errs);
}

/** Create, update or patch, by verb and subresource. */
export async function handleWrite(ctx: ServerContext, r: RestRequest, namespace: string): Promise<void> {
  const verb = r.info.verb === 'create' ? 'create' : r.info.verb === 'update' ? 'update' : 'patch';
  const options = validateWriteOptions(r.query, verb, verb === 'patch' ? patchTypeOf(contentType(r.req)) : undefined);
  const wctx = writeContext(ctx, r, options);
  try {
    await write(ctx, r, namespace, options, wctx);
  } catch (err) {
    // The apiserver's warning recorder writes each warning as it is added (filters/warning.go): the
    // decoder's unknown and duplicate field warnings come with a write's error as with its success.
    sendWarnings(r, wctx);
    throw err;
  }
}

/**
 * A POST to a subresource that takes a kind of its own (a Pod's `eviction`): its body read and decoded as
 * a create's is (JSON, YAML or protobuf, its depth, syntax and duplicate fields), described as `kind`;
 * `run` checks the decoded body and answers with a status and a body, sent with the decoder's warnings.
 */
export async function handleSubresourceCreate(ctx: ServerContext, r: RestRequest, kind: { group: string; version: string; kind: string },
  run: (body: unknown, options: WriteOptions, wctx: WriteContext) => Promise<{ code: number; body: unknown }>): Promise<void> {
  // The body is decoded as `kind`, so that what cannot be read names the kind the handler wanted.
  const names = { ...r.type.names, ...kind };
  const described: RestRequest = { ...r, type: Object.create(r.type, { names: { value: names }, customResource: { value: false } }) as ResourceType };
  const options = validateWriteOptions(r.query, 'create');
  const wctx = writeContext(ctx, described, options);
  let answer: { code: number; body: unknown };
  try {
    answer = await run(await readObject(ctx, described, wctx, 'object'), options, wctx);
  } catch (err) {
    sendWarnings(r, wctx);
    throw err;
  }
  sendWarnings(r, wctx);
  sendJSON(r.res, answer.code, answer.body);
}

async function write(ctx: ServerContext, r: RestRequest, namespace: string, options: WriteOptions, wctx: WriteContext): Promise<void> {
  const { dryRun } = options;
  const manager = managerOf(r, options.fieldManager);
  if (r.info.verb === 'create') {
    const body = await readObject(ctx, r, wctx, 'object');
    nameBodyKind(r, wctx, body);
    await create(ctx, r, namespace, body, wctx, dryRun, manager);
    return;
  }
  if (r.info.verb === 'update') {
    const body = await readObject(ctx, r, wctx, 'object');
    nameBodyKind(r, wctx, body);
    if (r.info.subresource === 'scale') {
      if (r.type.customResource === true) decodeCustomResourceScale(body, wctx);
      else decodeBuiltinScale(body, wctx);
      // The handler checks the Scale's name and namespace against the URL's before the store reads anything.
      const meta = isObject(body) && isObject(body.metadata) ? body.metadata : {};
      checkName(r, { metadata: { name: typeof meta.name === 'string' ? meta.name : '' } } as KubeObject);
      if (r.type.names.namespaced && typeof meta.namespace === 'string' && meta.namespace !== '' && meta.namespace !== namespace) {
        throw KubeError.badRequest('the namespace of the provided object does not match the namespace sent on the request');
      }
      await update(ctx, r, namespace, wctx, dryRun, scaleTracked(ctx, r, wctx, manager, () => body), bodyResourceVersion(body), bodyUID(body));
      return;
    }
    const replace = replaceWith(ctx, r, namespace, body, wctx);
    const replaced = async (): Promise<void> => update(ctx, r, namespace, wctx, dryRun, tracked(ctx, r, wctx, manager, replace), bodyResourceVersion(body), bodyUID(body));
    // The store's Update creates what it does not find when the strategy allows it (AllowCreateOnUpdate); an
    // object created meanwhile makes it an update, as GuaranteedUpdate's retry would. A status store shares
    // its resource's strategy, so a Service's /status creates too.
    if (createsOnUpdate(r) && ctx.store.get(r.type.bucket, storeKey(namespace, r.info.name)) === undefined) {
      try {
        await create(ctx, r, namespace, body, wctx, dryRun, manager, { object: replace(), uid: bodyUID(body) });
      } catch (err) {
        if (!(err instanceof KubeError && err.reason === 'AlreadyExists') || dryRun) throw err;
        await replaced();
      }
      return;
    }
    await replaced();
    return;
  }
  const pt = patchTypeOf(contentType(r.req));
  if (pt === undefined || (pt === 'strategic' && !r.type.strategicMergePatch)) {
    // The supported patch types in the order the apiserver lists them (endpoints/installer.go; the
    // apiextensions-apiserver's crdHandler for custom resources).
    const accepted = ['application/json-patch+json', 'application/merge-patch+json', ...(r.type.strategicMergePatch ? ['application/strategic-merge-patch+json'] : []), 'application/apply-patch+yaml'];
    throw new KubeError('UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`);
  }
  // The patcher reads the current object before it decodes the patch (handlers/patch.go: inside
  // GuaranteedUpdate): a patch of a missing object is a 404 whatever its body (read first, as the size limit is).
  if (pt !== 'apply' && ctx.store.get(r.type.bucket, storeKey(namespace, r.info.name)) === undefined) {
    await readBody(r.req, ctx.limits.maxRequestBodyBytes);
    throw KubeError.notFound(r.type.groupResource, r.info.name);
  }
  const body = await readObject(ctx, r, wctx, pt);
  if (pt === 'apply') {
    await apply(ctx, r, namespace, body, wctx, dryRun, manager, queryBool(r.query.get('force')) === true);
    return;
  }
  if (r.info.subresource === 'scale') {
    // The patch applies to the live Scale (with the managed fields the ScaleHandler gives it), whose
    // result is decoded as a Scale.
    const scaled = (live: KubeObject): unknown => {
      const patched = pt === 'json' ? jsonPatched(live, body, wctx.bodyText) : pt === 'merge' ? applyMergePatch(live, body) : strategicPatched(live, body);
      if (pt !== 'strategic') checkPatchedDepth(patched);
      if (r.type.customResource === true) checkPatchedCustomResourceScale(patched, live, wctx);
      else checkPatchedBuiltinScale(patched, live, wctx, pt === 'strategic', body);
      return patched;
    };
    await update(ctx, r, namespace, wctx, dryRun, scaleTracked(ctx, r, wctx, manager, scaled), pt === 'json' ? undefined : bodyResourceVersion(body));
    return;
  }
  const mutate = (old: KubeObject): KubeObject => {
    // A JSON patch that wrote integral floats, or (under Ignore) numbers beyond float64: where its
    // operations left them, for this attempt's object.
    const floats = pt === 'json' ? wctx.jsonPatchFloats : undefined;
    const placed = floats === undefined ? undefined : new WrittenTexts();
    const patched = pt === 'json' ? jsonPatched(old, body, wctx.bodyText, placed) : pt === 'merge' ? applyMergePatch(old, body) : strategicPatched(old, body);
    if (placed !== undefined) {
      wctx.integralFloats = placedIntegralFloats(patched, placed);
      if (floats?.overflow === true) wctx.patchOverflow = placedFloatOverflow(patched, placed);
    }
    // A JSON patch's placed values keep their texts in the object a 422 quotes (json-patch's output): the
    // patch is applied again, keeping them, only when a quote is needed.
    const text = pt === 'json' ? wctx.bodyText : undefined;
    // A built-in object is patched as the apiserver encoded it (struct order; see JSONPatchOptions.documentText);
    // a custom resource's encoding is sorted, as goJSON writes what nothing placed.
    const withTexts = pt === 'json' && text !== undefined ? (): { doc: unknown; texts: WrittenTexts } => {
      const texts = new WrittenTexts();
      const documentText = r.type.customResource === true ? undefined : encodedTextAsGo(old, r.type.names);
      return { doc: applyJSONPatch(old, body, { text, texts, documentText }), texts };
    } : undefined;
    const quoteJSONPatch = withTexts === undefined ? undefined : (): string => {
      const { doc, texts } = withTexts();
      return goJSONWithTexts(doc, texts);
    };
    // A JSON patch can nest deeper than its body (a deep path, copy and move).
    if (pt !== 'strategic') checkPatchedDepth(patched);
    const pctx = { ...patchDecodeContext(wctx, pt, patched, body, quoteJSONPatch, r.type.customResource === true ? undefined : r.type.names), jsonPatchedTexts: withTexts };
    // A patched document that is a list (a merge patch `[]` under Ignore, a JSON patch replacing the root):
    // the codec reads its version and kind into a struct of two strings first, and fails there.
    if (Array.isArray(patched)) throw pctx.strictError!(`couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type ${typeMetaProbe}`);
    // Its apiVersion and kind are read into that struct first too: one of another JSON type fails there, before
    // any other member is decoded (the first in the re-marshalled document's order, which is sorted).
    if (isObject(patched)) {
      for (const field of ['apiVersion', 'kind']) {
        const v = patched[field];
        if (v !== undefined && v !== null && typeof v !== 'string') throw pctx.strictError!(`couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonTypeName(v)} into Go struct field .${field} of type string`);
      }
    }
    let decoded: KubeObject;
    try {
      decoded = r.type.decode(patched, pctx);
    } catch (err) {
      // A patched custom resource whose metadata has the wrong JSON types: the unstructured object's
      // conversion to ObjectMeta fails, a 422 on `patch` as for a built-in kind (whose uid is a types.UID).
      if (isDecodeError(err) && pctx.strictError !== undefined) {
        throw pctx.strictError(err.message.replace('ObjectMeta.uid of type string', 'ObjectMeta.uid of type types.UID'));
      }
      // A patched built-in object of a version its scheme does not know: the codec's error, quoted the same way.
      const noKind = err instanceof KubeError && err.reason === 'BadRequest' ? /cannot be handled as a [^:]*: (no kind .* is registered for version .*)$/.exec(err.message) : null;
      if (noKind !== null && pctx.strictError !== undefined) throw pctx.strictError(noKind[1]);
      throw err;
    }
    // A built-in object's JSON or merge patch that leaves no apiVersion: once decoded (its strict errors
    // first), nothing of it is in the typed object, whose name is then none (kube-apiserver 1.34.4:
    // checkName's 400).
    if (r.type.customResource !== true && (pt === 'json' || pt === 'merge') && isObject(patched) && (patched.apiVersion ?? '') === '') {
      throw KubeError.badRequest(`the name of the object (${r.info.name} based on URL) was undeterminable: name must be provided`);
    }
    checkNamespace(ctx, r.type, decoded, namespace);
    checkName(r, decoded);
    return decoded;
  };
  const precondition = pt === 'json' ? undefined : bodyResourceVersion(body);
  await update(ctx, r, namespace, wctx, dryRun, tracked(ctx, r, wctx, manager, mutate), precondition);
}

/** A mutation followed by the field manager's `Update` bookkeeping (`FieldManager.UpdateNoErrors`). */
function tracked(ctx: ServerContext, r: RestRequest, wctx: WriteContext, manager: string, mutate: (old: KubeObject) => KubeObject): (old: KubeObject) => KubeObject {
  if (!ctx.limits.managedFields) return mutate;
  const { names } = r.type;
  const apiVersion = groupVersionOf(r.type);
  return (old) => {
    const obj = mutate(old);
    // A custom resource written as another kind or version (a status write, which the strategy then turns
    // back): the field manager types it by what it says it is, fails, and `UpdateNoErrors` drops the
    // managed fields (kube-apiserver 1.34.4, hostile seeds 20270418 and 20270419).
    if (r.type.customResource === true && (obj.kind !== names.kind || obj.apiVersion !== apiVersion)) {
      delete obj.metadata.managedFields;
      return obj;
    }
    setManagedFields(obj, updateManagedFields(old, obj, manager, fieldManagerContext(r, wctx)));
    return obj;
  };
}

/**
 * A write through `/scale`: `scaled` makes the new Scale from the live one; its replicas go to the object,
 * and the managed fields are the Scale's, converted (`scaleUpdatedObjectInfo.UpdatedObject`).
 */
function scaleTracked(ctx: ServerContext, r: RestRequest, wctx: WriteContext, manager: string, scaled: (live: KubeObject) => unknown): (old: KubeObject) => KubeObject {
  const groupVersion = groupVersionOf(r.type);
  return (old) => {
    const live = liveScaleOf(r.type, old, groupVersion);
    const next = scaled(live);
    const obj = withScaleReplicas(r.type, next)(old);
    if (ctx.limits.managedFields) setManagedFields(obj, scaleWriteManagedFields(r.type, old, live, isObject(next) ? next as KubeObject : live, manager, wctx.now, groupVersion));
    return obj;
  };
}

function setManagedFields(obj: KubeObject, entries: KubeObject['metadata']['managedFields']): void {
  // Managed fields that would nest past the apiserver's 10,000 levels (they nest a few levels deeper than
  // the fields they list) could not be read back: they are left out, as FieldManager.UpdateNoErrors
  // removes the managed fields it fails to compute, instead of storing an object no one can read.
  if (entries === undefined || !managedFieldsDepthOK(entries, apiserverMaxDepth - 2)) delete obj.metadata.managedFields;
  else obj.metadata.managedFields = entries;
}

/** The Go type the codec reads a document's apiVersion and kind into (`json.Unmarshal` in the JSON serializer's Interpret), as encoding/json names it. */
const typeMetaProbe = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

/**
 * The write context of decoding a patched object: under `Strict`, its strict decoding errors are a
 * 422 on `patch` quoting the patched object as Go's json.Marshal prints it (JSON and merge patches), or
 * the patch as `%+v` prints it (strategic merge patches), as handlers/patch.go answers them.
 */
function patchDecodeContext(wctx: WriteContext, pt: PatchType, patched: unknown, patch: unknown, quoteJSONPatch: (() => string) | undefined, builtin: GroupVersionKind | undefined): WriteContext {
  // A built-in object's merge patch result keeps the Go encoding where the patch did not reach; the
  // scalars the patch placed keep the patch's text (`1e400`, `1.0`), as json-patch's lazy nodes do.
  const merged = (): string => {
    const texts = wctx.bodyText === undefined ? new WrittenTexts() : mergePatchTexts(patched, wctx.bodyText);
    try {
      return (builtin === undefined ? undefined : mergePatchedTextAsGo(patched, patch, builtin, texts)) ?? goJSONWithTexts(patched, texts);
    } catch (err) {
      if (!isStackOverflow(err)) throw err;
      return goJSONWithTexts(patched, texts);
    }
  };
  const quoted = (): string => (pt === 'strategic' ? goSprint(patch) : quoteJSONPatch !== undefined ? quoteJSONPatch() : pt === 'merge' ? merged() : goJSON(patched));
  return { ...wctx, patched: true, patchedText: quoted, converted: pt === 'strategic', viaMap: pt === 'strategic', strictError: (message) => KubeError.invalid({ group: '', kind: '' }, '', [new FieldError('FieldValueInvalid', 'patch', quoted(), message)]) };
}

/**
 * A JSON patch applied, its failures (a failed test, a missing path, an unknown op) answered as the
 * apiserver answers them: a 422 without the words of the failure (`NewGenericServerResponse` in
 * handlers/patch.go `applyJSPatch`); the failure stays the error's `cause`.
 */
function jsonPatched(target: unknown, ops: unknown, text: string | undefined, texts?: WrittenTexts): unknown {
  try {
    return applyJSONPatch(target, ops, { text, texts: text === undefined ? undefined : texts });
  } catch (err) {
    if (!(err instanceof KubeError) || err.reason !== 'Invalid') throw err;
    throw new KubeError('Invalid', 'the server rejected our request due to an error in our request', { details: {}, cause: err });
  }
}

/**
 * A strategic merge patch applied: the patched map is converted onto the typed object
 * (`DefaultUnstructuredConverter.FromUnstructured`), which keeps the object's own apiVersion and kind
 * whatever the patch says of them.
 */
function strategicPatched(target: KubeObject, patch: unknown): unknown {
  const patched = applyStrategicMergePatch(target, patch);
  if (isObject(patched)) {
    patched.apiVersion = target.apiVersion;
    patched.kind = target.kind;
  }
  return patched;
}

function bodyResourceVersion(body: unknown): string | undefined {
  if (!isObject(body) || !isObject(body.metadata)) return undefined;
  const rv = body.metadata.resourceVersion;
  return typeof rv === 'string' && !isZeroResourceVersion(rv) ? rv : undefined;
}

/** The uid of a PUT's body, a precondition of the update when set (`defaultUpdatedObjectInfo.Preconditions`). */
function bodyUID(body: unknown): string | undefined {
  if (!isObject(body) || !isObject(body.metadata)) return undefined;
  const uid = body.metadata.uid;
  return typeof uid === 'string' && uid !== '' ? uid : undefined;
}

/** kube-apiserver's `SpecialDefaultResourcePrefixes`: the resources not stored under their own name. */
const specialResourcePrefixes: ReadonlyMap<string, string> = new Map([
  ['/replicationcontrollers', 'controllers'], ['/endpoints', 'services/endpoints'], ['/nodes', 'minions'],
  ['/services', 'services/specs'], ['networking.k8s.io/ingresses', 'ingress'],
]);

/**
 * The key kube-apiserver's storage keeps an object under, which its storage errors quote: the resource's
 * prefix (its resource name, or the special prefix of {@link specialResourcePrefixes}; group and resource
 * for the apiextensions-apiserver's CRDs and custom resources), then the namespace if any, then the name;
 * etcd's `/registry` before it, except in a dry run, whose storage checks the preconditions itself
 * (`DryRunnableStorage.GuaranteedUpdate`, with the key before etcd prefixes it).
 */
function etcdKey(type: ResourceType, namespace: string, name: string, dryRun: boolean): string {
  const { group, resource, namespaced } = type.names;
  const prefix = type.customResource === true || group === 'apiextensions.k8s.io' ? `${group}/${resource}` : specialResourcePrefixes.get(`${group}/${resource}`) ?? resource;
  return `${dryRun ? '' : '/registry'}/${prefix}/${namespaced ? `${namespace}/` : ''}${name}`;
}

/**
 * Whether a resourceVersion means "none": the store's versioner parses it as the number 0 (`""`, `"0"`,
 * `"00"`), which registry/store.go's Update takes for an unconditional update, not a precondition.
 */
/** The storage's 409 when a write's uid precondition does not hold (`storage.Preconditions.Check`). */
function uidPreconditionFailed(type: ResourceType, namespace: string, name: string, dryRun: boolean, wanted: string, actual: string): KubeError {
  return storagePreconditionFailed(type, namespace, name, dryRun, 'UID', wanted, actual);
}

/** The storage's 409 when a precondition of a `GuaranteedUpdate` does not hold (`storage.Preconditions.Check`). */
export function storagePreconditionFailed(type: ResourceType, namespace: string, name: string, dryRun: boolean, field: 'UID' | 'ResourceVersion', wanted: string, actual: string): KubeError {
  return KubeError.conflict(type.groupResource, name, `StorageError: invalid object, Code: 4, Key: ${etcdKey(type, namespace, name, dryRun)}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: ${field} in precondition: ${wanted}, ${field} in object meta: ${actual}`);
}

function isZeroResourceVersion(rv: string | undefined): boolean {
  return rv === undefined || /^0*$/.test(rv);
}

function replaceWith(ctx: ServerContext, r: RestRequest, namespace: string, body: unknown, wctx: WriteContext): () => KubeObject {
  const decoded = r.type.decode(body, wctx);
  // handlers/update.go: the namespace (rest.EnsureObjectNamespaceMatchesRequestNamespace), then the name,
  // before the object is read: a mismatch is a 400 even when the object is gone.
  checkNamespace(ctx, r.type, decoded, namespace);
  checkName(r, decoded);
  // Each attempt gets a copy that still knows which empty lists and maps the request sent (wasEmpty).
  return () => cloneDecoded(decoded);
}

/**
 * `checkName` of handlers/rest.go, which update and patch run on the object they are about to write:
 * its name must be the URL's. (A namespace that differs is rest.EnsureObjectNamespaceMatchesRequestNamespace's
 * error, which checkNamespace gives; both handlers check it first.)
 */
function checkName(r: RestRequest, obj: KubeObject): void {
  const name = obj.metadata.name ?? '';
  if (name === '') throw KubeError.badRequest(`the name of the object (${r.info.name} based on URL) was undeterminable: name must be provided`);
  if (name !== r.info.name) throw KubeError.badRequest(`the name of the object (${name}) does not match the name on the URL (${r.info.name})`);
}

/**
 * Whether an update of a missing object creates it without being forced to (the strategy's
 * `AllowCreateOnUpdate`): on the resource, or on its /status, whose store is a copy of the resource's with
 * the status strategy, which embeds the resource's (kube-apiserver 1.34.4 creates a Service on `PUT
 * services/x/status`, without the allocations of the resource's store hooks).
 */
function createsOnUpdate(r: RestRequest): boolean {
  return r.type.allowCreateOnUpdate === true && (r.info.subresource === '' || (r.info.subresource === 'status' && r.type.names.status === true));
}

/**
 * A `PUT` that creates (the store's Update on a missing object, for a kind that allows it): the object the
 * update handler decoded and checked, and the uid it sent (a precondition no missing object meets).
 */
interface PutCreate {
  object: KubeObject;
  uid: string | undefined;
}

async function create(ctx: ServerContext, r: RestRequest, namespace: string, body: unknown, wctx: WriteContext, dryRun: boolean, manager: string | undefined, put?: PutCreate): Promise<void> {
  const { type } = r;
  // A PUT or an apply that creates goes through the store's Update, whose key function reads the URL's name first.
  if (r.info.verb !== 'create') checkKeyName(r.info.name);
  let obj = put?.object ?? type.decode(body, wctx);
  // handlers/create.go wipes the system fields before anything reads the object, the field manager
  // included (rest.WipeObjectMetaSystemFields; the subresources that create other objects keep them). The
  // update handler does not; its store checks the uid precondition against the missing object first.
  if (r.info.subresource === '' && put === undefined) wipeSystemFields(obj.metadata);
  if (put?.uid !== undefined) throw uidPreconditionFailed(type, namespace, r.info.name, dryRun, put.uid, '');
  checkNamespace(ctx, type, obj, namespace);
  // `manager` undefined: the managed fields are set already (an apply that creates).
  if (manager !== undefined && ctx.limits.managedFields) setManagedFields(obj, updateManagedFields(undefined, obj, manager, fieldManagerContext(r, wctx)));
  if (isReviewType(type)) {
    await answerReview(ctx, r, type, obj, dryRun, wctx);
    return;
  }
  if (type.names.namespaced) checkNamespaceActive(ctx, type, obj);
  const attrs = admissionAttributes(r, 'CREATE', obj.metadata.namespace ?? '', obj.metadata.name ?? '', dryRun, wctx);
  obj = (await ctx.admission?.mutate({ ...attrs, object: obj })) ?? obj;
  // The storage's own check (RBAC escalation), before rest.BeforeCreate: a generated name is not made yet.
  type.guardWrite?.(obj, undefined, wctx, { namespace, name: r.info.name });
  // rest.BeforeCreate keeps the resource version the object came with; the storage refuses it (below).
  const requestedRV = obj.metadata.resourceVersion;
  // rest.BeforeCreate: a cluster-scoped object's namespace is cleared, not refused.
  if (!type.names.namespaced) delete obj.metadata.namespace;
  // The IPAddress strategy's name generator gives the prefix back.
  fillSystemFieldsOnCreate(obj.metadata, wctx.now, put !== undefined, type.names.nameValidation === 'ip' ? (prefix) => prefix : undefined);
  type.prepareForCreate(obj, wctx);
  const name = obj.metadata.name ?? '';
  const errs = type.validateCreate(obj, wctx);
  if (errs.length > 0) throw invalid(type, name, errs);
  type.admit?.(obj, undefined, wctx);
  // Validating admission knows the object by its name, a generated one too (rest.AdmissionToValidateObjectFunc).
  await ctx.admission?.validate({ ...attrs, name: attrs.name !== '' ? attrs.name : name, object: obj });
  const stored = await type.toStorage(obj);
  const key = storeKey(obj.metadata.namespace ?? '', name);
  if (dryRun) {
    if (ctx.store.get(type.bucket, key) !== undefined) throw KubeError.alreadyExists(type.groupResource, name);
    sendWarnings(r, wctx);
    // The dry-run storage answers the object as it would be stored, with the resource version it came with.
    const answer = await type.fromStorage(stored);
    if (typeof requestedRV === 'string' && requestedRV !== '') answer.metadata.resourceVersion = requestedRV;
    respondObject(ctx, r, 201, answer);
    return;
  }
  // etcd3's store.Create: `storage.ErrResourceVersionSetOnCreate` when the object's resource version
  // parses (strconv.ParseUint) as anything but 0 — a plain error, answered as a 500 without a reason. (A PUT
  // that creates goes through GuaranteedUpdate, which ignores it.)
  if (put === undefined && typeof requestedRV === 'string' && /^\d+$/.test(requestedRV) && BigInt(requestedRV) > 0n && BigInt(requestedRV) < 2n ** 64n) {
    throw new KubeError('Unknown', 'resourceVersion should not be set on objects to be created');
  }
  checkRequestContext(wctx.request);
  const write = ctx.store.create(storedResourceOf(type), key, name, stored);
  await write.durable;
  sendWarnings(r, wctx);
  respondObject(ctx, r, 201, await type.fromStorage(write.event.object));
}

/**
 * A review's create: admitted, answered by its kind (validation, then the admission plugins' validation,
 * then the answer) and sent, never stored (a dry run is answered the same). Its namespace is not looked up
 * (a LocalSubjectAccessReview may ask about a namespace that does not exist).
 */
async function answerReview(ctx: ServerContext, r: RestRequest, type: ReviewResourceType, obj: KubeObject, dryRun: boolean, wctx: WriteContext): Promise<void> {
  const attrs = admissionAttributes(r, 'CREATE', obj.metadata.namespace ?? '', obj.metadata.name ?? '', dryRun, wctx);
  const review = (await ctx.admission?.mutate({ ...attrs, object: obj })) ?? obj;
  if (!type.names.namespaced) delete review.metadata.namespace;
  const answer = await type.answer(review, {
    authorizer: new RbacAuthorizer(ctx.store), now: wctx.now, user: r.user ?? serverUser, tokens: ctx.serviceAccountTokens,
    admit: async () => { await ctx.admission?.validate({ ...attrs, object: review }); },
  });
  encodeAsGo(answer, type.names);
  sendWarnings(r, wctx);
  respondObject(ctx, r, 201, answer);
}

/**
 * The update loop (`GuaranteedUpdate`): read the current object, compute the new one, and store it if
 * nothing changed meanwhile; retried when the request has no resourceVersion precondition.
 */
async function update(ctx: ServerContext, r: RestRequest, namespace: string, wctx: WriteContext, dryRun: boolean,
  mutate: (old: KubeObject) => KubeObject, precondition: string | undefined, uidPrecondition?: string): Promise<void> {
  const { type, info } = r;
  checkKeyName(info.name);
  const key = storeKey(namespace, info.name);
  for (let attempt = 0; ; attempt++) {
    const current = ctx.store.get(type.bucket, key);
    if (current === undefined) throw KubeError.notFound(type.groupResource, info.name);
    const old = await type.fromStorage(current);
    let obj = mutate(old);
    checkNamespace(ctx, type, obj, namespace);
    // The store's preconditions, before the update itself: a PUT's uid (rest.DefaultUpdatedObjectInfo).
    if (uidPrecondition !== undefined && uidPrecondition !== current.metadata.uid) {
      throw uidPreconditionFailed(type, namespace, info.name, dryRun, uidPrecondition, current.metadata.uid ?? '');
    }
    checkResourceVersion(type, info.name, obj.metadata.resourceVersion);
    checkResourceVersion(type, info.name, precondition);
    // A patch that sets another resourceVersion (a JSON patch can) makes it a precondition, as the
    // store compares the patched object's resourceVersion with the current one.
    const patchedRV = obj.metadata.resourceVersion;
    if (info.verb === 'patch' && precondition === undefined && typeof patchedRV === 'string' && !isZeroResourceVersion(patchedRV) && patchedRV !== current.metadata.resourceVersion) {
      throw KubeError.conflict(type.groupResource, info.name, 'the object has been modified; please apply your changes to the latest version and try again');
    }
    const attrs = { ...admissionAttributes(r, 'UPDATE', namespace, info.name, dryRun, wctx), oldObject: old };
    obj = (await ctx.admission?.mutate({ ...attrs, object: obj })) ?? obj;
    // The storage's own check (RBAC escalation) of the object its UpdatedObject made (rest.WrapUpdatedObjectInfo).
    type.guardWrite?.(obj, old, wctx, { namespace, name: info.name });
    // A patch (not an apply) that sets the resourceVersion to none makes an unconditional update too.
    if ((r.info.verb === 'update' || (r.info.verb === 'patch' && patchTypeOf(contentType(r.req)) !== 'apply')) && r.info.subresource !== 'scale') {
      if (isZeroResourceVersion(obj.metadata.resourceVersion) && !type.allowUnconditionalUpdate) {
        // kube-apiserver 1.34 names the resource (not the kind) here, and prints the zero uint64 as 0.
        throw KubeError.invalid({ group: type.names.group, kind: type.names.resource }, info.name, [new FieldError('FieldValueInvalid', 'metadata.resourceVersion', 0, 'must be specified for an update')]);
      }
    }
    const expected = precondition ?? current.metadata.resourceVersion;
    if (precondition !== undefined && precondition !== current.metadata.resourceVersion) {
      throw KubeError.conflict(type.groupResource, info.name, 'the object has been modified; please apply your changes to the latest version and try again');
    }
    // rest.BeforeUpdate: a cluster-scoped object's namespace is cleared, not refused.
    if (!type.names.namespaced) delete obj.metadata.namespace;
    keepSystemFieldsOnUpdate(obj.metadata, old.metadata);
    obj.metadata.resourceVersion = current.metadata.resourceVersion;
    // rest.BeforeUpdate names a custom resource's 422 by the kind the request wrote, read before the
    // strategy prepares the object (a status write turns another kind back; hostile seed 20270431).
    const written = type.customResource === true ? writtenGroupKind(obj) : undefined;
    // The strategy may rebuild the object (status writes); the managed fields are the field manager's.
    const managedFields = obj.metadata.managedFields;
    type.prepareForUpdate(obj, old, wctx);
    if (managedFields === undefined) delete obj.metadata.managedFields;
    else obj.metadata.managedFields = managedFields;
    const errs = type.validateUpdate(obj, old, wctx);
    if (errs.length > 0) throw written !== undefined ? KubeError.invalid(written, info.name, errs) : invalid(type, info.name, errs);
    type.admit?.(obj, old, wctx);
    await ctx.admission?.validate({ ...attrs, object: obj });
    const stored = await type.toStorage(obj);
    // Whether the content is unchanged, when putting back the times had to find out (undefined otherwise).
    const unchanged = keepManagedFieldsTimes(stored, current);
    if (ctx.store.get(type.bucket, key) !== current) {
      if (precondition !== undefined || attempt >= maxRetries) {
        throw KubeError.conflict(type.groupResource, info.name, 'the object has been modified; please apply your changes to the latest version and try again');
      }
      continue;
    }
    // shouldDeleteDuringUpdate: the last finalizer gone from an object being deleted with no grace period
    // left (a Pod in its grace period stays until that ends).
    // ShouldDeleteDuringUpdate: the existing object being deleted with no grace period left (none, or 0).
    const finalized = old.metadata.deletionTimestamp !== undefined && (old.metadata.deletionGracePeriodSeconds ?? 0) === 0 && (obj.metadata.finalizers ?? []).length === 0 && !(type.deferDeletion?.(obj) ?? false);
    if (dryRun) {
      sendWarnings(r, wctx);
      respond(ctx, r, await type.fromStorage(stored));
      return;
    }
    if (finalized) {
      checkRequestContext(wctx.request);
      const write = ctx.store.delete(storedResourceOf(type), key, info.name, { rv: expected });
      await write.durable;
      sendWarnings(r, wctx);
      respond(ctx, r, await type.fromStorage(stored));
      return;
    }
    if (unchanged ?? sameContent(stored, current)) {
      sendWarnings(r, wctx);
      respond(ctx, r, await type.fromStorage(current));
      return;
    }
    checkRequestContext(wctx.request);
    const write = ctx.store.update(storedResourceOf(type), key, info.name, stored, expected);
    await write.durable;
    sendWarnings(r, wctx);
    respond(ctx, r, await type.fromStorage(write.event.object));
    return;
  }
}

/** The largest resourceVersion Go's `strconv.ParseUint(rv, 10, 64)` reads. */
const maxUint64 = 18446744073709551615n;

/**
 * Refuses a resourceVersion that is not an unsigned 64-bit decimal, with the text of the parse error
 * (`APIObjectVersioner.ObjectResourceVersion` parses it with `strconv.ParseUint`). The apiserver's
 * generic store returns that parse error unwrapped (registry/store.go `Update`), which its handler
 * turns into a 500; the embedded server answers 422 `Invalid` on `metadata.resourceVersion`, the
 * shape `APIObjectVersioner.ParseResourceVersion` gives the same parse error elsewhere.
 */
function checkResourceVersion(type: ResourceType, name: string, rv: unknown): void {
  if (rv === undefined || rv === '') return;
  const text = typeof rv === 'string' ? rv : String(rv);
  let problem: string | undefined;
  if (!/^[0-9]+$/.test(text)) problem = 'invalid syntax';
  else if (BigInt(text) > maxUint64) problem = 'value out of range';
  if (problem !== undefined) {
    throw invalid(type, name, [new FieldError('FieldValueInvalid', 'metadata.resourceVersion', text, `strconv.ParseUint: parsing ${goQuote(text)}: ${problem}`)]);
  }
}

function respond(ctx: ServerContext, r: RestRequest, view: KubeObject): void {
  if (r.info.subresource === 'scale') respondObject(ctx, r, 200, scaleOf(r.type, view), scaleAnswerShape(r.type));
  else respondObject(ctx, r, 200, view);
}

/**
 * The generic store's `IgnoreManagedFieldsTimestampsTransformer` (k8s.io/apiserver 0.34.4,
 * handlers/fieldmanager/equality.go): when the new managed fields are the old entries, in the same number
 * and order, with only times changed, and the rest of the object is unchanged, the old times are put back,
 * so that a time is not the only change and the write is a no-op. The field manager runs before admission
 * and the strategy, which can undo what it saw change (a pod PUT without the tolerations that
 * DefaultTolerationSeconds adds back); without this, such a write in a later second than the last one wrote.
 *
 * Upstream does this after `BeforeUpdate` and before the validating admission, on the objects as the
 * store holds them; kubekit on the stored form, once it is made, before the dry-run answer and the no-op
 * check (a validating webhook sees the new times; what is written and answered is the same). The equality
 * here is exact where upstream's takes nil and empty lists or maps as equal: the two differ only for a
 * member without `omitempty` that is nil on one side and empty on the other, a write either way, which
 * upstream makes with the old times and kubekit with the new.
 *
 * Returns whether the content is unchanged when it had to compare the rest of the objects (then the no-op
 * check need not compare them again: the same update by the same manager, a common write, compares once),
 * undefined when it did not.
 */
function keepManagedFieldsTimes(stored: KubeObject, current: KubeObject): boolean | undefined {
  const next = stored.metadata.managedFields;
  const old = current.metadata.managedFields;
  if (!Array.isArray(next) || !Array.isArray(old) || next.length === 0 || next.length !== old.length) return undefined;
  if (next.every((e, i) => e.time === old[i].time)) return undefined;
  if (!next.every((e, i) => deepEqual({ ...e, time: undefined }, { ...old[i], time: undefined }))) return false;
  const rest = (o: KubeObject): unknown => ({ ...o, metadata: { ...o.metadata, resourceVersion: undefined, managedFields: undefined } });
  if (!deepEqual(rest(stored), rest(current))) return false;
  stored.metadata.managedFields = next.map((e, i) => ({ ...e, time: old[i].time }));
  return true;
}

function sameContent(a: KubeObject, b: KubeObject): boolean {
  const strip = (o: KubeObject): unknown => ({ ...o, metadata: { ...o.metadata, resourceVersion: undefined } });
  return deepEqual(strip(a), strip(b));
}

/**
 * Server-side apply: the configuration merged into the live object by the field manager, which
 * answers conflicts with other managers (409) unless `force` is set; an absent object is created.
 */
/** go-yaml's duplicate keys of a JSON-written apply configuration (JSON's own words if it nests too deep for the YAML parser's stack). */
function applyDuplicateKeys(text: string): string[] {
  try {
    return yamlDuplicateFields(text);
  } catch (err) {
    if (!isStackOverflow(err) && !isYAMLStackOverflow(err)) throw err;
    return jsonDuplicateFields(text);
  }
}

async function apply(ctx: ServerContext, r: RestRequest, namespace: string, body: unknown, wctx: WriteContext, dryRun: boolean, manager: string, force: boolean): Promise<void> {
  const { type, info } = r;
  // The apply patcher checks duplicate keys after the field manager applied the configuration (its
  // conflicts come first), with a strict YAML decoding of its own: under Strict a 400 "error strict
  // decoding YAML: …", under Warn a warning per key (handlers/patch.go, applyPatcher).
  const duplicates = wctx.duplicateFields;
  wctx.duplicateFields = [];
  let duplicatesChecked = false;
  const checkDuplicates = (): void => {
    if (duplicatesChecked || duplicates.length === 0) return;
    duplicatesChecked = true;
    if (wctx.fieldValidation === 'Strict') {
      // sigs.k8s.io/yaml's UnmarshalStrict prefixes go-yaml's error (JSON's duplicate words only for a deep configuration).
      const detail = strictProblems(duplicates);
      throw KubeError.badRequest(`error strict decoding YAML: ${detail.startsWith('yaml: ') ? `error converting YAML to JSON: ${detail}` : detail}`);
    }
    for (const m of duplicates) if (!wctx.warnings.includes(m)) wctx.warnings.push(m);
  };
  // The apply patcher unmarshals the YAML into a map (a null leaves it empty), then the field manager
  // checks the configuration's group, version and kind (`invalid object type`).
  if (body !== null && !isObject(body)) {
    throw KubeError.badRequest(`error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${Array.isArray(body) ? 'array' : typeof body} into Go value of type map[string]interface {}`);
  }
  const config = (body ?? {}) as KubeObject;
  const apiVersion = typeof config.apiVersion === 'string' ? config.apiVersion : '';
  const kindOf = typeof config.kind === 'string' ? config.kind : '';
  if (info.subresource === 'scale') {
    // The scale subresource applies a Scale, to the live Scale; its replicas go to the object's
    // replicas path (the ScaleHandler converts the managed fields both ways).
    const groupVersion = groupVersionOf(type);
    const scaled = (old: KubeObject): KubeObject => {
      const obj = applyToScale(type, old, config, manager, force, wctx.now, groupVersion);
      checkDuplicates();
      if (!ctx.limits.managedFields) delete obj.metadata.managedFields;
      else setManagedFields(obj, obj.metadata.managedFields);
      return obj;
    };
    await update(ctx, r, namespace, wctx, dryRun, scaled, bodyResourceVersion(body));
    return;
  }
  if (apiVersion !== `${type.names.group === '' ? '' : `${type.names.group}/`}${type.names.version}` || kindOf !== type.names.kind) {
    const slash = apiVersion.indexOf('/');
    const gv = slash < 0 ? `/${apiVersion}` : apiVersion;
    throw KubeError.badRequest(`invalid object type: ${gv}, Kind=${kindOf}`);
  }
  const key = storeKey(namespace, info.name);
  // The configuration itself is applied (the field set is what it says, not its defaults); its
  // apiVersion and kind are checked as a decoded object's, once, where the first attempt reads it; the
  // update loop's retries merge the same configuration onto the newer object. The result is decoded
  // like an object.
  let applied: AppliedConfiguration | undefined;
  // Timestamps the applied object cannot hold: a custom resource's accessors read them as none, a
  // built-in object fails its conversion from unstructured.
  const decodeApplied = (object: KubeObject, c: WriteContext): KubeObject => {
    if (type.customResource === true) dropMalformedTimestamps(object);
    try {
      return type.decode(object, c);
    } catch (err) {
      if (err instanceof TimestampDecodeError) throw applyConversionError(apiVersion, type.names.kind, object, err);
      throw err;
    }
  };
  const applyTo = (old: KubeObject | undefined): KubeObject => {
    if (applied === undefined) {
      decodeApplied(cloneJSON(config), { ...wctx, warnings: [] });
      applied = new AppliedConfiguration(config);
    }
    const result = applyManagedFields(old, applied, manager, { force }, fieldManagerContext(r, wctx));
    checkDuplicates();
    // The field manager's result is converted from its map into the Go type.
    const obj = decodeApplied(result.object, { ...wctx, viaMap: true });
    // The patcher checks the name of what the apply made, after the field manager's conflicts.
    checkName(r, obj);
    setManagedFields(obj, result.managedFields);
    return obj;
  };
  if (ctx.store.get(type.bucket, key) === undefined) {
    // An apply creates (forceAllowCreate); a subresource's creates only where its strategy allows it
    // (StatusREST.Update passes forceAllowCreate=false to the store).
    if (info.subresource !== '' && !createsOnUpdate(r)) throw KubeError.notFound(type.groupResource, info.name);
    await create(ctx, r, namespace, applyTo(undefined), wctx, dryRun, undefined);
    return;
  }
  await update(ctx, r, namespace, wctx, dryRun, applyTo, bodyResourceVersion(body));
}
