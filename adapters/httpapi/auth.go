package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/app"
	"github.com/pinsight/pinsight/domain/account"
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
func requireKey(accounts *app.Accounts) func(huma.Context, func(huma.Context)) {
	return func(ctx huma.Context, next func(huma.Context)) {
		token := bearerToken(ctx.Header("Authorization"))
		if token == "" {
			writeErr(ctx, unauthorized("missing API key: send Authorization: Bearer <key>", false))
			return
		}
		u, k, err := accounts.Authenticate(ctx.Context(), token)
		if err != nil {
			writeErr(ctx, toHTTP(err))
			return
		}
		next(huma.WithValue(ctx, principalKey{}, principal{User: u, Key: k}))
	}
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
func protect(accounts *app.Accounts, op *huma.Operation) {
	op.Security = []map[string][]string{{bearerScheme: {}}}
	op.Middlewares = append(op.Middlewares, requireKey(accounts))
	if op.Responses == nil {
		op.Responses = map[string]*huma.Response{}
	}
	op.Responses["401"] = &huma.Response{Description: "Missing or invalid API key."}
}
