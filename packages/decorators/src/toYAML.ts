import { Document, Scalar, isScalar, parse, visit, type Tags } from 'yaml';

/**
 * Writes objects as kubectl-ready YAML: one document per object (an array is several documents,
 * separated by `---`), keys in the objects' own order (which for generated CRDs is kubekit's stable
 * order), no line folding, and YAML 1.1 quoting, so that strings such as `yes`, `on`, `no`, `y`,
 * `0777` or `1:20` stay strings for YAML 1.1 readers (kubectl's go-yaml among them). Big integers
 * (`bigint`) are written in full. A key `<<` is quoted: plain, YAML 1.1 readers (go-yaml included) take it
 * for a merge key. Strings a YAML 1.2 reader would take for numbers (`0o17`, `1e5`) are quoted too.
 *
 * @example
 * ```ts
 * writeFileSync('shirts.stable.example.com.yaml', toYAML(customResourceDefinition(Shirt)));
 * ```
 */
export function toYAML(objects: unknown): string {
  const documents = Array.isArray(objects) ? objects : [objects];
  return documents
    .map((object) => {
      // Without the merge tag in the writing schema, a `<<` key is an ordinary string that can be quoted.
      const doc = new Document(object, { version: '1.1', aliasDuplicateObjects: false, customTags: withoutMergeKey });
      visit(doc, {
        Pair(_, pair) {
          if (isScalar(pair.key) && pair.key.value === '<<') pair.key.type = Scalar.QUOTE_DOUBLE;
        },
        Scalar(_, node) {
          if (typeof node.value === 'string' && readsAsNonStringIn12(node.value)) node.type = Scalar.QUOTE_DOUBLE;
        },
      });
      return doc.toString({ lineWidth: 0, indentSeq: false });
    })
    .join('---\n');
}

/**
 * Whether a YAML 1.2 reader (its core schema) takes the plain scalar `text` for something other than a
 * string, where YAML 1.1 does not: `0o17` (octal), `1e5` (a float without a dot). YAML 1.1 quoting covers
 * the rest; only texts that start like a number are parsed.
 */
function readsAsNonStringIn12(text: string): boolean {
  if (!/^[-+]?[.0-9]/.test(text)) return false;
  try {
    return typeof parse(text, { version: '1.2' }) !== 'string';
  } catch {
    return false;
  }
}

/** The YAML 1.1 tags less the merge key, for writing. */
function withoutMergeKey(tags: Tags): Tags {
  return tags.filter((tag) => typeof tag === 'string' || tag.tag !== 'tag:yaml.org,2002:merge');
}
