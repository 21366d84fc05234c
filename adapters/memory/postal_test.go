package memory_test

import (
	"context"
	"errors"
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

// TestReplaceNilClears: Replace(nil) empties the store (it panicked).
func TestReplaceNilClears(t *testing.T) {
	s := memory.NewPostalStore(porttest.PostalDataset())
	if _, err := s.Info(context.Background()); err != nil {
		t.Fatal(err)
	}
	s.Replace(nil)
	if _, err := s.OfficesByPincode(context.Background(), "800001"); !errors.Is(err, postal.ErrNoData) {
		t.Errorf("after Replace(nil): err = %v, want postal.ErrNoData", err)
	}
	s.Replace(porttest.PostalDataset())
	if offices, err := s.OfficesByPincode(context.Background(), "800001"); err != nil || len(offices) == 0 {
		t.Errorf("after a new Replace: %d offices, %v", len(offices), err)
	}
}
