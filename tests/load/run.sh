#!/usr/bin/env bash
# Load and soak runs against a local Pinsight with the real data.
#
#   tests/load/run.sh          wrk on the main endpoints, plus a bare net/http
#                              JSON handler for the ratio and its pre-encoded
#                              ceiling (PIN codes, nearby points and the mix of
#                              mix.lua: 70 % PIN lookups, 30 % nearby), with each
#                              endpoint's ratio to the ceiling on the same script
#                              (needs wrk: apt-get update && apt-get install -y wrk)
#   tests/load/run.sh soak     60 s at a fixed 200 req/s over mixed endpoints:
#                              errors (must be 0) and server RSS every 5 s
#   DATABASE_URL=postgres://... tests/load/run.sh postal
#                              GET /api/v1/pincodes/110001 and the PIN mix on the
#                              default storage (directory in memory) and on
#                              Postgres (an in-memory replica of the imported
#                              directory; imported first when the database is
#                              empty), alternated twice, with the ratio
#   REDIS_URL=redis://... tests/load/run.sh quotas
#                              the PIN mix with quotas off, in memory and in
#                              Redis (RATE_LIMIT, default 1000000000/1m: counted,
#                              never refused), alternated twice, with the ratios;
#                              CLIENTS=n spreads the requests over n client IPs
#                              (X-Forwarded-For from a trusted 127.0.0.1)
#
# Everything listens on 127.0.0.1 and stops by itself. Knobs (environment):
# DURATION (15s per wrk run), CONNECTIONS (32), THREADS (2),
# REPORT_CONNECTIONS (4, the analyser's default pool), SOAK_RATE (200),
# SOAK_DURATION (60s), LOG_LEVEL (info: access logs on, to a file),
# PORT (18080; the bare handler and the fixture site use PORT+1, PORT+2, the
# Postgres server of the postal mode or the quotas-off server of the quotas mode PORT+3, the
# pre-encoded ceiling PORT+4, the quotas-in-memory server of the quotas mode PORT+5), DATABASE_URL (the storage of
# the load and soak runs too; default a SQLite file of the run), REDIS_URL
# (--redis-url), RATE_LIMIT (--rate-limit; default off),
# DATA (a data folder to serve; default none: the embedded snapshot).
set -euo pipefail

mode=${1:-load}
cd "$(dirname "$0")/../.."
DATA=${DATA:-}
DURATION=${DURATION:-15s}
CONNECTIONS=${CONNECTIONS:-32}
THREADS=${THREADS:-2}
REPORT_CONNECTIONS=${REPORT_CONNECTIONS:-4}
SOAK_RATE=${SOAK_RATE:-200}
SOAK_DURATION=${SOAK_DURATION:-60s}
LOG_LEVEL=${LOG_LEVEL:-info}
PORT=${PORT:-18080}
BARE_PORT=$((PORT + 1))
CEILING_PORT=$((PORT + 4))
FIXTURE_PORT=$((PORT + 2))
base=http://127.0.0.1:$PORT

case $mode in load | soak | postal | quotas) ;; *) echo "usage: $0 [load|soak|postal|quotas]" >&2; exit 2 ;; esac
if [ "$mode" = quotas ]; then
	if [ -z "${REDIS_URL:-}" ]; then
		echo "the quotas mode compares with quotas in Redis: set REDIS_URL=redis://..." >&2
		exit 2
	fi
	RATE_LIMIT=${RATE_LIMIT:-1000000000/1m}
fi
if [ "$mode" = postal ] && [[ ${DATABASE_URL:-} != postgres* ]]; then
	echo "the postal mode compares with Postgres: set DATABASE_URL=postgres://..." >&2
	exit 2
fi
if [ -n "$DATA" ] && [ ! -d "$DATA" ]; then
	echo "no dataset at $DATA (unset DATA to serve the embedded snapshot)" >&2
	exit 1
fi
if [ "$mode" != soak ] && ! command -v wrk >/dev/null; then
	echo "wrk is missing: apt-get update && apt-get install -y wrk" >&2
	exit 1
fi

work=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
	rm -rf "$work"
}
trap cleanup EXIT

echo "# $(date -u +%FT%TZ) $(uname -m), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), $(go version | cut -d' ' -f3)"
echo "# building"
go build -o "$work/pinsight" ./cmd/pinsight
go build -o "$work/bare" ./tests/load/bare
go build -o "$work/fixture" ./tests/load/fixture
go build -o "$work/soak" ./tests/load/soak

