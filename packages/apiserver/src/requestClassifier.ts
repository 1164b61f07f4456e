/**
 * API Priority and Fairness classification, as kube-apiserver 1.34.4's config-consumer and filter do it
 * (k8s.io/apiserver/pkg/util/flowcontrol/apf_controller.go, pkg/server/filters/priority-and-fairness.go):
 * which FlowSchema, and through it which PriorityLevelConfiguration, a request belongs to. The embedded
 * server answers every classified request with the two `X-Kubernetes-PF-*` headers naming their UIDs.
 *
 * Contract:
 * - The configuration is the stored FlowSchemas and PriorityLevelConfigurations. A FlowSchema whose
 *   priority level is not stored (a dangling one, `Dangling: True`) is left out. The rest are tried in order
 *   of `matchingPrecedence`, then name (byte-wise); the first whose rules match wins
 *   ({@link compileFlowSchemaRules}).
 * - A mandatory object (`exempt`, `catch-all`) that is not stored, or a mandatory FlowSchema left out as
 *   dangling, is imagined as kube-apiserver imagines it: its bootstrap spec with an empty UID, the exempt
 *   FlowSchema first and the catch-all one last. A mandatory priority level that was stored and then deleted
 *   keeps the UID last seen (kube-apiserver retains its state). The config-producer stores them all again
 *   within a minute (flowControlBootstrap.ts).
 * - When nothing matches (only a user in neither `system:authenticated` nor `system:unauthenticated`, whom
 *   authentication and impersonation never produce, escapes the catch-all FlowSchema's fixed rules), the
 *   catch-all FlowSchema is the answer, as the apiserver's fallback.
 * - Consistency: the configuration is rebuilt on the first request after a write to either kind commits,
 *   so a request answered after a write sees it. kube-apiserver's consumer reads through informers and
 *   applies a change some 100 ms later; callers that compare the two wait for the change.
 * - Long-running requests other than watches (verb `proxy`; the `attach`, `exec`, `log`, `portforward` and
 *   `proxy` subresources; `/debug/pprof/…`) are not classified, as kube-apiserver's filter skips them.
 *
 * Only classification is served: no request waits in a queue, is limited in concurrency, or is refused
 * with a 429 (kube-apiserver's seats, queues, borrowing and work estimates are not modelled).
 *
 * @see https://kubernetes.io/docs/concepts/cluster-administration/flow-control/
 */
import { compareGoStrings } from '@kubekit/core';
import { bootstrapFlowControlObjects, mandatoryFlowControlNames } from './flowControlKinds.js';
import { compileFlowSchemaRules, type FlowSchemaPredicate, type RequestDigest } from './flowSchemaRules.js';
import { str } from './internal/own.js';
import { int, obj } from './internal/podFields.js';
import { bucketOf, type ObjectStore } from './storage/objectStore.js';
import type { KubeObject } from '@kubekit/core';

const group = 'flowcontrol.apiserver.k8s.io';
const flowSchemasBucket = bucketOf({ group, resource: 'flowschemas' });
const priorityLevelsBucket = bucketOf({ group, resource: 'prioritylevelconfigurations' });

/** The response header naming the matched FlowSchema's UID, written as Go's net/http writes it. */
export const flowSchemaUIDHeader = 'X-Kubernetes-Pf-Flowschema-Uid';
/** The response header naming the matched PriorityLevelConfiguration's UID, written as Go's net/http writes it. */
export const priorityLevelUIDHeader = 'X-Kubernetes-Pf-Prioritylevel-Uid';

/** The subresources kube-apiserver serves as long-running requests (`BasicLongRunningRequestCheck`). */
const longRunningSubresources: ReadonlySet<string> = new Set(['attach', 'exec', 'log', 'portforward', 'proxy']);

/** Where a request is classified: the FlowSchema and its priority level, by name and UID (`''` for an imagined one). */
export interface Classification {
  readonly flowSchemaName: string;
  readonly flowSchemaUID: string;
  readonly priorityLevelName: string;
  readonly priorityLevelUID: string;
}

