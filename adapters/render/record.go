package render

import (
	"encoding/json"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/inspector"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"

	"github.com/pinsight/pinsight/domain/webpage"
)

// recorder keeps what one render's tab reports: its requests, console
// errors, load and crash. Its event method runs on chromedp's reading
// goroutine, so it only takes a lock and appends.
type recorder struct {
	max int // of requests, and of console entries

	mu       sync.Mutex
	requests []webpage.Request
	omitted  int
	current  map[network.RequestID]int // the request's latest hop in requests; -1 when omitted
	ignored  map[network.RequestID]bool
	inflight map[network.RequestID]bool
	changed  time.Time // when inflight last changed
	console  []webpage.ConsoleEntry
	loaded   bool
	crashed  bool
	mainID   network.RequestID // the main frame's latest document request
	main     cdp.FrameID
}

func newRecorder(max int) *recorder {
	return &recorder{max: max, current: map[network.RequestID]int{}, ignored: map[network.RequestID]bool{},
		inflight: map[network.RequestID]bool{}, changed: time.Now()}
}

// event records ev.
func (r *recorder) event(ev any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		r.willBeSent(ev)
	case *network.EventResponseReceived:
		if r.ignored[ev.RequestID] {
			return
		}
		if req := r.hop(ev.RequestID); req != nil && ev.Response != nil {
			req.Status = int(ev.Response.Status)
			req.Type = strings.ToLower(string(ev.Type))
		}
	case *network.EventLoadingFinished:
		if req := r.hop(ev.RequestID); req != nil {
			req.Bytes = int64(ev.EncodedDataLength)
		}
		r.settle(ev.RequestID)
	case *network.EventLoadingFailed:
		if req := r.hop(ev.RequestID); req != nil {
			req.Failed = ev.ErrorText
			if ev.BlockedReason != "" {
				req.Failed += " (blocked: " + string(ev.BlockedReason) + ")"
			}
		}
		r.settle(ev.RequestID)
	case *network.EventWebSocketCreated:
		r.add(ev.RequestID, webpage.Request{URL: ev.URL, Type: "websocket"})
	case *network.EventWebSocketHandshakeResponseReceived:
		if req := r.hop(ev.RequestID); req != nil && ev.Response != nil {
			req.Status = int(ev.Response.Status)
		}
	case *network.EventWebSocketFrameError:
		if req := r.hop(ev.RequestID); req != nil && req.Failed == "" {
			req.Failed = ev.ErrorMessage
		}
	case *page.EventLoadEventFired:
		r.loaded = true
	case *inspector.EventTargetCrashed:
		r.crashed = true
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError {
			r.log("error", consoleText(ev.Args), stackURL(ev.StackTrace))
		}
	case *runtime.EventExceptionThrown:
		if d := ev.ExceptionDetails; d != nil {
			text := d.Text
			if d.Exception != nil && d.Exception.Description != "" {
				text = d.Exception.Description
			}
			url := d.URL
			if url == "" {
				url = stackURL(d.StackTrace)
			}
			r.log("exception", text, url)
		}
	case *log.EventEntryAdded:
		if e := ev.Entry; e != nil && e.Level == log.EntryLevelError && !r.ignored[e.NetworkRequestID] {
			r.log("error", e.Text, e.URL)
		}
	}
}

func (r *recorder) willBeSent(ev *network.EventRequestWillBeSent) {
	if ev.Request == nil || r.ignored[ev.RequestID] {
		return
	}
	if ev.Type == network.ResourceTypeOther && ev.Initiator != nil && ev.Initiator.Type == network.InitiatorTypeOther &&
		strings.HasSuffix(ev.Request.URL, "/favicon.ico") && strings.Count(ev.Request.URL, "/") == 3 {
		r.ignored[ev.RequestID] = true // the browser's own, not the page's
		return
	}
	if i, ok := r.current[ev.RequestID]; ok && ev.RedirectResponse != nil {
		if i >= 0 {
			r.requests[i].Status = int(ev.RedirectResponse.Status)
			r.requests[i].Bytes = int64(ev.RedirectResponse.EncodedDataLength)
		}
	}
	typ := strings.ToLower(string(ev.Type))
	if typ == "" {
		typ = "other"
	}
	if ev.Type == network.ResourceTypeDocument && ev.FrameID == r.main && ev.FrameID != "" {
		r.mainID = ev.RequestID
	}
	r.add(ev.RequestID, webpage.Request{URL: ev.Request.URL, Type: typ})
	if !r.inflight[ev.RequestID] {
		r.inflight[ev.RequestID] = true
		r.changed = time.Now()
	}
}

