package httpapitest

import "strings"

// Big is the largest hostile value (1 MiB). Hostile sends it once per
// operation; the other Values go in every slot.
var Big = strings.Repeat("A", 1<<20)

// Values are the hostile values put in every parameter and body property:
// empty and blank strings, numbers out of every range, JSON literals, SQL
// and HTML injection, NUL bytes (raw and escaped), path traversal, bidi and
// astral characters, and values longer than any index or limit allows
// (bytes and runes differ in the accented one).
var Values = []string{
	"", " ", "0", "-1", "1e309", "-1e309", "NaN", "Infinity", "-Infinity", "9223372036854775808",
	"0x1C", "1_000", "28.6, 77.2", "null", "true", "[]", "{}", "'; DROP TABLE users; --",
	"<script>alert(1)</script>", "%00", "\x00", "a\x00b", "..%2f..%2fetc%2fpasswd", "ü🙂\u202e", "\xff\xfe",
	strings.Repeat("9", 400), strings.Repeat("é", 2100),
}

// Bodies are raw malformed bodies, sent as JSON and (after a bad escape) as
// a form to every operation that takes a body.
var Bodies = []string{
	``, `{`, `[]`, `null`, `"x"`, `123`, `{"a":` + strings.Repeat("[", 10000) + `}`,
	`{"latitude":1e309,"longitude":"NaN"}`, `{"items":[` + strings.Repeat(`{},`, 500) + `{}]}`,
	"{\"a\":\"\x00\"}", `{"a":"\u0000"}`,
}
