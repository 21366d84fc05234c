package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/spf13/cobra"
)

// healthcheckTimeout bounds the whole probe: a container health check must
// answer even when the server hangs.
const healthcheckTimeout = 2 * time.Second

// newHealthcheckCmd probes a URL (by default the local /healthz) and exits 0
// on a 2xx answer: the container health check of an image that has no shell
// and no curl.
func newHealthcheckCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "healthcheck [URL]",
		Short: "GET URL (default http://127.0.0.1:8080/healthz) and exit 0 on a 2xx answer, 1 otherwise",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			url := "http://127.0.0.1:8080/healthz"
			if len(args) == 1 {
				url = args[0]
			}
			return probe(cmd.Context(), url)
		},
	}
}

// probe GETs url within healthcheckTimeout and fails unless it answers 2xx.
func probe(ctx context.Context, url string) error {
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, cancel := context.WithTimeout(ctx, healthcheckTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return fmt.Errorf("%s answered %s", url, res.Status)
	}
	return nil
}
