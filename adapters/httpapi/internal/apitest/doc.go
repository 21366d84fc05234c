// Package apitest holds the fixtures the tests of package httpapi and of
// its middleware and sharepage packages share: the production handler
// over chosen routes, a request helper decoding the envelope, a fake
// analyser and a site-analysis server on in-memory stores.
package apitest
