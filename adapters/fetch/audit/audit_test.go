package audit_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/pinsight/pinsight/adapters/fetch/audit"
	"github.com/pinsight/pinsight/domain/fault"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/webpage"
)

// pages are the test site: a page with a title and one without.
var pages = map[string]string{
	"/titled":   `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Garden tools compared</title></head><body><h1>Garden tools</h1><p>Spades and rakes.</p></body></html>`,
	"/untitled": `<!doctype html><html lang="en"><head><meta charset="utf-8"></head><body><h1>Garden tools</h1><p>Spades and rakes.</p></body></html>`,
}

// server serves pages on 127.0.0.1 (404 elsewhere) and counts the
// requests it receives.
func server(t *testing.T) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		body, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

// allowed are options that let the audit reach srv.
func allowed(srv *httptest.Server) audit.Options {
	return audit.Options{AllowTargets: []string{srv.Listener.Addr().String()}}
}

// check returns the check id of a.
func check(t *testing.T, a pagecheck.Analysis, id string) pagecheck.Check {
	t.Helper()
	for _, checks := range a.Results {
		for _, c := range checks {
			if c.ID == id {
				return c
			}
		}
	}
	t.Fatalf("no %s check in %v", id, a.Results)
	return pagecheck.Check{}
}

func TestURLRunsTheChecksOnAnAllowedTarget(t *testing.T) {
	srv, _ := server(t)
	untitled, err := audit.URL(context.Background(), srv.URL+"/untitled", allowed(srv))
	if err != nil {
		t.Fatal(err)
	}
	if untitled.URL != srv.URL+"/untitled" || untitled.Status != http.StatusOK {
		t.Errorf("URL, Status = %s, %d; want %s/untitled, 200", untitled.URL, untitled.Status, srv.URL)
	}
	if c := check(t, untitled, "title"); c.Passed || !slices.Contains(c.Errors, "missing") {
		t.Errorf("a page without a title: title check passed=%v errors=%v", c.Passed, c.Errors)
	}
	if c := check(t, untitled, "404_page"); !c.Passed {
		t.Errorf("the server answers 404 to the probe, yet the 404 check failed: %s", c.Message)
	}
	if c := check(t, untitled, "https_encryption"); c.Passed {
		t.Error("a plain http page passed the HTTPS check")
	}
	if want := untitled.Results.Score(pagecheck.DefaultWeights); untitled.Score != want || untitled.Rating != pagecheck.RatingFor(want) {
		t.Errorf("Score, Rating = %d, %s; want %d, %s (default weights)", untitled.Score, untitled.Rating, want, pagecheck.RatingFor(want))
	}

	titled, err := audit.URL(context.Background(), srv.URL+"/titled", allowed(srv))
	if err != nil {
		t.Fatal(err)
	}
	if c := check(t, titled, "title"); !c.Passed || c.Value != "Garden tools compared" {
		t.Errorf("title check passed=%v value=%v", c.Passed, c.Value)
	}
	if titled.Score <= untitled.Score {
		t.Errorf("the titled page scores %d, the untitled one %d", titled.Score, untitled.Score)
	}
}

func TestWeightsOptionScores(t *testing.T) {
	srv, _ := server(t)
	opts := allowed(srv)
	opts.Weights = pagecheck.Weights{pagecheck.Low: 1} // only the low-importance checks count
	a, err := audit.URL(context.Background(), srv.URL+"/untitled", opts)
	if err != nil {
		t.Fatal(err)
	}
	if want := a.Results.Score(opts.Weights); a.Score != want || a.Rating != pagecheck.RatingFor(want) {
		t.Errorf("Score, Rating = %d, %s; want %d, %s", a.Score, a.Rating, want, pagecheck.RatingFor(want))
	}
	if a.Score == a.Results.Score(pagecheck.DefaultWeights) {
		t.Errorf("the score %d is the default weights' too: the test page cannot tell them apart", a.Score)
	}
}

func TestLoopbackNotAllowedIsRefused(t *testing.T) {
	srv, hits := server(t)
	u, _ := url.Parse(srv.URL)
	port, _ := strconv.Atoi(u.Port())
	var logged bytes.Buffer
	for name, opts := range map[string]audit.Options{
		"zero options":        {},
		"its port allowed":    {AllowPorts: []int{port}, Logger: slog.New(slog.NewTextHandler(&logged, nil))},
		"another target only": {AllowTargets: []string{"127.0.0.1:1"}},
	} {
		_, err := audit.URL(context.Background(), srv.URL+"/titled", opts)
		var fe *webpage.FetchError
		if !errors.As(err, &fe) || !fe.Refused {
			t.Errorf("%s: err = %v, want a refused *webpage.FetchError", name, err)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the refused server received %d requests", n)
	}
	// With its port allowed, the address is what the guard refuses: the
	// error only says it is not public, the logger says which it is.
	if !strings.Contains(logged.String(), "127.0.0.1") {
		t.Errorf("the logger was not told the refused address: %q", logged.String())
	}
}

func TestInvalidOptionsFetchNothing(t *testing.T) {
	srv, hits := server(t)
	for option, opts := range map[string]audit.Options{
		"Timeout":        {Timeout: -1},
		"ConnectTimeout": {ConnectTimeout: -1},
		"MaxBytes":       {MaxBytes: -1},
		"MaxRedirects":   {MaxRedirects: -1},
		"AllowPorts":     {AllowPorts: []int{70000}},
		"AllowTargets":   {AllowTargets: []string{"no-port"}},
		"Weights":        {Weights: pagecheck.Weights{pagecheck.High: -1}},
	} {
		opts.AllowTargets = append(opts.AllowTargets, srv.Listener.Addr().String())
		_, err := audit.URL(context.Background(), srv.URL+"/titled", opts)
		var oe *audit.OptionError
		if !errors.As(err, &oe) || oe.Option != option || fault.KindOf(err) != fault.Invalid {
			t.Errorf("%s: err = %v, want an invalid *audit.OptionError on %s", option, err, option)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("invalid options fetched %d times", n)
	}
}

func TestCancelledContextIsAFetchError(t *testing.T) {
	srv, _ := server(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := audit.URL(ctx, srv.URL+"/titled", allowed(srv))
	var fe *webpage.FetchError
	if !errors.As(err, &fe) || fe.Refused {
		t.Errorf("err = %v, want an unrefused *webpage.FetchError", err)
	}
}
