package audit_test

import (
	"os/exec"
	"strings"
	"testing"
)

// unwanted are what a library user must not link by importing audit:
// password hashing, SQL and its drivers, the SQL toolkits and job queue,
// Redis, fx, the HTTP framework, and the project's use cases and storage.
var unwanted = []string{
	"golang.org/x/crypto/argon2", "database/sql", "github.com/uptrace/bun", "modernc.org/sqlite",
	"github.com/lib/pq", "github.com/jackc/pgx", "github.com/riverqueue/river", "github.com/redis/go-redis",
	"go.uber.org/fx", "go.uber.org/dig", "github.com/danielgtaylor/huma",
	"github.com/pinsight/pinsight/app", "github.com/pinsight/pinsight/adapters/memory",
	"github.com/pinsight/pinsight/adapters/sqlite", "github.com/pinsight/pinsight/adapters/postgres",
	"github.com/pinsight/pinsight/adapters/redis", "github.com/pinsight/pinsight/adapters/httpapi",
}

func TestLinksNoStorageHashingOrFx(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 20 || deps[len(deps)-1] != "github.com/pinsight/pinsight/adapters/fetch/audit" {
		t.Fatalf("go list -deps listed %v", deps)
	}
	for _, dep := range deps {
		for _, u := range unwanted {
			if dep == u || strings.HasPrefix(dep, u+"/") {
				t.Errorf("audit links %s", dep)
			}
		}
	}
}
