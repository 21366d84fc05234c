// Package httpapi is Pinsight's HTTP transport: huma v2 operations over the
// standard library mux, one JSON envelope for every response, and the
// mapping from domain errors to statuses.
package httpapi

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"
	"github.com/danielgtaylor/huma/v2/validation"

	"github.com/pinsight/pinsight/adapters/httpapi/middleware"
)

// version is the API version reported in the OpenAPI document: the newest
// version of CHANGELOG.md, which says what changed in each.
const version = "1.17.0"

// Lists are never null: every list schema the API's types produce is a
// plain array, in both OpenAPI documents, and the handlers build empty
// lists, never nil ones (encoding/json writes a nil slice as null).
// huma decides this for every array when it builds a schema, from this
// package-wide setting; it applies to the process's other huma APIs too.
//
// An enum's message lists its values plainly ("expected one of: 0, 1,
// 2"); huma's default quotes the joined list as one string. huma reads
// the message when it builds a schema, so it is set here, before any.
func init() {
	huma.DefaultArrayNullable = false
	validation.MsgExpectedOneOf = "expected one of: %s"
}

// prefix is the path prefix of every API operation.
const prefix = middleware.APIPrefix

// description is the OpenAPI description: the contract decisions a client
// needs to know.
const description = `Pinsight: India Post directory, DIGIPIN geocode and site analysis.

Every response is an envelope. Success: {"success": true, "data": {...}}.
Failure: {"success": false, "code": "...", "message": "...", "errors": {"field": ["..."]}}
with 400 (malformed body, missing field or parameter), 401, 404 (unknown resource or route),
405 (wrong method; Allow is set), 409 (a request with the same Idempotency-Key is still running;
Retry-After is set), 413 (body or batch too large), 415 (unsupported content type),
422 (invalid value), 429 (rate limited; Retry-After is set), 500, 503 (Retry-After is set).

Error envelopes list at most 20 field errors in errors (missing required fields first); when
more were found, errors_truncated gives the number left out.

Every response carries X-Content-Type-Options: nosniff; every 503 carries Retry-After.

Rate limits: a request with a valid API key counts against its user's quota (all of a user's
keys share it); any other request, with a missing, unknown or revoked key, against its client
IP. POST /register and /login have a stricter per-IP quota. Answers carry RateLimit-Limit,
RateLimit-Remaining and RateLimit-Reset; beyond the quota, 429 with Retry-After.

Reports have a lifecycle: status pending (queued), running, generated or failed (with failure),
and attempts. POST /reports and PUT /reports/{id} with results=1 wait up to ?wait= seconds
(0 to 60; default the fetch deadline + 5 s) for the analysis: finished in time, 201 / 200 with
the report as always; otherwise 202 with the report pending or running and Location:
/reports/{id}, and a durable job (River, in the server's database) finishes it, even across a
restart. Jobs retry timeouts, reset connections and 5xx answers with backoff (at most 3
analyses), wait out quotas and throttles, and fail a refused target at once. GET /reports
filters by ?status=. POST /reports/batch queues up to 100 URLs at once (202), spread in time by
the per-site throttle. A report may carry schedule (daily, weekly): it is then re-analysed by
itself, and GET /reports/{id}/history lists its runs with the checks broken and fixed since the
run before.

Webhooks (POST /account/webhooks: url, secret of 16+ characters, events): when a report finishes
(generated or failed, by any path), each of its user's webhooks receives a POST of
{"event":"report.finished","report":{...},"sent_at":"..."} with the header
Pinsight-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed by the secret>.
Receivers recompute the HMAC, compare in constant time, and refuse a t more than 5 minutes from
their clock (replay window). The URL passes the analyser's SSRF guard (at creation: 422 on url;
and when dialling). Deliveries time out after 10 s; no answer or a 5xx is retried with backoff
(at most 5 attempts), a 4xx is not; GET /account/webhooks/{id}/deliveries lists each delivery's
status, attempts, last error and last response status. The secret is returned only on creation.

POST bodies are accepted as application/json or application/x-www-form-urlencoded, except
batch endpoints, which are JSON only, and the bulk-file endpoints (POST /pincodes/bulk and
/digipin/bulk), which take CSV or JSON Lines and stream their answer (see their descriptions).
Request bodies must arrive within 5 s (408); a bulk file's, 30 s for each block of 1,000 rows.

Office records carry the live reviews_count, likes_count and rating (average of the reviews,
null without one) of the office's reviews and likes (/post-offices/{id}/review and /like).
Answers carrying office records are cached for 300 s (Cache-Control: public, max-age=300) with a
weak ETag of the dataset version and the counts version of the answer's pincode (of every
pincode for lists spanning several): a review or like changes the ETag of exactly the answers
holding that pincode. Other postal answers are cached for a day with the dataset's ETag. Review
texts are returned exactly as written, JSON-encoded: escape them when rendering HTML.

` + numericSyntaxDoc + `

DIGIPIN codes are returned as XXX-XXX-XXXX. Input is accepted with or without hyphens, in the
spaced display form, in either case. Encoding agrees exactly with India Post's official
implementation (grid cells are half-open: a point on an interior grid line belongs to the cell
north / east of it). Decoded centres are rounded to 6 decimals, as the official code prints them.`

// NewAPI creates the huma API on mux with Pinsight's configuration: the
// errorBody model, no $schema links, form bodies, OpenAPI at /openapi.json and
// docs at /docs.
func NewAPI(mux *http.ServeMux) huma.API {
	return newAPI(mux, "")
}

// newAPI is NewAPI for an API whose paths the host serves under base ("" at
// the root): the OpenAPI servers and the docs page's link to the document
// name base; routes are registered on mux without it (Handler strips it).
func newAPI(mux *http.ServeMux, base string) huma.API {
	useEnvelope()
	cfg := huma.DefaultConfig("Pinsight API", version)
	cfg.Servers = []*huma.Server{serverOf(base)}
	cfg.Info.Description = description
	cfg.CreateHooks = nil // no "$schema" key in bodies: the envelope is exact
	cfg.Formats = map[string]huma.Format{"application/json": jsonFormat, "json": jsonFormat}
	cfg.DocsPath = "" // huma's page loads its scripts from a CDN: registerDocs serves them
	cfg.Components.SecuritySchemes = map[string]*huma.SecurityScheme{
		bearerScheme: {Type: "http", Scheme: "bearer", Description: "An API key from POST /api/v1/login."},
	}
	api := humago.New(mux, cfg)
	registerDocs(mux, base)
	registerDemo(mux)
	api.UseMiddleware(formMiddleware(api), numericSyntax)
	return api
}

// serverOf is the OpenAPI server of an API served under base: the host's
// base path, or "/" at the root (a URL relative to the document, which
// tools resolve against the address they fetched it from).
func serverOf(base string) *huma.Server {
	if base == "" {
		return &huma.Server{URL: "/", Description: "This server: the paths below are served at the root of the host that serves this document."}
	}
	return &huma.Server{URL: base, Description: "The API as mounted by its host."}
}

// mountPath is the path the API's host serves it under: the path of its
// first OpenAPI server, "" at the root (a server "/").
func mountPath(api huma.API) string {
	for _, s := range api.OpenAPI().Servers {
		if u, err := url.Parse(s.URL); err == nil && u.Path != "" {
			return strings.TrimSuffix(u.Path, "/")
		}
	}
	return ""
}

// group returns the API with every operation placed under /api/v1.
func group(api huma.API) *huma.Group {
	return huma.NewGroup(api, prefix)
}