# Inputs from the real directory: every 10th distinct PIN, and every 80th
# located office (a point inside India's mainland box).
directory() {
	local dir=${DATA:-adapters/indiapost/snapshot} # the served files
	if [ -f "$dir/all_india_pincode_directory.csv.gz" ]; then
		gzip -dc "$dir/all_india_pincode_directory.csv.gz"
	else
		cat "$dir/all_india_pincode_directory.csv"
	fi
}
directory | awk -F, 'NR > 1 && NF == 11 && $5 ~ /^[1-9][0-9][0-9][0-9][0-9][0-9]$/ { print $5 }' |
	sort -u | awk 'NR % 10 == 1' >"$work/pins.txt"
directory | awk -F, 'NR > 1 && NF == 11 && $10 + 0 >= 8 && $10 + 0 <= 37 && $11 + 0 >= 68 && $11 + 0 <= 97 { print $10, $11 }' |
	awk 'NR % 80 == 1' >"$work/points.txt"
export PINS_FILE=$work/pins.txt POINTS_FILE=$work/points.txt
echo "# inputs: $(wc -l <"$work/pins.txt") PIN codes, $(wc -l <"$work/points.txt") points"

wait_ready() { # url seconds
	local i
	for ((i = 0; i < $2 * 10; i++)); do
		if curl -sf -o /dev/null "$1"; then return 0; fi
		sleep 0.1
	done
	echo "not ready after $2 s: $1" >&2
	return 1
}

# Optional serve flags, used only when this build has them.
help=$("$work/pinsight" serve --help 2>&1)
extra=()
if [ -n "$DATA" ]; then
	extra+=(--data-dir "$DATA")
fi
if grep -q -- '--allow-target' <<<"$help"; then
	extra+=(--allow-target "127.0.0.1:$FIXTURE_PORT")
fi
if [ "$mode" != postal ] && [ -n "${DATABASE_URL:-}" ]; then
	extra+=(--database-url "$DATABASE_URL") # measure on Postgres
elif grep -q -- 'sqlite:PATH' <<<"$help"; then
	extra+=(--database-url "sqlite:$work/pinsight.db") # the default storage, in the run's own folder
fi
if [ -n "${REDIS_URL:-}" ]; then
	extra+=(--redis-url "$REDIS_URL") # quotas in Redis: set RATE_LIMIT too, or there is nothing to count
fi
if [ "${CLIENTS:-0}" != 0 ]; then
	extra+=(--trusted-proxies 127.0.0.1/32) # pincodes.lua sends X-Forwarded-For
fi
export CLIENTS=${CLIENTS:-0}
if grep -q -- '--host-analyses-per-minute' <<<"$help"; then
	extra+=(--host-analyses-per-minute 0) # one fixture host: its per-host quota would refuse the run
fi
if grep -q -- '--user-daily-analyses' <<<"$help"; then
	# One user, one fixture address: the per-user and per-address quotas would refuse the run.
	extra+=(--user-concurrent-analyses 0 --user-daily-analyses 0 --address-analyses-per-minute 0)
fi

"$work/pinsight" serve --addr "127.0.0.1:$PORT" --rate-limit "${RATE_LIMIT:-off}" --auth-rate-limit off \
	--log-level "$LOG_LEVEL" "${extra[@]}" 2>"$work/server.log" &
server=$!
pids+=("$server")
started=$(date +%s.%N)
wait_ready "$base/readyz" 120 || { tail -5 "$work/server.log" >&2; exit 1; }
echo "# pinsight serve ready in $(awk -v a="$(date +%s.%N)" -v b="$started" 'BEGIN { printf "%.1f", a - b }') s (pid $server, rss $(awk '/VmRSS/ {print $2, $3}' /proc/$server/status))"

nearby=false
if [ "$(curl -s -o /dev/null -w '%{http_code}' "$base/api/v1/pincodes/nearby?latitude=28.6&longitude=77.2")" = 200 ]; then
	nearby=true
fi

