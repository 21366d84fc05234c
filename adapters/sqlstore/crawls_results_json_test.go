package sqlstore

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"

	"github.com/pinsight/pinsight/domain/pagecheck"
)

// The audit's JSON written field by field reads back as json.Marshal's
// does: every field and kind of value, omitted fields, escapes, invalid
// UTF-8 and values of other types.
func TestResultsJSONReadsAsMarshal(t *testing.T) {
	odd := "quote \" backslash \\ nl \n cr \r tab \t nul \x00 esc \x1b del \x7f <&> \u2028 é 日本 bad \xff\xfe end"
	res := pagecheck.Results{
		pagecheck.SEO: {
			{ID: "title", Title: odd, Category: pagecheck.SEO, Importance: pagecheck.High, Passed: true, Value: odd, Message: "ok"},
			{ID: "headings", Title: "H", Category: pagecheck.SEO, Importance: pagecheck.Medium, Value: map[string]any{"h1": float64(2), odd: []any{1.5, -3e-9, 1e21, nil, true, "x", map[string]any{}}},
				Omitted: 3, Errors: []string{"too_many", odd}, Message: odd, Advice: "a", Offending: []string{"<h1>", odd}, OffendingOmitted: 7},
			{ID: "empty", Value: []any{}, Errors: []string{}, Offending: []string{}},
			{ID: "ints", Value: 42},
			{ID: "strings", Value: []string{"a", odd}},
			{ID: "nil strings", Value: []string(nil)},
			{ID: "nil list", Value: []any(nil)},
			{ID: "nil map", Value: map[string]any(nil)},
			{ID: "other", Value: struct {
				N int `json:"n"`
			}{5}},
		},
		pagecheck.Security:    nil,
		pagecheck.Performance: {},
	}
	got, err := appendResultsJSON(nil, res)
	if err != nil || !json.Valid(got) {
		t.Fatalf("appendResultsJSON = %s, %v; want valid JSON", got, err)
	}
	want, _ := json.Marshal(res)
	var fromMarshal, fromAppend pagecheck.Results
	if err := json.Unmarshal(want, &fromMarshal); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(got, &fromAppend); err != nil || !reflect.DeepEqual(fromAppend, fromMarshal) {
		t.Errorf("read back:\n%#v\nwant (json.Marshal's)\n%#v", fromAppend, fromMarshal)
	}
	for _, bad := range []any{math.NaN(), math.Inf(1), make(chan int)} {
		if _, err := appendResultsJSON(nil, pagecheck.Results{pagecheck.SEO: {{ID: "bad", Value: bad}}}); err == nil {
			t.Errorf("appendResultsJSON of a %T value = nil error, want json.Marshal's", bad)
		}
	}
}
