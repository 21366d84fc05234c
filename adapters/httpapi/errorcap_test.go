package httpapi_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
)

// unknownKeys is a JSON object of n unknown keys, about 11 bytes each.
func unknownKeys(n int) string {
	var b strings.Builder
	b.WriteString(`{"latitude":28.6,"longitude":77.2`)
	for i := range n {
		b.WriteString(`,"k` + strconv.Itoa(i) + `":0`)
	}
	b.WriteString("}")
	return b.String()
}

// capped decodes an error answer, checking the cap of field errors.
func capped(t *testing.T, name string, rec *httptest.ResponseRecorder, wantTotal int) map[string][]string {
	t.Helper()
	var body struct {
		Errors          map[string][]string `json:"errors"`
		ErrorsTruncated *int                `json:"errors_truncated"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		t.Fatalf("%s: %v: %.200s", name, err, rec.Body)
	}
	listed := 0
	for _, msgs := range body.Errors {
		listed += len(msgs)
	}
	truncated := 0
	if body.ErrorsTruncated != nil {
		truncated = *body.ErrorsTruncated
	}
	if listed != min(wantTotal, httpapi.MaxFieldErrors) || listed+truncated != wantTotal || (wantTotal <= httpapi.MaxFieldErrors) != (body.ErrorsTruncated == nil) {
		t.Errorf("%s: %d field errors listed, errors_truncated %v; want %d listed of %d", name, listed, body.ErrorsTruncated, min(wantTotal, httpapi.MaxFieldErrors), wantTotal)
	}
	return body.Errors
}

// TestFieldErrorsCapped: a 1 MB body of 90,000 unknown keys used to answer
// 3.1 MB of field errors; envelopes list at most 20, with the count of the
// others, for JSON and form bodies alike.
func TestFieldErrorsCapped(t *testing.T) {
	h := apitest.NewHandler(t, httpapi.Routes{})
	sendTo := func(path, ctype, body string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
		req.Header.Set("Content-Type", ctype)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	send := func(ctype, body string) *httptest.ResponseRecorder {
		return sendTo("/api/v1/digipin/encode", ctype, body)
	}
	body := unknownKeys(90_000)
	rec := send(apitest.JSONType, body)
	t.Logf("%d-byte body of 90,000 unknown keys: %d, %d-byte answer", len(body), rec.Code, rec.Body.Len())
	if rec.Code != http.StatusUnprocessableEntity || rec.Body.Len() > 4<<10 {
		t.Errorf("90,000 unknown keys = %d with %d bytes, want 422 under 4 KiB", rec.Code, rec.Body.Len())
	}
	capped(t, "90,000 unknown keys", rec, 90_000)

	form := url.Values{"latitude": {"28.6"}, "longitude": {"77.2"}}
	for i := range 9_000 { // net/url parses at most 10,000 fields
		form.Set("k"+strconv.Itoa(i), "0")
	}
	rec = send(apitest.FormType, form.Encode())
	if rec.Code != http.StatusUnprocessableEntity || rec.Body.Len() > 4<<10 {
		t.Errorf("form of 9,000 unknown keys = %d with %d bytes, want 422 under 4 KiB", rec.Code, rec.Body.Len())
	}
	capped(t, "form of 9,000 unknown keys", rec, 9_000)

	// Below the cap nothing changes; a missing field is listed first, so the
	// 400 it causes names it.
	capped(t, "3 unknown keys", send(apitest.JSONType, unknownKeys(3)), 3)
	rec = sendTo("/api/v1/digipin/decode", apitest.JSONType, strings.Replace(unknownKeys(30), `"latitude":28.6,"longitude":77.2,`, "", 1))
	if errs := capped(t, "30 unknown keys, digipin missing", rec, 31); rec.Code != http.StatusBadRequest || len(errs["digipin"]) != 1 {
		t.Errorf("missing digipin among 30 unknown keys = %d %v, want 400 naming digipin", rec.Code, errs)
	}
}
