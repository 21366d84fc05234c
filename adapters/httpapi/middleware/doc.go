// Package middleware is the net/http edge of Pinsight's HTTP API: request
// ids and access logs, metrics, security headers, CORS, request limits,
// Bearer key verification, rate limits, a concurrency cap, gzip, and the
// error envelope for what the mux itself rejects (unknown routes, wrong
// methods, panics). NewHandler chains them around a mux; package httpapi
// registers the operations on that mux.
package middleware

// APIPrefix is the path prefix of the API operations. The middleware
// classifies requests by path (relative to where the API is mounted): the
// public data routes under it are open to any origin, POST
// APIPrefix/register and /login have their own quota.
const APIPrefix = "/api/v1"
