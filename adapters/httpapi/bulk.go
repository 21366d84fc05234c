package httpapi

import (
	"bytes"
	"context"
	"errors"
	"io"
	"mime"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"

	"github.com/pinsight/pinsight/adapters/httpapi/middleware"
	"github.com/pinsight/pinsight/app/bulk"
	"github.com/pinsight/pinsight/app/directory"
)

// Bulk-file limits: the body cap replaces the 1 MiB of other operations
// for these two only.
const (
	bulkMaxBytes = bulk.DefaultMaxBytes // 16 MiB: 100,000 rows of up to ~160 bytes
	// bulkStallTimeout bounds each block of rows (bulk.BlockRows): the
	// body must deliver it, and the client take its answer, within this
	// time. It replaces the server's read and write timeouts, so a long
	// file is not cut while it moves.
	bulkStallTimeout = 30 * time.Second
	// bulkCommitBytes is how much answer is held at most before the status
	// is sent (else at the first block's end): a file stopped before then
	// gets its error status (400, 413...) instead of a 200 ending with a
	// stop row.
	bulkCommitBytes = 64 << 10
)

// The media types of bulk files.
const (
	csvType    = "text/csv"
	ndjsonType = "application/x-ndjson"
	jsonlType  = "application/jsonl"
)

// bulkDoc is what both bulk operations share, for their descriptions.
const bulkDoc = "The body is CSV (text/csv: RFC 4180, a header row naming the columns) or JSON Lines " +
	"(application/x-ndjson or application/jsonl: one object per line, blank lines skipped), at most " +
	"100,000 rows and 16 MiB (this operation's body cap; others have 1 MiB), lines of at most 64 KiB. " +
	"The answer has the same format and one row per input row, in input order, each with its input " +
	"line; it is streamed as rows are read (neither side is held in memory). A bad value is a row-level " +
	"error (the error column or key); the file goes on. JSON Lines answers end with a summary line " +
	`{"summary":{"rows","succeeded","failed","complete":true}}. ` +
	"A bad file is refused in the envelope: 415 for another Content-Type; 413 when Content-Length is " +
	"above 16 MiB; 400 for no header, an unknown or duplicate column, CSV syntax, a line that is not a " +
	"JSON object (the message and errors name the line). These are detected as the file is read: a file " +
	"stopped within its first 1,000 rows (and 64 KiB of answer) gets the error status (400, 413 for more than 100,000 rows " +
	"or 16 MiB, 429, 503) and no rows; later, the status 200 is sent already, and the answer ends " +
	`instead with a stop row: CSV, a last row with the line and an error starting "stopped: "; JSON ` +
	`Lines, the summary with "complete": false and "error": {"code": "malformed" | "too_large" | ` +
	`"stopped", "line", "message"}. The rows before it are answered. ` +
	"Rate limits: the request counts as one request of the default quota, plus one more before each " +
	"further block of 1,000 rows (rows 1,001, 2,001...): a 100,000-row file counts as 100. Beyond the " +
	"quota the answer stops there (a stop row saying when to retry). The server's read and write " +
	"timeouts do not apply: each block of 1,000 rows must arrive, and its answer be taken, within 30 s. " +
	csvCellsDoc

// bulkMediaTypes documents the file types of a bulk body or answer.
func bulkMediaTypes() map[string]*huma.MediaType {
	s := func() *huma.MediaType { return &huma.MediaType{Schema: &huma.Schema{Type: "string"}} }
	return map[string]*huma.MediaType{csvType: s(), ndjsonType: s(), jsonlType: s()}
}

// bulkRequestBody documents the body of a bulk operation.
func bulkRequestBody(doc string) *huma.RequestBody {
	return &huma.RequestBody{Required: true, Description: doc, Content: bulkMediaTypes()}
}

// bulkResponses documents the answers of a bulk operation.
func bulkResponses(doc string) map[string]*huma.Response {
	return map[string]*huma.Response{"200": {Description: doc, Content: bulkMediaTypes()}}
}

// bulkFunc answers one file.
type bulkFunc func(ctx context.Context, in io.Reader, out io.Writer, f bulk.Format, opt bulk.Options) (bulk.Summary, error)

