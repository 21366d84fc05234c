package httpapi_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/httpapitest"
	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
	"github.com/pinsight/pinsight/adapters/httpapi/middleware"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/domain/ratelimit"
)

// bulkServer serves the fixture dataset over a real listener (streaming,
// full duplex), with the edge's quotas of o.
func bulkServer(t *testing.T, o middleware.Options) *httptest.Server {
	t.Helper()
	ds, err := loadFixtureDataset()
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	if err := httpapi.Register(httpapi.NewAPI(mux), apitest.PostalRoutes(memory.NewPostalStore(ds))); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(middleware.NewHandler(mux, o))
	t.Cleanup(srv.Close)
	return srv
}

// postBulk posts body with ctype and returns the answer.
func postBulk(t *testing.T, srv *httptest.Server, path, ctype string, body io.Reader) (*http.Response, string) {
	t.Helper()
	resp, err := http.Post(srv.URL+"/api/v1"+path, ctype, body)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, strings.ReplaceAll(string(b), "\r\n", "\n")
}

func TestBulkFiles(t *testing.T) {
	srv := bulkServer(t, middleware.Options{})
	cases := []struct {
		name, path, ctype, body, want string
	}{
		{"pincodes csv", "/pincodes/bulk", "text/csv", "pincode\n999999\n110001\nabc\n",
			"line,pincode,status,offices,head_office,district,state,latitude,longitude,error\n" +
				"2,999999,not_found,0,,,,,,no post office has this pincode\n" +
				"3,110001,found,5,New Delhi G.P.O,New Delhi,Delhi,28.6328,77.2197,\n" +
				"4,abc,invalid,0,,,,,,must be 6 digits\n"},
		{"pincodes jsonl", "/pincodes/bulk", "application/x-ndjson", `{"pincode":"110001"}` + "\n" + `{"pincode":"1"}` + "\n",
			`{"line":1,"pincode":"110001","status":"found","offices":5,"head_office":"New Delhi G.P.O","district":"New Delhi","state":"Delhi","latitude":28.6328,"longitude":77.2197}` + "\n" +
				`{"line":2,"pincode":"1","status":"invalid","offices":0,"error":"must be 6 digits"}` + "\n" +
				`{"summary":{"rows":2,"succeeded":1,"failed":1,"found":1,"invalid":1,"complete":true}}` + "\n"},
		{"encode csv", "/digipin/bulk", "text/csv; charset=utf-8", "latitude,longitude\n28.622788,77.213033\n99,77\n",
			"line,latitude,longitude,digipin,error\n2,28.622788,77.213033,39J-49L-L8T4,\n3,99,77,,latitude must be a finite number from 2.5 to 38.5\n"},
		{"decode csv", "/digipin/bulk", "text/csv", "digipin\n39J49LL8T4\nXYZ\n",
			"line,latitude,longitude,digipin,error\n2,28.622793,77.213049,39J-49L-L8T4,\n" +
				"3,,,XYZ,\"digipin invalid characters 'X', 'Y', 'Z': valid characters are F C 9 8 J 3 2 7 K 4 5 6 L M P T (hyphens optional)\"\n"},
		{"digipin jsonl", "/digipin/bulk", "application/jsonl", `{"digipin":"39J49LL8T4"}` + "\n" + `{"latitude":28.622788,"longitude":77.213033}`,
			`{"line":1,"latitude":28.622793,"longitude":77.213049,"digipin":"39J-49L-L8T4"}` + "\n" +
				`{"line":2,"latitude":28.622788,"longitude":77.213033,"digipin":"39J-49L-L8T4"}` + "\n" +
				`{"summary":{"rows":2,"succeeded":2,"failed":0,"complete":true}}` + "\n"},
		{"header only", "/pincodes/bulk", "text/csv", "pincode\n",
			"line,pincode,status,offices,head_office,district,state,latitude,longitude,error\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, got := postBulk(t, srv, c.path, c.ctype, strings.NewReader(c.body))
			if resp.StatusCode != http.StatusOK || got != c.want {
				t.Errorf("%d\n%s\nwant\n%s", resp.StatusCode, got, c.want)
			}
			mt := strings.SplitN(c.ctype, ";", 2)[0]
			if ct := resp.Header.Get("Content-Type"); ct != mt+"; charset=utf-8" {
				t.Errorf("Content-Type %q", ct)
			}
		})
	}
}

// envelope reads an error envelope.
func envelope(t *testing.T, body string) (code, msg string, errs map[string][]string) {
	t.Helper()
	var env struct {
		Success bool                `json:"success"`
		Code    string              `json:"code"`
		Message string              `json:"message"`
		Errors  map[string][]string `json:"errors"`
	}
	if err := json.Unmarshal([]byte(body), &env); err != nil || env.Success {
		t.Fatalf("not an error envelope: %.300s", body)
	}
	return env.Code, env.Message, env.Errors
}

