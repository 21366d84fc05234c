package mcp

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/pinsight/pinsight/domain/fault"
)

// withKey verifies the Bearer key of r, once, and returns r carrying the
// key's user for the tools (r itself without a key). It answers a refused
// or malformed key 401 and a key that cannot be checked now 503, in the
// API's envelope, and then reports false.
func withKey(w http.ResponseWriter, r *http.Request, o HTTPOptions) (*http.Request, bool) {
	header := r.Header.Get("Authorization")
	if header == "" {
		return r, true
	}
	// The SDK's own parse: a scheme and one token.
	fields := strings.Fields(header)
	if len(fields) != 2 || !strings.EqualFold(fields[0], "Bearer") {
		unauthorized(w, "send the API key as Authorization: Bearer <key>", false)
		return nil, false
	}
	if o.Authenticate == nil {
		unauthorized(w, "API keys are not accepted by this server", true)
		return nil, false
	}
	u, err := o.Authenticate(r.Context(), fields[1])
	switch kind := fault.KindOf(err); {
	case err == nil:
	case kind == fault.Unauthorized:
		unauthorized(w, fault.Message(err), true)
		return nil, false
	case kind == fault.Unavailable || kind == fault.Busy:
		unavailable(w, err)
		return nil, false
	default:
		o.Log.ErrorContext(r.Context(), "mcp key verification failed", "err", err)
		writeError(w, http.StatusInternalServerError, internalMessage)
		return nil, false
	}
	// The SDK's middleware puts the verified key where the tools read it;
	// its verifier only hands over the verdict above.
	info := &auth.TokenInfo{UserID: strconv.FormatInt(u.ID, 10), Expiration: time.Now().Add(time.Hour)}
	var keyed *http.Request
	auth.RequireBearerToken(func(_ context.Context, _ string, _ *http.Request) (*auth.TokenInfo, error) { return info, nil },
		nil)(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { keyed = r })).ServeHTTP(w, r)
	return keyed, keyed != nil
}

// unauthorized answers 401 with the challenge of RFC 6750, as the HTTP
// API does (invalidToken: the key was refused).
func unauthorized(w http.ResponseWriter, msg string, invalidToken bool) {
	challenge := `Bearer realm="pinsight"`
	if invalidToken {
		challenge += `, error="invalid_token"`
	}
	w.Header().Set("WWW-Authenticate", challenge)
	writeError(w, http.StatusUnauthorized, msg)
}

// unavailable answers a request whose key could not be checked now: 503,
// Retry-After, and the API's error envelope.
func unavailable(w http.ResponseWriter, err error) {
	wait := 5 * time.Second
	var ra interface{ RetryAfter() time.Duration }
	if errors.As(err, &ra) && ra.RetryAfter() > 0 {
		wait = ra.RetryAfter()
	}
	w.Header().Set("Retry-After", seconds(wait))
	writeError(w, http.StatusServiceUnavailable, "the API key could not be verified now: retry later")
}
