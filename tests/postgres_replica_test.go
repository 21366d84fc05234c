package tests

import (
	"context"
	"errors"
	"reflect"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/postgres"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/ports/porttest"
)

// TestPostgresLoadDatasetRoundTrip: what an import wrote reads back as the
// same dataset (what every instance's replica serves), each import makes
// a new generation announced on pinsight_dataset, and an import-if-empty
// does nothing once a dataset is there.
func TestPostgresLoadDatasetRoundTrip(t *testing.T) {
	db, _ := newDatabase(t)
	ctx := context.Background()
	if _, _, err := postgres.LoadDataset(ctx, db); !errors.Is(err, postal.ErrNoData) {
		t.Fatalf("LoadDataset on an empty database: %v, want postal.ErrNoData", err)
	}
	notes := make(chan string, 4)
	lctx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	listening := make(chan struct{})
	var once sync.Once
	l := postgres.NewListener(db, postgres.Subscription{Channel: postgres.DatasetChannel,
		Notify: func(p string) { notes <- p }, Missed: func() { once.Do(func() { close(listening) }) }})
	wg.Go(func() { l.Run(lctx) })
	defer func() { stop(); wg.Wait() }()
	<-listening

	ds := porttest.PostalDataset()
	before, err := postgres.DatasetGeneration(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	st, imported, err := postgres.ImportDatasetIfEmpty(ctx, db, ds)
	if err != nil || !imported || st.Generation != before+1 {
		t.Fatalf("ImportDatasetIfEmpty on an empty database = %+v, %v, %v; want generation %d", st, imported, err, before+1)
	}
	select {
	case p := <-notes:
		if p != strconv.FormatInt(st.Generation, 10) {
			t.Errorf("notification payload %q, want %d", p, st.Generation)
		}
	case <-time.After(time.Minute): // far above the milliseconds a NOTIFY takes
		t.Fatal("no notification on pinsight_dataset within a minute of the import")
	}
	got, gen, err := postgres.LoadDataset(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if gen != st.Generation || got.Fingerprint() != ds.Fingerprint() {
		t.Errorf("LoadDataset = generation %d version %s, want %d %s", gen, got.Fingerprint(), st.Generation, ds.Fingerprint())
	}
	for name, pair := range map[string][2]any{"offices": {got.Offices, ds.Offices}, "states": {got.States, ds.States},
		"districts": {got.Districts, ds.Districts}, "villages": {got.Villages, ds.Villages}, "report": {got.Report, ds.Report},
		"source": {got.Source, ds.Source}, "has_lgd": {got.HasLGD, ds.HasLGD}} {
		if !reflect.DeepEqual(pair[0], pair[1]) {
			t.Errorf("%s read back differ from those imported", name)
		}
	}
	if _, imported, err := postgres.ImportDatasetIfEmpty(ctx, db, ds); err != nil || imported {
		t.Errorf("ImportDatasetIfEmpty over a dataset = %v, %v; want nothing done", imported, err)
	}
	st2, err := postgres.ImportDataset(ctx, db, ds)
	if err != nil || st2.Generation != st.Generation+1 {
		t.Fatalf("a re-import = %+v, %v; want generation %d", st2, err, st.Generation+1)
	}
	if g, err := postgres.DatasetGeneration(ctx, db); err != nil || g != st2.Generation {
		t.Errorf("DatasetGeneration = %d, %v; want %d", g, err, st2.Generation)
	}
}

// TestPostgresMigrateConcurrently: instances starting together migrate one
// after the other under the advisory lock; none fails.
func TestPostgresMigrateConcurrently(t *testing.T) {
	_, url := newEmptyDatabase(t)
	ctx := context.Background()
	var wg sync.WaitGroup
	applied := make([][]string, 4)
	errs := make([]error, 4)
	for i := range 4 {
		wg.Go(func() {
			db, err := postgres.Open(ctx, postgres.Config{URL: url})
			if err != nil {
				errs[i] = err
				return
			}
			defer db.Close()
			applied[i], errs[i] = postgres.Migrate(ctx, db)
		})
	}
	wg.Wait()
	total := 0
	for i := range 4 {
		if errs[i] != nil {
			t.Errorf("migration %d: %v", i, errs[i])
		}
		total += len(applied[i])
	}
	db, _ := postgres.Open(ctx, postgres.Config{URL: url})
	defer db.Close()
	status, err := postgres.MigrationStatus(ctx, db)
	if err != nil || total != len(status) {
		t.Errorf("4 concurrent migrations applied %d in all, want each of the %d once (%v)", total, len(status), err)
	}
}

// TestPostgresListenerReconnects: when its connection is killed, the
// listener reconnects, calls Missed again (notifications sent meanwhile
// are lost: the subscriber catches up) and delivers what follows.
func TestPostgresListenerReconnects(t *testing.T) {
	db, _ := newDatabase(t)
	ctx := context.Background()
	notes, missed := make(chan string, 8), make(chan struct{}, 8)
	l := postgres.NewListener(db, postgres.Subscription{Channel: "pinsight_test",
		Notify: func(p string) { notes <- p }, Missed: func() { missed <- struct{}{} }})
	l.RetryInterval = 100 * time.Millisecond
	lctx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { l.Run(lctx) })
	defer func() { stop(); wg.Wait() }()
	wait := func(what string, ch <-chan struct{}) {
		t.Helper()
		select {
		case <-ch:
		case <-time.After(time.Minute): // far above the retry interval
			t.Fatalf("no %s within a minute", what)
		}
	}
	wait("first connection", missed)
	var killed int
	if err := db.NewRaw(`SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
		WHERE datname = current_database() AND query LIKE 'LISTEN %'`).Scan(ctx, &killed); err != nil || killed != 1 {
		t.Fatalf("terminating the listener's backend: %d killed, %v", killed, err)
	}
	wait("reconnection", missed)
	if _, err := db.ExecContext(ctx, "SELECT pg_notify('pinsight_test', 'after')"); err != nil {
		t.Fatal(err)
	}
	select {
	case p := <-notes:
		if p != "after" {
			t.Errorf("payload %q, want after", p)
		}
	case <-time.After(time.Minute):
		t.Fatal("no notification within a minute of the reconnection")
	}
}
