package webpage

import "github.com/pinsight/pinsight/domain/fault"

// FetchError says why a URL could not be analysed: no response at all, or a
// target the fetcher refuses (private address, scheme, port). Transports
// answer it as a validation failure on "url".
type FetchError struct {
	Reason  string // human-readable, safe to show the client
	Refused bool   // the target was refused rather than unreachable
	// Transient says the failure may pass (a timeout, a reset connection):
	// a queued analysis tries again.
	Transient bool
	Err       error // the cause, for logs; may be nil
}

func (e *FetchError) Error() string { return "site: cannot analyse url: " + e.Reason }

// Unwrap returns the cause.
func (e *FetchError) Unwrap() error { return e.Err }

// FieldErrors puts the reason under "url", for transports.
func (e *FetchError) FieldErrors() map[string][]string {
	return map[string][]string{"url": {e.Reason}}
}

// Kind implements fault.Kinder.
func (e *FetchError) Kind() fault.Kind { return fault.Invalid }
