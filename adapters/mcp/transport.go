package mcp

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pinsight/pinsight/domain/fault"
)

// Handler serves s over the SDK's streamable HTTP transport, stateless
// (every POST stands alone, so any instance behind a balancer answers it)
// with JSON answers. A request with an "Authorization: Bearer KEY" header
// has its key verified by authenticate (nil: keys are refused) and is
// answered 401 when the key is refused; the verified user reaches the
// tools. A request without a key reaches the public tools only. The host
// mounts it behind its own edge (request ids, logs, metrics, rate limits).
func Handler(s *sdk.Server, authenticate Authenticator) http.Handler {
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s },
		&sdk.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	withKey := auth.RequireBearerToken(verifier(authenticate), &auth.RequireBearerTokenOptions{})
	keyed := withKey(h)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "" {
			h.ServeHTTP(w, r)
			return
		}
		if authenticate != nil {
			// A key that cannot be checked now (the database down) is
			// 503 with Retry-After, as on the rest of the API; the SDK's
			// middleware would answer it 500. A checked key is verified
			// again there, from the accounts' cache of verified keys.
			token, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
			_, err := authenticate(r.Context(), strings.TrimSpace(token))
			if k := fault.KindOf(err); err != nil && (k == fault.Unavailable || k == fault.Busy) {
				unavailable(w, err)
				return
			}
		}
		keyed.ServeHTTP(w, r)
	})
}

// unavailable answers a request whose key could not be checked now: 503,
// Retry-After, and the API's error envelope.
func unavailable(w http.ResponseWriter, err error) {
	wait := 5 * time.Second
	var ra interface{ RetryAfter() time.Duration }
	if errors.As(err, &ra) && ra.RetryAfter() > 0 {
		wait = ra.RetryAfter()
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Retry-After", strconv.Itoa(int((wait+time.Second-1)/time.Second)))
	w.WriteHeader(http.StatusServiceUnavailable)
	_, _ = w.Write([]byte(`{"success":false,"code":"unavailable","message":"the API key could not be verified now: retry later"}` + "\n"))
}

// verifier adapts authenticate to the SDK's bearer-token middleware: a
// refused key is its invalid token (401); a key that could not be checked
// (a database down) an error whose text is the mapped message, never the
// cause's.
func verifier(authenticate Authenticator) auth.TokenVerifier {
	return func(ctx context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		if authenticate == nil {
			return nil, auth.ErrInvalidToken
		}
		u, err := authenticate(ctx, strings.TrimSpace(token))
		switch kind := fault.KindOf(err); {
		case err == nil:
		case kind == fault.Unauthorized:
			return nil, auth.ErrInvalidToken
		case kind == fault.Unavailable || kind == fault.Busy:
			return nil, errors.New("the API key could not be verified now: retry later")
		default:
			return nil, errors.New("internal error")
		}
		// The key is checked again on each request; the expiry only
		// satisfies the middleware.
		return &auth.TokenInfo{UserID: strconv.FormatInt(u.ID, 10), Expiration: time.Now().Add(time.Hour)}, nil
	}
}

// Stdio serves s over standard input and output until the client closes
// its end or ctx ends.
func Stdio(ctx context.Context, s *sdk.Server) error {
	return s.Run(ctx, &sdk.StdioTransport{})
}
