package sqlite_test

import (
	"testing"

	"github.com/pinsight/pinsight/adapters/sqlite"
	"github.com/pinsight/pinsight/ports"
	"github.com/pinsight/pinsight/ports/porttest"
)

func TestReleaseStore(t *testing.T) {
	porttest.TestReleaseStore(t, func(t *testing.T) ports.ReleaseStore { return sqlite.NewReleaseStore(openDB(t)) })
}
