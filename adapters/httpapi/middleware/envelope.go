package middleware

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// errorEnvelope is the failure envelope the middleware writes itself, the
// fields of httpapi's error body it uses.
type errorEnvelope struct {
	Success bool                `json:"success"`
	Code    string              `json:"code"`
	Message string              `json:"message"`
	Errors  map[string][]string `json:"errors,omitempty"`
}

// errorCodes maps statuses to the stable codes clients can switch on.
var errorCodes = map[int]string{
	http.StatusBadRequest:            "bad_request",
	http.StatusUnauthorized:          "unauthorized",
	http.StatusForbidden:             "forbidden",
	http.StatusNotFound:              "not_found",
	http.StatusMethodNotAllowed:      "method_not_allowed",
	http.StatusNotAcceptable:         "not_acceptable",
	http.StatusRequestTimeout:        "request_timeout",
	http.StatusConflict:              "conflict",
	http.StatusRequestEntityTooLarge: "payload_too_large",
	http.StatusUnsupportedMediaType:  "unsupported_media_type",
	http.StatusUnprocessableEntity:   "validation_failed",
	http.StatusTooManyRequests:       "rate_limited",
	499:                              "client_closed_request", // the client went away before the answer
	http.StatusInternalServerError:   "internal_error",
	http.StatusServiceUnavailable:    "unavailable",
}

// Code returns the stable machine-readable code of an error status, the
// "code" of the error envelope.
func Code(status int) string {
	if c, ok := errorCodes[status]; ok {
		return c
	}
	return strings.ReplaceAll(strings.ToLower(http.StatusText(status)), " ", "_")
}

// RetryAfter is a Retry-After value: d in whole seconds, rounded up, at
// least 1.
func RetryAfter(d time.Duration) string {
	return strconv.Itoa(max(1, int((d+time.Second-1)/time.Second)))
}

// WriteError writes the error envelope outside huma.
func WriteError(w http.ResponseWriter, status int, msg string) {
	writeEnvelope(w, status, errorEnvelope{Code: Code(status), Message: msg})
}

// writeFieldError writes the error envelope with one field error.
func writeFieldError(w http.ResponseWriter, status int, msg, field, detail string) {
	writeEnvelope(w, status, errorEnvelope{Code: Code(status), Message: msg, Errors: map[string][]string{field: {detail}}})
}

func writeEnvelope(w http.ResponseWriter, status int, body errorEnvelope) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
}
