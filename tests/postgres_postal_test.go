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

// TestPostgresImportProgress: the import tells its progress in rows, never
// backwards, ending with every row copied.
func TestPostgresImportProgress(t *testing.T) {
	db, _ := newDatabase(t)
	ds := porttest.PostalDataset()
	var calls, last, total int
	st, err := postgres.ImportDatasetProgress(context.Background(), db, ds, func(copied, n int) {
		if copied < last || copied > n {
			t.Errorf("progress %d of %d after %d", copied, n, last)
		}
		calls, last, total = calls+1, copied, n
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := st.Offices + st.OfficeWords + st.States + st.Districts + st.Villages + st.VillageWords; calls == 0 || last != total || total != want {
		t.Errorf("%d calls, last %d of %d; want %d rows", calls, last, total, want)
	}
}
