// Numbers of a YAML body as the apiserver ends up with them. sigs.k8s.io/yaml reads YAML with go-yaml
// (an integer is an int64, else a uint64, else a float64), marshals it to JSON with encoding/json and
// decodes that JSON again (apimachinery's convertNumber: int64 if the text parses as one, else float64).
// So what a number becomes depends on the text encoding/json writes for it: `1e18` and `1.0` are written
// `1000000000000000000` and `1` and come back as int64s, `1e21` is written `1e+21` and stays a float64,
// and an integer beyond int64 (`9223372036854775808`, a uint64) comes back as a float64.
import { parseJSON, stringifyJSON } from '@kubekit/core';

/**
 * A number the `yaml` package decoded (with `intAsBigInt`), as the apiserver holds it after the round
 * trip through JSON: a safe integer `number`, a `bigint` within int64, or a float `number` (which
 * `goKind` reads as float64 when it is integral beyond 2^53). Non-finite values (`.inf`, `.nan`) are
 * returned as they are: encoding/json cannot write them.
 */
export function yamlNumberAsDecoded(v: number | bigint): number | bigint {
  if (typeof v === 'number') {
    if (Number.isSafeInteger(v) || !Number.isFinite(v)) return v;
    if (!Number.isInteger(v)) return v;
  }
  // encoding/json writes a float64 below 1e21 without an exponent, in the shortest digits that read
  // back as it (strconv 'f', -1), as JSON.stringify does; parseJSON gives int64s as Go decodes them.
  return parseJSON(stringifyJSON(v)) as number | bigint;
}