# one runs wrk against url with label, adds its req/s to sum[label] and
# prints a line.
declare -A sum
one() { # label url [script]
	local out rps
	if [ -n "${3:-}" ]; then
		out=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -s "tests/load/$3" "$2")
	else
		out=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency "$2")
	fi
	rps=$(awk '/^Requests\/sec/ { print $2 }' <<<"$out")
	sum[$1]=$(awk -v a="${sum[$1]:-0}" -v b="$rps" 'BEGIN { print a + b }')
	printf '%-44s %10s %10s %10s %9s\n' "$1" "$rps" "$(awk '$1 == "50%" { print $2 }' <<<"$out")" \
		"$(awk '$1 == "99%" { print $2 }' <<<"$out")" "$(awk '/Non-2xx/ { print $NF }' <<<"$out")"
}

if [ "$mode" = quotas ]; then
	# Two more servers like the first (quotas in Redis), each on a SQLite
	# file of its own: quotas off, and quotas in memory.
	same=(--auth-rate-limit off --log-level "$LOG_LEVEL")
	if [ -n "$DATA" ]; then same+=(--data-dir "$DATA"); fi
	if [ "$CLIENTS" != 0 ]; then same+=(--trusted-proxies 127.0.0.1/32); fi
	off_base=http://127.0.0.1:$((PORT + 3)) mem_base=http://127.0.0.1:$((PORT + 5))
	"$work/pinsight" serve --addr "127.0.0.1:$((PORT + 3))" --rate-limit off --database-url "sqlite:$work/off.db" \
		"${same[@]}" 2>"$work/server-off.log" &
	pids+=($!)
	"$work/pinsight" serve --addr "127.0.0.1:$((PORT + 5))" --rate-limit "$RATE_LIMIT" --database-url "sqlite:$work/memory.db" \
		"${same[@]}" 2>"$work/server-memory.log" &
	pids+=($!)
	wait_ready "$off_base/readyz" 120 || { tail -5 "$work/server-off.log" >&2; exit 1; }
	wait_ready "$mem_base/readyz" 120 || { tail -5 "$work/server-memory.log" >&2; exit 1; }
	echo "# quotas: $RATE_LIMIT per client; $CLIENTS client IPs (0: all from 127.0.0.1)"
	printf '%-44s %10s %10s %10s %9s\n' run "req/s" p50 p99 non-2xx
	for round in 1 2; do
		one "quotas off       /pincodes/{pin} mix" "$off_base" pincodes.lua
		one "quotas in memory /pincodes/{pin} mix" "$mem_base" pincodes.lua
		one "quotas in Redis  /pincodes/{pin} mix" "$base" pincodes.lua
	done
	awk -v off="${sum["quotas off       /pincodes/{pin} mix"]}" -v mem="${sum["quotas in memory /pincodes/{pin} mix"]}" \
		-v red="${sum["quotas in Redis  /pincodes/{pin} mix"]}" \
		'BEGIN { printf "# cost (quotas off / quotas in Redis) = %.2f; quotas in memory / in Redis = %.2f\n", off / red, mem / red }'
	echo "# wrk -t$THREADS -c$CONNECTIONS -d$DURATION --latency, alternated; load average at the end $(cut -d' ' -f1-3 /proc/loadavg)"
	exit
fi

if [ "$mode" = postal ]; then
	pg_base=http://127.0.0.1:$((PORT + 3))
	"$work/pinsight" serve --addr "127.0.0.1:$((PORT + 3))" --rate-limit off --auth-rate-limit off \
		--log-level "$LOG_LEVEL" --database-url "$DATABASE_URL" 2>"$work/server-pg.log" &
	pids+=($!)
	wait_ready "$pg_base/readyz" 300 || { tail -5 "$work/server-pg.log" >&2; exit 1; }
	echo "# Postgres-mode server ready (pid ${pids[-1]}, rss $(awk '/VmRSS/ {print $2, $3}' /proc/${pids[-1]}/status))"
	printf '%-44s %10s %10s %10s %9s\n' run "req/s" p50 p99 non-2xx
	for round in 1 2; do
		one "memory   /pincodes/110001" "$base/api/v1/pincodes/110001"
		one "postgres /pincodes/110001" "$pg_base/api/v1/pincodes/110001"
		one "memory   /pincodes/{pin} mix" "$base" pincodes.lua
		one "postgres /pincodes/{pin} mix" "$pg_base" pincodes.lua
	done
	for what in "/pincodes/110001" "/pincodes/{pin} mix"; do
		awk -v p="${sum["postgres $what"]}" -v m="${sum["memory   $what"]}" -v w="$what" \
			'BEGIN { printf "# %s: Postgres / memory = %.2f\n", w, p / m }'
	done
	echo "# wrk -t$THREADS -c$CONNECTIONS -d$DURATION --latency, alternated; load average at the end $(cut -d' ' -f1-3 /proc/loadavg)"
	exit
