package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun/migrate"
)

// MigrationStatus lists every migration m knows, each as its name and
// "pending" or "applied <RFC 3339 time>".
func MigrationStatus(ctx context.Context, m *migrate.Migrator) ([]string, error) {
	if err := m.Init(ctx); err != nil {
		return nil, err
	}
	ms, err := m.MigrationsWithStatus(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(ms))
	for _, mg := range ms {
		state := "pending"
		if mg.IsApplied() {
			state = "applied " + mg.MigratedAt.UTC().Format(time.RFC3339)
		}
		out = append(out, mg.Name+" "+state)
	}
	return out, nil
}
