package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"
)

// formType is the media type of HTML form bodies.
const formType = "application/x-www-form-urlencoded"

// registerForm registers an operation whose body may be JSON or an HTML
// form; the OpenAPI document lists both media types with the same schema and
// formMiddleware converts forms to JSON before huma validates them.
func registerForm[I, O any](api huma.API, op huma.Operation, handler func(context.Context, *I) (*O, error)) {
	rb := &huma.RequestBody{Content: map[string]*huma.MediaType{"application/json": {}}}
	op.RequestBody = rb
	huma.Register(api, op, handler)
	rb.Content[formType] = &huma.MediaType{Schema: rb.Content["application/json"].Schema}
}

// humaCtx lets formContext embed huma.Context without its field name
// colliding with the Context method.
type humaCtx = huma.Context

// formContext presents a converted form body to huma as JSON.
type formContext struct {
	humaCtx
	body io.Reader
}

func (c formContext) BodyReader() io.Reader { return c.body }

func (c formContext) Header(name string) string {
	if strings.EqualFold(name, "Content-Type") {
		return "application/json"
	}
	return c.humaCtx.Header(name)
}

// formMiddleware converts urlencoded bodies of operations that accept forms
// into JSON typed by the operation's schema, so numbers stay numbers and
// huma validates forms and JSON alike. Other operations answer 415 for forms.
func formMiddleware(api huma.API) func(huma.Context, func(huma.Context)) {
	return func(ctx huma.Context, next func(huma.Context)) {
		mt, _, _ := mime.ParseMediaType(ctx.Header("Content-Type"))
		op := ctx.Operation()
		if mt != formType || op == nil || op.RequestBody == nil || op.RequestBody.Content[formType] == nil {
			next(ctx)
			return
		}
		limit := op.MaxBodyBytes
		if limit <= 0 {
			limit = 1 << 20
		}
		if op.BodyReadTimeout > 0 { // as huma bounds JSON bodies: a slow body cannot hold a slot for longer
			_ = ctx.SetReadDeadline(time.Now().Add(op.BodyReadTimeout))
		}
		raw, err := io.ReadAll(io.LimitReader(ctx.BodyReader(), limit+1))
		if op.BodyReadTimeout > 0 && err == nil {
			// Cleared once read, as huma does: a deadline left on the connection
			// would cancel the request later. After a failed read it stays, so
			// net/http's discarding of the unread body cannot block either.
			_ = ctx.SetReadDeadline(time.Time{})
		}
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			_ = huma.WriteErr(api, ctx, http.StatusRequestTimeout, "request body read timeout")
			return
		}
		if err == nil && int64(len(raw)) > limit {
			_ = huma.WriteErr(api, ctx, http.StatusRequestEntityTooLarge, "request body is too large")
			return
		}
		if trimmed := bytes.TrimSpace(raw); err == nil && len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[') {
			// A JSON body sent with the form type (curl -d does this): read it as JSON.
			next(formContext{humaCtx: ctx, body: bytes.NewReader(raw)})
			return
		}
		values, perr := url.ParseQuery(string(raw))
		if err != nil || perr != nil {
			_ = huma.WriteErr(api, ctx, http.StatusBadRequest, "malformed form body", fieldError("body", "cannot parse form"))
			return
		}
		schema := op.RequestBody.Content[formType].Schema
		if schema != nil && schema.Ref != "" {
			schema = api.OpenAPI().Components.Schemas.SchemaFromRef(schema.Ref)
		}
		converted, errs := formToJSON(values, schema)
		if len(errs) > 0 {
			_ = huma.WriteErr(api, ctx, http.StatusUnprocessableEntity, "validation failed", errs...)
			return
		}
		body, _ := json.Marshal(converted)
		next(formContext{humaCtx: ctx, body: bytes.NewReader(body)})
	}
}

// formToJSON coerces each form value to its property's schema type; a value
// that does not parse is passed through as a string, so validation reports
// it. Numbers must be in the plain decimal notation of numeric parameters
// (surrounding spaces aside): "0x1p3" or "1e3" are field errors here.
func formToJSON(values url.Values, schema *huma.Schema) (map[string]any, []error) {
	out := make(map[string]any, len(values))
	var errs []error
	for key, vs := range values {
		var prop *huma.Schema
		if schema != nil {
			prop = schema.Properties[key]
		}
		if prop != nil && prop.Type == "array" {
			items := make([]any, len(vs))
			for i, v := range vs {
				var msg string
				if items[i], msg = coerce(v, prop.Items); msg != "" {
					errs = append(errs, fieldError("body."+key+"["+strconv.Itoa(i)+"]", msg))
				}
			}
			out[key] = items
			continue
		}
		var msg string
		if out[key], msg = coerce(vs[len(vs)-1], prop); msg != "" {
			errs = append(errs, fieldError("body."+key, msg))
		}
	}
	return out, errs
}

// coerce converts one form value to the type of prop; msg is set when a
// numeric value is written in another notation than plain decimal.
func coerce(v string, prop *huma.Schema) (_ any, msg string) {
	if prop == nil {
		return v, ""
	}
	t := strings.TrimSpace(v)
	if msg := plainSyntax(prop.Type, t); msg != "" && t != "" { // empty: huma reports it
		return v, msg
	}
	switch prop.Type {
	case "integer":
		if n, err := strconv.ParseInt(t, 10, 64); err == nil {
			return n, ""
		}
	case "number":
		if f, err := strconv.ParseFloat(t, 64); err == nil && !math.IsInf(f, 0) {
			return f, ""
		}
	case "boolean":
		if b, err := strconv.ParseBool(t); err == nil {
			return b, ""
		}
	}
	return v, ""
}