// add records a request (or a redirect's next hop) under id.
func (r *recorder) add(id network.RequestID, req webpage.Request) {
	if len(r.requests) >= r.max {
		r.omitted++
		r.current[id] = -1
		return
	}
	r.requests = append(r.requests, req)
	r.current[id] = len(r.requests) - 1
}

// hop is id's latest hop, nil when unknown or omitted.
func (r *recorder) hop(id network.RequestID) *webpage.Request {
	i, ok := r.current[id]
	if !ok || i < 0 {
		return nil
	}
	return &r.requests[i]
}

func (r *recorder) settle(id network.RequestID) {
	if r.inflight[id] {
		delete(r.inflight, id)
		r.changed = time.Now()
	}
}

func (r *recorder) log(kind, text, url string) {
	if len(r.console) >= r.max {
		return
	}
	if len(text) > 2000 {
		text = text[:2000]
	}
	r.console = append(r.console, webpage.ConsoleEntry{Kind: kind, Text: text, URL: url})
}

// setMain names the main frame (the tab's top frame), so its document
// requests are told from the frames'.
func (r *recorder) setMain(f cdp.FrameID) {
	r.mu.Lock()
	r.main = f
	r.mu.Unlock()
}

// begin readies the recorder for the navigation: a load event seen
// before (the blank page's) is forgotten, and the quiet starts now.
func (r *recorder) begin() {
	r.mu.Lock()
	r.loaded = false
	r.changed = time.Now()
	r.mu.Unlock()
}

// isCrashed reports whether the tab crashed.
func (r *recorder) isCrashed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.crashed
}

// state is the load's progress: the load event fired, the requests in
// flight, since when their number has not changed, a crash.
func (r *recorder) state() (loaded bool, inflight int, quiet time.Duration, crashed bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.loaded, len(r.inflight), time.Since(r.changed), r.crashed
}

// mainRequest is the main frame's latest document request, nil when none
// was seen.
func (r *recorder) mainRequest() *webpage.Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.mainID == "" {
		return nil
	}
	if req := r.hop(r.mainID); req != nil {
		c := *req
		return &c
	}
	return nil
}

// result copies the requests, the omitted count and the console.
func (r *recorder) result() ([]webpage.Request, int, []webpage.ConsoleEntry) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]webpage.Request(nil), r.requests...), r.omitted, append([]webpage.ConsoleEntry(nil), r.console...)
}

// consoleText joins a console call's arguments as the console shows them.
func consoleText(args []*runtime.RemoteObject) string {
	var parts []string
	for _, a := range args {
		if a == nil {
			continue
		}
		switch {
		case a.Type == runtime.RemoteObjectTypeString && len(a.Value) > 0:
			s := string(a.Value)
			if len(s) >= 2 && s[0] == '"' {
				if u, err := unquote(s); err == nil {
					s = u
				}
			}
			parts = append(parts, s)
		case a.Description != "":
			parts = append(parts, a.Description)
		case len(a.Value) > 0:
			parts = append(parts, string(a.Value))
		default:
			parts = append(parts, string(a.Type))
		}
	}
	return strings.Join(parts, " ")
}

func stackURL(st *runtime.StackTrace) string {
	if st == nil || len(st.CallFrames) == 0 || st.CallFrames[0] == nil {
		return ""
	}
	return st.CallFrames[0].URL
}

// unquote decodes a JSON string.
func unquote(s string) (string, error) {
	var out string
	err := json.Unmarshal([]byte(s), &out)
	return out, err
}
