package mcp

import (
	"context"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pinsight/pinsight/domain/ratelimit"
)

// DefaultMaxBatch is the most messages a JSON-RPC batch may hold
// (HTTPOptions.MaxBatch unset).
const DefaultMaxBatch = 10

// DefaultDeadline bounds the work of one request (HTTPOptions.Deadline
// unset); keep a host's deadline below its write timeout.
const DefaultDeadline = 50 * time.Second

// HTTPOptions configure Handler.
type HTTPOptions struct {
	// Authenticate verifies a request's Bearer key (nil: keys are refused).
	Authenticate Authenticator
	// Charge counts n more requests against the quota that admitted the
	// request of ctx (the host's edge charged it one): a batch of n
	// messages is charged n-1 more. Nil: batches are not charged.
	Charge func(ctx context.Context, n int) ratelimit.Decision
	// Origins are the browser origins allowed besides the server's own
	// ("*": any); a request from another origin is refused 403.
	Origins []string
	// MaxBatch caps the messages of a JSON-RPC batch (0: DefaultMaxBatch).
	MaxBatch int
	// Deadline bounds a request's work, batches included (0:
	// DefaultDeadline); a request cut by it is answered 503 in the envelope.
	Deadline time.Duration
	// Log receives internal errors; nil discards them.
	Log *slog.Logger
}

// Handler serves s over the SDK's streamable HTTP transport, stateless
// (every POST stands alone, so any instance behind a balancer answers it)
// with JSON answers. In order, a request is refused in the API's error
// envelope when: its Origin is another site's than the server's own and
// o.Origins' (403); its Authorization is not a Bearer key authenticate
// accepts (401; 503 with Retry-After when the key cannot be checked now);
// it is a JSON-RPC batch of more than o.MaxBatch messages (400), or whose
// messages overrun the quota (429, each message charged with o.Charge);
// its work outlasts o.Deadline (503). The verified user reaches the tools;
// a request without a key reaches the public tools only. The host mounts
// it behind its own edge (request ids, logs, metrics, rate limits).
func Handler(s *sdk.Server, o HTTPOptions) http.Handler {
	if o.MaxBatch <= 0 {
		o.MaxBatch = DefaultMaxBatch
	}
	if o.Deadline <= 0 {
		o.Deadline = DefaultDeadline
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s },
		&sdk.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if origin := r.Header.Get("Origin"); !originAllowed(r, o.Origins) {
			writeError(w, http.StatusForbidden, "cross-origin request refused: Origin "+strconv.Quote(origin)+
				" is neither this server's nor one the server allows (--cors-origins)")
			return
		}
		r, ok := withKey(w, r, o)
		if !ok {
			return
		}
		if r.Method == http.MethodPost && !admitBatch(w, r, o) {
			return
		}
		serveBounded(w, r, h, o.Deadline)
	})
}

// Stdio serves s over standard input and output until the client closes
// its end or ctx ends.
func Stdio(ctx context.Context, s *sdk.Server) error {
	return s.Run(ctx, &sdk.StdioTransport{})
}