func registerBulk(api huma.API, dir *directory.Directory) {
	g := group(api)
	if dir != nil {
		huma.Register(g, huma.Operation{OperationID: "pincode-bulk", Method: http.MethodPost, Path: "/pincodes/bulk",
			Tags: []string{"Pincodes"}, Summary: "Look up and validate a file of up to 100,000 pincodes",
			Description: "Each row's pincode is looked up: its status (found, not_found or invalid), its offices' " +
				"count, its principal office (head, else sub, else branch) with that office's district and state, " +
				"and a location (that office's, else the first located office's). " + bulkDoc,
			RequestBody: bulkRequestBody("CSV with a pincode column, or JSON Lines of {\"pincode\": \"110001\"} (a string or a number)."),
			Responses: bulkResponses("CSV columns " + strings.Join(bulk.PincodeColumns, ",") +
				"; JSON Lines objects with the same keys (empty ones left out), then the summary (with found, not_found, invalid)."),
		}, bulkHandler(api, func(ctx context.Context, in io.Reader, out io.Writer, f bulk.Format, opt bulk.Options) (bulk.Summary, error) {
			return bulk.Pincodes(ctx, dir, in, out, f, opt)
		}))
	}
	huma.Register(g, huma.Operation{OperationID: "digipin-bulk", Method: http.MethodPost, Path: "/digipin/bulk",
		Tags: []string{"DIGIPIN"}, Summary: "Encode or decode a file of up to 100,000 points or codes",
		Description: "A row with latitude and longitude is encoded; a row with a digipin is decoded (its cell " +
			"centre, rounded to 6 decimals). " + bulkDoc,
		RequestBody: bulkRequestBody("CSV with latitude,longitude columns or a digipin column; or JSON Lines of " +
			"{\"latitude\": 28.6139, \"longitude\": 77.209} or {\"digipin\": \"39J-438-TJC7\"}, line by line."),
		Responses: bulkResponses("CSV columns " + strings.Join(bulk.DigipinColumns, ",") +
			" (the sent values and the computed ones); JSON Lines objects with the same keys (empty ones left out), then the summary."),
	}, bulkHandler(api, bulk.Digipin))
}

// bulkHandler streams the answer of fn to a file body.
func bulkHandler(api huma.API, fn bulkFunc) func(context.Context, *struct{}) (*huma.StreamResponse, error) {
	return func(context.Context, *struct{}) (*huma.StreamResponse, error) {
		return &huma.StreamResponse{Body: func(hctx huma.Context) { serveBulk(api, hctx, fn) }}, nil
	}
}

// serveBulk checks the request, then answers the file, committing the
// status once the answer outgrows bulkCommitBytes (or at the first block
// flush); a file stopped before that gets its error status instead.
func serveBulk(api huma.API, hctx huma.Context, fn bulkFunc) {
	mt, _, _ := mime.ParseMediaType(hctx.Header("Content-Type"))
	format := bulk.JSONLines
	switch mt {
	case csvType:
		format = bulk.CSV
	case ndjsonType, jsonlType:
	default:
		_, w := humago.Unwrap(hctx) // the envelope's own 415 message names JSON: this one names the file types
		middleware.WriteError(w, http.StatusUnsupportedMediaType, "unsupported Content-Type "+strconv.Quote(mt)+
			": send text/csv, application/x-ndjson or application/jsonl")
		return
	}
	if n, err := strconv.ParseInt(hctx.Header("Content-Length"), 10, 64); err == nil && n > bulkMaxBytes {
		_ = huma.WriteErr(api, hctx, http.StatusRequestEntityTooLarge, "request body is too large: at most "+
			strconv.Itoa(bulkMaxBytes)+" bytes allowed")
		return
	}
	r, w := humago.Unwrap(hctx)
	rc := http.NewResponseController(w)
	_ = rc.EnableFullDuplex() // HTTP/1.1: keep reading the body once the answer has started
	extend := func() {
		_ = rc.SetReadDeadline(time.Now().Add(bulkStallTimeout))
		_ = rc.SetWriteDeadline(time.Now().Add(bulkStallTimeout))
	}
	extend()
	out := &bulkAnswer{hctx: hctx, ctype: mt + "; charset=utf-8"}
	_, err := fn(r.Context(), hctx.BodyReader(), out, format, bulk.Options{MaxBytes: bulkMaxBytes, Every: func(int) error {
		extend()
		if d := middleware.Charge(r.Context(), 1); !d.Allowed {
			return &rateLimitedError{retryAfter: d.RetryAfter}
		}
		return nil
	}})
	if err == nil || out.committed {
		out.commit() // an empty answer still gets its status
		return
	}
	writeBulkError(api, hctx, err)
}

