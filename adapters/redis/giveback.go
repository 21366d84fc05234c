package redis

import (
	"context"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/pinsight/pinsight/domain/ratelimit"
	"github.com/pinsight/pinsight/ports"
)

// giveBackScript returns up to ARGV[2] requests to the GCRA state
// redis_rate keeps (KEYS[1], its theoretical arrival time in float seconds
// since 2017) once per receipt (KEYS[2], kept until the charge is all
// back): at most those of the charge still out at Redis's now ((ARGV[3],
// the charge's end in Unix seconds, - now) / ARGV[1], the interval in
// seconds), never more than owed. As ratelimit.Limit.GiveBack decides; it
// answers how many came back.
var giveBackScript = goredis.NewScript(`
redis.replicate_commands()
local interval = tonumber(ARGV[1])
local want = tonumber(ARGV[2])
local untl = tonumber(ARGV[3]) - 1483228800
local now = redis.call("TIME")
now = (now[1] - 1483228800) + (now[2] / 1000000)
if untl <= now then return 0 end
if not redis.call("SET", KEYS[2], "1", "NX", "EX", math.ceil(untl - now)) then return 0 end
local tat = redis.call("GET", KEYS[1])
if not tat then return 0 end
tat = tonumber(tat)
if tat <= now then return 0 end
local got = math.min(want, math.floor((untl - now + 0.000001) / interval))
if got <= 0 then return 0 end
local owed = math.ceil((tat - now) / interval - 0.0000005)
if got >= owed then
  redis.call("DEL", KEYS[1])
  return owed
end
local new_tat = tat - got * interval
redis.call("SET", KEYS[1], new_tat, "EX", math.ceil(new_tat - now))
return got
`)

// GiveBack implements ports.QuotaReturner with one round trip: a script
// on the state TakeN's redis_rate keeps, deciding with Redis's clock. It
// fails (ports.ErrUnavailable) when Redis does not answer within the
// timeout.
func (l *RateLimiter) GiveBack(ctx context.Context, key string, limit ratelimit.Limit, n int, until time.Time, receipt string) (int, error) {
	if !limit.Enabled() || n < 1 {
		return 0, nil
	}
	ctx, cancel := context.WithTimeout(ctx, l.timeout)
	defer cancel()
	got, err := giveBackScript.Run(ctx, l.client, []string{"rate:" + l.prefix + key, "giveback:" + l.prefix + key + ":" + receipt},
		limit.Interval().Seconds(), n, float64(until.UnixMicro())/1e6).Int()
	if err != nil {
		return 0, unavailable(err)
	}
	return got, nil
}

// Interface guard.
var _ ports.QuotaReturner = (*RateLimiter)(nil)
