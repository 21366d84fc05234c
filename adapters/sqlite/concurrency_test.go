package sqlite_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/sqlite"
	"github.com/pinsight/pinsight/domain/account"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/report"
)

// TestConcurrentWriters hammers one file from two handles (a server and an
// operator's `pinsight user create`, say) at once: goroutines create and
// update reports, mint and use keys. No operation may fail (no SQLITE_BUSY,
// no "database is locked"), no update may be lost and every id is distinct.
func TestConcurrentWriters(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "p.db")
	first := openFile(t, path)
	withUsers(t, first, 2)
	second := openFile(t, path)
	handles := []*sqlite.DB{first, second}

	const workers, rounds = 8, 25
	target, err := sqlite.NewReportStore(first).CreateReport(ctx, sampleReport(1, "https://target.example/", time.Now()))
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	reportIDs, keyIDs := map[int64]bool{}, map[int64]bool{}
	for w := range workers {
		db := handles[w%len(handles)]
		reports, accounts := sqlite.NewReportStore(db), sqlite.NewAccountStore(db)
		wg.Go(func() {
			for i := range rounds {
				r, err := reports.CreateReport(ctx, sampleReport(1, fmt.Sprintf("https://w%d-%d.example/", w, i), time.Now()))
				if err != nil {
					t.Errorf("CreateReport = %v", err)
					return
				}
				_, err = reports.UpdateReport(ctx, 1, target.ID, func(x *report.Report) error {
					x.Results[pagecheck.Miscellaneous] = append(x.Results[pagecheck.Miscellaneous], pagecheck.Check{ID: fmt.Sprint(w, "-", i), Category: pagecheck.Miscellaneous})
					return nil
				})
				if err != nil {
					t.Errorf("UpdateReport = %v", err)
					return
				}
				hash := fmt.Sprintf("h-%d-%d", w, i)
				k, err := accounts.CreateKey(ctx, account.APIKey{UserID: 2, Name: "k", Prefix: "p", Hash: hash, CreatedAt: time.Now()})
				if err != nil {
					t.Errorf("CreateKey = %v", err)
					return
				}
				if _, err := accounts.KeyByHash(ctx, hash, time.Now()); err != nil {
					t.Errorf("KeyByHash = %v", err)
					return
				}
				mu.Lock()
				reportIDs[r.ID], keyIDs[k.ID] = true, true
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if len(reportIDs) != workers*rounds || len(keyIDs) != workers*rounds {
		t.Errorf("%d distinct report ids and %d key ids, want %d each", len(reportIDs), len(keyIDs), workers*rounds)
	}
	got, err := sqlite.NewReportStore(second).Report(ctx, 1, target.ID)
	if err != nil || len(got.Results[pagecheck.Miscellaneous]) != workers*rounds {
		t.Errorf("the target report has %d added checks (%v), want %d: updates were lost", len(got.Results[pagecheck.Miscellaneous]), err, workers*rounds)
	}
}
