package fetch

import (
	"context"
	"net/netip"
)

// BlockedReason exposes the address classification to the external tests.
func BlockedReason(ip netip.Addr) string { return blockedReason(ip) }

// ControlCheck runs the dialer's socket hook on address (ip:port), as the
// kernel-level last check would, outside any exemption.
func ControlCheck(cfg Config, address string) error {
	g, err := newGuard(cfg)
	if err != nil {
		return err
	}
	return g.control(context.Background(), "tcp", address, nil)
}

// MediaType and ReadAll expose the body reader's shortcuts to the tests.
var (
	MediaType = mediaType
	ReadAll   = readAll
)
