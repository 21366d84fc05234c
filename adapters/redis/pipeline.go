package redis

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/pinsight/pinsight/domain/ratelimit"
)

// leaseCall is one lease request waiting for its answer.
type leaseCall struct {
	key   string
	limit ratelimit.Limit
	want  int
	grant grant
	err   error
	done  chan struct{}
}

// pipeline sends lease requests to Redis. The requests of different keys
// that wait while a round trip is under way go together in the next one
// (one pipeline of EVALSHA), so many clients at a few requests each cost
// about one round trip per batch rather than one per request.
type pipeline struct {
	client  *goredis.Client
	prefix  string
	timeout time.Duration

	mu      sync.Mutex
	queue   []*leaseCall
	sending bool
}

// lease takes up to want tokens of key (leaseScript), in the next round
// trip.
func (p *pipeline) lease(ctx context.Context, key string, limit ratelimit.Limit, want int) (grant, error) {
	c := &leaseCall{key: key, limit: limit, want: want, done: make(chan struct{})}
	p.mu.Lock()
	p.queue = append(p.queue, c)
	if !p.sending {
		p.sending = true
		go p.send()
	}
	p.mu.Unlock()
	select {
	case <-c.done:
		return c.grant, c.err
	case <-ctx.Done():
		return grant{}, unavailable(ctx.Err())
	}
}

// send sends what waits, one round trip at a time, until nothing does.
func (p *pipeline) send() {
	for {
		p.mu.Lock()
		batch := p.queue
		p.queue = nil
		if len(batch) == 0 {
			p.sending = false
			p.mu.Unlock()
			return
		}
		p.mu.Unlock()
		p.roundTrip(batch)
		for _, c := range batch {
			close(c.done)
		}
	}
}

// roundTrip sends batch in one pipeline within the timeout and sets each
// call's answer. When Redis lacks the script (the first call, or after a
// restart), it loads it and sends the batch again.
func (p *pipeline) roundTrip(batch []*leaseCall) {
	ctx, cancel := context.WithTimeout(context.Background(), p.timeout)
	defer cancel()
	cmds, err := p.exec(ctx, batch)
	if goredis.HasErrorPrefix(err, "NOSCRIPT") && leaseScript.Load(ctx, p.client).Err() == nil {
		cmds, _ = p.exec(ctx, batch)
	}
	for i, c := range batch {
		c.grant, c.err = parseGrant(cmds[i]) // a failed round trip fails every command
	}
}

func (p *pipeline) exec(ctx context.Context, batch []*leaseCall) ([]*goredis.Cmd, error) {
	cmds := make([]*goredis.Cmd, len(batch))
	_, err := p.client.Pipelined(ctx, func(pipe goredis.Pipeliner) error {
		for i, c := range batch {
			cmds[i] = leaseScript.EvalSha(ctx, pipe, []string{"rate:" + p.prefix + c.key}, c.limit.Requests, c.limit.Span().Seconds(), c.want)
		}
		return nil
	})
	return cmds, err
}

// parseGrant reads leaseScript's answer.
func parseGrant(cmd *goredis.Cmd) (grant, error) {
	v, err := cmd.Slice()
	if err != nil {
		return grant{}, unavailable(err)
	}
	if len(v) != 3 {
		return grant{}, unavailable(fmt.Errorf("unexpected lease answer %v", v))
	}
	got, ok := v[0].(int64)
	retry, err1 := seconds(v[1])
	reset, err2 := seconds(v[2])
	if !ok || err1 != nil || err2 != nil {
		return grant{}, unavailable(fmt.Errorf("unexpected lease answer %v", v))
	}
	return grant{got: int(got), retryAfter: retry, reset: reset}, nil
}

// seconds reads a script's float seconds.
func seconds(v any) (time.Duration, error) {
	s, _ := v.(string)
	f, err := strconv.ParseFloat(s, 64)
	return time.Duration(f * float64(time.Second)), err
}
