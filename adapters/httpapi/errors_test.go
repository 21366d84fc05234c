package httpapi_test

import (
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"testing"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/digipin"
	"github.com/pinsight/pinsight/domain/account"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/domain/webpage"
	"github.com/pinsight/pinsight/ports"
)

// TestErrorMapping pins the answer of every error the use cases return:
// status, code, message, field errors and headers.
func TestErrorMapping(t *testing.T) {
	_, rangeErr := digipin.EncodeCode(91, 77)
	_, syntaxErr := digipin.ParseCode("12X")
	realm := `Bearer realm="pinsight"`
	tests := []struct {
		name    string
		err     error
		status  int
		message string
		fields  map[string][]string
		headers http.Header
	}{
		{"digipin range", rangeErr, 422, "validation failed", map[string][]string{"latitude": {"must be a finite number from 2.5 to 38.5"}}, nil},
		{"digipin syntax", syntaxErr, 422, "validation failed", map[string][]string{"digipin": {syntaxErr.(*digipin.SyntaxError).Reason()}}, nil},
		{"postal validation", postal.Invalid("radius", "must be positive"), 422, "validation failed", map[string][]string{"radius": {"must be positive"}}, nil},
		{"postal ambiguous", &postal.AmbiguousError{Field: "state", Input: "ma", Candidates: []postal.Candidate{{ID: 27, Name: "Maharashtra"}, {ID: 14, Name: "Manipur"}}}, 422, "validation failed",
			map[string][]string{"state": {"matches several: be more specific or use an id (see candidates)"}}, nil},
		{"site validation", report.Invalid("url", "is required"), 422, "validation failed", map[string][]string{"url": {"is required"}}, nil},
		{"site fetch", fmt.Errorf("wrapped: %w", &webpage.FetchError{Reason: "no apitest.Response", Err: errors.New("dial tcp: secret")}), 422, "validation failed", map[string][]string{"url": {"no apitest.Response"}}, nil},
		{"account validation", account.Invalid("email", "is required"), 422, "validation failed", map[string][]string{"email": {"is required"}}, nil},
		{"bad credentials", account.ErrInvalidCredentials, 401, "invalid email or password", nil, http.Header{"WWW-Authenticate": {realm}}},
		{"account not found", account.ErrNotFound, 404, "not found", nil, nil},
		{"site not found", report.ErrNotFound, 404, "not found", nil, nil},
		{"postal not found", &postal.NotFoundError{What: "pincode 110001"}, 404, "pincode 110001 not found", nil, nil},
		{"no postal data", postal.ErrNoData, 503, `no directory loaded yet: with a database, "pinsight import" loads the dataset`, nil, nil},
		{"throttled", &reports.ThrottledError{Host: "example.com", Wait: 29500 * time.Millisecond}, 429, "too many analyses of example.com: retry after 30 s", nil, http.Header{"Retry-After": {"30"}}},
		{"passwords busy", fmt.Errorf("hash: %w", accounts.ErrPasswordsBusy), 503, "too many password checks at once: retry shortly", nil, http.Header{"Retry-After": {"1"}}},
		{"daily quota", &reports.QuotaError{Daily: true, Limit: 3, Wait: 8 * time.Hour}, 429, "at most 3 analyses a day: retry after 28800 s", nil, http.Header{"Retry-After": {"28800"}}},
		{"analyses at once", &reports.QuotaError{Limit: 2, Wait: reports.BusyRetryAfter}, 429, "at most 2 of your analyses run at once: retry when one finishes", nil, http.Header{"Retry-After": {"5"}}},
		{"analyser busy", reports.ErrBusy, 503, "every analysis slot is busy: retry shortly", nil, http.Header{"Retry-After": {"5"}}},
		{"in progress", &reports.InProgressError{Wait: 1200 * time.Millisecond}, 409, "a request with this Idempotency-Key is still running: retry after 2 s for its answer", nil, http.Header{"Retry-After": {"2"}}},
		{"storage unavailable", fmt.Errorf("%w: get report: dial tcp 10.0.0.7:5432: refused", ports.ErrUnavailable), 503, "the database is unavailable: try again shortly", nil, http.Header{"Retry-After": {"5"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := httpapi.ToHTTP(tt.err)
			var body *httpapi.ErrorBody
			if !errors.As(got, &body) {
				t.Fatalf("toHTTP(%v) = %#v, want an *ErrorBody", tt.err, got)
			}
			if body.GetStatus() != tt.status || body.Message != tt.message || !reflect.DeepEqual(body.Errors, tt.fields) {
				t.Errorf("toHTTP(%v) = %d %q %v, want %d %q %v", tt.err, body.GetStatus(), body.Message, body.Errors, tt.status, tt.message, tt.fields)
			}
			var headers http.Header
			var he huma.HeadersError
			if errors.As(got, &he) {
				headers = he.GetHeaders()
			}
			if !reflect.DeepEqual(headers, tt.headers) {
				t.Errorf("toHTTP(%v) headers = %v, want %v", tt.err, headers, tt.headers)
			}
		})
	}
	internal := errors.New("postgres: relation missing")
	if got := httpapi.ToHTTP(internal); got != internal {
		t.Errorf("toHTTP(an unknown error) = %v, want it unchanged (huma makes a 500 hiding it)", got)
	}
	if got := httpapi.ToHTTP(nil); got != nil {
		t.Errorf("toHTTP(nil) = %v", got)
	}
}
