package redis

import (
	"context"
	"fmt"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/pinsight/pinsight/domain/ratelimit"
	"github.com/pinsight/pinsight/ports"
)

// turnScript is ratelimit.Limit.TakeTurn on the GCRA state redis_rate
// keeps (KEYS[1], its theoretical arrival time in float seconds since
// 2017), so turns and Take share one quota, with the key's parties in a
// hash (KEYS[2]: party -> "granted since until", the same seconds, 0 for
// none). ARGV[1] is the limit's requests, ARGV[2] its span in seconds,
// ARGV[3] the party, ARGV[4] the grace of a claim (max(TurnGrace,
// interval)) in seconds. A request free within half a microsecond counts
// as free, as in decision. It answers 1 or 0 (granted), the seconds until
// the party's turn (-1 when granted) and the seconds until the quota is
// whole again.
var turnScript = goredis.NewScript(`
redis.replicate_commands()
local burst = tonumber(ARGV[1])
local span = tonumber(ARGV[2])
local interval = span / burst
local party = ARGV[3]
local grace = tonumber(ARGV[4])
local now = redis.call("TIME")
now = (now[1] - 1483228800) + (now[2] / 1000000)
local tat = redis.call("GET", KEYS[1])
if tat then tat = tonumber(tat) else tat = now end
local from = math.max(tat, now)
local all = redis.call("HGETALL", KEYS[2])
local me_g, me_s = 0, 0
local others = {}
for i = 1, #all, 2 do
  local name = all[i]
  local g, s, u = string.match(all[i + 1], "^(%S+) (%S+) (%S+)$")
  g, s, u = tonumber(g), tonumber(s), tonumber(u)
  local waiting = s > 0 and u >= now
  if name == party then
    me_g = g
    if waiting then me_s = s end
  elseif waiting then
    others[#others + 1] = {name, g, s}
  elseif g + span <= now then
    redis.call("HDEL", KEYS[2], name)
  end
end
if me_s == 0 then me_s = now end
local before = 0
for _, o in ipairs(others) do
  if o[2] < me_g or (o[2] == me_g and (o[3] < me_s or (o[3] == me_s and o[1] < party))) then
    before = before + 1
  end
end
local free = math.floor((now - from + span + 0.0000005) / interval)
if free > before then
  local new_tat = from + interval
  redis.call("SET", KEYS[1], new_tat, "EX", math.ceil(new_tat - now))
  redis.call("HSET", KEYS[2], party, string.format("%.6f 0 0", now))
  if redis.call("TTL", KEYS[2]) < math.ceil(span) then redis.call("EXPIRE", KEYS[2], math.ceil(span)) end
  return {1, "-1", tostring(new_tat - now)}
end
local at = from - span + interval * (before + 1)
local untl = at + grace
redis.call("HSET", KEYS[2], party, string.format("%.6f %.6f %.6f", me_g, me_s, untl))
local keep = math.ceil(untl - now + span)
if redis.call("TTL", KEYS[2]) < keep then redis.call("EXPIRE", KEYS[2], keep) end
return {0, tostring(at - now), tostring(from - now)}
`)

// TakeTurn implements ports.TurnTaker with one round trip: a script on
// the state TakeN's redis_rate keeps and the key's parties, deciding with
// Redis's clock, so every instance shares the turns. It takes no lease. It
// fails (ports.ErrUnavailable) when Redis does not answer within the
// timeout.
func (l *RateLimiter) TakeTurn(ctx context.Context, key, party string, limit ratelimit.Limit) (ratelimit.Decision, error) {
	if err := limit.Check(1); err != nil {
		return ratelimit.Decision{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, l.timeout)
	defer cancel()
	res, err := turnScript.Run(ctx, l.client, []string{"rate:" + l.prefix + key, "turns:" + l.prefix + key},
		limit.Requests, limit.Span().Seconds(), party, max(ratelimit.TurnGrace, limit.Interval()).Seconds()).Slice()
	if err != nil {
		return ratelimit.Decision{}, unavailable(err)
	}
	if len(res) != 3 {
		return ratelimit.Decision{}, unavailable(fmt.Errorf("unexpected turn answer %v", res))
	}
	granted, ok := res[0].(int64)
	retry, err1 := seconds(res[1])
	reset, err2 := seconds(res[2])
	if !ok || err1 != nil || err2 != nil {
		return ratelimit.Decision{}, unavailable(fmt.Errorf("unexpected turn answer %v", res))
	}
	d := ratelimit.Decision{Limit: limit.Requests, Allowed: granted == 1, Reset: microseconds(reset)}
	if d.Allowed {
		d.Remaining = limit.RemainingAt(d.Reset - time.Microsecond/2)
	} else {
		d.RetryAfter = max(microseconds(retry), time.Microsecond)
	}
	return d, nil
}

// Interface guard.
var _ ports.TurnTaker = (*RateLimiter)(nil)