interface CompiledFlowSchema {
  readonly name: string;
  readonly uid: string;
  readonly priorityLevel: string;
  readonly matches: FlowSchemaPredicate;
}

/** The mandatory FlowSchema `name` as kube-apiserver imagines it when none is in use: its bootstrap spec, no UID. */
function imaginedFlowSchema(name: string): CompiledFlowSchema {
  const spec = bootstrapFlowControlObjects().find((o) => o.kind === 'FlowSchema' && o.metadata.name === name)?.spec;
  return { name, uid: '', priorityLevel: name, matches: compileFlowSchemaRules(spec) };
}

/**
 * Whether kube-apiserver's filter lets a request through unclassified: a long-running request that is not
 * a watch.
 */
export function isUnclassifiedLongRunning(info: RequestDigest['info']): boolean {
  if (info.verb === 'proxy') return true;
  if (info.isResourceRequest) return longRunningSubresources.has(info.subresource);
  return info.path.startsWith('/debug/pprof/');
}

/** See the file comment. */
export class RequestClassifier {
  private flowSchemas: readonly CompiledFlowSchema[] = [];
  /** The UID of each priority level in use, by name. */
  private priorityLevels: ReadonlyMap<string, string> = new Map();
  private stale = true;
  private readonly unsubscribe: () => void;

  constructor(private readonly store: ObjectStore) {
    this.unsubscribe = store.onCommit((e) => {
      if (e.bucket === flowSchemasBucket || e.bucket === priorityLevelsBucket) this.stale = true;
    });
  }

  /** Stops following the store. */
  close(): void {
    this.unsubscribe();
  }

  /** The FlowSchema and priority level of a request, or undefined for one that is not classified. */
  classify(digest: RequestDigest): Classification | undefined {
    if (isUnclassifiedLongRunning(digest.info)) return undefined;
    if (this.stale) this.rebuild();
    let chosen = this.flowSchemas.find((fs) => fs.matches(digest));
    // The apiserver's fallback; the catch-all FlowSchema is always in use (stored or imagined).
    chosen ??= this.flowSchemas.find((fs) => fs.name === 'catch-all')!;
    return {
      flowSchemaName: chosen.name,
      flowSchemaUID: chosen.uid,
      priorityLevelName: chosen.priorityLevel,
      priorityLevelUID: this.priorityLevels.get(chosen.priorityLevel) ?? '',
    };
  }

  /** The config-consumer's digest of the stored objects (`lockAndDigestConfigObjects`). */
  private rebuild(): void {
    this.stale = false;
    const levels = new Map<string, string>();
    for (const [name, pl] of this.store.values(priorityLevelsBucket)) levels.set(name, pl.metadata.uid ?? '');
    const inUse: { object: KubeObject; precedence: number }[] = [];
    for (const [, fs] of this.store.values(flowSchemasBucket)) {
      if (!levels.has(str(obj(obj(fs.spec).priorityLevelConfiguration).name))) continue;
      inUse.push({ object: fs, precedence: int(obj(fs.spec).matchingPrecedence) ?? 0 });
    }
    inUse.sort((a, b) => a.precedence - b.precedence || compareGoStrings(a.object.metadata.name ?? '', b.object.metadata.name ?? ''));
    const compiled: CompiledFlowSchema[] = inUse.map(({ object }) => ({
      name: object.metadata.name ?? '',
      uid: object.metadata.uid ?? '',
      priorityLevel: str(obj(obj(object.spec).priorityLevelConfiguration).name),
      matches: compileFlowSchemaRules(object.spec),
    }));
    if (!compiled.some((fs) => fs.name === 'exempt')) compiled.unshift(imaginedFlowSchema('exempt'));
    if (!compiled.some((fs) => fs.name === 'catch-all')) compiled.push(imaginedFlowSchema('catch-all'));
    // A mandatory priority level no longer stored is kept as last seen, or imagined.
    for (const name of mandatoryFlowControlNames) if (!levels.has(name)) levels.set(name, this.priorityLevels.get(name) ?? '');
    this.flowSchemas = compiled;
    this.priorityLevels = levels;
  }
}
