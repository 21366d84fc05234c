package httpapi

import (
	"net/http"
	"strings"

	"github.com/danielgtaylor/huma/v2"
)

// numericSyntaxDoc states the syntax of numeric parameters, for the OpenAPI
// description.
const numericSyntaxDoc = "Numeric query, path and form parameters take plain decimal notation only: an optional " +
	"leading '-', digits, and for non-integer parameters an optional '.' followed by digits (28.6139, -5, 10). " +
	"A leading '+', an exponent (1e3), hexadecimal (0x1p3), '_' separators, spaces, NaN and Infinity are 422 on " +
	"the parameter. JSON bodies take standard JSON numbers."

// integerMsg and numberMsg are the 422 messages of numbers in another
// notation.
const (
	integerMsg = "must be an integer in plain decimal notation, e.g. 10: digits and an optional leading '-'"
	numberMsg  = "must be a number in plain decimal notation, e.g. 28.6139: digits, an optional leading '-' and '.' with digits"
)

// plainInteger reports whether s is an integer in plain decimal notation:
// an optional '-', then one or more digits.
func plainInteger(s string) bool {
	s = strings.TrimPrefix(s, "-")
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// plainNumber reports whether s is a number in plain decimal notation: a
// plain integer, optionally followed by '.' and one or more digits.
func plainNumber(s string) bool {
	whole, frac, found := strings.Cut(s, ".")
	return plainInteger(whole) && (!found || frac != "" && strings.Trim(frac, "0123456789") == "")
}

// plainSyntax checks v against the notation of a schema type: the 422
// message when v is written otherwise, "" when it is fine (or not numeric).
func plainSyntax(typ, v string) string {
	switch {
	case typ == "integer" && !plainInteger(v):
		return integerMsg
	case typ == "number" && !plainNumber(v):
		return numberMsg
	}
	return ""
}

// numericSyntax is a middleware refusing (422 on each parameter) numeric
// query, path and header parameters not written in plain decimal notation,
// for every operation, from its parameter schemas: huma parses them with
// Go's syntax, which also reads hex floats, '_' separators, exponents, a
// '+', Inf and NaN. NewAPI installs it for every operation; on those that
// need a key it acts only once requireKey has admitted the request (protect
// runs it again after the key check), so a request without a valid key is
// 401 whatever its parameters.
func numericSyntax(ctx huma.Context, next func(huma.Context)) {
	op := ctx.Operation()
	if op == nil || len(op.Security) > 0 && !keyChecked(ctx) {
		next(ctx)
		return
	}
	if errs := numericErrors(ctx, op.Parameters); len(errs) > 0 {
		writeErr(ctx, newError(http.StatusUnprocessableEntity, "validation failed", errs...))
		return
	}
	next(ctx)
}

// numericErrors checks the numeric parameters of a request.
func numericErrors(ctx huma.Context, params []*huma.Param) []error {
	var errs []error
	for _, p := range params {
		if p.Schema == nil {
			continue
		}
		typ, list := p.Schema.Type, p.Schema.Type == "array" && p.Schema.Items != nil
		if list {
			typ = p.Schema.Items.Type
		}
		if typ != "integer" && typ != "number" {
			continue // not numeric: its value is not even read
		}
		var v string
		switch p.In {
		case "query":
			v = ctx.Query(p.Name)
		case "path":
			v = ctx.Param(p.Name)
		case "header":
			v = ctx.Header(p.Name)
		}
		if v == "" {
			continue // missing: huma applies the default or reports it
		}
		values := []string{v}
		if list {
			values = strings.Split(v, ",")
		}
		for _, one := range values {
			if msg := plainSyntax(typ, one); msg != "" {
				errs = append(errs, fieldError(p.In+"."+p.Name, msg))
				break
			}
		}
	}
	return errs
}

// keyChecked reports whether requireKey has admitted the request.
func keyChecked(ctx huma.Context) bool {
	_, ok := ctx.Context().Value(principalKey{}).(principal)
	return ok
}
