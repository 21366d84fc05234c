package porttest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/ports"
)

// testReportIDsNotReused deletes the newest report, then creates one: its
// id is above the deleted one's (SQLite reuses the largest rowid without
// AUTOINCREMENT; a report id handed out twice would show one user's
// bookmark another's report).
func testReportIDsNotReused(t *testing.T, s ports.ReportStore, u owners) {
	ctx := context.Background()
	mustCreate(t, s, newReport(u[1], "https://example.com/1", 40, 0, report.Private))
	newest := mustCreate(t, s, newReport(u[1], "https://example.com/2", 40, 1, report.Private))
	if err := s.DeleteReport(ctx, u[1], newest.ID); err != nil {
		t.Fatalf("DeleteReport = %v", err)
	}
	next := mustCreate(t, s, newReport(u[2], "https://example.com/3", 40, 2, report.Private))
	if next.ID <= newest.ID {
		t.Errorf("id after deleting the newest report = %d, want > %d (ids are never reused)", next.ID, newest.ID)
	}
}

// microTime is a time with microseconds (and no finer part): stores keep
// times to the microsecond.
var microTime = time.Date(2026, 11, 23, 10, 0, 0, 123456000, time.UTC)

// testReportMicroseconds: every time of a report survives storage to the
// microsecond (as SQLite's text stamps and Postgres's timestamptz keep it).
func testReportMicroseconds(t *testing.T, s ports.ReportStore, u owners) {
	ctx := context.Background()
	r := newReport(u[1], "https://example.com/micro", 40, 0, report.Public)
	r.CreatedAt, r.UpdatedAt, r.GeneratedAt = microTime, microTime.Add(time.Microsecond), microTime.Add(2*time.Microsecond)
	created := mustCreate(t, s, r)
	got, err := s.Report(ctx, u[1], created.ID)
	if err != nil {
		t.Fatalf("Report = %v", err)
	}
	for _, tt := range []struct {
		name      string
		got, want time.Time
	}{
		{"created_at", got.CreatedAt, r.CreatedAt}, {"updated_at", got.UpdatedAt, r.UpdatedAt}, {"generated_at", got.GeneratedAt, r.GeneratedAt},
		{"created_at as CreateReport returns it", created.CreatedAt, r.CreatedAt},
	} {
		if !tt.got.Equal(tt.want) {
			t.Errorf("%s = %s, want %s", tt.name, tt.got.Format(time.RFC3339Nano), tt.want.Format(time.RFC3339Nano))
		}
	}
}

// testReportDeadline: a store whose deadline passed answers
// ports.ErrUnavailable (503 with Retry-After to an API client), never
// another error; a store that never waits (memory) may answer.
func testReportDeadline(t *testing.T, s ports.ReportStore, u owners) {
	r := mustCreate(t, s, newReport(u[1], "https://example.com/late", 40, 0, report.Public))
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	_, err := s.Report(ctx, u[1], r.ID)
	if err != nil && !errors.Is(err, ports.ErrUnavailable) {
		t.Errorf("Report with its deadline passed = %v, want ports.ErrUnavailable", err)
	}
	_, err = s.CreateReport(ctx, newReport(u[1], "https://example.com/later", 40, 1, report.Public))
	if err != nil && !errors.Is(err, ports.ErrUnavailable) {
		t.Errorf("CreateReport with its deadline passed = %v, want ports.ErrUnavailable", err)
	}
}
