package memory_test

import (
	"testing"

	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/ports"
	"github.com/pinsight/pinsight/ports/porttest"
)

func TestAccountStore(t *testing.T) {
	porttest.TestAccountStore(t, func(*testing.T) ports.AccountStore { return memory.NewAccountStore() })
}

func TestRateLimiter(t *testing.T) {
	porttest.TestRateLimiter(t, func(*testing.T) ports.RateLimiter { return memory.NewRateLimiter() })
}

func TestQuotaReturner(t *testing.T) {
	porttest.TestQuotaReturner(t, func(*testing.T) ports.RateLimiter { return memory.NewRateLimiter() })
}

func TestTurnTaker(t *testing.T) {
	porttest.TestTurnTaker(t, func(*testing.T) ports.RateLimiter { return memory.NewRateLimiter() })
}
