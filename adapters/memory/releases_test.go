package memory_test

import (
	"testing"

	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/ports"
	"github.com/pinsight/pinsight/ports/porttest"
)

func TestReleaseStore(t *testing.T) {
	porttest.TestReleaseStore(t, func(*testing.T) ports.ReleaseStore { return memory.NewReleaseStore() })
}
