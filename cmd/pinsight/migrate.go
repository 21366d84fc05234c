package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"
)

// migrateOp is what `pinsight migrate` does.
type migrateOp int

const (
	migrateUp     migrateOp = iota // apply pending migrations
	migrateDown                    // roll the last group back
	migrateStatus                  // list migrations and whether they ran
)

// runMigrate opens a database, runs op with the adapter's functions and
// closes it.
func runMigrate[DB io.Closer](ctx context.Context, op migrateOp, open func() (DB, error), up, down, status func(context.Context, DB) ([]string, error)) ([]string, error) {
	db, err := open()
	if err != nil {
		return nil, err
	}
	defer db.Close()
	switch op {
	case migrateDown:
		return down(ctx, db)
	case migrateStatus:
		return status(ctx, db)
	}
	return up(ctx, db)
}

func newMigrateCmd() *cobra.Command {
	var cfg databaseConfig
	var down, status bool
	cmd := &cobra.Command{
		Use:   "migrate",
		Short: "Apply the embedded database migrations (serve also applies them at start)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := bindEnv(cmd); err != nil {
				return err
			}
			scheme, b, err := backendFor(cfg.URL)
			if err != nil {
				return err
			}
			if b.migrate == nil {
				return fmt.Errorf("%s: storage has no schema to migrate", scheme)
			}
			op := migrateUp
			switch {
			case status:
				op = migrateStatus
			case down:
				op = migrateDown
			}
			lines, err := b.migrate(cmd.Context(), cfg, op)
			if err != nil {
				return err
			}
			if len(lines) == 0 {
				lines = []string{"nothing to do"}
			}
			for _, l := range lines {
				fmt.Fprintln(cmd.OutOrStdout(), l)
			}
			return nil
		},
	}
	databaseFlags(cmd.Flags(), &cfg)
	cmd.Flags().BoolVar(&down, "down", false, "roll back the last group of migrations")
	cmd.Flags().BoolVar(&status, "status", false, "list migrations and whether they ran")
	documentEnv(cmd)
	return cmd
}
