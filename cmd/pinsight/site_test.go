package main

import (
	"testing"
	"time"

	"github.com/spf13/pflag"
	"go.uber.org/fx"
	"go.uber.org/fx/fxtest"

	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/domain/ratelimit"
)

// analyserConfigFor parses args as the site flags of serve and returns the
// analyser configuration the graph gets from them.
func analyserConfigFor(t *testing.T, args ...string) reports.AnalyserConfig {
	t.Helper()
	cfg := serveConfig{Database: databaseConfig{URL: "memory:"}}
	fs := pflag.NewFlagSet("serve", pflag.ContinueOnError)
	siteFlags(fs, &cfg.Site)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	var got reports.AnalyserConfig
	fxtest.New(t, mustOptions(t, cfg), fx.Populate(&got)).RequireStart().RequireStop()
	return got
}

// TestAnalysisQuotaFlags: the quota flags reach the analyser; by default
// each quota is on, and 0 turns one off.
func TestAnalysisQuotaFlags(t *testing.T) {
	got := analyserConfigFor(t)
	want := reports.AnalyserConfig{Workers: 4, UserConcurrent: reports.DefaultUserConcurrent, UserDaily: reports.DefaultUserDaily,
		HostLimit: reports.DefaultHostLimit, AddressLimit: reports.DefaultAddressLimit}
	if got.Workers != want.Workers || got.UserConcurrent != want.UserConcurrent || got.UserDaily != want.UserDaily ||
		got.HostLimit != want.HostLimit || got.AddressLimit != want.AddressLimit {
		t.Errorf("defaults: %+v, want %+v", got, want)
	}
	got = analyserConfigFor(t, "--user-concurrent-analyses=3", "--user-daily-analyses=50",
		"--host-analyses-per-minute=7", "--address-analyses-per-minute=70")
	if got.UserConcurrent != 3 || got.UserDaily != (ratelimit.Limit{Requests: 50, Window: 24 * time.Hour}) ||
		got.HostLimit != (ratelimit.Limit{Requests: 7, Window: time.Minute}) || got.AddressLimit != (ratelimit.Limit{Requests: 70, Window: time.Minute}) {
		t.Errorf("set: %+v", got)
	}
	got = analyserConfigFor(t, "--user-concurrent-analyses=0", "--user-daily-analyses=0",
		"--host-analyses-per-minute=0", "--address-analyses-per-minute=0")
	if got.UserConcurrent >= 0 || got.UserDaily.Enabled() || got.HostLimit.Enabled() || got.AddressLimit.Enabled() {
		t.Errorf("all off: %+v", got)
	}
}
