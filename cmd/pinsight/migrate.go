package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/pinsight/pinsight/adapters/postgres"
)

// databaseFlags adds the connection flags shared by serve, migrate, import
// and user.
func databaseFlags(f *pflag.FlagSet, cfg *postgres.Config) {
	f.StringVar(&cfg.URL, "database-url", "", "PostgreSQL URL (postgres://...); empty: in-memory storage")
	f.DurationVar(&cfg.ConnectTimeout, "database-connect-timeout", 5*time.Second, "database connect timeout")
	f.DurationVar(&cfg.StatementTimeout, "database-statement-timeout", 10*time.Second, "database statement timeout")
	f.IntVar(&cfg.MaxOpenConns, "database-max-conns", 10, "maximum open database connections")
}

var errNoDatabase = errors.New("--database-url (or PINSIGHT_DATABASE_URL) is required")

func newMigrateCmd() *cobra.Command {
	var cfg postgres.Config
	var down, status bool
	cmd := &cobra.Command{
		Use:   "migrate",
		Short: "Apply the embedded database migrations (serve also applies them at start)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := bindEnv(cmd); err != nil {
				return err
			}
			if cfg.URL == "" {
				return errNoDatabase
			}
			ctx := context.Background()
			db, err := postgres.Open(ctx, cfg)
			if err != nil {
				return err
			}
			defer db.Close()
			var lines []string
			switch {
			case status:
				lines, err = postgres.MigrationStatus(ctx, db)
			case down:
				lines, err = postgres.Rollback(ctx, db)
			default:
				lines, err = postgres.Migrate(ctx, db)
			}
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
