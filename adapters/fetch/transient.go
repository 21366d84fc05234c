package fetch

import (
	"errors"
	"io"
	"syscall"
)

// isReset reports whether err is a connection the server dropped or reset
// before answering: a failure that may pass, so queued analyses retry it.
func isReset(err error) bool {
	return errors.Is(err, syscall.ECONNRESET) || errors.Is(err, io.EOF) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.EPIPE)
}