func TestBulkBadFiles(t *testing.T) {
	srv := bulkServer(t, middleware.Options{})
	many := "pincode\n" + strings.Repeat("110001\n", 100_001)
	cases := []struct {
		name, path, ctype, body string
		status                  int
		msg, field              string
	}{
		{"json body", "/pincodes/bulk", "application/json", `{"pincodes":["110001"]}`, 415, "unsupported Content-Type", ""},
		{"no type", "/digipin/bulk", "", "digipin\n", 415, "unsupported Content-Type", ""},
		{"no header", "/pincodes/bulk", "text/csv", "110001\n110002\n", 400, `line 1: unknown column "110001"`, "line[1]"},
		{"empty", "/digipin/bulk", "text/csv", "", 400, "line 1: empty file", "line[1]"},
		{"unknown column", "/digipin/bulk", "text/csv", "latitude,longitude,name\n", 400, `unknown column "name"`, "line[1]"},
		{"not an object", "/pincodes/bulk", "application/x-ndjson", `{"pincode":"110001"}` + "\n" + `"110001"` + "\n", 400, "line 2: not a JSON object", "line[2]"},
		{"invalid JSON", "/digipin/bulk", "application/jsonl", `{"digipin":` + "\n", 400, "line 1: not valid JSON", "line[1]"},
		{"long line", "/pincodes/bulk", "text/csv", "pincode\n" + strings.Repeat("1", 70<<10) + "\n", 400, "line 2: line longer than 65536 bytes", "line[2]"},
		{"too large", "/pincodes/bulk", "text/csv", "pincode\n" + strings.Repeat("110001\n", 17<<20/7), 413, "at most 16777216 bytes", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, got := postBulk(t, srv, c.path, c.ctype, strings.NewReader(c.body))
			if resp.StatusCode != c.status {
				t.Fatalf("status %d, want %d: %.300s", resp.StatusCode, c.status, got)
			}
			_, msg, errs := envelope(t, got)
			if !strings.Contains(msg, c.msg) {
				t.Errorf("message %q, want %q", msg, c.msg)
			}
			if c.field != "" && len(errs[c.field]) == 0 {
				t.Errorf("errors %v lack %s", errs, c.field)
			}
		})
	}
	// More than 100,000 rows: the answer is committed long before, so it
	// ends with the stop row after the 100,000 rows answered.
	resp, got := postBulk(t, srv, "/pincodes/bulk", "text/csv", strings.NewReader(many))
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	if resp.StatusCode != 200 || len(lines) != 100_002 || lines[len(lines)-1] != "100002,,,,,,,,,stopped: line 100002: more than 100000 rows" {
		t.Errorf("%d, %d lines, last %q", resp.StatusCode, len(lines), lines[len(lines)-1])
	}
	// A body without Content-Length beyond 16 MiB, within the first block:
	// 413 with the line the reader reached.
	pr, pw := io.Pipe()
	go func() {
		_, _ = io.WriteString(pw, "pincode\n110001"+strings.Repeat(" ", 60<<10)+"\n")
		for range 300 {
			if _, err := io.WriteString(pw, strings.Repeat(" ", 60<<10)+"\n"); err != nil {
				break
			}
		}
		pw.Close()
	}()
	resp, got = postBulk(t, srv, "/pincodes/bulk", "text/csv", pr)
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("chunked body over the cap: %d %.200s", resp.StatusCode, got)
	}
}

// TestBulkLargeFileStreams sends 100,000 rows as JSON Lines through a
// pipe: answer rows arrive before the body is complete, all in order.
func TestBulkLargeFileStreams(t *testing.T) {
	srv := bulkServer(t, middleware.Options{})
	const rows = 100_000
	pr, pw := io.Pipe()
	answered := make(chan struct{})
	go func() {
		defer pw.Close()
		w := bufio.NewWriter(pw)
		for i := range rows {
			if i == rows/2 {
				_ = w.Flush()
				select {
				case <-answered: // the first rows came back while half the body is unsent
				case <-time.After(10 * time.Second):
					pw.CloseWithError(fmt.Errorf("no answer row before the body ended"))
					return
				}
			}
			fmt.Fprintf(w, "{\"latitude\":%d.5,\"longitude\":77}\n", 8+i%30)
		}
		_ = w.Flush()
	}()
	resp, err := http.Post(srv.URL+"/api/v1/digipin/bulk", "application/x-ndjson", pr)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	n := 0
	for sc.Scan() {
		if n == 0 {
			close(answered)
		}
		var row struct {
			Line     int
			Latitude float64
			Digipin  string
			Summary  *struct{ Rows int }
		}
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			t.Fatal(err)
		}
		if row.Summary != nil {
			if row.Summary.Rows != rows {
				t.Errorf("summary %+v", row.Summary)
			}
			break
		}
		n++
		if row.Line != n || row.Latitude != float64(8+(n-1)%30)+0.5 || row.Digipin == "" {
			t.Fatalf("row %d: %+v", n, row)
		}
	}
	if n != rows {
		t.Fatalf("%d rows answered, err %v", n, sc.Err())
	}
}

