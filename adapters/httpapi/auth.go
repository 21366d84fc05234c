package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/adapters/httpapi/middleware"
	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/domain/fault"
)

// bearerScheme is the OpenAPI security scheme of the site-analysis API.
const bearerScheme = "bearer"

// principal is the authenticated caller of a request.
type principal = middleware.Caller

type principalKey struct{}

// caller returns the authenticated caller placed in ctx by requireKey.
func caller(ctx context.Context) principal {
	p, _ := ctx.Value(principalKey{}).(principal)
	return p
}

// requireKey is an operation middleware that rejects requests without a valid
// API key (401 with WWW-Authenticate) and records the caller otherwise.
func requireKey(acc *accounts.Accounts) func(huma.Context, func(huma.Context)) {
	return func(ctx huma.Context, next func(huma.Context)) {
		header := ctx.Header("Authorization")
		token := middleware.BearerToken(header)
		if token == "" {
			writeErr(ctx, unauthorized(middleware.MissingKeyMessage(header), false))
			return
		}
		p, err := middleware.Authenticate(ctx.Context(), acc.Authenticate, token)
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
	var body *errorBody
	if !errors.As(err, &body) {
		body = newError(http.StatusInternalServerError, "internal server error").(*errorBody)
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
