package sqlite_test

import (
	"testing"

	"github.com/pinsight/pinsight/adapters/sqlite"
	"github.com/pinsight/pinsight/ports"
	"github.com/pinsight/pinsight/ports/porttest"
)

func TestAccountStore(t *testing.T) {
	porttest.TestAccountStore(t, func(t *testing.T) ports.AccountStore { return sqlite.NewAccountStore(openDB(t)) })
}
