/**
 * `startApiServer`: the embedded Kubernetes API server's entry point.
 */
import { createServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { errorMessage, generateCertificates, noopLogger, realClock, type Clock, type KubeObject, type Logger } from '@kubekit/core';
import { Admission } from './admission.js';
import { accessReviewTypes } from './accessReviews.js';
import { ComponentStatusType } from './componentStatuses.js';
import { createBootstrapPolicy } from './rbacBootstrap.js';
import { admissionRegistrationTypes } from './admissionRegistration.js';
import { apiServiceResourceTypes } from './apiServiceKinds.js';
import { APIServiceControllers } from './apiServiceControllers.js';
import { validatingAdmissionPolicyTypes } from './validatingAdmissionPolicy.js';
import { PolicyAdmission } from './policyAdmission.js';
import { builtinResourceTypes } from './builtinKinds.js';
import { serviceResourceTypes } from './builtinServiceKinds.js';
import { defaultServiceRange, parseServiceRange } from './serviceValidation.js';
import { KubernetesService } from './kubernetesService.js';
import { defaultServiceCIDR, defaultServiceCIDRName, ServiceIPAddresses, serviceCIDRResourceTypes, serviceCIDRsBucket } from './serviceCIDRKinds.js';
import { policyResourceTypes } from './policyKinds.js';
import { autoscalingResourceTypes } from './autoscalingKinds.js';
import { persistentVolumeResourceTypes } from './persistentVolumeKinds.js';
import { storageResourceTypes } from './storageKinds.js';
import { csiResourceTypes } from './csiKinds.js';
import { draResourceTypes } from './draKinds.js';
import { flowControlResourceTypes } from './flowControlKinds.js';
import { FlowControlControllers } from './flowControlBootstrap.js';
import { networkingResourceTypes } from './networkingKinds.js';
import { nodeResourceTypes } from './nodeKinds.js';
import { certificateResourceTypes } from './certificateKinds.js';
import { RbacAuthorizer } from './rbacAuthorizer.js';
import { endpointResourceTypes } from './endpointKinds.js';
import { limitRangeResourceTypes } from './limitRangeKinds.js';
import { LimitRanger } from './limitRanger.js';
import { DefaultTolerationSecondsAdmission, PodPriorityAdmission } from './podAdmission.js';
import { NamespaceLifecycleAdmission } from './namespaceLifecycle.js';
import { RuntimeClassAdmission } from './runtimeClassAdmission.js';
import { ClaimResizeAdmission } from './claimResizeAdmission.js';
import { runtimeClassResourceTypes } from './runtimeClassKinds.js';
import { QuotaAdmission } from './quotaAdmission.js';
import { resourceQuotaResourceTypes } from './resourceQuotaKinds.js';
import { eventResourceTypes } from './eventKinds.js';
import { schedulingResourceTypes, systemPriorityClasses } from './schedulingKinds.js';
import { priorityClassLister, priorityClassesBucket } from './internal/priorityClassLister.js';
import { workloadResourceTypes } from './builtinWorkloads.js';
import { legacyWorkloadResourceTypes } from './legacyWorkloadKinds.js';
import { ResourceCatalog } from './catalog.js';
import { Controllers } from './controllers.js';
import { GarbageCollector } from './garbageCollector.js';
import { CrdRegistry } from './crdRegistry.js';
import { CustomResourceDefinitionType } from './crdResource.js';
import { kubeconfigYAML } from './kubeconfig.js';
import { timestamp } from './objectMeta.js';
import { FilePersistence } from './persistence.js';
import { answerClientError, createRequestHandler, maxHeaderBytes } from './server.js';
import { RequestClassifier } from './requestClassifier.js';
import { ServiceAccountTokens } from './serviceAccountTokens.js';
import type { NamespacePhase, ServerContext, ServerLimits } from './serverContext.js';
import { ObjectStore } from './storage/objectStore.js';
import { ResourceVersionWaiter } from './storage/resourceVersionWaiter.js';
import { WatchHub } from './watchHub.js';
import type { WebhookServiceResolver } from './internal/webhookClient.js';
import { DeepYAMLParser, type DeepYAMLOptions } from './internal/deepYAML.js';
import { randomUUID } from 'node:crypto';

/** Options of {@link startApiServer}. Every option has a default; `{}` starts an in-memory server. */
export interface ApiServerOptions {
  /** The TCP port; 0 picks a free one. @defaultValue 0 */
  port?: number;
  /** The address to bind. @defaultValue `127.0.0.1` */
  host?: string;
  /**
   * A directory for durable storage (snapshot + write-ahead log, fsynced before each write is
   * acknowledged). @defaultValue none: memory only
   */
  dataDir?: string;
  /**
   * A bearer token: a request with it is the server's own (all allowed), one with another token a 401, and one
   * without a token the anonymous user's (`system:anonymous`, group `system:unauthenticated`), allowed by RBAC
   * only `/version` and the health checks unless a binding grants more, as kube-apiserver's `--anonymous-auth`.
   * @defaultValue none: every request is the server's own
   */
  token?: string;
  /**
   * Whether the RBAC objects a kube-apiserver creates when it starts (the default policy's 68 ClusterRoles
   * and 49 ClusterRoleBindings, the Roles and RoleBindings of kube-system and kube-public) are created, as
   * on a cluster. The access reviews answer from them, and the anonymous user's access to `/version` and the
   * health endpoints comes from them (`system:public-info-viewer`): without them, on a server with a `token`,
   * those answer a request without one with a 403. @defaultValue true
   */
  bootstrapPolicy?: boolean;
  /**
   * Serve https: with this certificate and key (PEM), or, with `true`, with a certificate generated at
   * start for `127.0.0.1`, `::1`, `localhost` and the bound address, signed by a CA generated with it
   * (`generateCertificates` of `@kubekit/core`). The kubeconfig then carries the CA. @defaultValue plain http
   */
  tls?: boolean | ServingCertificate;
  /**
   * The `CustomResourceFieldSelectors` feature gate. Off, the server behaves as a pre-1.31 cluster:
   * `selectableFields` are dropped from CRD writes (unless the stored CRD already had them), custom
   * field selectors get `400 field label not supported`, and OpenAPI omits
   * `x-kubernetes-selectable-fields`. @defaultValue true
   */
  customResourceFieldSelectors?: boolean;
  /**
   * The range Services' cluster IPs come from (kube-apiserver's `--service-cluster-ip-range`): an IPv4 CIDR.
   * A Service that asks for an address outside it is refused, as a cluster refuses it. @defaultValue `10.96.0.0/12`
   */
  serviceClusterIPRange?: string;
  /**
   * The Kubernetes version `/version` reports (`1.34` or `1.34.4`), as `gitVersion` `v1.34.4+kubekit` (build
   * metadata, so that semver ranges such as `>=1.30.0` take it). @defaultValue `1.34.4`, the version whose
   * behaviour the server follows; `1.30` with the gate off
   */
  kubernetesVersion?: string;
  /** Receives one `info` line per request, and warnings. @defaultValue no logging */
  logger?: Logger;
  /** The largest request body, in bytes. @defaultValue 3 MiB (the apiserver's limit) */
  maxRequestBodyBytes?: number;
  /** How many changes the watch history keeps. @defaultValue 10000 */
  watchHistorySize?: number;
  /** The most events that may wait for one watcher before it is disconnected. @defaultValue 10000 */
  watchMaxQueue?: number;
  /** The most bytes that may sit unsent in one watch before it is disconnected. @defaultValue 16 MiB */
  watchMaxBufferedBytes?: number;
  /** The interval of watch bookmarks. @defaultValue 60000 ms */
  bookmarkIntervalMs?: number;
  /** Watches without `timeoutSeconds` last between this and twice this. @defaultValue 1800 s */
  minRequestTimeoutSeconds?: number;
  /**
   * How many reads (gets, lists, watches with `sendInitialEvents`) may wait at once for a resourceVersion
   * the server has not reached; one more is answered `429 Too many requests, please try again later.`,
   * as the apiserver's in-flight limit answers. Each waits up to 3 s, as kube-apiserver's watch cache
   * does, then gets `504 Timeout: Too large resource version`.
   * @defaultValue 400 (the apiserver's `--max-requests-inflight`)
   */
  maxWaitingReads?: number;
  /** Whether lists use indexes on selectable fields. @defaultValue true */
  fieldIndexes?: boolean;
  /**
   * Whether creates, updates and non-apply patches record `metadata.managedFields` as the apiserver's
   * field manager does (server-side apply always computes ownership). Off only to measure its cost.
   * @defaultValue true
   */
  managedFields?: boolean;
  /**
   * YAML bodies nested deeper than a few hundred levels are parsed on worker threads: how many at
   * once, how many may wait, and their deadline (see {@link DeepYAMLOptions}).
   * @defaultValue 2 workers, 16 waiting, 60 s
   */
  deepYAML?: DeepYAMLOptions;
  /** The clock for timestamps, watch timers and the deep-YAML deadline. @defaultValue the real clock */
  clock?: Clock;
  /**
   * Where webhooks given as a `service` reference (conversion, admission) are dialled: a base URL for
   * the service; the certificate is still checked for `<name>.<namespace>.svc`.
   * @defaultValue `https://127.0.0.1:<service port>`
   */
  resolveWebhookService?: WebhookServiceResolver;
}

/** A serving certificate and its private key, PEM-encoded. */
export interface ServingCertificate {
  /** The certificate (chain), PEM. */
  cert: string;
  /** The private key, PEM. */
  key: string;
  /** The CA clients should trust, PEM. @defaultValue `cert` (self-signed) */
  ca?: string;
}

/** A running embedded API server. */
export interface ApiServer {
  /** The base URL, `http://127.0.0.1:PORT` (`https` with TLS; a loopback address when bound to all addresses). */
  readonly url: string;
  /** The CA certificate (PEM) clients should trust, when serving https. */
  readonly certificateAuthority: string | undefined;
  /** A kubeconfig (YAML text) for this server, with its token if any. */
  readonly kubeconfig: string;
  /** The port bound. */
  readonly port: number;
  /** The resourceVersion of the latest write. */
  readonly resourceVersion: number;
  /** How many watches are open. */
  readonly watchCount: number;
  /** How many reads wait for a resourceVersion the server has not reached yet (see `maxWaitingReads`). */
  readonly waitingReads: number;
  /**
   * Resolves once the background controllers (CRD status, namespace and CRD cleanup, the garbage
   * collector of owner references) are idle.
   */
  idle(): Promise<void>;
  /** Stops serving: ends watches and connections, flushes and closes storage. */
  close(): Promise<void>;
}

const defaultNamespaces = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

/**
 * Starts an embedded Kubernetes API server over HTTP.
 *
 * @example
 * ```ts
 * const server = await startApiServer();
 * const res = await fetch(`${server.url}/api/v1/namespaces`);
 * await server.close();
 * ```
 */
export async function startApiServer(options: ApiServerOptions = {}): Promise<ApiServer> {
  const gate = options.customResourceFieldSelectors ?? true;
  // A bad range is refused before anything starts.
  if (options.serviceClusterIPRange !== undefined) parseServiceRange(options.serviceClusterIPRange);
  const clock = options.clock ?? realClock;
  const logger = options.logger ?? noopLogger;
  const limits: ServerLimits = {
    maxRequestBodyBytes: options.maxRequestBodyBytes ?? 3 * 1024 * 1024,
    watchMaxQueue: options.watchMaxQueue ?? 10_000,
    watchMaxBufferedBytes: options.watchMaxBufferedBytes ?? 16 * 1024 * 1024,
    bookmarkIntervalMs: options.bookmarkIntervalMs ?? 60_000,
    minRequestTimeoutSeconds: options.minRequestTimeoutSeconds ?? 1800,
    fieldIndexes: options.fieldIndexes ?? true,
    managedFields: options.managedFields ?? true,
  };

  // Before anything is opened: bad options throw here.
  const maxWaitingReads = options.maxWaitingReads ?? 400;
  if (!Number.isInteger(maxWaitingReads) || maxWaitingReads < 0) throw new RangeError(`maxWaitingReads must be an integer of at least 0, got ${maxWaitingReads}`);
  const deepYAML = new DeepYAMLParser({ ...options.deepYAML, clock });

  let persistence: FilePersistence | undefined;
  const store = await (async () => {
    if (options.dataDir === undefined) return new ObjectStore({ historySize: options.watchHistorySize });
    const opened = await FilePersistence.open(options.dataDir);
    persistence = opened.persistence;
    const s = new ObjectStore({ persistence, historySize: options.watchHistorySize });
    s.load(opened.records, opened.rv);
    persistence.setSnapshotSource(() => ({ rv: s.resourceVersion, entries: s.entries() }));
    return s;
  })();

  const hub = new WatchHub(store);
  const resourceVersions = new ResourceVersionWaiter(store, { clock, maxWaiting: maxWaitingReads });
  const ctx: ServerContext = {
    store, hub, resourceVersions, clock, limits,
    deepYAML,
    namespacePhase(namespace: string): NamespacePhase {
      const ns = store.get('/namespaces', namespace);
      if (ns === undefined) return undefined;
      return ns.metadata.deletionTimestamp === undefined ? 'Active' : 'Terminating';
    },
  };
  const crds = new CrdRegistry(store, hub, { customResourceFieldSelectors: gate, resolveService: options.resolveWebhookService });
  const [mutatingType, validatingType] = admissionRegistrationTypes();
  const [policyType, bindingType] = validatingAdmissionPolicyTypes();
  const classes = priorityClassLister(store);
  const [priorityClassType] = schedulingResourceTypes(classes);
  const [quotaType] = resourceQuotaResourceTypes();
  const [serviceCIDRType, ipAddressType] = serviceCIDRResourceTypes();
  const [apiServiceType] = apiServiceResourceTypes();
  const catalog = new ResourceCatalog([...builtinResourceTypes(), ...eventResourceTypes(), ...nodeResourceTypes(), ...certificateResourceTypes((user, request) => new RbacAuthorizer(store).authorize(user, request).allowed), ...endpointResourceTypes(), quotaType, ...limitRangeResourceTypes(), ...serviceResourceTypes(store, options.serviceClusterIPRange), ...persistentVolumeResourceTypes(), ...storageResourceTypes(), ...csiResourceTypes(), ...draResourceTypes(store), ...flowControlResourceTypes(), ...workloadResourceTypes(), ...legacyWorkloadResourceTypes(), ...autoscalingResourceTypes(), ...policyResourceTypes(), ...networkingResourceTypes(store), serviceCIDRType, ipAddressType, priorityClassType, ...runtimeClassResourceTypes(), mutatingType, validatingType, policyType, bindingType, apiServiceType, ...accessReviewTypes(options.token), new ComponentStatusType()], new CustomResourceDefinitionType(gate), crds);
  ctx.resolveType = (group, version, resource) => catalog.resolve(group, version, resource);
  const policies = new PolicyAdmission({ store, policyType, bindingType, types: () => catalog.all() });
  ctx.admission = new Admission({
    store, types: () => catalog.all(), mutatingType, validatingType, resolveService: options.resolveWebhookService, policies, logger,
    // The in-tree plugins that read stored objects (the others are the kinds' own strategies).
    // In the apiserver's order of plugins: NamespaceLifecycle, LimitRanger, Priority,
    // DefaultTolerationSeconds, PersistentVolumeClaimResize, RuntimeClass.
    plugins: [new NamespaceLifecycleAdmission(), new LimitRanger(store), new PodPriorityAdmission(classes), new DefaultTolerationSecondsAdmission(), new ClaimResizeAdmission(store), new RuntimeClassAdmission(store)],
    finalPlugins: [new QuotaAdmission({ store, quotaType, clock, managedFields: limits.managedFields })],
  });

  for (const name of defaultNamespaces) {
    if (store.get('/namespaces', name) !== undefined) continue;
    const ns: KubeObject = {
      apiVersion: 'v1', kind: 'Namespace',
      metadata: { name, uid: randomUUID(), creationTimestamp: timestamp(clock.now()), labels: { 'kubernetes.io/metadata.name': name } },
      spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' },
    };
    await store.create({ group: '', resource: 'namespaces' }, name, name, ns).durable;
  }
  // The scheduling/bootstrap-system-priority-classes post-start hook: each system class that is not stored.
  for (const pc of systemPriorityClasses()) {
    const name = pc.metadata.name ?? '';
    if (store.get(priorityClassesBucket, name) !== undefined) continue;
    Object.assign(pc.metadata, { uid: randomUUID(), creationTimestamp: timestamp(clock.now()) });
    await store.create(priorityClassType.groupResource, name, name, await priorityClassType.toStorage(pc)).durable;
  }
  if (options.bootstrapPolicy !== false) await createBootstrapPolicy(store, clock.now());
  // The default-servicecidr controller: the ServiceCIDR of the service range, when not stored.
  if (store.get(serviceCIDRsBucket, defaultServiceCIDRName) === undefined) {
    const cidr = defaultServiceCIDR(options.serviceClusterIPRange ?? defaultServiceRange, timestamp(clock.now()));
    await store.create(serviceCIDRType.groupResource, defaultServiceCIDRName, defaultServiceCIDRName, await serviceCIDRType.toStorage(cidr)).durable;
  }
  const serviceIPs = new ServiceIPAddresses(store, () => timestamp(clock.now()), (err) => logger.warn('writing a Service\'s IPAddress failed', { error: errorMessage(err) }));
  const controllers = new Controllers(ctx, catalog);
  // The API Priority and Fairness config-producer's objects, then its config-consumer.
  const flowControl = new FlowControlControllers(ctx, catalog, logger);
  await flowControl.start();
  // The local APIServices (kube-apiserver's autoregistration at start), then the APIService controllers.
  const apiServices = new APIServiceControllers(ctx, catalog, apiServiceType, logger);
  await apiServices.start();
  const collector = new GarbageCollector(ctx, catalog);

  const [major, minor, patch = '0'] = (options.kubernetesVersion ?? (gate ? '1.34.4' : '1.30')).split('.');
  let address = '';
  const bindHost = options.host ?? '127.0.0.1';
  const serving = options.tls === true ? generatedServingCertificate(bindHost) : options.tls === false ? undefined : options.tls;
  // The service account issuer is the server's URL (as `--service-account-issuer` is on the reference).
  ctx.serviceAccountTokens = new ServiceAccountTokens(store, () => `${serving === undefined ? 'http' : 'https'}://${address}`, () => clock.now());
  const classifier = new RequestClassifier(store);
  const handler = createRequestHandler(ctx, {
    catalog, token: options.token, logger, customResourceFieldSelectors: gate, classifier,
    version: { major, minor, gitVersion: `v${major}.${minor}.${patch}+kubekit` },
    serverAddress: () => address,
  });
  const server: Server = serving === undefined
    ? createServer({ keepAliveTimeout: 65_000, maxHeaderSize: maxHeaderBytes }, handler)
    : createHttpsServer({ keepAliveTimeout: 65_000, maxHeaderSize: maxHeaderBytes, cert: serving.cert, key: serving.key }, handler);
  server.on('clientError', answerClientError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, bindHost, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // After listening, an error is a connection that could not be accepted (too many open files, say):
  // an 'error' event without a listener would end the process; Go's server logs it and goes on.
  server.on('error', (err) => logger.warn('accepting a connection failed; still listening', { error: errorMessage(err) }));
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  address = `${host}:${addr.port}`;
  // Bound to every address, the server is reached at its loopback one: 0.0.0.0 names no host to dial.
  const reachable = addr.address === '0.0.0.0' ? '127.0.0.1' : addr.address === '::' ? '[::1]' : host;
  const url = `${serving === undefined ? 'http' : 'https'}://${reachable}:${addr.port}`;
  logger.info(`kubekit API server listening on ${url}`, { url, address, dataDir: options.dataDir ?? '', customResourceFieldSelectors: gate });
  if (!isLoopback(addr.address) && options.token === undefined) {
    logger.warn(`serving on ${address}, which is not a loopback address, without a token: anyone who can reach it can read and change everything`, { address });
  }
  const certificateAuthority = serving === undefined ? undefined : serving.ca ?? serving.cert;
  // The bootstrap controller's `kubernetes` Service, once the server's port is known.
  const kubernetesService = new KubernetesService(store, catalog.resolve('', 'v1', 'services')!, options.serviceClusterIPRange ?? defaultServiceRange, addr.port,
    () => timestamp(clock.now()), limits.managedFields, (err) => logger.warn('creating the kubernetes Service failed', { error: errorMessage(err) }));
  await kubernetesService.start();

  let closing: Promise<void> | undefined;
  return {
    url,
    port: addr.port,
    certificateAuthority,
    kubeconfig: kubeconfigYAML({ server: url, token: options.token, certificateAuthority }),
    get resourceVersion() {
      return store.resourceVersion;
    },
    get watchCount() {
      return hub.size;
    },
    get waitingReads() {
      return resourceVersions.waiting;
    },
    async idle() {
      // Each may give the other work (a namespace's cleanup orphans dependents, ...): wait until both rest.
      for (let i = 0; i < 100; i++) {
        await controllers.idle();
        await collector.idle();
        await apiServices.idle();
        await flowControl.idle();
        if (controllers.isIdle() && collector.isIdle() && apiServices.isIdle() && flowControl.isIdle()) return;
      }
    },
    close() {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        // The background loops stop, and their writes in flight land, before storage is flushed and closed.
        serviceIPs.close();
        classifier.close();
        await kubernetesService.close();
        const stopped = Promise.all([controllers.close(), collector.close(), apiServices.close(), flowControl.close(), ctx.deepYAML.close()]);
        hub.close();
        resourceVersions.close();
        server.closeAllConnections();
        await closed;
        await stopped;
        crds.close();
        await store.flush();
        await persistence?.close();
      })();
      return closing;
    },
  };
}

/** Whether an address is a loopback one (`127.0.0.0/8`, `::1`, `::ffff:127.x`). */
export function isLoopback(address: string): boolean {
  const a = address.replace(/^\[|\]$/g, '').toLowerCase();
  return a === 'localhost' || a === '::1' || /^(::ffff:)?127\.\d+\.\d+\.\d+$/.test(a);
}

/**
 * A serving certificate (EC P-256, one year) for the loopback names and the bound host, signed by a CA
 * generated with it; the CA is what the kubeconfig trusts.
 */
function generatedServingCertificate(bindHost: string): ServingCertificate {
  const hosts = new Set(['127.0.0.1', '::1', 'localhost']);
  if (bindHost !== '0.0.0.0' && bindHost !== '::' && bindHost !== '') hosts.add(bindHost.replace(/^\[|\]$/g, ''));
  const generated = generateCertificates({ hosts: [...hosts], commonName: 'kubekit-apiserver', caCommonName: 'kubekit-apiserver-ca' });
  return { cert: generated.cert, key: generated.key, ca: generated.caCert };
}
