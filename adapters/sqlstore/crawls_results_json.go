package sqlstore

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/pinsight/pinsight/adapters/internal/jsonappend"
	"github.com/pinsight/pinsight/domain/pagecheck"
)

// appendResultsJSON appends res as JSON that json.Unmarshal reads back as
// it reads json.Marshal's (the same checks, values and omitted fields),
// written field by field: a crawl encodes thousands of audits, and
// encoding/json's reflection over them cost more than the compression.
// Values of types other than JSON's own (string, float64, bool, nil,
// []any, map[string]any), ints and []string go through json.Marshal.
func appendResultsJSON(b []byte, res pagecheck.Results) ([]byte, error) {
	cats := make([]pagecheck.Category, 0, len(res))
	for c := range res {
		cats = append(cats, c)
	}
	slices.Sort(cats)
	b = append(b, '{')
	var err error
	for i, c := range cats {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonappend.String(b, string(c))
		b = append(b, ':')
		checks := res[c]
		if checks == nil {
			b = append(b, "null"...)
			continue
		}
		b = append(b, '[')
		for j := range checks {
			if j > 0 {
				b = append(b, ',')
			}
			if b, err = appendCheckJSON(b, &checks[j]); err != nil {
				return nil, err
			}
		}
		b = append(b, ']')
	}
	return append(b, '}'), nil
}

// appendCheckJSON appends c as json.Marshal writes its fields (omitempty
// ones left out when empty).
func appendCheckJSON(b []byte, c *pagecheck.Check) ([]byte, error) {
	b = append(b, `{"id":`...)
	b = jsonappend.String(b, c.ID)
	b = append(b, `,"title":`...)
	b = jsonappend.String(b, c.Title)
	b = append(b, `,"category":`...)
	b = jsonappend.String(b, string(c.Category))
	b = append(b, `,"importance":`...)
	b = jsonappend.String(b, string(c.Importance))
	b = append(b, `,"passed":`...)
	b = strconv.AppendBool(b, c.Passed)
	b = append(b, `,"value":`...)
	var err error
	if b, err = appendValueJSON(b, c.Value); err != nil {
		return nil, err
	}
	if c.Omitted != 0 {
		b = append(b, `,"omitted":`...)
		b = strconv.AppendInt(b, int64(c.Omitted), 10)
	}
	if len(c.Errors) > 0 {
		b = append(b, `,"errors":`...)
		b = appendStringsJSON(b, c.Errors)
	}
	b = append(b, `,"message":`...)
	b = jsonappend.String(b, c.Message)
	if c.Advice != "" {
		b = append(b, `,"advice":`...)
		b = jsonappend.String(b, c.Advice)
	}
	if len(c.Offending) > 0 {
		b = append(b, `,"offending":`...)
		b = appendStringsJSON(b, c.Offending)
	}
	if c.OffendingOmitted != 0 {
		b = append(b, `,"offending_omitted":`...)
		b = strconv.AppendInt(b, int64(c.OffendingOmitted), 10)
	}
	return append(b, '}'), nil
}

// appendValueJSON appends a check's value.
func appendValueJSON(b []byte, v any) ([]byte, error) {
	var err error
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case string:
		return jsonappend.String(b, x), nil
	case bool:
		return strconv.AppendBool(b, x), nil
	case int:
		return strconv.AppendInt(b, int64(x), 10), nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			break // json.Marshal's error
		}
		return jsonappend.Float(b, x), nil
	case []string:
		if x == nil {
			return append(b, "null"...), nil
		}
		return appendStringsJSON(b, x), nil
	case []any:
		if x == nil {
			return append(b, "null"...), nil
		}
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = appendValueJSON(b, e); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	case map[string]any:
		if x == nil {
			return append(b, "null"...), nil
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonappend.String(b, k)
			b = append(b, ':')
			if b, err = appendValueJSON(b, x[k]); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: encode results: %w", err)
	}
	return append(b, raw...), nil
}

// appendStringsJSON appends ss as a JSON list.
func appendStringsJSON(b []byte, ss []string) []byte {
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonappend.String(b, s)
	}
	return append(b, ']')
}
