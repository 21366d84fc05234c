package httpapi

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/adapters/httpapi/middleware"
	"github.com/pinsight/pinsight/domain/fault"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/domain/report"
)

// errorBody is the failure envelope of every endpoint:
// {"success": false, "code": ..., "message": ..., "errors": {field: [messages]}}.
// Errors lists at most maxFieldErrors field errors (one field and one
// message each); ErrorsTruncated counts those left out, so a body of
// thousands of bad keys cannot produce an answer larger than itself.
type errorBody struct {
	status int

	Success         bool                `json:"success" doc:"Always false."`
	Code            string              `json:"code" doc:"Stable machine-readable error code, e.g. validation_failed, not_found."`
	Message         string              `json:"message" doc:"Human-readable summary."`
	Errors          map[string][]string `json:"errors,omitempty" doc:"Field name to messages, for validation failures: at most 20 messages in all (missing required fields first)."`
	ErrorsTruncated int                 `json:"errors_truncated,omitempty" doc:"Field errors left out of errors beyond the first 20; absent when none were."`
	Terminated      bool                `json:"terminated,omitempty" doc:"404 of a pincode lookup only: true when an earlier release of the directory had the pincode and the served one has no office for it (a terminated PIN); absent otherwise."`
	Candidates      []candidateData     `json:"candidates,omitempty" doc:"422 of an ambiguous state or district (a name or prefix matching several): each match, to retry with its id; absent otherwise."`
	LastRelease     string              `json:"last_release,omitempty" doc:"With terminated: the last release that had the pincode (its publication date, or its version when the date is not known; see /dataset/changes)." example:"2025-10-03"`
}

// candidateData is one match of an ambiguous state or district.
type candidateData struct {
	ID    int    `json:"id" doc:"The state's or district's id: use it to name this one."`
	Name  string `json:"name"`
	State string `json:"state,omitempty" doc:"A district's state; absent for a state."`
}

// maxFieldErrors bounds the field errors of one error envelope.
const maxFieldErrors = 20

// Error implements error.
func (e *errorBody) Error() string { return e.Message }

// GetStatus implements huma.StatusError.
func (e *errorBody) GetStatus() int { return e.status }

// newError builds an errorBody; errs may be *huma.ErrorDetail values (from
// huma's validation or from fieldError) or plain errors. At most
// maxFieldErrors of them are listed, missing required fields first (they
// turn a 422 into a 400, so the answer names them), then the others in the
// order given; ErrorsTruncated counts the rest.
func newError(status int, msg string, errs ...error) huma.StatusError {
	e := &errorBody{status: status, Message: msg}
	var required, other []fieldMessage // the first MaxFieldErrors of each
	missing, total := false, 0
	for _, err := range errs {
		var d huma.ErrorDetailer
		if status >= 500 && !errors.As(err, &d) {
			continue // never leak internal error text; details we built are fine
		}
		field, text, isMissing := describe(err)
		missing = missing || isMissing
		if field == "" {
			continue
		}
		total++
		switch {
		case isMissing && len(required) < maxFieldErrors:
			required = append(required, fieldMessage{field, text})
		case !isMissing && len(other) < maxFieldErrors:
			other = append(other, fieldMessage{field, text})
		}
	}
	listed := append(required, other...)
	listed = listed[:min(len(listed), maxFieldErrors)]
	if len(listed) > 0 {
		e.Errors = make(map[string][]string, len(listed))
	}
	for _, fm := range listed {
		e.Errors[fm.field] = append(e.Errors[fm.field], fm.msg)
	}
	e.ErrorsTruncated = total - len(listed)
	switch {
	case status == http.StatusUnprocessableEntity && missing:
		e.status, e.Message = http.StatusBadRequest, "missing required field"
	case status == http.StatusBadRequest && msg == "validation failed":
		e.Message = "malformed request body"
	case status == http.StatusUnsupportedMediaType:
		e.Message = "unsupported content type: send application/json (or a form where documented)"
	}
	if e.status != 0 {
		e.Code = middleware.Code(e.status)
	}
	return e
}

// fieldMessage is one field error of an envelope.
type fieldMessage struct{ field, msg string }

