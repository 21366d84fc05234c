package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/domain/account"
	"github.com/pinsight/pinsight/domain/fault"
)

// bearerScheme is the OpenAPI security scheme of the site-analysis API.
const bearerScheme = "bearer"

// principal is the authenticated caller of a request.
type principal struct {
	User account.User
	Key  account.APIKey
}

type principalKey struct{}

// caller returns the authenticated caller placed in ctx by requireKey.
func caller(ctx context.Context) principal {
	p, _ := ctx.Value(principalKey{}).(principal)
	return p
}

// Authenticator verifies an API key, returning its user and record, or
// account.ErrUnauthorized when the key is unknown or revoked.
// (*accounts.Accounts).Authenticate is one.
type Authenticator func(ctx context.Context, key string) (account.User, account.APIKey, error)

// verdict is the edge's verification of a request's Bearer key.
type verdict struct {
	caller principal
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
// the rate limiter charges a verified key's user, requireKey and the report
// page reuse it. A request whose key fails is served anonymously here
// (protected operations then answer 401). Nil auth: keys are verified only
// by the operations that need them.
func authenticated(next http.Handler, auth Authenticator) http.Handler {
	if auth == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		token := bearerToken(r.Header.Get("Authorization"))
		if token == "" || quotaKind(r) != defaultQuota {
			next.ServeHTTP(w, r)
			return
		}
		u, k, err := auth(r.Context(), token)
		v := verdict{caller: principal{User: u, Key: k}, err: err}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), verdictKey{}, v)))
	})
}

// authenticate verifies token: the edge's verdict when it already verified
// the request's key, else a verification now.
func authenticate(ctx context.Context, auth Authenticator, token string) (principal, error) {
	if v, ok := verifiedCaller(ctx); ok {
		return v.caller, v.err
	}
	u, k, err := auth(ctx, token)
	return principal{User: u, Key: k}, err
}

// bearerToken extracts the key of an "Authorization: Bearer KEY" header.
func bearerToken(header string) string {
	scheme, token, found := strings.Cut(strings.TrimSpace(header), " ")
	if !found || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(token)
}

// requireKey is an operation middleware that rejects requests without a valid
// API key (401 with WWW-Authenticate) and records the caller otherwise.
func requireKey(acc *accounts.Accounts) func(huma.Context, func(huma.Context)) {
	return func(ctx huma.Context, next func(huma.Context)) {
		token := bearerToken(ctx.Header("Authorization"))
		if token == "" {
			writeErr(ctx, unauthorized("missing API key: send Authorization: Bearer <key>", false))
			return
		}
		p, err := authenticate(ctx.Context(), acc.Authenticate, token)
		if err != nil {
			writeErr(ctx, keyError(err))
			return
		}
		next(huma.WithValue(ctx, principalKey{}, p))
	}
}

// keyError maps a failed verification of a Bearer key: a key refused is a
// 401 whose challenge says error="invalid_token" (RFC 6750); anything else
// (a database down) as toHTTP maps it.
func keyError(err error) error {
	if fault.KindOf(err) == fault.Unauthorized {
		return unauthorized(fault.Message(err), true)
	}
	return toHTTP(err)
}

// writeErr writes a status error (with its headers) from a middleware.
func writeErr(ctx huma.Context, err error) {
	var he huma.HeadersError
	if errors.As(err, &he) {
		for k, vs := range he.GetHeaders() {
			for _, v := range vs {
				ctx.AppendHeader(k, v)
			}
		}
	}
	var body *ErrorBody
	if !errors.As(err, &body) {
		body = newError(http.StatusInternalServerError, "internal server error").(*ErrorBody)
	}
	ctx.SetHeader("Content-Type", "application/json")
	ctx.SetStatus(body.status)
	_ = json.NewEncoder(ctx.BodyWriter()).Encode(body)
}

// protect marks an operation as requiring a key, in OpenAPI and at run time.
func protect(acc *accounts.Accounts, op *huma.Operation) {
	op.Security = []map[string][]string{{bearerScheme: {}}}
	op.Middlewares = append(op.Middlewares, requireKey(acc), numericSyntax)
	if op.Responses == nil {
		op.Responses = map[string]*huma.Response{}
	}
	op.Responses["401"] = &huma.Response{Description: "Missing or invalid API key."}
}
