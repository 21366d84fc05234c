// Package webpage holds a web page as fetched for analysis: the HTTP
// responses, the parsed HTML tree (Node), the pages it names that were
// fetched with it, why a URL could not be fetched (FetchError), and the
// rule that refuses numeric hosts. It does no I/O.
package webpage
