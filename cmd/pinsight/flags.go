package main

import (
	"net/netip"
	"strings"

	"github.com/pinsight/pinsight/adapters/httpapi/middleware"
	"github.com/pinsight/pinsight/domain/ratelimit"
)

// limitFlag is a pflag.Value for an N/DURATION quota.
type limitFlag struct{ l *ratelimit.Limit }

func (f limitFlag) String() string {
	if f.l == nil || !f.l.Enabled() {
		return "off"
	}
	return f.l.String()
}

func (f limitFlag) Set(s string) error {
	l, err := ratelimit.ParseLimit(s)
	if err == nil {
		*f.l = l
	}
	return err
}

func (limitFlag) Type() string { return "quota" }

// prefixesFlag is a pflag.Value for a list of CIDRs.
type prefixesFlag struct{ p *[]netip.Prefix }

func (f prefixesFlag) String() string {
	if f.p == nil {
		return ""
	}
	parts := make([]string, len(*f.p))
	for i, p := range *f.p {
		parts[i] = p.String()
	}
	return strings.Join(parts, ",")
}

func (f prefixesFlag) Set(s string) error {
	p, err := middleware.ParsePrefixes(s)
	if err == nil {
		*f.p = p
	}
	return err
}

func (prefixesFlag) Type() string { return "cidrs" }
