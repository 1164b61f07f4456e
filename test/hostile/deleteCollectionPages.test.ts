// A DELETE of a collection, as store.DeleteCollection (k8s.io/apiserver registry/generic/registry/store.go)
// and transformResponseObject (handlers/response.go) of kube-apiserver 1.34.4 serve it:
// - with `limit`, one page is deleted and answered, with its continue token (and, unfiltered, remainingItemCount), so that a
//   client (controller-runtime's DeleteAllOf with a limit) deletes page by page; with `continue`, from there.
//   kubekit deleted the whole collection whatever the limit or continue token asked: data loss.
// - the answer is the list as read before the deletions, its resourceVersion the list's, not the one after.
// - it is answered as a list's GET is: a Table or a PartialObjectMetadataList when asked for (kubekit wrote
//   the kind's list whatever was asked), an empty PartialObjectMetadataList's items `null`; asking for one
//   object's metadata is the 406, and a bad `includeObject` of a Table the 400, both after the deletions.
// - without a body, the query's `uid` and `resourceVersion` are preconditions of each deletion.
// - Namespaces have none: 405.
// Every expected answer is the reference's.
import { expect } from 'chai';
import { answered, describeOnBothServers, TABLE, type Send } from './sender.js';

const CM = '/api/v1/namespaces/default/configmaps';
const POM = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1';
const POML = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';

interface List { kind: string; metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number }; items: { metadata: { name: string; resourceVersion: string } }[] | null }

