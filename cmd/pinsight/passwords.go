package main

import (
	"github.com/spf13/pflag"

	"github.com/pinsight/pinsight/app/accounts"
)

// passwordFlags adds the flags bounding argon2id work: every login,
// registration, share-page password and report password hash takes one of
// the slots (19 MiB each with the default costs).
func passwordFlags(f *pflag.FlagSet, c *accounts.PasswordLimits) {
	f.IntVar(&c.Concurrent, "password-hashes", 0, "argon2id password hashes and checks running at once, 19 MiB each; beyond, requests wait up to --password-wait (0: twice GOMAXPROCS)")
	f.DurationVar(&c.Wait, "password-wait", accounts.DefaultPasswordWait, "how long a login, registration or share-page password waits for a hashing slot before 503 with Retry-After")
}
