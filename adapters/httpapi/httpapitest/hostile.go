package httpapitest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strings"
	"testing"

	"github.com/danielgtaylor/huma/v2"
)

// Content types of request bodies.
const (
	jsonType = "application/json"
	formType = "application/x-www-form-urlencoded"
)

// maxFailures stops a run that fails everywhere before its log floods.
const maxFailures = 50

// Valid gives well-formed values for op's parameters and top-level body
// properties, by name, so that one hostile value at a time reaches past
// validation. A value of type func() any is called for each request (a
// fresh e-mail address per registration, say). Names without a value are
// left out of the request.
type Valid func(op *huma.Operation) map[string]any

// Hostile sends hostile input through h to every operation api registers
// and returns them ("METHOD /path"), in order. For each operation it sends:
// every parameter and body property set to each of Values (as JSON and,
// where the operation takes one, as a form); Big once; each slot in turn
// set to each value (also as a JSON literal, and inside an array for array
// properties) with the others valid; each slot's valid string with each
// value appended; and each of Bodies. Every answer must be the error
// envelope or a success envelope, below 500, with the headers HeaderProblem
// requires. Then /healthz must answer 200.
//
// token is called for the Bearer key sent with an operation's requests
// (nil: none), once per operation and again when a request answers 401 (an
// earlier one may have rotated or revoked the key); valid (nil: none) is
// called once per operation, after token.
func Hostile(t *testing.T, api huma.API, h http.Handler, token func() string, valid Valid) []string {
	t.Helper()
	c := &checker{t: t, h: h, token: token}
	var covered []string
	for _, o := range operations(api) {
		covered = append(covered, o.method+" "+o.path)
		c.renew()
		good := map[string]any{}
		if valid != nil {
			good = valid(o.op)
		}
		o.run(c, good)
		if c.failures >= maxFailures {
			t.Fatalf("%d hostile requests failed; stopping", c.failures)
		}
	}
	if c.sent < 100 {
		t.Fatalf("only %d hostile requests sent", c.sent)
	}
	t.Logf("%d hostile requests to %d operations", c.sent, len(covered))
	rec := c.send(http.MethodGet, "/healthz", "", "")
	if rec.Code != http.StatusOK {
		t.Errorf("server unhealthy after hostile input: %d %s", rec.Code, rec.Body)
	}
	return covered
}

// slot is one place a value goes: a parameter or a body property.
type slot struct {
	in, name string // in: path, query, header or body
	array    bool   // a body property of array type
}

// operation is one OpenAPI operation with its slots.
type operation struct {
	method, path string
	op           *huma.Operation
	slots        []slot
	hasBody      bool
	form         bool // the body may also be a form
}

