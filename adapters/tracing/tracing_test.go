package tracing_test

import (
	"testing"

	"github.com/pinsight/pinsight/adapters/tracing"
)

func TestNewChecksEndpoint(t *testing.T) {
	for _, bad := range []string{"collector:4318", "ftp://collector", "http://", "://x"} {
		if _, err := tracing.New(tracing.Config{Endpoint: bad}); err == nil {
			t.Errorf("endpoint %q accepted", bad)
		}
	}
	tr, err := tracing.New(tracing.Config{Endpoint: "http://127.0.0.1:4318"})
	if err != nil || tr.Provider() == nil {
		t.Fatalf("New = %v", err)
	}
	_ = tr.Shutdown(t.Context())
}
