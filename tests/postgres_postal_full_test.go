package tests

import (
	"context"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/uptrace/bun"

	"github.com/pinsight/pinsight/adapters/indiapost"
	"github.com/pinsight/pinsight/adapters/indiapost/snapshot"
	"github.com/pinsight/pinsight/adapters/postgres"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/geo"
)

var fullData struct {
	once sync.Once
	ds   *postal.Dataset
	err  error
}

// fullDataset loads the real directory (the embedded snapshot) once.
func fullDataset(tb testing.TB) *postal.Dataset {
	tb.Helper()
	fullData.once.Do(func() {
		res, err := indiapost.Load(snapshot.Files())
		if err != nil {
			fullData.err = err
			return
		}
		fullData.ds = res.Dataset
	})
	if fullData.err != nil {
		tb.Fatal(fullData.err)
	}
	return fullData.ds
}

// importedFull returns a database holding the real directory.
func importedFull(t *testing.T) (*postgres.DB, *postal.Dataset) {
	ds := fullDataset(t)
	db, _ := newDatabase(t)
	st, err := postgres.ImportDataset(context.Background(), db, ds)
	if err != nil {
		t.Fatalf("ImportDataset: %v", err)
	}
	t.Logf("full import: %+v (%s)", st, st.Duration)
	return db, ds
}

// TestPostgresFullImport imports the real directory twice (the second
// import replaces the first: same rows, same version) and checks that the
// nearby query the store runs is a GiST index scan.
func TestPostgresFullImport(t *testing.T) {
	db, ds := importedFull(t)
	ctx := context.Background()
	st, err := postgres.ImportDataset(ctx, db, ds)
	if err != nil {
		t.Fatalf("second ImportDataset: %v", err)
	}
	t.Logf("re-import (replacing the same dataset): %s", st.Duration)
	info, err := postgres.NewPostalStore(db).Info(ctx)
	if err != nil || info.Offices != len(ds.Offices) || info.Version != ds.Fingerprint() || st.Offices != len(ds.Offices) {
		t.Fatalf("after re-import Info = %+v, %v; stats %+v", info, err, st)
	}
	if ds.Source.Kind != postal.SourceEmbedded || !reflect.DeepEqual(info.Source, ds.Source) {
		t.Errorf("imported source = %+v, want the embedded snapshot as loaded: %+v", info.Source, ds.Source)
	}
	var rows int
	if err := db.NewRaw("SELECT count(*) FROM post_offices").Scan(ctx, &rows); err != nil || rows != len(ds.Offices) {
		t.Errorf("post_offices holds %d rows (%v), want %d", rows, err, len(ds.Offices))
	}
	plan := explainNearest(t, db)
	t.Logf("EXPLAIN of the nearest-offices query:\n%s", plan)
	if !strings.Contains(plan, "Index Scan using post_offices_location") || strings.Contains(plan, "Seq Scan") {
		t.Errorf("the nearest-offices query does not use the GiST index:\n%s", plan)
	}
}

// queryRecorder keeps the SQL of the queries run through a DB.
type queryRecorder struct {
	mu      sync.Mutex
	queries []string
}

func (r *queryRecorder) BeforeQuery(ctx context.Context, _ *bun.QueryEvent) context.Context {
	return ctx
}

func (r *queryRecorder) AfterQuery(_ context.Context, e *bun.QueryEvent) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.queries = append(r.queries, e.Query)
}

// explainNearest runs NearestOffices (with and without a radius), captures
// the candidate queries it sent and returns their EXPLAIN output.
func explainNearest(t *testing.T, db *postgres.DB) string {
	t.Helper()
	ctx := context.Background()
	rec := &queryRecorder{}
	s := postgres.NewPostalStore(db.WithQueryHook(rec))
	p := geo.Point{Lat: 28.6139, Lon: 77.209}
	if _, err := s.NearestOffices(ctx, geo.NearQuery{Point: p, Limit: 10}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.NearestOffices(ctx, geo.NearQuery{Point: p, Limit: 10, RadiusKm: 5}); err != nil {
		t.Fatal(err)
	}
	var plans []string
	for _, q := range rec.queries {
		if !strings.Contains(q, "<->") {
			continue
		}
		var lines []string
		if err := db.NewRaw("EXPLAIN "+q).Scan(ctx, &lines); err != nil {
			t.Fatalf("EXPLAIN %s: %v", q, err)
		}
		plans = append(plans, q+"\n"+strings.Join(lines, "\n"))
	}
	if len(plans) != 2 {
		t.Fatalf("captured %d nearest queries, want 2: %q", len(plans), rec.queries)
	}
	return strings.Join(plans, "\n\n")
}

// BenchmarkPostgresImport times a full-directory import (target: 10 s).
func BenchmarkPostgresImport(b *testing.B) {
	ds := fullDataset(b)
	db, _ := newDatabase(b)
	ctx := context.Background()
	for b.Loop() {
		if _, err := postgres.ImportDataset(ctx, db, ds); err != nil {
			b.Fatal(err)
		}
	}
}
