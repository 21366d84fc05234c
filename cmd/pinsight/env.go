package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// envPrefix is the prefix of the environment equivalents of flags.
const envPrefix = "PINSIGHT_"

// envName returns the variable for a flag: --database-url -> PINSIGHT_DATABASE_URL.
func envName(flag string) string {
	return envPrefix + strings.ToUpper(strings.ReplaceAll(flag, "-", "_"))
}

// bindEnv fills every flag not set on the command line from its environment
// variable, and names the variable in the flag's help.
func bindEnv(cmd *cobra.Command) error {
	var firstErr error
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		v, ok := os.LookupEnv(envName(f.Name))
		if !ok || f.Changed || firstErr != nil {
			return
		}
		if err := cmd.Flags().Set(f.Name, v); err != nil {
			firstErr = fmt.Errorf("%s=%q: %w", envName(f.Name), v, err)
		}
	})
	return firstErr
}

// documentEnv appends the environment variable to each flag's usage.
func documentEnv(cmd *cobra.Command) {
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		f.Usage += " (env " + envName(f.Name) + ")"
	})
}
