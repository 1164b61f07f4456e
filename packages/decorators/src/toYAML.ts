import { Document } from 'yaml';

/**
 * Writes objects as kubectl-ready YAML: one document per object (an array is several documents,
 * separated by `---`), keys in the objects' own order (which for generated CRDs is kubekit's stable
 * order), no line folding, and YAML 1.1 quoting, so that strings such as `yes`, `on`, `no`, `y`,
 * `0777` or `1:20` stay strings for YAML 1.1 readers (kubectl's go-yaml among them). Big integers
 * (`bigint`) are written in full.
 *
 * @example
 * ```ts
 * writeFileSync('shirts.stable.example.com.yaml', toYAML(customResourceDefinition(Shirt)));
 * ```
 */
export function toYAML(objects: unknown): string {
  const documents = Array.isArray(objects) ? objects : [objects];
  return documents
    .map((object) => new Document(object, { version: '1.1', aliasDuplicateObjects: false }).toString({ lineWidth: 0, indentSeq: false }))
    .join('---\n');
}
