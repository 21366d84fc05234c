// Package langtag holds language tags: the validation of hreflang values
// and lang attributes against the registered language, script and region
// subtags embedded in subtags.go.
package langtag
