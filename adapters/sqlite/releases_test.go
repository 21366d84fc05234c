package sqlite_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/sqlite"
	"github.com/pinsight/pinsight/adapters/sqlstore"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/ports"
	"github.com/pinsight/pinsight/ports/porttest"
)

func TestReleaseStore(t *testing.T) {
	porttest.TestReleaseStore(t, func(t *testing.T) ports.ReleaseStore { return sqlite.NewReleaseStore(openDB(t)) })
}

// A release is recorded and read back whole however long its offices take
// to write: the serving statement timeout (here far too short for any
// statement) bounds requests, not the directory's bulk operations, which
// on a loaded machine outlast it at start-up.
func TestReleaseOutlastsStatementTimeout(t *testing.T) {
	e := openDB(t).Engine()
	e.Timeout = time.Nanosecond
	s := sqlstore.NewReleaseStore(e)
	offices := make([]postal.ReleaseOffice, 20000)
	for i := range offices {
		offices[i] = postal.ReleaseOffice{Pincode: postal.Pincode(fmt.Sprintf("%06d", 110000+i)), Name: fmt.Sprintf("Office %d", i)}
	}
	postal.SortReleaseOffices(offices)
	ctx := context.Background()
	if _, err := s.RecordRelease(ctx, 0, postal.Release{Version: "v1", Offices: len(offices)}, offices, nil); err != nil {
		t.Fatalf("record: %v", err)
	}
	r, got, found, err := s.LatestRelease(ctx)
	if err != nil || !found || r.Seq != 1 || len(got) != len(offices) {
		t.Fatalf("latest = seq %d, %d offices, found %v, err %v; want seq 1, %d offices", r.Seq, len(got), found, err, len(offices))
	}
}
