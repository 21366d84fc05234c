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
	var withPassword bool
	create := &cobra.Command{
		Use:   "create --email E [--password]",
		Short: "Create a user and print a new API key (shown once)",
		Long: "Create a user and print a new API key (shown once).\n\n" +
			"Without --password the account is key-only: it has no password, so POST /api/v1/login refuses it, " +
			"and it signs in with the printed key (more keys: POST /api/v1/account/api-key). With --password the " +
			"password is asked for (without echo on a terminal, twice; otherwise the first line of standard input) " +
			"and the account can also log in with it, as a registered one does.",
		Args: cobra.NoArgs,
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
			var password string
			if withPassword {
				if password, err = readPassword(cmd.InOrStdin(), cmd.ErrOrStderr(), email); err != nil {
					return err
				}
			}
			ctx := cmd.Context()
			store, closer, err := b.accounts(ctx, cfg)
			if err != nil {
				return err
			}
			defer closer.Close()
			s, err := accounts.New(store, accounts.NewPasswords(accounts.DefaultPasswordParams, accounts.PasswordLimits{})).CreateUser(ctx, email, password)
			if err != nil {
				return err
			}
			fmt.Fprintln(cmd.OutOrStdout(), s.Key)
			return nil
		},
	}
	databaseFlags(create.Flags(), &cfg)
	create.Flags().StringVar(&email, "email", "", "the user's e-mail address")
	create.Flags().BoolVar(&withPassword, "password", false, "ask for a password the account logs in with (on a terminal, without echo; otherwise read from standard input); without it the account is key-only")
	_ = create.MarkFlagRequired("email")
	documentEnv(create)
	cmd.AddCommand(create)
	return cmd
}