// useEnvelope makes huma build its own errors (validation, malformed
// bodies, unknown fields...) as errorBody. huma.NewError and
// NewErrorWithContext are package variables of huma, so this is done once,
// by the first NewAPI (or Handler); the package's own errors never go
// through them (newError), so they need no API built first.
var useEnvelope = sync.OnceFunc(func() {
	huma.NewError = newError
	huma.NewErrorWithContext = newErrorWithContext
})

// statusClientClosed is the status of a request whose client went away
// before its answer (nginx's 499): nobody reads it, but the access log and
// the metrics tell it from a server failure.
const statusClientClosed = 499

// newErrorWithContext is newError for huma's errors raised while serving a
// request; a 5xx is logged, with its cause, through the logger the edge
// middleware put in the request's context. A failure because the client
// went away (its request's context cancelled) is no server error: it is a
// statusClientClosed, logged at info level.
func newErrorWithContext(ctx huma.Context, status int, msg string, errs ...error) huma.StatusError {
	if status >= 500 && ctx != nil && errors.Is(ctx.Context().Err(), context.Canceled) {
		middleware.Logger(ctx.Context()).InfoContext(ctx.Context(), "client went away before the answer",
			"method", ctx.Method(), "path", ctx.URL().Path, "err", errors.Join(errs...))
		return newError(statusClientClosed, "client closed the request")
	}
	if status >= 500 && ctx != nil {
		middleware.Logger(ctx.Context()).ErrorContext(ctx.Context(), "request failed", "status", status,
			"method", ctx.Method(), "path", ctx.URL().Path, "err", errors.Join(errs...))
	}
	return newError(status, msg, errs...)
}

var requiredProperty = regexp.MustCompile(`^expected required property (\S+) to be present$`)

// describe turns one huma error detail into (field, message, missing).
func describe(err error) (field, msg string, missing bool) {
	var d huma.ErrorDetailer
	if !errors.As(err, &d) {
		if err == nil {
			return "", "", false
		}
		return "body", err.Error(), false
	}
	detail := d.ErrorDetail()
	field = fieldName(detail.Location)
	msg = detail.Message
	if m := mismatchText.FindStringSubmatch(msg); m != nil && detail.Location == "body" {
		return m[1], m[2], false
	}
	if strings.HasPrefix(msg, "expected required property ") { // spares most messages the regexp
		if m := requiredProperty.FindStringSubmatch(msg); m != nil {
			return joinField(field, m[1]), "is required", true
		}
	}
	if strings.HasPrefix(msg, "required ") && strings.HasSuffix(msg, " parameter is missing") {
		return field, "is required", true
	}
	if field == "" {
		field = "body"
	}
	return field, msg, false
}

// jsonFormat is huma's JSON format whose decoding errors speak the API's
// terms: a value of the wrong type for its field is a *mismatchError; hot
// answers are encoded without reflection (marshalJSON).
var jsonFormat = huma.Format{
	Marshal: marshalJSON,
	Unmarshal: func(data []byte, v any) error {
		err := json.Unmarshal(data, v)
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return &mismatchError{field: cmp.Or(te.Field, "body"), msg: typeMismatch(te)}
		}
		return err
	},
}

// mismatchError is a JSON value that does not fit its field. huma keeps
// only the text of a decoding error, so describe reads the field back from
// it (mismatchText).
type mismatchError struct{ field, msg string }

func (e *mismatchError) Error() string { return "field " + strconv.Quote(e.field) + ": " + e.msg }

// mismatchText matches a mismatchError's text.
var mismatchText = regexp.MustCompile(`^field "([^"]*)": (.+)$`)

// typeMismatch says in the API's terms why a JSON value did not fit its
// field, never in Go's: huma's schema accepts 3.0 and 1e0 as integers, and
// numbers of any size, which Go's decoder then refuses.
func typeMismatch(te *json.UnmarshalTypeError) string {
	switch te.Type.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if strings.ContainsAny(strings.TrimPrefix(te.Value, "number "), ".eE") {
			return "expected an integer written with digits only (no decimal point or exponent)"
		}
		return "integer out of range"
	case reflect.Float32, reflect.Float64:
		return "number out of range"
	}
	return "has the wrong type"
}

