package webhook_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"testing"
	"time"

	"github.com/pinsight/pinsight/domain/webhook"
)

func TestSignature(t *testing.T) {
	body := []byte(`{"event":"report.finished"}`)
	at := time.Unix(1_800_000_000, 0)
	mac := hmac.New(sha256.New, []byte("0123456789abcdef"))
	mac.Write([]byte("1800000000." + string(body)))
	want := "t=1800000000,v1=" + hex.EncodeToString(mac.Sum(nil))
	got := webhook.Signature("0123456789abcdef", at, body)
	if got != want {
		t.Fatalf("Signature = %s, want %s", got, want)
	}
	for _, c := range []struct {
		name, secret, header string
		body                 []byte
		now                  time.Time
		ok                   bool
	}{
		{"valid", "0123456789abcdef", got, body, at.Add(time.Minute), true},
		{"at the window's edge", "0123456789abcdef", got, body, at.Add(5 * time.Minute), true},
		{"replayed later", "0123456789abcdef", got, body, at.Add(5*time.Minute + time.Second), false},
		{"from the future", "0123456789abcdef", got, body, at.Add(-6 * time.Minute), false},
		{"wrong secret", "0123456789abcdeX", got, body, at, false},
		{"body changed", "0123456789abcdef", got, []byte(`{"event":"report.finishes"}`), at, false},
		{"no v1", "0123456789abcdef", "t=1800000000", body, at, false},
		{"time changed", "0123456789abcdef", "t=1800000001," + got[len("t=1800000000,"):], body, at, false},
		{"garbage", "0123456789abcdef", "nonsense", body, at, false},
	} {
		if ok := webhook.VerifySignature(c.secret, c.header, c.body, c.now, 5*time.Minute); ok != c.ok {
			t.Errorf("%s: VerifySignature = %v, want %v", c.name, ok, c.ok)
		}
	}
}
