package mcp_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// hostileArgs are arguments no tool expects: wrong types, huge and odd
// texts, numbers beyond every range, unknown and nested fields.
var hostileArgs = []json.RawMessage{
	json.RawMessage(`[]`), json.RawMessage(`"text"`), json.RawMessage(`42`), json.RawMessage(`{"pincode":{"$gt":""}}`),
	json.RawMessage(`{"pincode":["110001"],"q":7,"digipin":null,"state":true}`),
	json.RawMessage(`{"latitude":1e308,"longitude":-1e308,"radius":1e400,"limit":99999999999999999999}`),
	json.RawMessage(`{"latitude":"NaN","longitude":"Infinity","point":"\u0000\ud800"}`),
	json.RawMessage(`{"pincode":"` + strings.Repeat("9", 100000) + `","q":"` + strings.Repeat("%", 5000) + `"}`),
	json.RawMessage(`{"point":"` + strings.Repeat("28°", 1000) + `","digipin":"` + strings.Repeat("-", 5000) + `"}`),
	json.RawMessage(`{"id":-1,"page":-5,"per_page":-1,"wait":-3,"url":"javascript:alert(1)"}`),
	json.RawMessage(`{"id":1.5,"url":"http://[::1]:0/","wait":1e9,"sort":"'; DROP TABLE reports; --"}`),
	json.RawMessage(`{"__proto__":{"x":1},"constructor":1}`),
}

// leaks are texts of Go and of the engines that must never reach a client.
var leaks = []string{"json:", "Go struct", "runtime", "goroutine", "panic", "sql", "strconv.", "*postal", "*report", "unmarshal"}

func TestHostileArguments(t *testing.T) {
	f := newFixture(t)
	cs := connect(t, f.options(f.key))
	for name := range listTools(t, cs) {
		for _, args := range hostileArgs {
			res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
			if err != nil {
				t.Fatalf("%s(%.80s): protocol error %v", name, args, err)
			}
			b, _ := json.Marshal(res)
			out := strings.ToLower(string(b))
			for _, l := range leaks {
				if strings.Contains(out, strings.ToLower(l)) {
					t.Errorf("%s(%.80s) leaks %q: %.300s", name, args, l, b)
				}
			}
			if len(b) > 20000 && res.IsError {
				t.Errorf("%s(%.80s): error of %d bytes", name, args, len(b))
			}
			if res.IsError && strings.Contains(out, `"code":"internal"`) {
				t.Errorf("%s(%.80s): internal error %.300s", name, args, b)
			}
		}
	}
}