// writeBulkError answers a file stopped before its answer was committed.
func writeBulkError(api huma.API, hctx huma.Context, err error) {
	var fe *bulk.FileError
	if !errors.As(err, &fe) {
		_ = huma.WriteErr(api, hctx, http.StatusInternalServerError, "internal server error")
		return
	}
	var rl *rateLimitedError
	var ne net.Error
	switch {
	case hctx.Context().Err() != nil:
		_ = huma.WriteErr(api, hctx, statusClientClosed, "client closed the request")
	case fe.Kind == bulk.Malformed:
		_ = huma.WriteErr(api, hctx, http.StatusBadRequest, "malformed file: "+fe.Error(), fieldError(lineField(fe.Line), fe.Message))
	case fe.Kind == bulk.TooLarge:
		_ = huma.WriteErr(api, hctx, http.StatusRequestEntityTooLarge, "file too large: "+fe.Error(), fieldError(lineField(fe.Line), fe.Message))
	case errors.As(err, &rl):
		hctx.SetHeader("Retry-After", strconv.Itoa(int(rl.retryAfter.Round(time.Second)/time.Second)+1))
		_ = huma.WriteErr(api, hctx, http.StatusTooManyRequests, rl.Error())
	case errors.As(err, &ne) && ne.Timeout():
		_ = huma.WriteErr(api, hctx, http.StatusRequestTimeout, "request body read timeout")
	case errors.Is(err, bulk.ErrRead):
		_ = huma.WriteErr(api, hctx, http.StatusBadRequest, "malformed file: "+fe.Error())
	default:
		se := toHTTP(fe.Err)
		var status huma.StatusError
		if errors.As(se, &status) {
			_ = huma.WriteErr(api, hctx, status.GetStatus(), status.Error())
			return
		}
		_ = huma.WriteErr(api, hctx, http.StatusInternalServerError, "internal server error")
	}
}

// lineField names a line of a file in an error envelope's errors.
func lineField(line int) string { return "line[" + strconv.Itoa(line) + "]" }

// rateLimitedError stops a file whose rows went beyond the quota.
type rateLimitedError struct{ retryAfter time.Duration }

func (e *rateLimitedError) Error() string {
	return "rate limit exceeded: retry the remaining rows after " + strconv.Itoa(int(e.retryAfter.Seconds())+1) + " s"
}

// bulkAnswer holds the start of a bulk answer until it is committed: the
// status and headers are sent with the first flush or once bulkCommitBytes
// are held, so a file stopped before then still gets its error status.
type bulkAnswer struct {
	hctx      huma.Context
	ctype     string
	held      bytes.Buffer
	committed bool
}

func (a *bulkAnswer) Write(p []byte) (int, error) {
	if a.committed {
		return a.hctx.BodyWriter().Write(p)
	}
	a.held.Write(p)
	if a.held.Len() >= bulkCommitBytes {
		if err := a.commit(); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// Flush commits the answer and sends what is written so far.
func (a *bulkAnswer) Flush() {
	if a.commit() == nil {
		if f, ok := a.hctx.BodyWriter().(http.Flusher); ok {
			f.Flush()
		}
	}
}

// commit sends the status, the headers and the held answer (once).
func (a *bulkAnswer) commit() error {
	if a.committed {
		return nil
	}
	a.committed = true
	a.hctx.SetHeader("Content-Type", a.ctype)
	a.hctx.SetStatus(http.StatusOK)
	_, err := a.hctx.BodyWriter().Write(a.held.Bytes())
	a.held = bytes.Buffer{}
	return err
}
