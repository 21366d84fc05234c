package porttest

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/ports"
)

// scheduled is report r with a daily schedule.
func scheduled(r report.Report) report.Report {
	r.Schedule, r.NextRunAt = report.ScheduleDaily, r.CreatedAt.Add(report.ScheduleDaily.Period())
	return r
}

// testScheduleCap: no user gets more than report.MaxScheduled scheduled
// reports, by a create, a batch, an update or writes at once; other users
// and unscheduled reports are not held back.
func testScheduleCap(t *testing.T, s ports.ReportStore, u owners) {
	ctx := context.Background()
	batch := make([]report.Report, report.MaxScheduled-1)
	for i := range batch {
		batch[i] = scheduled(newReport(u[1], "https://sched.example.com/"+string(rune('a'+i%26))+"/", 50, i, report.Private))
	}
	stored, err := s.CreateReports(ctx, batch, nil)
	if err != nil {
		t.Fatalf("%d scheduled reports: %v", len(batch), err)
	}
	sch := stored[0]
	// A batch passing the cap stores nothing.
	over := []report.Report{newReport(u[1], "https://plain.example.com/", 50, 0, report.Private),
		scheduled(newReport(u[1], "https://x.example.com/", 50, 0, report.Private)),
		scheduled(newReport(u[1], "https://y.example.com/", 50, 0, report.Private))}
	if _, err := s.CreateReports(ctx, over, nil); !errors.Is(err, report.ErrTooManyScheduled) {
		t.Fatalf("a batch passing the cap: %v, want ErrTooManyScheduled", err)
	}
	if _, n, _ := s.Reports(ctx, u[1], mustQuery(t)); n != len(batch) {
		t.Fatalf("after a refused batch: %d reports, want %d (nothing stored)", n, len(batch))
	}
	// A create and an update at once for the last place: one wins.
	plain := mustCreate(t, s, newReport(u[1], "https://plain.example.com/", 50, 0, report.Private))
	var racing [2]error
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		_, racing[0] = s.CreateReport(ctx, scheduled(newReport(u[1], "https://race.example.com/", 50, 0, report.Private)))
	}()
	go func() {
		defer wg.Done()
		_, racing[1] = s.UpdateReport(ctx, u[1], plain.ID, func(r *report.Report) error {
			r.Schedule, r.NextRunAt = report.ScheduleWeekly, r.CreatedAt.Add(report.ScheduleWeekly.Period())
			return nil
		})
	}()
	wg.Wait()
	for _, err := range racing {
		if err != nil && !errors.Is(err, report.ErrTooManyScheduled) {
			t.Fatalf("racing for the last place: %v", err)
		}
	}
	if (racing[0] == nil) == (racing[1] == nil) {
		t.Fatalf("a create and an update racing for the last place: %v, %v; want exactly one refused", racing[0], racing[1])
	}
	// Now at the cap: refused, with the field named; the refused update
	// changed nothing.
	var ve *report.ValidationError
	_, err = s.CreateReport(ctx, scheduled(newReport(u[1], "https://one-more.example.com/", 50, 0, report.Private)))
	if !errors.Is(err, report.ErrTooManyScheduled) || !errors.As(err, &ve) || len(ve.Fields["schedule"]) == 0 {
		t.Errorf("create past the cap: %v, want ErrTooManyScheduled on schedule", err)
	}
	another := mustCreate(t, s, newReport(u[1], "https://another.example.com/", 50, 0, report.Private))
	if _, err := s.UpdateReport(ctx, u[1], another.ID, func(r *report.Report) error {
		r.Schedule, r.NextRunAt, r.Score = report.ScheduleDaily, time.Now(), 1
		return nil
	}); !errors.Is(err, report.ErrTooManyScheduled) {
		t.Errorf("update past the cap: %v, want ErrTooManyScheduled", err)
	}
	if got, _ := s.Report(ctx, u[1], another.ID); got.Schedule != report.ScheduleOff || got.Score != 50 {
		t.Errorf("a refused update changed the report: %+v", got)
	}
	// Updating a scheduled report (its schedule included) is no new place.
	if _, err := s.UpdateReport(ctx, u[1], sch.ID, func(r *report.Report) error {
		r.Schedule, r.Score = report.ScheduleDaily, 70
		return nil
	}); err != nil {
		t.Errorf("updating a scheduled report at the cap: %v", err)
	}
	// Turning one off frees a place; unscheduled reports and other users
	// are not held back.
	if _, err := s.UpdateReport(ctx, u[1], sch.ID, func(r *report.Report) error {
		r.Schedule, r.NextRunAt = report.ScheduleOff, time.Time{}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.UpdateReport(ctx, u[1], another.ID, func(r *report.Report) error {
		r.Schedule, r.NextRunAt = report.ScheduleDaily, r.CreatedAt.Add(report.ScheduleDaily.Period())
		return nil
	}); err != nil {
		t.Errorf("scheduling after one was turned off: %v", err)
	}
	mustCreate(t, s, newReport(u[1], "https://unscheduled.example.com/", 50, 0, report.Private))
	mustCreate(t, s, scheduled(newReport(u[2], "https://other-user.example.com/", 50, 0, report.Private)))
}
