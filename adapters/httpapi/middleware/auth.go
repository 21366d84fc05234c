package middleware

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/pinsight/pinsight/domain/account"
)

// Authenticator verifies an API key, returning its user and record, or
// account.ErrUnauthorized when the key is unknown or revoked.
// (*accounts.Accounts).Authenticate is one.
type Authenticator func(ctx context.Context, key string) (account.User, account.APIKey, error)

// Caller is the verified owner of a request's API key.
type Caller struct {
	User account.User
	Key  account.APIKey
}

// verdict is the edge's verification of a request's Bearer key.
type verdict struct {
	caller Caller
	err    error
}

type verdictKey struct{}

// verifiedCaller returns the verdict the edge placed in ctx, if it verified
// the request's key.
func verifiedCaller(ctx context.Context) (verdict, bool) {
	v, ok := ctx.Value(verdictKey{}).(verdict)
	return v, ok
}

// authenticated verifies the Bearer key of every request that counts
// against a quota, once, and records the verdict in the request context:
// the rate limiter charges a verified key's user, the API's key check and
// the report page reuse it (Authenticate). A request whose key fails is
// served anonymously here (protected operations then answer 401). Nil
// auth: keys are verified only by the operations that need them.
func authenticated(next http.Handler, auth Authenticator) http.Handler {
	if auth == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		token := BearerToken(r.Header.Get("Authorization"))
		if token == "" || quotaKind(r) != defaultQuota {
			next.ServeHTTP(w, r)
			return
		}
		u, k, err := auth(r.Context(), token)
		v := verdict{caller: Caller{User: u, Key: k}, err: err}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), verdictKey{}, v)))
	})
}

// Authenticate verifies token: the edge's verdict when it already verified
// the request's key, else a verification by auth now.
func Authenticate(ctx context.Context, auth Authenticator, token string) (Caller, error) {
	if v, ok := verifiedCaller(ctx); ok {
		return v.caller, v.err
	}
	u, k, err := auth(ctx, token)
	return Caller{User: u, Key: k}, err
}

// BearerToken extracts the key of an "Authorization: Bearer KEY" header,
// "" when there is none.
func BearerToken(header string) string {
	scheme, token, found := strings.Cut(strings.TrimSpace(header), " ")
	if !found || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(token)
}

// MissingKeyMessage is the message of a request without a Bearer key:
// it names the scheme sent instead (a Basic header, say), so a caller
// who sent credentials of another kind learns that a Bearer key is
// expected.
func MissingKeyMessage(header string) string {
	const want = "send Authorization: Bearer <key>"
	scheme, _, _ := strings.Cut(strings.TrimSpace(header), " ")
	switch {
	case scheme == "":
		return "missing API key: " + want
	case strings.EqualFold(scheme, "Bearer"):
		return "missing API key: the Bearer scheme came without a key; " + want
	default:
		return "missing API key: the " + strconv.Quote(scheme) + " scheme is not accepted; " + want
	}
}
