package ratelimit_test

import (
	"testing"
	"time"

	"github.com/pinsight/pinsight/domain/ratelimit"
)

// FuzzParseLimit checks that any text either fails or gives an enabled
// limit that survives a String round trip and can be applied: a first
// request is allowed with a sane decision.
func FuzzParseLimit(f *testing.F) {
	for _, s := range []string{"600/1m", "10/30s", "off", "0", " 1/1h ", "1/0s", "-5/1m", "5/-1m", "5", "/1m", "9223372036854775807/1ns", "2/1ns", "1/2562047h", "1e3/1m"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := ratelimit.ParseLimit(s)
		if err != nil || !l.Enabled() {
			return
		}
		again, err := ratelimit.ParseLimit(l.String())
		if err != nil || again != l {
			t.Fatalf("ParseLimit(%q) = %+v; its String %q parses to %+v, %v", s, l, l.String(), again, err)
		}
		now := time.Unix(1e9, 0)
		d, tat, err := l.Take(time.Time{}, now)
		if err != nil || !d.Allowed || d.Limit != l.Requests || d.Remaining < 0 || d.Remaining >= l.Requests || d.Reset <= 0 || d.Reset > l.Window || !tat.After(now) {
			t.Fatalf("%+v: first Take = %+v, state %v, %v", l, d, tat, err)
		}
	})
}
