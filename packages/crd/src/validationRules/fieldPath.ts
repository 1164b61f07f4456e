/**
 * Field paths of rule failures: the path of the schema node where a rule sits, extended by the rule's
 * `fieldPath` (normalized by resolving it in the schema), printed as the apiserver's `field.Path`
 * prints them (`spec.foo.test.x`, `spec.testMap[foo]`, `spec.list[2]`).
 */

/** `fldPath.Child(name)` on a printed path (`''` is the object's root). */
export function joinFieldPath(base: string, child: string): string {
  return base === '' ? child : `${base}.${child}`;
}
