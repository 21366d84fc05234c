package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/pinsight/pinsight/adapters/postgres"
	"github.com/pinsight/pinsight/app"
)

func newUserCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "user", Short: "Manage site-analysis accounts (Postgres storage)"}
	var cfg postgres.Config
	var email string
	create := &cobra.Command{
		Use:   "create --email E",
		Short: "Create a user and print a new API key (shown once)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := bindEnv(cmd); err != nil {
				return err
			}
			if cfg.URL == "" {
				return fmt.Errorf("%w: the in-memory store lives inside a running server; register through POST /api/v1/register instead", errNoDatabase)
			}
			ctx := context.Background()
			db, err := postgres.Open(ctx, cfg)
			if err != nil {
				return err
			}
			defer db.Close()
			if _, err := postgres.Migrate(ctx, db); err != nil {
				return err
			}
			s, err := app.NewAccounts(postgres.NewAccountStore(db), app.NewPasswords(app.DefaultPasswordParams, app.PasswordLimits{})).CreateUser(ctx, email)
			if err != nil {
				return err
			}
			fmt.Fprintln(cmd.OutOrStdout(), s.Key)
			return nil
		},
	}
	databaseFlags(create.Flags(), &cfg)
	create.Flags().StringVar(&email, "email", "", "the user's e-mail address")
	_ = create.MarkFlagRequired("email")
	documentEnv(create)
	cmd.AddCommand(create)
	return cmd
}
