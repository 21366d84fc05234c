package tests

import (
	"context"
	"testing"

	"github.com/pinsight/pinsight/adapters/postgres"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/ports"
	"github.com/pinsight/pinsight/ports/porttest"
)

func TestPostgresPostalStore(t *testing.T) {
	porttest.TestPostalStore(t, func(t *testing.T, ds *postal.Dataset) ports.PostalStore {
		db, _ := newDatabase(t)
		if ds != nil {
			if _, err := postgres.ImportDataset(context.Background(), db, ds); err != nil {
				t.Fatalf("ImportDataset: %v", err)
			}
		}
		return postgres.NewPostalStore(db)
	})
}
