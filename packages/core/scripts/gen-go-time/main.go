// Command gen-go-time writes test vectors for core's parseRFC3339: hand-picked values and seeded
// mutations of valid times, each with what Go's time.Parse(time.RFC3339, value) answers (the error's
// text, or the time as t.UTC().Format(time.RFC3339), its nanoseconds and whether it is the zero time),
// as metav1.Time's UnmarshalJSON and MarshalJSON see it.
//
// Usage (from this directory): go run . > ../../test/fixtures/go_time_rfc3339.json
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"time"
)

var fixed = []string{
	"yesterday", "", "5", "2026-11-26T10:00:00Z", "2026-11-26T10:00:00.123456Z", "2026-11-26T10:00:00+02:00", "2026-11-26 10:00:00Z",
	"2026-11-26T1:00:00Z", "2026-11-26T10:00:00,5Z", "2026-11-26T10:00:00+24:00", "2026-11-26T10:00:00+23:60", "2026-11-26T10:00:00+25:61",
	"2026-11-26T10:00:00+25:00", "2026-11-26T10:00:00+2x:61", "2026-11-26T10:00:00+00:61", "2026-11-26T10:00:00*01:00", "2026-11-26T10:00:00*25:00",
	"2026-02-30T10:00:00Z", "2026-13-01T10:00:00Z", "2026-00-01T10:00:00Z", "2026-11-00T10:00:00Z", "2026-11-26T24:00:00Z", "2026-11-26T10:60:00Z",
	"2026-11-26T10:00:60Z", "2026-11-26T10:00:00Zjunk", "2026-11-26T10:00:00", "2026-11-26T10:00:00+0200", "2026-11-26T10:00:00x02:00",
	"0001-01-01T00:00:00Z", "0001-01-01T00:00:00.000000001Z", "0000-01-01T00:00:00+01:00", "0000-01-01T00:00:00Z", "9999-12-31T23:59:59-01:00",
	"9999-12-31T23:59:59Z", "2026-11-26T10:00:00.1234567891234Z", "é2026", "2026-11-26t10:00:00z", "2026-1-26T10:00:00Z", "+026-11-26T10:00:00Z",
	"2024-02-29T00:00:00Z", "2023-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2000-02-29T00:00:00Z", "2026-11-26T10:00:00.Z", "2026-11-26T10:00:00-00:00",
	`"q"\x`, "2026-11-26T10:00:00\x00Z", "2026-11-26T10:00:00é", "2026-11-26T10:00:00.é", "\u2028", "\ufffd2026",
	"2026", "2026-", "2026-1", "2026-11", "2026-11-", "2026-11-2", "2026-11-26", "2026-11-26T", "2026-11-26T1", "2026-11-26T10", "2026-11-26T10:",
	"2026-11-26T10:0", "2026-11-26T10:00", "2026-11-26T10:00:", "2026-11-26T10:00:0", "2026-11-26T10:00:00.", "2026-11-26T10:00:00+",
	"2026-11-26T10:00:00+02", "2026-11-26T10:00:00+02:", "2026-11-26T10:00:00+02:0", "2026-11-26T10:00:00+02:000", "2026-11-26T10:00:00Z ",
	" 2026-11-26T10:00:00Z", "2026-11-26T9:05:07Z", "2026-11-26T09:5:07Z", "2026-11-26T09:05:7Z", "2026-11-26T10:00:00,123456789Z",
	"2026-11-26T10:00:00.999999999999Z", "1969-12-31T23:59:59Z", "1970-01-01T00:00:00Z", "2026-11-26T10:00:00-24:00", "2026-11-26T10:00:00+24:60",
	"2026-11-26T10:00:00+-1:00", "2026-11-26T10:00:00+02-00", "2026-11-26T10:00:00Z07:00", "2026-11-26T10:00:00.5+02:00", "2026-11-26T10:00:00,5-02:30",
	"2026-11-26T1a:00:00Z", "a026-11-26T10:00:00Z", "20a6-11-26T10:00:00Z",
}

// A linear congruential generator, so the mutations are the same on every run.
type rng struct{ seed uint64 }

func (r *rng) intn(n int) int {
	r.seed = (r.seed*1103515245 + 12345) % 2147483648
	return int(r.seed % uint64(n))
}

func main() {
	values := append([]string{}, fixed...)
	alphabet := []rune("0123456789-:T Z+.,zt9aé")
	r := &rng{seed: 20261126}
	for i := 0; i < 400; i++ {
		s := []rune(fixed[3+r.intn(3)])
		for e := 1 + r.intn(3); e > 0; e-- {
			at := r.intn(len(s) + 1)
			c := alphabet[r.intn(len(alphabet))]
			switch r.intn(3) {
			case 0:
				s = append(s[:at], append([]rune{c}, s[at:]...)...)
			case 1:
				if at < len(s) {
					s = append(s[:at], s[at+1:]...)
				}
			default:
				if at < len(s) {
					s[at] = c
				} else {
					s = append(s, c)
				}
			}
		}
		values = append(values, string(s))
	}
	seen := map[string]bool{}
	out := []map[string]any{}
	for _, v := range values {
		if seen[v] {
			continue
		}
		seen[v] = true
		t, err := time.Parse(time.RFC3339, v)
		if err != nil {
			out = append(out, map[string]any{"value": v, "error": err.Error()})
			continue
		}
		out = append(out, map[string]any{"value": v, "text": t.UTC().Format(time.RFC3339), "nanos": t.Nanosecond(), "zero": t.IsZero()})
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", " ")
	if err := enc.Encode(out); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
