package tests

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/postgres"
	"github.com/pinsight/pinsight/domain/postal"
)

// reloadPatience bounds the waits for the re-import's NOTIFY and for the
// new release: an upper bound far above the second a reload takes, so a
// loaded machine does not fail the test (a reload that never happens does).
const reloadPatience = 2 * time.Minute

// TestPostgresReplicaReloadOutlastsStatementTimeout runs `pinsight serve`
// on the full directory with a statement timeout (250 ms) far below what
// reading the directory takes, and shows that the replica's loads are not
// bounded by it:
//   - at start, the directory's table is held locked for 3 s: the first
//     load waits for it and succeeds, with no failed attempt logged (the
//     statement timeout would have cancelled it after 250 ms);
//   - after a re-import of the full directory, under request load, the
//     instance serves the new release (within reloadPatience of the
//     import's commit, its NOTIFY; it takes about a second, logged), every
//     request meanwhile answered 200 from the old or the new release, and
//     /readyz names the new generation.
func TestPostgresReplicaReloadOutlastsStatementTimeout(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server on the full directory in Postgres (-short)")
	}
	skipWithoutDocker(t)
	ctx := context.Background()
	ds := fullDataset(t)
	db, url := newDatabase(t)
	first, err := postgres.ImportDataset(ctx, db, ds)
	if err != nil {
		t.Fatal(err)
	}
	bin := buildPinsight(t)

	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.ExecContext(ctx, "LOCK TABLE post_offices IN ACCESS EXCLUSIVE MODE"); err != nil {
		t.Fatal(err)
	}
	in := startInstance(t, bin, "replica", "--database-url", url, "--database-statement-timeout", "250ms",
		"--rate-limit", "off", "--log-level", "info")
	time.Sleep(3 * time.Second)
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the instance ready", 2*time.Minute, func() bool { return status(in.base+"/readyz") == 200 })
	if strings.Contains(in.logText(), "loading the dataset from the database failed") {
		t.Fatalf("a load failed while the table was locked for 3 s: the statement timeout bounds it\n%s", in.logText())
	}
	if d := postalDetail(t, in); !strings.Contains(d, fmt.Sprintf("generation %d", first.Generation)) {
		t.Errorf("/readyz postal_data detail %q does not name generation %d", d, first.Generation)
	}

	notes := make(chan time.Time, 4)
	lctx, stopListening := context.WithCancel(ctx)
	listening := make(chan struct{})
	var once sync.Once
	l := postgres.NewListener(db, postgres.Subscription{Channel: postgres.DatasetChannel,
		Notify: func(string) { notes <- time.Now() }, Missed: func() { once.Do(func() { close(listening) }) }})
	var wg sync.WaitGroup
	wg.Go(func() { l.Run(lctx) })
	defer func() { stopListening(); wg.Wait() }()
	<-listening

	oldRelease := in.release(t)
	next := *ds // a new release, one office renamed: a new version (ETag)
	next.Source = postal.Source{Kind: postal.SourceFiles, Release: "2026-11-01"}
	next.Offices = slices.Clone(ds.Offices)
	next.Offices[0].Name += " (renamed)"
	loadCtx, stopLoad := context.WithCancel(ctx)
	var served, bad atomic.Int64
	var badAnswer atomic.Value
	var load sync.WaitGroup
	for range 2 { // two clients, a request each per millisecond: up to 2,000 a second
		load.Go(func() {
			for loadCtx.Err() == nil {
				time.Sleep(time.Millisecond)
				r := in.do(t, http.MethodGet, "/api/v1/pincodes/110001", "", "", "")
				if r.status != 200 {
					bad.Add(1)
					badAnswer.Store(fmt.Sprintf("%d %.200s", r.status, r.body))
				}
				served.Add(1)
			}
		})
	}
	second, err := postgres.ImportDataset(ctx, db, &next)
	if err != nil {
		t.Fatal(err)
	}
	var committed time.Time
	select {
	case committed = <-notes:
	case <-time.After(reloadPatience):
		t.Fatalf("no NOTIFY of the re-import within %v", reloadPatience)
	}
	var switched time.Duration
	for {
		rel := in.release(t)
		if rel == "2026-11-01" {
			switched = time.Since(committed)
			break
		}
		if rel != oldRelease {
			t.Fatalf("during the reload /dataset names release %q, want the old %q or the new one", rel, oldRelease)
		}
		if time.Since(committed) > reloadPatience {
			t.Fatalf("the instance still serves release %q %v after the import's commit (%s)\n%s", rel, reloadPatience, committed.UTC().Format(time.StampMilli), in.logText())
		}
		time.Sleep(20 * time.Millisecond)
	}
	stopLoad()
	load.Wait()
	t.Logf("the new release is served %v after the import's commit (%d requests meanwhile)",
		switched.Round(time.Millisecond), served.Load())
	if bad.Load() > 0 {
		t.Errorf("%d of %d requests during the reload failed; last: %v", bad.Load(), served.Load(), badAnswer.Load())
	}
	if d := postalDetail(t, in); !strings.Contains(d, fmt.Sprintf("generation %d", second.Generation)) {
		t.Errorf("/readyz postal_data detail %q does not name generation %d", d, second.Generation)
	}
	if strings.Contains(in.logText(), "loading the dataset from the database failed") {
		t.Errorf("a reload failed:\n%s", in.logText())
	}
}

// logText is what the process has logged so far.
func (in *instance) logText() string {
	in.out.mu.Lock()
	defer in.out.mu.Unlock()
	return in.log.String()
}

// release is the release /api/v1/dataset names ("" : none).
func (in *instance) release(t *testing.T) string {
	t.Helper()
	r := in.do(t, http.MethodGet, "/api/v1/dataset", "", "", "")
	if r.status != 200 {
		t.Fatalf("GET /api/v1/dataset = %d %.300s", r.status, r.body)
	}
	rel, _ := r.data(t)["release"].(string)
	return rel
}

// postalDetail is the detail /readyz gives its postal_data component.
func postalDetail(t *testing.T, in *instance) string {
	t.Helper()
	r := in.do(t, http.MethodGet, "/readyz", "", "", "")
	cs, _ := r.data(t)["components"].([]any)
	for _, c := range cs {
		if c, _ := c.(map[string]any); c["name"] == "postal_data" {
			d, _ := c["detail"].(string)
			return d
		}
	}
	t.Fatalf("/readyz lists no postal_data: %.500s", r.body)
	return ""
}