fi

if [ "$mode" = soak ]; then
	$nearby || echo "# /pincodes/nearby is not there yet: left out of the mix"
	echo "# soak: $SOAK_RATE req/s for $SOAK_DURATION"
	"$work/soak" -base "$base" -rate "$SOAK_RATE" -duration "$SOAK_DURATION" -pid "$server" \
		-pins "$PINS_FILE" -points "$POINTS_FILE" -nearby="$nearby"
	echo "# load average at the end $(cut -d' ' -f1-3 /proc/loadavg)"
	exit
fi

"$work/bare" -addr "127.0.0.1:$BARE_PORT" &
pids+=($!)
"$work/bare" -addr "127.0.0.1:$CEILING_PORT" -preencoded -points "$POINTS_FILE" &
pids+=($!)
"$work/fixture" -addr "127.0.0.1:$FIXTURE_PORT" &
pids+=($!)
wait_ready "http://127.0.0.1:$BARE_PORT/api/v1/pincodes/110001" 10
wait_ready "http://127.0.0.1:$CEILING_PORT/api/v1/pincodes/110001" 30
wait_ready "http://127.0.0.1:$FIXTURE_PORT/" 10

# The yardstick and the ceiling must answer the same bytes as Pinsight, or
# the ratios compare different work: check every 50th PIN and point of the
# run's inputs. same_bytes checks one request path (and query).
same_bytes() { # path
	local port
	curl -s -o "$work/pinsight.json" "$base$1"
	for port in "$BARE_PORT" "$CEILING_PORT"; do
		curl -s -o "$work/bare.json" "http://127.0.0.1:$port$1"
		if ! cmp -s "$work/bare.json" "$work/pinsight.json"; then
			echo "the answer of 127.0.0.1:$port to $1 differs from Pinsight's: update tests/load/bare" >&2
			diff <(tr ',' '\n' <"$work/bare.json") <(tr ',' '\n' <"$work/pinsight.json") | head -5 >&2
			exit 1
		fi
	done
}
same=0
for pin in $(awk 'NR % 50 == 1' "$PINS_FILE"); do
	same_bytes "/api/v1/pincodes/$pin"
	same=$((same + 1))
done
points_same=0
if $nearby; then
	while read -r lat lon; do
		same_bytes "/api/v1/pincodes/nearby?latitude=$lat&longitude=$lon"
		points_same=$((points_same + 1))
	done < <(awk 'NR % 50 == 1' "$POINTS_FILE")
fi
echo "# yardstick and ceiling: the same bytes as Pinsight for the $same PIN codes and $points_same nearby points checked"

bare_rps=
bare_p99=
declare -A ceil # script -> the ceiling's req/s on it, this run
printf '%-34s %10s %10s %10s %9s %8s %12s %8s\n' endpoint "req/s" p50 p99 non-2xx "x bare" "p99 x bare" "x ceil"
# ms converts one of wrk's latencies (850.00us, 1.20ms, 2.01s) to milliseconds.
ms() { awk -v v="$1" 'BEGIN { n = v + 0; if (v ~ /us$/) n /= 1000; else if (v ~ /ms$/) n += 0; else if (v ~ /m$/) n *= 60000; else if (v ~ /s$/) n *= 1000; printf "%.3f", n }'; }
bench() { # name url script [connections]
	local out rps p50 p99 bad ratio p99ratio
	out=$(wrk -t"$THREADS" -c"${4:-$CONNECTIONS}" -d"$DURATION" --latency -s "tests/load/$3" "$2")
	rps=$(awk '/^Requests\/sec/ { print $2 }' <<<"$out")
	p50=$(awk '$1 == "50%" { print $2 }' <<<"$out")
	p99=$(awk '$1 == "99%" { print $2 }' <<<"$out")
	bad=$(awk '/Non-2xx/ { print $NF } /Socket errors/ { print "socket:" $0 }' <<<"$out")
	if [ -z "$bare_rps" ]; then bare_rps=$rps bare_p99=$(ms "$p99"); fi
	ratio=$(awk -v a="$rps" -v b="$bare_rps" 'BEGIN { printf "%.2f", a / b }')
	p99ratio=$(awk -v a="$(ms "$p99")" -v b="$bare_p99" 'BEGIN { printf "%.2f", a / b }')
	if [ "$2" = "http://127.0.0.1:$CEILING_PORT" ]; then ceil[$3]=$rps; fi
	cratio=-
	if [ -n "${ceil[$3]:-}" ]; then cratio=$(awk -v a="$rps" -v b="${ceil[$3]}" 'BEGIN { printf "%.2f", a / b }'); fi
	printf '%-34s %10s %10s %10s %9s %8s %12s %8s\n' "$1" "$rps" "$p50" "$p99" "${bad:-0}" "$ratio" "$p99ratio" "$cratio"
	last_rps=$rps
}

