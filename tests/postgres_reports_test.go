package tests

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/postgres"
	"github.com/pinsight/pinsight/domain/account"
	"github.com/pinsight/pinsight/ports"
	"github.com/pinsight/pinsight/ports/porttest"
)

func TestPostgresReportStore(t *testing.T) {
	porttest.TestReportStore(t, func(t *testing.T) ports.ReportStore {
		db, _ := newDatabase(t)
		// The suite's reports belong to users 1 to 3; reports reference users.
		acc := postgres.NewAccountStore(db)
		for i := 1; i <= 3; i++ {
			u, err := acc.CreateUser(context.Background(), account.User{Email: fmt.Sprintf("u%d@example.com", i), CreatedAt: time.Now()})
			if err != nil || u.ID != int64(i) {
				t.Fatalf("user %d = %+v, %v", i, u, err)
			}
		}
		return postgres.NewReportStore(db)
	})
}

// BenchmarkPostgresReportList is porttest.BenchmarkReportList on Postgres:
// go test ./tests -run '^$' -bench PostgresReportList -benchmem
func BenchmarkPostgresReportList(b *testing.B) {
	porttest.BenchmarkReportList(b, func(tb testing.TB) ports.ReportStore {
		db, _ := newDatabase(tb)
		if _, err := postgres.NewAccountStore(db).CreateUser(context.Background(), account.User{Email: "u1@example.com", CreatedAt: time.Now()}); err != nil {
			tb.Fatal(err)
		}
		return postgres.NewReportStore(db)
	})
}
