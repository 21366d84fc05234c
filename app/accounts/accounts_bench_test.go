package accounts_test

import (
	"context"
	"testing"

	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/accounts"
)

// BenchmarkFailedLogin times a failed login with production argon2id costs
// for each kind of e-mail: every case should cost one verification, so an
// attacker cannot tell which addresses have accounts (or operator accounts
// without a password) from the answer time.
func BenchmarkFailedLogin(b *testing.B) {
	ctx := context.Background()
	as := accounts.New(memory.NewAccountStore(), accounts.NewPasswords(accounts.DefaultPasswordParams, accounts.PasswordLimits{}))
	if _, err := as.Register(ctx, "ada@example.com", "correct horse battery"); err != nil {
		b.Fatal(err)
	}
	if _, err := as.CreateUser(ctx, "operator@example.com", ""); err != nil {
		b.Fatal(err)
	}
	for _, email := range []string{"ada@example.com", "operator@example.com", "nobody@example.com"} {
		b.Run(email, func(b *testing.B) {
			for b.Loop() {
				if _, err := as.Login(ctx, email, "wrong password here", ""); err == nil {
					b.Fatal("a wrong password logged in")
				}
			}
		})
	}
}
