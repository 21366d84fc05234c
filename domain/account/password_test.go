package account_test

import (
	"errors"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pinsight/pinsight/domain/account"
)

// passwordMessage returns the message CheckPassword gives on "password", or
// "" when it accepts p.
func passwordMessage(t *testing.T, p, email string) string {
	t.Helper()
	err := account.CheckPassword(p, email)
	if err == nil {
		return ""
	}
	var ve *account.ValidationError
	if !errors.As(err, &ve) || len(ve.Fields["password"]) != 1 || len(ve.Fields) != 1 {
		t.Fatalf("CheckPassword(%q) = %v, want one message on password", p, err)
	}
	return ve.Fields["password"][0]
}

func TestCheckPassword(t *testing.T) {
	const email = "ada.lovelace@example.com"
	tests := []struct {
		name, password string
		want           string // a part of the message; "" when accepted
	}{
		{"passphrase", "correct horse battery", ""},
		{"eight characters", "tr0ub4dor", ""},
		{"non-ASCII", "पासवर्ड सुरक्षित", ""},
		{"spaces around count for nothing but are allowed", "  correct horse  ", ""},
		{"inner spaces count", "a b c d e", ""},
		{"at the byte limit", strings.Repeat("xy", account.MaxPasswordBytes/2), ""},

		{"empty", "", "at least 8 characters"},
		{"only spaces", strings.Repeat(" ", 12), "at least 8 characters"},
		{"only NULs", strings.Repeat("\x00", 12), "control characters"},
		{"NUL inside", "correct\x00horse", "control characters"},
		{"tab inside", "correct\thorse", "control characters"},
		{"line break inside", "correct\nhorse", "control characters"},
		{"DEL", "correct\x7fhorse", "control characters"},
		{"C1 control", "correct\u0085horse", "control characters"},
		{"invalid UTF-8", "correct\xffhorse", "UTF-8"},
		{"replacement character", "correct\ufffdhorse", "UTF-8"},
		{"short", "short", "at least 8 characters"},
		{"short once trimmed", "   seven7   ", "at least 8 characters"},
		{"invisible characters do not count", "abc\u200b\u200b\u200b\u200b\u200b\u200b", "at least 8 characters"},
		{"one character repeated", strings.Repeat("é", 10), "one character repeated"},
		{"over the byte limit", strings.Repeat("xy", account.MaxPasswordBytes/2) + "z", "at most 256 bytes"},
		{"multi-byte over the limit", strings.Repeat("पा", 50), "at most 256 bytes"},
		{"common", "password", "most common passwords"},
		{"common, other case", "PassWord1", "most common passwords"},
		{"common, padded", "  qwertyuiop  ", "most common passwords"},
		{"common digits", "12345678", "most common passwords"},
		{"the e-mail address", "Ada.Lovelace@Example.com", "e-mail address"},
		{"the e-mail's local part", "ada.lovelace", "e-mail address"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := passwordMessage(t, tt.password, email)
			if tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
				t.Errorf("CheckPassword(%q) message = %q, want one containing %q", tt.password, got, tt.want)
			}
		})
	}
}

// TestPasswordProblemIgnoresEmail: share passwords have no account, so only
// the general rules apply.
func TestPasswordProblem(t *testing.T) {
	if got := account.PasswordProblem("ada.lovelace"); got != "" {
		t.Errorf("PasswordProblem(ada.lovelace) = %q", got)
	}
	if got := account.PasswordProblem(" \x00 "); !strings.Contains(got, "control") {
		t.Errorf("PasswordProblem(NUL) = %q", got)
	}
}

// TestCommonPasswordList keeps the embedded list useful: entries long
// enough to pass the length rule (shorter ones are dead weight), lower
// case, trimmed, unique, and every one refused.
func TestCommonPasswordList(t *testing.T) {
	data, err := os.ReadFile("common_passwords.txt")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for line := range strings.Lines(string(data)) {
		p := strings.TrimSuffix(line, "\n")
		if strings.HasPrefix(p, "#") {
			continue
		}
		switch {
		case utf8.RuneCountInString(p) < account.MinPasswordLen, p != strings.ToLower(p), p != strings.TrimSpace(p):
			t.Errorf("entry %q: shorter than %d characters, not lower case or not trimmed", p, account.MinPasswordLen)
		case seen[p]:
			t.Errorf("entry %q listed twice", p)
		case account.PasswordProblem(p) == "" || account.PasswordProblem(strings.ToUpper(p)) == "":
			t.Errorf("entry %q is accepted", p)
		}
		seen[p] = true
	}
	if len(seen) < 300 {
		t.Errorf("%d entries: the list lost most of itself", len(seen))
	}
}
