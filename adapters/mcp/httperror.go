package mcp

import (
	"encoding/json"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// httpCodes are the API envelope's codes of the statuses this transport
// answers itself.
var httpCodes = map[int]string{
	http.StatusBadRequest:            "bad_request",
	http.StatusUnauthorized:          "unauthorized",
	http.StatusForbidden:             "forbidden",
	http.StatusRequestEntityTooLarge: "payload_too_large",
	http.StatusTooManyRequests:       "rate_limited",
	http.StatusInternalServerError:   "internal_error",
	http.StatusServiceUnavailable:    "unavailable",
}

// writeError answers status with msg in the HTTP API's error envelope.
func writeError(w http.ResponseWriter, status int, msg string) {
	code, ok := httpCodes[status]
	if !ok {
		code = strings.ReplaceAll(strings.ToLower(http.StatusText(status)), " ", "_")
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(struct {
		Success bool   `json:"success"`
		Code    string `json:"code"`
		Message string `json:"message"`
	}{Code: code, Message: msg})
}

// seconds renders d as whole seconds, rounded up, at least 1.
func seconds(d time.Duration) string {
	return strconv.Itoa(max(1, int(math.Ceil(d.Seconds()))))
}
