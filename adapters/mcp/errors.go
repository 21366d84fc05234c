package mcp

import (
	"context"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pinsight/pinsight/domain/fault"
)

// codeOf is the error code of each kind of error, the one mapping from
// domain errors to this transport (fault.Internal, not listed, is
// "internal"). The codes are the HTTP API's where both have one.
var codeOf = map[fault.Kind]string{
	fault.Invalid:      "invalid_argument",
	fault.NotFound:     "not_found",
	fault.Conflict:     "conflict",
	fault.Unauthorized: "unauthorized",
	fault.Forbidden:    "forbidden",
	fault.RateLimited:  "rate_limited",
	fault.Busy:         "busy",
	fault.Unavailable:  "unavailable",
}

// toolError is the structured content of a failed tool call.
type toolError struct {
	Code              string              `json:"code" jsonschema:"invalid_argument, not_found, conflict, unauthorized, forbidden, rate_limited, busy, unavailable or internal."`
	Message           string              `json:"message"`
	Arguments         map[string][]string `json:"arguments,omitempty" jsonschema:"With invalid_argument: what is wrong with each argument named."`
	RetryAfterSeconds int                 `json:"retry_after_seconds,omitempty" jsonschema:"With rate_limited, busy and unavailable: when a retry may succeed."`
}

// internalMessage is all a client learns of an internal error.
const internalMessage = "internal error: the server logged the cause"

// errorOf maps err by its fault.Kind: the code from codeOf, the message
// fault.Message gives (never a Go error's own text), the arguments of an
// invalid input, and the wait of a rate limit. An internal error is
// logged, with its cause, and answered without it.
func (t *tools) errorOf(ctx context.Context, what string, err error) toolError {
	kind := fault.KindOf(err)
	e := toolError{Code: "internal", Message: internalMessage}
	if code, known := codeOf[kind]; known {
		e.Code, e.Message = code, fault.Message(err)
	} else if ctx.Err() != nil {
		e.Code, e.Message = "unavailable", "the request was cancelled"
	} else {
		t.Log.ErrorContext(ctx, "mcp request failed", "what", what, "err", err)
	}
	if kind == fault.Invalid {
		e.Arguments = distinct(fault.FieldErrors(err))
		if e.Message == "" {
			e.Message = "invalid arguments"
		}
	}
	if d, ok := fault.RetryAfter(err); ok && kind != fault.Internal {
		e.RetryAfterSeconds = max(1, int(math.Ceil(d.Seconds())))
	}
	return e
}

// errorResult is the failed result of tool for err (see errorOf).
func (t *tools) errorResult(ctx context.Context, tool string, err error) *sdk.CallToolResult {
	e := t.errorOf(ctx, tool, err)
	return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: e.text()}}, StructuredContent: e}
}

// resourceError is the JSON-RPC error of a failed read of uri (see
// errorOf): the protocol's resource-not-found for not_found, else invalid
// params for an invalid_argument and an internal error otherwise, each
// with the error's text.
func (t *tools) resourceError(ctx context.Context, uri string, err error) error {
	e := t.errorOf(ctx, uri, err)
	switch e.Code {
	case "not_found":
		return sdk.ResourceNotFoundError(uri)
	case "invalid_argument":
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: e.text()}
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: e.text()}
}

// distinct is args with each argument's messages once, in their order.
func distinct(args map[string][]string) map[string][]string {
	if len(args) == 0 {
		return nil
	}
	out := make(map[string][]string, len(args))
	for name, msgs := range args {
		var kept []string
		for _, m := range msgs {
			if !slices.Contains(kept, m) {
				kept = append(kept, m)
			}
		}
		out[name] = kept
	}
	return out
}

// text is the error as a person reads it: "invalid_argument: pincode: must
// be 6 digits", arguments in name order. With arguments, they are the
// text (the message only repeats them).
func (e toolError) text() string {
	var b strings.Builder
	b.WriteString(e.Code + ": ")
	names := make([]string, 0, len(e.Arguments))
	for n := range e.Arguments {
		names = append(names, n)
	}
	sort.Strings(names)
	if len(names) == 0 {
		b.WriteString(e.Message)
	}
	for i, n := range names {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(n + ": " + strings.Join(e.Arguments[n], ", "))
	}
	if e.RetryAfterSeconds > 0 {
		b.WriteString("; retry after " + strconv.Itoa(e.RetryAfterSeconds) + " s")
	}
	return b.String()
}

// argErrors are this transport's own checks of tool arguments (bounds the
// use cases leave to each transport), by argument: an invalid input.
type argErrors map[string][]string

// add records msg against the argument name.
func (a argErrors) add(name, msg string) { a[name] = append(a[name], msg) }

// err is a, or nil when it holds nothing.
func (a argErrors) err() error {
	if len(a) == 0 {
		return nil
	}
	return a
}

// Error implements error.
func (a argErrors) Error() string { return "invalid arguments" }

// Kind implements fault.Kinder.
func (a argErrors) Kind() fault.Kind { return fault.Invalid }

// FieldErrors implements fault.FieldErrorer.
func (a argErrors) FieldErrors() map[string][]string { return a }

// argError is an invalid input naming one argument.
func argError(name, msg string) error { return argErrors{name: {msg}} }

// errUnauthorized is a key-needing tool called without one.
var errUnauthorized = fault.New(fault.Unauthorized,
	"this tool needs an API key: over HTTP send Authorization: Bearer <key>; for pinsight mcp set --api-key or PINSIGHT_API_KEY")
