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

func TestPostgresReviewStore(t *testing.T) {
	porttest.TestReviewStore(t, func(t *testing.T) ports.ReviewStore {
		db, _ := newDatabase(t)
		// The suite's reviews belong to users 1 to 3; reviews reference users.
		acc := postgres.NewAccountStore(db)
		for i := 1; i <= 3; i++ {
			u, err := acc.CreateUser(context.Background(), account.User{Email: fmt.Sprintf("u%d@example.com", i), CreatedAt: time.Now()})
			if err != nil || u.ID != int64(i) {
				t.Fatalf("user %d = %+v, %v", i, u, err)
			}
		}
		return postgres.NewReviewStore(db)
	})
}