async function run(s: Send): Promise<void> {
  const create = async (names: string[], set: string): Promise<string[]> => {
    const rvs: string[] = [];
    for (const name of names) {
      rvs.push(answered<{ metadata: { resourceVersion: string } }>(await s('POST', CM, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { set } } })), 201).metadata.resourceVersion);
    }
    return rvs;
  };
  const left = async (set: string): Promise<string[]> => (answered<List>(await s('GET', `${CM}?labelSelector=set%3D${set}`)).items ?? []).map((i) => i.metadata.name);
  const names = (l: List): string[] => (l.items ?? []).map((i) => i.metadata.name);

  // A page at a time.
  const rvs = await create(['a', 'b', 'c'], 'p');
  const page = answered<List>(await s('DELETE', `${CM}?labelSelector=set%3Dp&limit=1`));
  expect([page.kind, names(page), page.items?.[0].metadata.resourceVersion, page.metadata.remainingItemCount, typeof page.metadata.continue]).to.deep.equal(['ConfigMapList', ['a'], rvs[0], undefined, 'string']);
  expect(await left('p')).to.deep.equal(['b', 'c']);
  const listed = answered<List>(await s('GET', `${CM}?labelSelector=set%3Dp&limit=1`));
  const next = answered<List>(await s('DELETE', `${CM}?labelSelector=set%3Dp&limit=1&continue=${encodeURIComponent(listed.metadata.continue!)}`));
  expect([names(next), next.metadata.remainingItemCount, next.metadata.continue === undefined]).to.deep.equal([['c'], undefined, true]);
  expect(await left('p')).to.deep.equal(['b']);
  // Without a limit, from a continue token: the rest of the collection after it.
  await create(['d', 'e'], 'p');
  const first = answered<List>(await s('GET', `${CM}?labelSelector=set%3Dp&limit=1`));
  const rest = answered<List>(await s('DELETE', `${CM}?labelSelector=set%3Dp&continue=${encodeURIComponent(first.metadata.continue!)}`));
  expect([names(first), names(rest), rest.metadata.continue === undefined]).to.deep.equal([['b'], ['d', 'e'], true]);
  expect(await left('p')).to.deep.equal(['b']);
  // The list as read: its resourceVersion is older than the deletions'.
  const all = answered<List>(await s('DELETE', `${CM}?labelSelector=set%3Dp`));
  const after = answered<List>(await s('GET', CM));
  expect(names(all)).to.deep.equal(['b']);
  expect(BigInt(all.metadata.resourceVersion!) < BigInt(after.metadata.resourceVersion!)).to.equal(true);

  // In the format asked for.
  await create(['t1', 't2'], 't');
  const table = answered<{ kind: string; columnDefinitions: { name: string }[]; rows: { cells: unknown[]; object: { kind: string; metadata: { name: string } } }[] }>(await s('DELETE', `${CM}?labelSelector=set%3Dt`, undefined, undefined, TABLE));
  expect([table.kind, table.columnDefinitions.map((c) => c.name), table.rows.map((r) => [r.cells[0], r.object.kind, r.object.metadata.name])]).to.deep.equal([
    'Table', ['Name', 'Data', 'Age'], [['t1', 'PartialObjectMetadata', 't1'], ['t2', 'PartialObjectMetadata', 't2']],
  ]);
  await create(['m1'], 'm');
  const metadata = answered<{ kind: string; apiVersion: string; items: { kind: string; metadata: { name: string } }[] | null }>(await s('DELETE', `${CM}?labelSelector=set%3Dm`, undefined, undefined, POML));
  expect([metadata.kind, metadata.apiVersion, metadata.items?.map((i) => [i.kind, i.metadata.name])]).to.deep.equal(['PartialObjectMetadataList', 'meta.k8s.io/v1', [['PartialObjectMetadata', 'm1']]]);
  const none = answered<{ kind: string; items: unknown }>(await s('DELETE', `${CM}?labelSelector=set%3Dm`, undefined, undefined, POML));
  expect([none.kind, none.items]).to.deep.equal(['PartialObjectMetadataList', null]);
  const emptyList = answered<{ kind: string; items: unknown }>(await s('GET', `${CM}?labelSelector=set%3Dm`, undefined, undefined, POML));
  expect([emptyList.kind, emptyList.items]).to.deep.equal(['PartialObjectMetadataList', null]);

  // Refused after the deletions.
  await create(['o1'], 'o');
  const one = await s('DELETE', `${CM}?labelSelector=set%3Do`, undefined, undefined, POM);
  expect([one.status, one.message]).to.deep.equal([406, 'you requested PartialObjectMetadata, but the requested object is a list (*core.ConfigMapList)']);
  expect(await left('o')).to.deep.equal([]);
  await create(['i1'], 'i');
  const include = await s('DELETE', `${CM}?labelSelector=set%3Di&includeObject=Everything`, undefined, undefined, TABLE);
  expect([include.status, include.message]).to.deep.equal([400, "Unable to convert to Table as requested: includeObject: Invalid value: \"Everything\": must be 'Metadata', 'Object', 'None', or empty"]);
  expect(await left('i')).to.deep.equal([]);
  // Without a body, the query's `uid` and `resourceVersion` are the DeleteOptions' preconditions
  // (Convert_url_Values_To_v1_DeleteOptions), for each object of a collection too: a collection's
  // `resourceVersion` is its list's and every deletion's precondition, so nothing is deleted.
  const [k1] = await create(['k1'], 'k');
  const conflict = (which: string, sent: string, record: string): string => `Operation cannot be fulfilled on ConfigMap "k1": the ${which} in the precondition (${sent}) does not match the ${which} in record (${record}). The object might have been ${which === 'UID' ? 'deleted and then recreated' : 'modified'}`;
  const byRV = await s('DELETE', `${CM}/k1?resourceVersion=1`);
  expect([byRV.status, byRV.message]).to.deep.equal([409, conflict('ResourceVersion', '1', k1)]);
  const collection = await s('DELETE', `${CM}?labelSelector=set%3Dk&resourceVersion=0`);
  expect([collection.status, collection.message]).to.deep.equal([409, conflict('ResourceVersion', '0', k1)]);
  const byUID = await s('DELETE', `${CM}?labelSelector=set%3Dk&uid=nope`);
  expect([byUID.status, byUID.message.replace(/record \([^)]*\)/, 'record (…)')]).to.deep.equal([409, conflict('UID', 'nope', '…')]);
  expect(await left('k')).to.deep.equal(['k1']);
  expect(answered<{ status: string }>(await s('DELETE', `${CM}/k1?resourceVersion=${k1}&uid=`)).status).to.equal('Success');
  // Namespaces have no DELETE of the collection (their discovery lists no deletecollection): go-restful's 405,
  // whatever the query. kubekit deleted every namespace, and with them everything in them.
  await create(['n1'], 'n');
  for (const q of ['', '?dryRun=All', '?labelSelector=kubernetes.io%2Fmetadata.name%3Ddefault']) {
    const refused = await s('DELETE', `/api/v1/namespaces${q}`);
    expect([refused.status, refused.message], q).to.deep.equal([405, 'the server does not allow this method on the requested resource']);
  }
  expect(answered<{ metadata: { deletionTimestamp?: string } }>(await s('GET', '/api/v1/namespaces/default')).metadata.deletionTimestamp).to.equal(undefined);
  expect(await left('n')).to.deep.equal(['n1']);
  // Without a Table, includeObject is not read.
  await create(['j1'], 'j');
  expect(names(answered<List>(await s('DELETE', `${CM}?labelSelector=set%3Dj&includeObject=Everything`)))).to.deep.equal(['j1']);
}

describeOnBothServers('DELETE of a collection: a page at a time with limit and continue, the list as read, in the format asked for, kubekit and the real kube-apiserver', run);
