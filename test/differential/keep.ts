/** What the scenarios keep of an answer (the `keep` functions of their steps). */

/** Only the Status fields (code, reason, message, causes) of an error answer; the body of a success. */
export const statusOnly = (b: unknown): unknown => {
  const o = b as { kind?: string; code?: number; reason?: string; message?: string; details?: { causes?: unknown } };
  return o?.kind === 'Status' ? { code: o.code, reason: o.reason, message: o.message, causes: o.details?.causes } : '<object>';
};

export const names = (b: unknown): unknown => ((b as { items?: { metadata: { name: string } }[] }).items ?? []).map((i) => i.metadata.name);
export const ofEither = (b: unknown): unknown => ((b as { kind?: string }).kind === 'Status' ? statusOnly(b) : names(b));


/**
 * A list without its own resourceVersion (the reference's etcd revision also counts the writes of
 * scenarios running beside this one); its items, kind and apiVersion as written, so that what the
 * items carry (a built-in kind's items have no apiVersion and kind) is compared.
 */
export const listBody = (b: unknown): unknown => {
  const o = b as { kind?: string; metadata?: Record<string, unknown> };
  if (o?.kind === 'Status') return statusOnly(b);
  const { resourceVersion: _rv, ...metadata } = o.metadata ?? {};
  return { ...o, metadata };
};
