package pagecheck

import "strings"

// headerLink is one link of an HTTP Link header (RFC 8288): its target as
// written and the parameters the checks read.
type headerLink struct {
	target   string
	rel      []string // the rel parameter's relation types, lower case
	hreflang string
	raw      string // the link-value as written, for a report
}

// parseLinkHeader reads every link of the Link header values vs (a field may
// hold several links separated by commas; commas inside <...> and quoted
// strings do not separate). A malformed link is skipped up to the next
// comma; parsing never fails.
func parseLinkHeader(vs []string) []headerLink {
	var out []headerLink
	for _, v := range vs {
		for i := 0; i < len(v); {
			l, next, ok := parseLinkValue(v, i)
			if ok {
				out = append(out, l)
			}
			i = next
		}
	}
	return out
}

// parseLinkValue reads one link-value of s starting at i; next is where
// the following one may start.
func parseLinkValue(s string, i int) (l headerLink, next int, ok bool) {
	start := i
	i = skipSpace(s, i)
	if i < len(s) && s[i] == ',' {
		return l, i + 1, false
	}
	if i >= len(s) || s[i] != '<' {
		return l, skipPast(s, i, ','), false
	}
	end := strings.IndexByte(s[i:], '>')
	if end < 0 {
		return l, len(s), false
	}
	l.target = strings.TrimSpace(s[i+1 : i+end])
	i += end + 1
	for {
		i = skipSpace(s, i)
		if i >= len(s) || s[i] == ',' {
			break
		}
		if s[i] != ';' { // junk after the target or a parameter: skip the link
			return l, skipPast(s, i, ','), false
		}
		i = skipSpace(s, i+1)
		name, value := "", ""
		j := i
		for j < len(s) && s[j] != '=' && s[j] != ';' && s[j] != ',' {
			j++
		}
		name = strings.ToLower(strings.TrimSpace(s[i:j]))
		i = j
		if i < len(s) && s[i] == '=' {
			value, i = paramValue(s, skipSpace(s, i+1))
		}
		switch name {
		case "rel":
			if l.rel == nil { // RFC 8288: only the first rel counts
				l.rel = strings.Fields(strings.ToLower(value))
			}
		case "hreflang":
			if l.hreflang == "" {
				l.hreflang = strings.TrimSpace(value)
			}
		}
	}
	l.raw = strings.TrimSpace(s[start:i])
	if i < len(s) {
		i++ // the comma
	}
	return l, i, true
}

// paramValue reads a token or a quoted string (with backslash escapes)
// starting at i.
func paramValue(s string, i int) (string, int) {
	if i < len(s) && s[i] == '"' {
		var b strings.Builder
		for i++; i < len(s); i++ {
			switch c := s[i]; {
			case c == '\\' && i+1 < len(s):
				i++
				b.WriteByte(s[i])
			case c == '"':
				return b.String(), i + 1
			default:
				b.WriteByte(c)
			}
		}
		return b.String(), i
	}
	j := i
	for j < len(s) && s[j] != ';' && s[j] != ',' {
		j++
	}
	return strings.TrimSpace(s[i:j]), j
}

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

// skipPast returns the index after the next c at or after i (len(s) when
// there is none).
func skipPast(s string, i int, c byte) int {
	if j := strings.IndexByte(s[i:], c); j >= 0 {
		return i + j + 1
	}
	return len(s)
}

// hasRel reports whether the link's rel holds token.
func (l headerLink) hasRel(token string) bool {
	for _, r := range l.rel {
		if r == token {
			return true
		}
	}
	return false
}
