package tests

import (
	"context"
	"net/url"
	"testing"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/httpapitest"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/adapters/postgres"
	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/directory"
	"github.com/pinsight/pinsight/app/geocode"
	"github.com/pinsight/pinsight/app/releases"
	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/app/reviews"
	"github.com/pinsight/pinsight/domain/webpage"
	"github.com/pinsight/pinsight/ports"
	"github.com/pinsight/pinsight/ports/porttest"
)

// knownSite fetches page for every URL on host (served from the URL asked
// for, as a site without redirects would); any other URL is unreachable.
type knownSite struct {
	host string
	page *webpage.Fetched
}

func (k knownSite) Fetch(_ context.Context, rawURL string, _ ports.Admit) (*webpage.Fetched, error) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Hostname() != k.host {
		return nil, &webpage.FetchError{Reason: "no response from " + rawURL}
	}
	p := *k.page
	p.RequestedURL, p.Page.URL = rawURL, rawURL
	return &p, nil
}

// TestPostgresHostileInput sends hostile values to every operation of the
// full API over the Postgres stores, with the real analyser over a fetcher
// that knows one site: never a 500, always the envelope.
// adapters/httpapi's TestHostileInput runs the same over the memory stores.
func TestPostgresHostileInput(t *testing.T) {
	db, _ := newDatabase(t)
	if _, err := postgres.ImportDataset(context.Background(), db, porttest.PostalDataset()); err != nil {
		t.Fatal(err)
	}
	pw := accounts.NewPasswords(accounts.PasswordParams{MemoryKiB: 64, Time: 1, Threads: 1}, accounts.PasswordLimits{})
	reportStore := postgres.NewReportStore(db)
	analyser := reports.NewAnalyser(knownSite{host: "a.com", page: samplePage()}, reports.AnalyserConfig{HostLimit: reports.NoLimit})
	reviewStore := postgres.NewReviewStore(db)
	dir := directory.NewWithReviews(postgres.NewPostalStore(db), reviewStore)
	httpapitest.HostileRoutes(t, httpapi.Routes{
		Accounts:  accounts.New(postgres.NewAccountStore(db), pw),
		Directory: dir,
		Geocoder:  geocode.New(postgres.NewPostalStore(db), nil),
		Reports:   reports.New(reportStore, analyser, pw),
		Projects:  reports.NewProjects(reportStore),
		Reviews:   reviews.New(dir, reviewStore, reviews.Config{Limiter: memory.NewRateLimiter(), WriteLimit: hostileWrites}),
		Releases:  releases.New(postgres.NewReleaseStore(db)),
	})
}
