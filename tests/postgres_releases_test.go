package tests

import (
	"testing"

	"github.com/pinsight/pinsight/adapters/postgres"
	"github.com/pinsight/pinsight/ports"
	"github.com/pinsight/pinsight/ports/porttest"
)

func TestPostgresReleaseStore(t *testing.T) {
	porttest.TestReleaseStore(t, func(t *testing.T) ports.ReleaseStore {
		db, _ := newDatabase(t)
		return postgres.NewReleaseStore(db)
	})
}
