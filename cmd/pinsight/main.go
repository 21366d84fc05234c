// Command pinsight runs the Pinsight server and its operator tools.
//
//	pinsight serve                  run the HTTP API (storage: the SQLite file pinsight.db by default)
//	pinsight mcp [--api-key K]      serve the MCP tools over stdio, for an AI assistant
//	pinsight migrate                apply the database migrations
//	pinsight import                 load the India Post files into Postgres (Postgres storage only)
//	pinsight user create --email E  create a key-only user and print an API key
//	  [--password]                  ...that can also log in with a password read from the terminal or stdin
//	pinsight digipin encode LAT LON print the DIGIPIN of a point
//	pinsight digipin decode CODE    print the centre of a code's cell
//	pinsight healthcheck [URL]      exit 0 when URL (default the local /healthz) answers 2xx
//	pinsight --version              the build's version: module version, commit, date, modified
//
// Every flag has a PINSIGHT_* environment equivalent (--database-url is
// PINSIGHT_DATABASE_URL); a flag given on the command line wins.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"
)

// main runs the command with a context that SIGINT and SIGTERM cancel (a
// second signal kills the process as usual).
func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop()
	}()
	err := newRoot().ExecuteContext(ctx)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "pinsight:", err)
		os.Exit(1)
	}
}

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:           "pinsight",
		Short:         "India Post directory, DIGIPIN geocode and site analysis API",
		Version:       buildVersion(),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(newServeCmd(), newWorkerCmd(), newMigrateCmd(), newImportCmd(), newUserCmd(), newDigipinCmd(), newHealthcheckCmd(), newMCPCmd())
	return root
}
