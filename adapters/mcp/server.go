// Package mcp is Pinsight's Model Context Protocol transport: the postal
// directory, DIGIPIN and site-analysis use cases as MCP tools and
// resources for AI assistants, on the official Go SDK. It serves over
// stdio (Stdio) or the SDK's streamable HTTP handler (Handler), and maps
// domain errors by kind in one table (errors.go), as the HTTP transport
// does.
package mcp

import (
	"context"
	"log/slog"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pinsight/pinsight/app/crawls"
	"github.com/pinsight/pinsight/app/directory"
	"github.com/pinsight/pinsight/app/geocode"
	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/domain/account"
)

// Options are the use cases the server exposes. Directory and Geocoder are
// required; Reports with Authenticate adds the site-analysis tools, and
// Crawls with Authenticate the whole-site audit tools, which need an API
// key.
type Options struct {
	Directory *directory.Directory
	Geocoder  *geocode.Geocoder
	Reports   *reports.Reports
	Crawls    *crawls.Crawls
	// Authenticate verifies an API key: over HTTP the request's Bearer key
	// (see Handler), over stdio Key.
	Authenticate Authenticator
	// Key is the API key of a stdio session (the assistant's user), "" for
	// none: the tools needing a key then answer unauthorized.
	Key string
	// Version is the server version announced at initialize.
	Version string
	// Log receives internal errors (their text never reaches a client).
	Log *slog.Logger
}

// Authenticator verifies an API key, returning its user, or an error of
// kind fault.Unauthorized when the key is unknown or revoked.
// (*accounts.Accounts).Authenticate fits, its key record dropped.
type Authenticator func(ctx context.Context, key string) (account.User, error)

// instructions tell the assistant what the server is for.
const instructions = `Pinsight answers questions about Indian postal geography from the official India Post
directory: which post offices serve a 6-digit PIN code (pincode_lookup), one office's details
(office_details), offices near a point (nearby_offices), a search by office, district or PIN prefix
(search_offices), suggestions as the user types, forgiving typing errors (autocomplete_offices),
states and their districts (list_states, list_districts), and DIGIPIN, India Post's
geocode of 10 characters for a ~4 m cell (digipin_encode, digipin_decode, digipin_validate,
digipin_nearest). With an API key it also analyses web pages for SEO, performance and security
(analyse_url, get_report, list_reports) and audits whole sites (crawl_start, crawl_status,
crawl_issues). Errors carry a code: invalid_argument (the arguments
named are wrong; fix them), not_found, unauthorized (an API key is needed or refused),
rate_limited and busy (retry after retry_after_seconds), unavailable (retry later), internal.`

// New returns the MCP server over the use cases of o.
func New(o Options) *sdk.Server {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	s := sdk.NewServer(&sdk.Implementation{Name: "pinsight", Title: "Pinsight", Version: o.Version},
		&sdk.ServerOptions{Instructions: instructions, Logger: o.Log})
	s.AddReceivingMiddleware(withinRequests)
	t := &tools{Options: o}
	t.addPostal(s)
	t.addDigipin(s)
	if o.Reports != nil && o.Authenticate != nil {
		t.addReports(s)
	}
	if o.Crawls != nil && o.Authenticate != nil {
		t.addCrawls(s)
	}
	t.addResources(s)
	return s
}

// tools holds what the tool handlers share.
type tools struct{ Options }
