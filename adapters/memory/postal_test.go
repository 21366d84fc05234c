package memory_test

import (
	"testing"

	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/ports"
	"github.com/pinsight/pinsight/ports/porttest"
)

func TestPostalStore(t *testing.T) {
	porttest.TestPostalStore(t, func(t *testing.T, ds *postal.Dataset) ports.PostalStore {
		return memory.NewPostalStore(ds)
	})
}
