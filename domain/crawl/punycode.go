package crawl

import (
	"errors"
	"strings"
	"unicode/utf8"
)

// Punycode parameters (RFC 3492, section 5).
const (
	pcBase        = 36
	pcTMin        = 1
	pcTMax        = 26
	pcSkew        = 38
	pcDamp        = 700
	pcInitialBias = 72
	pcInitialN    = 128
	maxLabelLen   = 63
)

var errPunycode = errors.New("crawl: the host name cannot be written in ASCII")

// asciiHost writes a lower-cased host name in ASCII: each label that is not
// ASCII becomes "xn--" and its Punycode (RFC 3492), and the ideographic
// full stops IDNA treats as dots (U+3002, U+FF0E, U+FF61) separate labels.
// It does not apply the rest of IDNA's mapping (UTS 46): Unicode
// normalisation (NFC) needs tables the standard library does not have, so
// a host written in decomposed form is encoded as written, and a label is
// not checked against IDNA's lists of disallowed characters.
func asciiHost(host string) (string, error) {
	if isASCII(host) {
		return host, nil // nothing to map or encode
	}
	host = labelDots.Replace(host)
	labels := strings.Split(host, ".")
	for i, l := range labels {
		if isASCII(l) {
			continue
		}
		enc, err := punycode(l)
		if err != nil {
			return "", err
		}
		labels[i] = "xn--" + enc
		if len(labels[i]) > maxLabelLen {
			return "", errPunycode
		}
	}
	return strings.Join(labels, "."), nil
}

// labelDots maps the dots IDNA reads as label separators to ".".
var labelDots = strings.NewReplacer("\u3002", ".", "\uff0e", ".", "\uff61", ".")

func isASCII(s string) bool {
	for i := range len(s) {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// punycode encodes s (valid UTF-8) per RFC 3492, section 6.3.
func punycode(s string) (string, error) {
	if !utf8.ValidString(s) || utf8.RuneCountInString(s) > maxLabelLen {
		return "", errPunycode
	}
	input := []rune(s)
	var out []byte
	for _, r := range input {
		if r < utf8.RuneSelf {
			out = append(out, byte(r))
		}
	}
	b := len(out)
	h := b
	if b > 0 {
		out = append(out, '-')
	}
	n, delta, bias := rune(pcInitialN), 0, pcInitialBias
	for h < len(input) {
		m := rune(utf8.MaxRune + 1)
		for _, r := range input {
			if r >= n && r < m {
				m = r
			}
		}
		delta += int(m-n) * (h + 1) // labels are at most 63 runes: no overflow
		n = m
		for _, r := range input {
			if r < n {
				delta++
			}
			if r != n {
				continue
			}
			q := delta
			for k := pcBase; ; k += pcBase {
				t := min(max(k-bias, pcTMin), pcTMax)
				if q < t {
					break
				}
				out = append(out, pcDigit(t+(q-t)%(pcBase-t)))
				q = (q - t) / (pcBase - t)
			}
			out = append(out, pcDigit(q))
			bias = pcAdapt(delta, h+1, h == b)
			delta = 0
			h++
		}
		delta++
		n++
	}
	return string(out), nil
}

func pcDigit(d int) byte {
	if d < 26 {
		return byte('a' + d)
	}
	return byte('0' + d - 26)
}

func pcAdapt(delta, points int, first bool) int {
	if first {
		delta /= pcDamp
	} else {
		delta /= 2
	}
	delta += delta / points
	k := 0
	for delta > ((pcBase-pcTMin)*pcTMax)/2 {
		delta /= pcBase - pcTMin
		k += pcBase
	}
	return k + (pcBase-pcTMin+1)*delta/(delta+pcSkew)
}
