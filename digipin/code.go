package digipin

// Code is a full DIGIPIN as its ten upper-case symbols, without separators.
// The zero value is not a valid code; obtain one from EncodeCode or ParseCode.
type Code [Levels]byte

// FormattedLen is the length of a code written XXX-XXX-XXXX.
const FormattedLen = Levels + 2

// String returns the code written XXX-XXX-XXXX.
func (c Code) String() string {
	var b [FormattedLen]byte
	return string(c.AppendFormat(b[:0]))
}

// AppendFormat appends the code written XXX-XXX-XXXX to dst.
func (c Code) AppendFormat(dst []byte) []byte {
	return appendGrouped(dst, c[:])
}

// Compact returns the code without separators, as the 2026 official format
// writes it.
func (c Code) Compact() string { return string(c[:]) }

// appendGrouped writes symbols in groups of 3, 3 and 4 separated by hyphens;
// a shorter prefix keeps the groups it reaches ("39J-49").
func appendGrouped(dst, sym []byte) []byte {
	for i, s := range sym {
		if i == 3 || i == 6 {
			dst = append(dst, '-')
		}
		dst = append(dst, s)
	}
	return dst
}

// FormatPrefix writes a code or a prefix of 1–10 symbols in the XXX-XXX-XXXX
// grouping ("39J-49" for a 5-symbol prefix). It does not validate.
func FormatPrefix(symbols string) string {
	return string(appendGrouped(make([]byte, 0, len(symbols)+2), []byte(symbols)))
}