// TestBulkRateLimit charges one request per further block of 1,000 rows:
// beyond the quota the answer ends with a stop row saying when to retry.
func TestBulkRateLimit(t *testing.T) {
	srv := bulkServer(t, middleware.Options{Limiter: memory.NewRateLimiter(),
		RateLimits: middleware.RateLimits{Default: ratelimit.Limit{Requests: 2, Window: time.Hour}}})
	resp, got := postBulk(t, srv, "/pincodes/bulk", "text/csv", strings.NewReader("pincode\n"+strings.Repeat("110001\n", 2500)))
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	last := lines[len(lines)-1]
	if resp.StatusCode != 200 || len(lines) != 2002 || !strings.HasPrefix(last, "2002,,,,,,,,,stopped: line 2002: rate limit exceeded: retry the remaining rows after") {
		t.Errorf("%d, %d lines, last %q", resp.StatusCode, len(lines), last)
	}
	resp, got = postBulk(t, srv, "/digipin/bulk", "text/csv", strings.NewReader("digipin\n39J49LL8T4\n"))
	if resp.StatusCode != http.StatusTooManyRequests {
		t.Errorf("quota spent: %d %.200s", resp.StatusCode, got)
	}
}

// TestBulkHostileFiles posts the hostile values and bodies as CSV and JSON
// Lines files: never a 5xx, an envelope unless the answer is a file.
func TestBulkHostileFiles(t *testing.T) {
	srv := bulkServer(t, middleware.Options{})
	var bodies []string
	for _, v := range httpapitest.Values {
		bodies = append(bodies, "pincode\n"+v+"\n", "latitude,longitude\n"+v+","+v+"\n", "digipin\n"+v+"\n",
			`{"pincode":`+v+"}\n", `{"digipin":"`+v+`"}`+"\n", v)
	}
	bodies = append(bodies, httpapitest.Bodies...)
	for _, path := range []string{"/pincodes/bulk", "/digipin/bulk"} {
		for _, ctype := range []string{"text/csv", "application/x-ndjson"} {
			for _, b := range bodies {
				resp, got := postBulk(t, srv, path, ctype, strings.NewReader(b))
				if resp.StatusCode >= 500 {
					t.Errorf("%s %s %.80q: %d %.200s", path, ctype, b, resp.StatusCode, got)
				} else if resp.StatusCode != 200 {
					envelope(t, got)
				}
				if p := httpapitest.HeaderProblem(resp.StatusCode, resp.Header); p != "" {
					t.Errorf("%s %s %.80q: %s", path, ctype, b, p)
				}
			}
		}
	}
}

// TestBulkOutlivesServerTimeouts sends a file slower than the server's
// read and write timeouts allow a request: the bulk operations replace
// them with a bound per block of rows, so the answer is whole.
func TestBulkOutlivesServerTimeouts(t *testing.T) {
	mux := http.NewServeMux()
	if err := httpapi.Register(httpapi.NewAPI(mux), httpapi.Routes{}); err != nil {
		t.Fatal(err)
	}
	srv := httpapi.NewServer(httpapi.Config{Addr: "127.0.0.1:0", ReadTimeout: 300 * time.Millisecond, WriteTimeout: 300 * time.Millisecond},
		middleware.NewHandler(mux, middleware.Options{}), slog.New(slog.DiscardHandler))
	if err := srv.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Stop(context.Background()) })
	pr, pw := io.Pipe()
	go func() {
		_, _ = io.WriteString(pw, "digipin\n")
		for i := range 2500 {
			if i%500 == 0 {
				time.Sleep(250 * time.Millisecond) // 1.25 s in all
			}
			_, _ = io.WriteString(pw, "39J49LL8T4\n")
		}
		pw.Close()
	}()
	resp, err := http.Post("http://"+srv.Addr()+"/api/v1/digipin/bulk", "text/csv", pr)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if n := strings.Count(string(b), "\n"); err != nil || n != 2501 {
		t.Fatalf("%d lines, err %v; ends %q", n, err, b[max(0, len(b)-100):])
	}
}

// TestBulkBodyCut answers a body that ends before its Content-Length in
// the envelope: 400 naming the read failure, or 499 when the server saw the
// client leave first (the half-closed connection cancels the request).
func TestBulkBodyCut(t *testing.T) {
	srv := bulkServer(t, middleware.Options{})
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_, _ = io.WriteString(conn, "POST /api/v1/pincodes/bulk HTTP/1.1\r\nHost: x\r\nContent-Type: text/csv\r\nContent-Length: 1000\r\n\r\npincode\n110001\n")
	_ = conn.(*net.TCPConn).CloseWrite()
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	cut := resp.StatusCode == http.StatusBadRequest && strings.Contains(string(b), "reading the file: unexpected EOF")
	if gone := resp.StatusCode == 499 && strings.Contains(string(b), "client_closed_request"); !cut && !gone {
		t.Errorf("%d %s", resp.StatusCode, b)
	}
}
