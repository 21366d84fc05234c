package sqlite_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/sqlite"
	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/ports"
)

func TestParseURL(t *testing.T) {
	tests := []struct{ url, want string }{
		{"sqlite:pinsight.db", "pinsight.db"},
		{"sqlite:data/pinsight.db", "data/pinsight.db"},
		{"sqlite:/var/lib/pinsight/p.db", "/var/lib/pinsight/p.db"},
		{"sqlite:///var/lib/pinsight/p.db", "/var/lib/pinsight/p.db"},
		{"sqlite:with space?and#hash.db", "with space?and#hash.db"},
		{"SQLite:Upper.db", "Upper.db"},
	}
	for _, tt := range tests {
		if got, err := sqlite.ParseURL(tt.url); err != nil || got != tt.want {
			t.Errorf("ParseURL(%q) = %q, %v; want %q", tt.url, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "sqlite:", "sqlite://", "sqlite://host/p.db", "sqlite:data/", "postgres://u@h/db", "pinsight.db", "sqlite:a\x00b"} {
		if got, err := sqlite.ParseURL(bad); err == nil {
			t.Errorf("ParseURL(%q) = %q, want an error", bad, got)
		}
	}
}

// TestOpenFiles: a relative path is relative to the working directory, a
// name with URI characters is a plain name, a new file is its owner's only
// and in WAL mode.
func TestOpenFiles(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, name := range []string{"relative.db", "odd name?x=1#y%41.db"} {
		db := openFile(t, name)
		if err := sqlite.Ping(context.Background(), db); err != nil {
			t.Errorf("Ping = %v", err)
		}
		st, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatalf("%q was not created in the working directory: %v", name, err)
		}
		if perm := st.Mode().Perm(); perm != 0o600 {
			t.Errorf("%q has mode %v, want 0600", name, perm)
		}
		var mode string
		if err := rawDB(t, filepath.Join(dir, name)).QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
			t.Errorf("journal_mode = %q, %v; want wal", mode, err)
		}
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "no", "such")
	_, err := sqlite.Open(context.Background(), sqlite.Config{URL: "sqlite:" + missing + "/p.db"})
	if err == nil || !strings.Contains(err.Error(), missing) || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("Open in a missing directory err = %v, want one naming %s", err, missing)
	}
	if _, statErr := os.Stat(filepath.Join(dir, "no")); !errors.Is(statErr, os.ErrNotExist) {
		t.Errorf("Open created the missing directory (%v)", statErr)
	}
	junk := filepath.Join(dir, "junk.db")
	if err := os.WriteFile(junk, []byte(strings.Repeat("not a database ", 100)), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := sqlite.Open(context.Background(), sqlite.Config{URL: "sqlite:" + junk}); err == nil || !strings.Contains(err.Error(), junk) {
		t.Errorf("Open of a file that is not a database err = %v, want one naming it", err)
	}
	if _, err := sqlite.Open(context.Background(), sqlite.Config{URL: "sqlite://host/p.db"}); err == nil {
		t.Error("Open of sqlite://host/p.db succeeded")
	}
}

// TestUnavailable: while another process holds the write lock beyond the
// busy timeout, writes fail with ports.ErrUnavailable (503), reads still
// work (WAL); once it lets go, writes work again.
func TestUnavailable(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "p.db")
	openFile(t, path) // migrated
	db, err := sqlite.Open(ctx, sqlite.Config{URL: "sqlite:" + path, BusyTimeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	withUsers(t, db, 1)
	reports := sqlite.NewReportStore(db)
	r, err := reports.CreateReport(ctx, sampleReport(1, "https://a.example/", time.Now()))
	if err != nil {
		t.Fatal(err)
	}

	other, err := rawDB(t, path).Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	if _, err := reports.CreateReport(ctx, sampleReport(1, "https://b.example/", time.Now())); !errors.Is(err, ports.ErrUnavailable) {
		t.Errorf("CreateReport while locked err = %v, want ports.ErrUnavailable", err)
	}
	if _, err := reports.UpdateReport(ctx, 1, r.ID, func(*report.Report) error { return nil }); !errors.Is(err, ports.ErrUnavailable) {
		t.Errorf("UpdateReport while locked err = %v, want ports.ErrUnavailable", err)
	}
	if _, err := reports.Report(ctx, 1, r.ID); err != nil {
		t.Errorf("Report while another process writes = %v, want it read", err)
	}
	if _, err := other.ExecContext(ctx, "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	_ = other.Close()
	if _, err := reports.CreateReport(ctx, sampleReport(1, "https://c.example/", time.Now())); err != nil {
		t.Errorf("CreateReport after the lock went = %v", err)
	}
}

// TestStatementTimeout: a write transaction that outlives the statement
// timeout fails with ErrUnavailable and lets go of the writer; the writes
// queued behind it end within their own timeout instead of hanging.
func TestStatementTimeout(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "p.db")
	openFile(t, path)
	db, err := sqlite.Open(ctx, sqlite.Config{URL: "sqlite:" + path, StatementTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	withUsers(t, db, 1)
	reports := sqlite.NewReportStore(db)
	r, _ := reports.CreateReport(ctx, sampleReport(1, "https://a.example/", time.Now()))
	held, release, stalled := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	go func() {
		_, err := reports.UpdateReport(ctx, 1, r.ID, func(x *report.Report) error {
			x.Score = 1
			close(held)
			<-release
			return nil
		})
		stalled <- err
	}()
	<-held
	start := time.Now()
	_, err = reports.CreateReport(ctx, sampleReport(1, "https://b.example/", time.Now()))
	if (err != nil && !errors.Is(err, ports.ErrUnavailable)) || time.Since(start) > 5*time.Second {
		t.Errorf("CreateReport behind a stalled writer = %v after %v, want done or ErrUnavailable within the timeout", err, time.Since(start))
	}
	time.Sleep(400 * time.Millisecond) // well past the stalled update's deadline, even on a loaded machine
	close(release)
	if err := <-stalled; !errors.Is(err, ports.ErrUnavailable) {
		t.Errorf("UpdateReport beyond the statement timeout err = %v, want ports.ErrUnavailable", err)
	}
	if got, _ := reports.Report(ctx, 1, r.ID); got.Score == 1 {
		t.Error("the timed-out update was stored")
	}
	if _, err := reports.CreateReport(ctx, sampleReport(1, "https://c.example/", time.Now())); err != nil {
		t.Errorf("CreateReport after the stall = %v", err)
	}
}

// TestPingNeedsTheWriteLock: a file another process holds write-locked
// reads fine, but is not ready: Ping fails until the lock is given back.
func TestPingNeedsTheWriteLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.db")
	db, err := sqlite.Open(context.Background(), sqlite.Config{URL: "sqlite:" + path, BusyTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	other := rawDB(t, path)
	conn, err := other.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(context.Background(), "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	if err := sqlite.Ping(context.Background(), db); err == nil {
		t.Error("Ping while another connection holds the write lock = nil, want unavailable")
	}
	if _, err := conn.ExecContext(context.Background(), "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	if err := sqlite.Ping(context.Background(), db); err != nil {
		t.Errorf("Ping once the lock is back = %v", err)
	}
}