// fieldName strips huma's location prefix: "body.items[2].latitude" ->
// "items[2].latitude", "query.limit" -> "limit".
func fieldName(loc string) string {
	for _, p := range []string{"body.", "query.", "path.", "header.", "cookie."} {
		if strings.HasPrefix(loc, p) {
			return loc[len(p):]
		}
	}
	if loc == "body" {
		return ""
	}
	return loc
}

func joinField(parent, name string) string {
	if parent == "" {
		return name
	}
	return parent + "." + name
}

// fieldError is a validation message attached to one field.
func fieldError(field, msg string) error {
	return &huma.ErrorDetail{Location: field, Message: msg}
}

// invalid is a 422 naming one field.
func invalid(field, msg string) error {
	return newError(http.StatusUnprocessableEntity, "validation failed", fieldError(field, msg))
}

// unauthorized is a 401 with the WWW-Authenticate challenge of RFC 6750.
func unauthorized(msg string, invalidToken bool) error {
	challenge := `Bearer realm="pinsight"`
	if invalidToken {
		challenge += `, error="invalid_token"`
	}
	return huma.ErrorWithHeaders(newError(http.StatusUnauthorized, msg), http.Header{"WWW-Authenticate": {challenge}})
}

// statusOf is the HTTP status of each kind of error (fault.Internal, not
// listed, is a 500).
var statusOf = map[fault.Kind]int{
	fault.Invalid:      http.StatusUnprocessableEntity,
	fault.NotFound:     http.StatusNotFound,
	fault.Conflict:     http.StatusConflict,
	fault.Unauthorized: http.StatusUnauthorized,
	fault.Forbidden:    http.StatusForbidden,
	fault.RateLimited:  http.StatusTooManyRequests,
	fault.Busy:         http.StatusServiceUnavailable,
	fault.Unavailable:  http.StatusServiceUnavailable,
}

// outcomeStatus is the HTTP status of each outcome of a creation request:
// 201 for a report analysed and stored, 202 for reports stored pending
// (Location then names the report when there is one).
var outcomeStatus = map[report.Outcome]int{
	report.OutcomeCreated:  http.StatusCreated,
	report.OutcomeAccepted: http.StatusAccepted,
}

// serverHints add this server's advice to the message of errors whose
// library text cannot name its commands.
var serverHints = []struct {
	err  error
	hint string
}{
	{postal.ErrNoData, `: with a database, "pinsight import" loads the dataset`},
}

// toHTTP maps an error to a status error by its fault.Kind: the status from
// statusOf, the message fault.Message gives, the field errors of an invalid
// input and a Retry-After when the error names one. Internal errors pass
// through and become a 500 whose body hides the cause.
func toHTTP(err error) error {
	kind := fault.KindOf(err)
	status, known := statusOf[kind]
	if !known {
		return err
	}
	msg := fault.Message(err)
	for _, h := range serverHints {
		if errors.Is(err, h.err) {
			msg += h.hint
		}
	}
	var out error
	switch fields := fault.FieldErrors(err); {
	case kind == fault.Invalid && len(fields) > 0:
		out = validationFailed(fields)
	case kind == fault.Unauthorized:
		out = unauthorized(msg, false)
	default:
		out = newError(status, msg)
	}
	var term *postal.TerminatedError
	if body, isBody := out.(*errorBody); isBody && errors.As(err, &term) {
		body.Terminated, body.LastRelease = true, term.LastRelease.Name()
	}
	var amb *postal.AmbiguousError
	if body, isBody := out.(*errorBody); isBody && errors.As(err, &amb) {
		for _, c := range amb.Candidates {
			body.Candidates = append(body.Candidates, candidateData{ID: c.ID, Name: c.Name, State: c.State})
		}
	}
	if d, ok := fault.RetryAfter(err); ok {
		out = huma.ErrorWithHeaders(out, http.Header{"Retry-After": {middleware.RetryAfter(d)}})
	}
	return out
}

// validationFailed is a 422 listing every field's messages.
func validationFailed(fields map[string][]string) error {
	var details []error
	for f, msgs := range fields {
		for _, m := range msgs {
			details = append(details, fieldError(f, m))
		}
	}
	return newError(http.StatusUnprocessableEntity, "validation failed", details...)
}