bench "bare net/http JSON (yardstick)" "http://127.0.0.1:$BARE_PORT" pincodes.lua
bench "bare, pre-encoded (the ceiling)" "http://127.0.0.1:$CEILING_PORT" pincodes.lua
bench "GET /api/v1/pincodes/{pin}" "$base" pincodes.lua
mix_line=
if $nearby; then
	bench "ceiling, nearby" "http://127.0.0.1:$CEILING_PORT" nearby.lua
	bench "GET /api/v1/pincodes/nearby" "$base" nearby.lua
	bench "ceiling, mix (70 % PIN, 30 % nearby)" "http://127.0.0.1:$CEILING_PORT" mix.lua
	bench "mix (70 % PIN, 30 % nearby)" "$base" mix.lua
	mix_line=$(awk -v a="$last_rps" -v b="${ceil[mix.lua]}" 'BEGIN { printf "# mix: Pinsight %s req/s, ceiling %s req/s: %.2f x ceiling", a, b, a / b }')
else
	echo "GET /api/v1/pincodes/nearby        skipped: the endpoint is not there yet (issue 4)"
fi
bench "POST /api/v1/digipin/encode" "$base" encode.lua

report_skip=
if ! grep -q -- '--allow-target' <<<"$help"; then
	report_skip="serve has no --allow-target flag yet"
else
	curl -s -o /dev/null -H 'Content-Type: application/json' -d '{"email":"load@example.com","password":"load-test-password"}' "$base/api/v1/register"
	TOKEN=$(curl -s -H 'Content-Type: application/json' -d '{"email":"load@example.com","password":"load-test-password","name":"load"}' "$base/api/v1/login" |
		grep -o '"token":"[^"]*"' | cut -d'"' -f4 || true)
	status=$(curl -s -o "$work/report.json" -w '%{http_code}' -H 'Content-Type: application/json' -H "Authorization: Bearer $TOKEN" \
		-d "{\"url\":\"http://127.0.0.1:$FIXTURE_PORT/\"}" "$base/api/v1/reports")
	if [ -z "$TOKEN" ]; then
		report_skip="could not log in"
	elif [ "$status" != 201 ]; then
		report_skip="POST /api/v1/reports answered $status: $(head -c 200 "$work/report.json")"
	fi
fi
if [ -n "$report_skip" ]; then
	echo "POST /api/v1/reports               skipped: $report_skip"
else
	export TOKEN FIXTURE=127.0.0.1:$FIXTURE_PORT
	bench "POST /api/v1/reports (c=$REPORT_CONNECTIONS)" "$base" report.lua "$REPORT_CONNECTIONS"
fi
if [ -n "$mix_line" ]; then echo "$mix_line"; fi
echo "# targets: GET /pincodes/{pin} >= 0.85 x bare with p99 <= 2 x bare's; /pincodes/nearby and /digipin/encode >= 0.75 x bare;"
echo "#   against the ceiling (x ceil): nearby >= 0.6, the mix >= 0.75"
echo "# bare = the yardstick (the same bytes, encoded per request); the ceiling (pre-encoded) is shown in the same x bare units;"
echo "#   x ceil = req/s over the ceiling's on the same script (PIN codes, nearby points, the mix: mix.lua)"
echo "# wrk -t$THREADS -c$CONNECTIONS -d$DURATION --latency; ratio = req/s over the bare handler's, p99 x bare = p99 over the bare handler's; load average at the end $(cut -d' ' -f1-3 /proc/loadavg)"
