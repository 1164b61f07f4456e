/**
 * A boolean query parameter as the apiserver converts it (`runtime.Convert_Slice_string_To_bool` and
 * `_Pointer_bool` of apimachinery's conversion): false for `0`, `f`, `false`, `n` or `no` in any case,
 * true for anything else, the empty string included; an absent parameter is `undefined`.
 */
export function queryBool(value: string | null): boolean | undefined {
  if (value === null) return undefined;
  return !['0', 'f', 'false', 'n', 'no'].includes(value.toLowerCase());
}
