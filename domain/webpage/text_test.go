package webpage_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pinsight/pinsight/domain/webpage"
)

func TestAppendLowerIsToLower(t *testing.T) {
	for _, s := range []string{"", "Plain", "ÉCOLE Straße", "İstanbul ΣΊΣΥΦΟΣ", "ǅungla", "MiXeD 42 ÅÄÖ"} {
		if got := string(webpage.AppendLower([]byte("x"), s)); got != "x"+strings.ToLower(s) {
			t.Errorf("AppendLower(%q) = %q, want %q", s, got, "x"+strings.ToLower(s))
		}
	}
}

func ExampleAppendLower() {
	buf := make([]byte, 0, 32)
	for _, w := range strings.Fields("Delhi GPO Ε-Mail") {
		buf = webpage.AppendLower(buf[:0], w)
		fmt.Println(string(buf))
	}
	// Output:
	// delhi
	// gpo
	// ε-mail
}
