package webpage_test

import (
	"strings"
	"testing"

	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/domain/webpage"
)

// TestNumericHosts: every way of writing an IPv4 address as something other
// than a canonical dotted quad is refused (CheckURL says why on url), so it
// never reaches a resolver; names, canonical IPv4 and IPv6 literals pass
// (the fetcher's guard then checks the address itself).
func TestNumericHosts(t *testing.T) {
	refused := []string{
		"127.1", "127.0.1", "2130706433", "0x7f000001", "0X7F000001", "0x7f.1", "0177.0.0.1",
		"127.000.000.001", "127.0.0.01", "00000000127.0.0.1", "0x", "1.2.3.4.5", "256.0.0.1",
		"127.0.0.1.", "0", "4294967296", "example.123", "example.0x1f", "[::1]x", "::ffff:0177.0.0.1",
	}
	for _, h := range refused {
		if webpage.NumericHostReason(h) == "" {
			t.Errorf("NumericHostReason(%q) = \"\", want refused", h)
		}
	}
	allowed := []string{
		"example.com", "127.0.0.1", "10.0.0.1", "93.184.215.14", "0.0.0.0", "::1", "2001:db8::1",
		"::ffff:127.0.0.1", "fe80::1%eth0", "1e100.net", "123.example", "0x.example", "example.com.",
		"localhost", "xn--bcher-kva.example", "0xfeed.com",
	}
	for _, h := range allowed {
		if r := webpage.NumericHostReason(h); r != "" {
			t.Errorf("NumericHostReason(%q) = %q, want allowed", h, r)
		}
	}
	for _, u := range []string{"http://127.1/", "http://2130706433/", "https://0x7f000001:443/x", "http://0177.0.0.1/", "http://127.000.000.001/"} {
		err := report.CheckURL(u)
		ve, ok := err.(*report.ValidationError)
		if !ok || len(ve.Fields["url"]) != 1 || !strings.Contains(ve.Fields["url"][0], "not a canonical IP address") {
			t.Errorf("CheckURL(%s) = %v, want 422 on url naming the rule", u, err)
		}
	}
	for _, u := range []string{"http://127.0.0.1/", "http://[::1]:80/", "https://example.com/"} {
		if err := report.CheckURL(u); err != nil {
			t.Errorf("CheckURL(%s) = %v, want accepted", u, err)
		}
	}
}