// operations lists api's operations by path, then method.
func operations(api huma.API) []operation {
	oapi := api.OpenAPI()
	paths := make([]string, 0, len(oapi.Paths))
	for p := range oapi.Paths {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var ops []operation
	for _, p := range paths {
		item := oapi.Paths[p]
		for _, mo := range []struct {
			method string
			op     *huma.Operation
		}{{http.MethodGet, item.Get}, {http.MethodPost, item.Post}, {http.MethodPut, item.Put}, {http.MethodPatch, item.Patch}, {http.MethodDelete, item.Delete}} {
			if mo.op != nil {
				ops = append(ops, newOperation(oapi, mo.method, p, mo.op))
			}
		}
	}
	return ops
}

// newOperation collects op's parameters and the top-level properties of
// its request body schemas (references resolved).
func newOperation(oapi *huma.OpenAPI, method, path string, op *huma.Operation) operation {
	o := operation{method: method, path: path, op: op}
	for _, p := range op.Parameters {
		if p.In == "path" || p.In == "query" || p.In == "header" {
			o.slots = append(o.slots, slot{in: p.In, name: p.Name})
		}
	}
	if op.RequestBody == nil {
		return o
	}
	o.hasBody = true
	props := map[string]bool{}
	for ct, mt := range op.RequestBody.Content {
		o.form = o.form || ct == formType
		s := mt.Schema
		if s != nil && s.Ref != "" && oapi.Components != nil && oapi.Components.Schemas != nil {
			s = oapi.Components.Schemas.SchemaFromRef(s.Ref)
		}
		if s == nil {
			continue
		}
		names := make([]string, 0, len(s.Properties))
		for name := range s.Properties {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			if !props[name] {
				props[name] = true
				o.slots = append(o.slots, slot{in: "body", name: name, array: s.Properties[name].Type == "array"})
			}
		}
	}
	return o
}

// run sends o every kind of hostile request.
func (o operation) run(c *checker, good map[string]any) {
	all := func(v string) map[slot]any {
		m := map[slot]any{}
		for _, s := range o.slots {
			m[s] = v
		}
		return m
	}
	for _, v := range Values {
		o.send(c, good, all(v), true)
	}
	big := map[slot]any{}
	for _, s := range o.slots {
		if !o.hasBody || s.in == "body" {
			big[s] = Big
		}
	}
	o.send(c, good, big, false)
	for _, s := range o.slots {
		for _, v := range Values {
			o.send(c, good, map[slot]any{s: v}, true)
			if s.in == "body" && json.Valid([]byte(v)) {
				o.send(c, good, map[slot]any{s: json.RawMessage(v)}, false)
			}
			if s.array {
				o.send(c, good, map[slot]any{s: []any{v}}, false)
			}
			if prefix, ok := resolve(good[s.name]).(string); ok {
				o.send(c, good, map[slot]any{s: prefix + v}, false)
			}
		}
	}
	if o.hasBody {
		target, _ := o.build(good, nil)
		for _, b := range Bodies {
			c.check(o.method, target, jsonType, b)
			c.check(o.method, target, formType, "a=%zz&"+b)
		}
	}
}

// send builds the request with the hostile values in place of the valid
// ones and checks it as JSON, and as a form too when asForm is set and o
// takes one.
func (o operation) send(c *checker, good map[string]any, hostile map[slot]any, asForm bool) {
	target, body := o.build(good, hostile)
	if !o.hasBody {
		c.check(o.method, target, "", "")
		return
	}
	raw, err := json.Marshal(body)
	if err != nil {
		c.t.Fatalf("%s %s: encoding the body: %v", o.method, o.path, err)
	}
	c.check(o.method, target, jsonType, string(raw))
	if asForm && o.form {
		c.check(o.method, target, formType, formEncode(body).Encode())
	}
}

// build fills every slot with its hostile value, else its valid one, and
// returns the target (path and query) and the body properties.
func (o operation) build(good map[string]any, hostile map[slot]any) (string, map[string]any) {
	path, q, body := o.path, url.Values{}, map[string]any{}
	for _, s := range o.slots {
		v, found := hostile[s]
		if !found {
			v, found = good[s.name]
			v = resolve(v)
		}
		if !found {
			continue
		}
		switch s.in {
		case "path":
			path = strings.ReplaceAll(path, "{"+s.name+"}", url.PathEscape(fmt.Sprint(v)))
		case "query":
			q.Set(s.name, fmt.Sprint(v))
		case "body":
			body[s.name] = v
		}
	}
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	return path, body
}

// resolve calls v when it is a func() any.
func resolve(v any) any {
	if f, ok := v.(func() any); ok {
		return f()
	}
	return v
}

// formEncode writes body as form fields: arrays as repeated fields, JSON
// literals as their text.
func formEncode(body map[string]any) url.Values {
	f := url.Values{}
	for k, v := range body {
		switch v := v.(type) {
		case []any:
			for _, e := range v {
				f.Add(k, fmt.Sprint(e))
			}
		case []string:
			for _, e := range v {
				f.Add(k, e)
			}
		case json.RawMessage:
			f.Set(k, string(v))
		default:
			f.Set(k, fmt.Sprint(v))
		}
	}
	return f
}

// checker sends requests with a Bearer key and counts them.
type checker struct {
	t        *testing.T
	h        http.Handler
	token    func() string
	key      string
	sent     int
	failures int
}

// renew takes a new Bearer key.
func (c *checker) renew() {
	if c.token != nil {
		c.key = c.token()
	}
}

// send serves one request and returns the recording.
func (c *checker) send(method, target, ctype, body string) *httptest.ResponseRecorder {
	c.sent++
	req := httptest.NewRequest(method, "/", strings.NewReader(body))
	if u, err := url.Parse(target); err == nil {
		req.URL, req.RequestURI = u, target
	} else {
		c.t.Fatalf("bad target %.80q: %v", target, err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	if c.key != "" {
		req.Header.Set("Authorization", "Bearer "+c.key)
	}
	rec := httptest.NewRecorder()
	c.h.ServeHTTP(rec, req)
	return rec
}

// check sends a request and requires the envelope below 500: success with
// a 2xx status, else a failure with a code and a message.
func (c *checker) check(method, target, ctype, body string) {
	c.t.Helper()
	rec := c.send(method, target, ctype, body)
	if rec.Code == http.StatusUnauthorized && c.token != nil {
		// The last request may have rotated or revoked the key: the
		// operation deserves one more try with a new one.
		c.renew()
		rec = c.send(method, target, ctype, body)
	}
	if loc := rec.Header().Get("Location"); rec.Code == http.StatusTemporaryRedirect && loc != "" && loc != target {
		// The mux cleans paths ("/digipin//neighbours" from an empty path
		// parameter) with a redirect: the cleaned path must answer properly.
		c.check(method, loc, ctype, body)
		return
	}
	var env struct {
		Success *bool  `json:"success"`
		Code    string `json:"code"`
		Message string `json:"message"`
	}
	err := json.Unmarshal(rec.Body.Bytes(), &env)
	ok := rec.Code < 500 && err == nil && env.Success != nil &&
		(*env.Success == (rec.Code < 300)) && (*env.Success || env.Code != "" && env.Message != "")
	ok = ok || rec.Code < 300 && exportType(rec.Header().Get("Content-Type")) // a crawl export's rows, not an envelope
	if !ok {
		c.failures++
		c.t.Errorf("%s %.100q (%s, body %.80q) = %d %.300s", method, target, ctype, body, rec.Code, rec.Body.String())
	}
	if problem := HeaderProblem(rec.Code, rec.Header()); problem != "" {
		c.failures++
		c.t.Errorf("%s %.100q (%s, body %.80q) = %d: %s", method, target, ctype, body, rec.Code, problem)
	}
}

// exportType reports whether ct is the type of a crawl export or a bulk
// file's answer (CSV or JSON Lines): the successes that are not envelopes.
func exportType(ct string) bool {
	return strings.HasPrefix(ct, "text/csv") || strings.HasPrefix(ct, "application/jsonl") || strings.HasPrefix(ct, "application/x-ndjson")
}

// HeaderProblem checks the headers every Pinsight response carries:
// X-Content-Type-Options: nosniff, and Retry-After on a 503. It returns
// what is wrong, or "".
func HeaderProblem(status int, h http.Header) string {
	if got := h.Get("X-Content-Type-Options"); got != "nosniff" {
		return fmt.Sprintf("X-Content-Type-Options = %q, want nosniff", got)
	}
	if status == http.StatusServiceUnavailable && h.Get("Retry-After") == "" {
		return "503 without Retry-After"
	}
	return ""
}
