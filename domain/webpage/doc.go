// Package webpage holds a web page as fetched for analysis: the HTTP
// responses, the parsed HTML tree (Node), the pages it names that were
// fetched with it, why a URL could not be fetched (FetchError), the rule
// that refuses numeric hosts, and the one normal form of URL escapes
// (NormalizeEscapes). It does no I/O.
package webpage
