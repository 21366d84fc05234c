package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/pinsight/pinsight/app/accounts"
)

func newUserCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "user", Short: "Manage site-analysis accounts (SQLite or Postgres storage)"}
	var cfg databaseConfig
	var email string
	create := &cobra.Command{
		Use:   "create --email E",
		Short: "Create a user and print a new API key (shown once)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := bindEnv(cmd); err != nil {
				return err
			}
			scheme, b, err := backendFor(cfg.URL)
			if err != nil {
				return err
			}
			if b.accounts == nil {
				return fmt.Errorf("with --database-url %s accounts live only inside a running server; register through POST /api/v1/register instead", scheme+":")
			}
			ctx := cmd.Context()
			store, closer, err := b.accounts(ctx, cfg)
			if err != nil {
				return err
			}
			defer closer.Close()
			s, err := accounts.New(store, accounts.NewPasswords(accounts.DefaultPasswordParams, accounts.PasswordLimits{})).CreateUser(ctx, email)
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
