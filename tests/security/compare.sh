#!/usr/bin/env bash
# compare.sh BEFORE AFTER: run the same black-box probe of each finding of
# issue 13 against two pinsight binaries, one at a time on loopback ports,
# and print one row per finding: finding | measured | before | after.
# See README.md beside this file.
set -u -o pipefail

if [ $# -ne 2 ] || [ ! -x "$1" ] || [ ! -x "$2" ]; then
	echo "usage: $0 BEFORE_BINARY AFTER_BINARY" >&2
	exit 2
fi
BIN_before=$(realpath "$1")
BIN_after=$(realpath "$2")
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
for tool in curl jq python3 go; do
	command -v "$tool" >/dev/null || { echo "compare.sh needs $tool" >&2; exit 2; }
done

WORK=$(mktemp -d "${TMPDIR:-/tmp}/pinsight-compare.XXXXXX")
PIDS=()
CONTAINER=
cleanup() {
	local pid
	[ -n "$CONTAINER" ] && docker rm -f "$CONTAINER" >/dev/null 2>&1
	for pid in "${PIDS[@]}"; do
		kill "$pid" 2>/dev/null
	done
	for pid in "${PIDS[@]}"; do
		wait "$pid" 2>/dev/null
	done
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log() { echo "[compare $(date -u +%H:%M:%S)] $*" >&2; }

# free_port prints a TCP port free on 127.0.0.1 now.
free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

# stop PID: ends a process this script started and waits for it.
stop() {
	kill "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}

# ---- fixture pages -------------------------------------------------------
log "building the fixture page server"
go build -o "$WORK/fixture" "$REPO/tests/security/fixture" || exit 1
FPORT=$(free_port)
"$WORK/fixture" --addr "127.0.0.1:$FPORT" --slow 5s --lifetime 10m >"$WORK/fixture.out" 2>"$WORK/fixture.err" &
PIDS+=($!)
for _ in $(seq 50); do
	curl -s -o /dev/null -m 1 "http://127.0.0.1:$FPORT/small" && break
	sleep 0.1
done
FIX="http://127.0.0.1:$FPORT"

# ---- the India Post files for a binary without an embedded snapshot ------
mkdir -p "$WORK/data"
cp "$REPO"/adapters/indiapost/snapshot/*.csv.gz "$WORK/data/"

# has_flag BIN FLAG: the binary's serve command knows --FLAG.
has_flag() { "$1" serve --help 2>&1 | grep -q -- "--$2 "; }

# SERVER_PID and BASE describe the server start_server started last.
SERVER_PID=
BASE=

# start_server WHICH NAME [FLAGS...]: starts binary WHICH (before|after) on a
# free loopback port with its storage and data flags plus FLAGS; waits (at
# most 60 s) for /healthz.
start_server() {
	local which=$1 name=$2
	shift 2
	local bin_var="BIN_$which"
	local bin=${!bin_var}
	local port
	port=$(free_port)
	local args=(serve --addr "127.0.0.1:$port" --log-level error --shutdown-timeout 2s)
	if "$bin" serve --help 2>&1 | grep -q 'sqlite:'; then
		args+=(--database-url "sqlite:$WORK/$which-$name.db")
	fi
	if ! "$bin" serve --help 2>&1 | grep -q 'embedded snapshot'; then
		args+=(--data-dir "$WORK/data")
	fi
	"$bin" "${args[@]}" "$@" >"$WORK/$which-$name.log" 2>&1 &
	SERVER_PID=$!
	PIDS+=("$SERVER_PID")
	BASE="http://127.0.0.1:$port"
	local i
	for i in $(seq 600); do
		if curl -s -o /dev/null -m 1 "$BASE/healthz"; then
			return 0
		fi
		if ! kill -0 "$SERVER_PID" 2>/dev/null; then
			break
		fi
		sleep 0.1
	done
	log "$which $name did not start: $(tail -3 "$WORK/$which-$name.log")"
	return 1
}

# api METHOD PATH [CURL ARGS...]: prints "STATUS BYTES SECONDS" and leaves
# the body in $WORK/body and the headers in $WORK/headers.
api() {
	local method=$1 path=$2
	shift 2
	curl -s -m 30 -X "$method" -o "$WORK/body" -D "$WORK/headers" \
		-w '%{http_code} %{size_download} %{time_total}\n' "$@" "$BASE$path"
}

# register_login EMAIL: registers EMAIL and prints a fresh API key.
register_login() {
	curl -s -m 30 -o /dev/null -H 'Content-Type: application/json' \
		-d "{\"email\":\"$1\",\"password\":\"correct horse battery\"}" "$BASE/api/v1/register"
	curl -s -m 30 -H 'Content-Type: application/json' \
		-d "{\"email\":\"$1\",\"password\":\"correct horse battery\"}" "$BASE/api/v1/login" | jq -r '.data.token // empty'
}

# create KEY URL [CURL ARGS...]: POST /api/v1/reports; prints the status.
create() {
	local key=$1 url=$2
	shift 2
	curl -s -m 30 -o "$WORK/created" -w '%{http_code}' -H "Authorization: Bearer $key" \
		--data-urlencode "url=$url" "$@" "$BASE/api/v1/reports"
}

# header NAME: the value of header NAME in $WORK/headers, or "absent".
header() {
	local v
	v=$(tr -d '\r' <"$WORK/headers" | grep -i "^$1:" | head -1 | cut -d' ' -f2-)
	echo "${v:-absent}"
}

# msg: the field errors of the last answer's body, else its message.
msg() { jq -r '([.errors // {} | .[] | .[]?] | join("; ")) as $e | if $e != "" then $e else .message // "" end' "$WORK/body" 2>/dev/null | cut -c1-100; }

# median: the median of the numbers on stdin.
median() { sort -n | awk '{v[NR]=$1} END {if (NR%2) print v[(NR+1)/2]; else print (v[NR/2]+v[NR/2+1])/2}'; }

# login_times A B: 20 logins with a wrong password for each of the
# addresses A and B, alternating (and which goes first, so neither pays for
# the pause between pairs); prints "median A vs median B ms".
login_times() {
	local i e order
	: >"$WORK/login-a"
	: >"$WORK/login-b"
	for i in $(seq 20); do
		order="a b"
		[ $((i % 2)) = 0 ] && order="b a"
		for e in $order; do
			local addr=$1
			[ "$e" = b ] && addr=$2
			curl -s -m 10 -o /dev/null -w '%{time_total}\n' -H 'Content-Type: application/json' \
				-d "{\"email\":\"$addr\",\"password\":\"wrong horse battery\"}" "$BASE/api/v1/login" >>"$WORK/login-$e"
		done
	done
	awk -v a="$(median <"$WORK/login-a")" -v b="$(median <"$WORK/login-b")" 'BEGIN {printf "%.1f vs %.1f ms", a*1000, b*1000}'
}

# R[finding,which] holds the figures.
declare -A R

# ---- probes --------------------------------------------------------------

probe_rate_limit() { # finding 1
	local which=$1 ok=0 i code
	start_server "$which" rl --rate-limit 5/1m || return
	for i in $(seq 8); do
		code=$(curl -s -m 10 -o /dev/null -w '%{http_code}' -H "Authorization: Bearer psk_madeup$i$RANDOM" "$BASE/api/v1/pincodes/110001")
		[ "$code" = 200 ] && ok=$((ok + 1))
	done
	R[1,$which]="$ok of 8 answered 200"
	stop "$SERVER_PID"
}

probe_throttle() { # finding 5
	local which=$1 key ok=0 codes="" host code
	local extra=()
	local bin_var="BIN_$which"
	if has_flag "${!bin_var}" address-analyses-per-minute; then
		extra+=(--address-analyses-per-minute 1)
	fi
	start_server "$which" throttle --rate-limit off --auth-rate-limit off --host-analyses-per-minute 1 "${extra[@]}" \
		--allow-target "127.0.0.1:$FPORT" --allow-target "localhost:$FPORT" || return
	key=$(register_login throttle@example.com)
	for host in localhost 127.0.0.1 localhost 127.0.0.1; do
		code=$(create "$key" "http://$host:$FPORT/small")
		codes+="$code "
		[ "$code" = 201 ] && ok=$((ok + 1))
	done
	R[5,$which]="$ok created (${codes% })"
	stop "$SERVER_PID"
}

probe_main() { # findings 2, 4, 6-12 on one server
	local which=$1 bin_var="BIN_$which" op_created=no
	local bin=${!bin_var}
	local extra=()
	if has_flag "$bin" address-analyses-per-minute; then
		extra+=(--address-analyses-per-minute 0)
	fi
	# An operator account without a password, as pinsight user create makes
	# it; only possible before serve with a file database (SQLite).
	if "$bin" user create --help 2>&1 | grep -q 'sqlite:'; then
		"$bin" user create --email operator@example.com --database-url "sqlite:$WORK/$which-main.db" >/dev/null 2>&1 && op_created=yes
	fi
	start_server "$which" main --rate-limit off --auth-rate-limit off --host-analyses-per-minute 0 "${extra[@]}" \
		--allow-target "127.0.0.1:$FPORT" --max-page-bytes 8388608 --fetch-timeout 20s || return
	local pid=$SERVER_PID

	# 2: ten reports of a page with a 2 MiB title, then one list.
	local key i code created=0
	key=$(register_login lists@example.com)
	for i in $(seq 10); do
		code=$(create "$key" "$FIX/big?n=$i")
		[ "$code" = 201 ] && created=$((created + 1))
	done
	local out hwm0 hwm1 listed times
	hwm0=$(awk '/VmHWM/ {printf "%.0f", $2/1024}' "/proc/$pid/status")
	times=$(for i in 1 2 3 4 5; do api GET '/api/v1/reports?per_page=100' -H "Authorization: Bearer $key" | cut -d' ' -f3; done | median)
	out=$(api GET '/api/v1/reports?per_page=100' -H "Authorization: Bearer $key")
	listed=$(jq '.data.reports | length' "$WORK/body" 2>/dev/null || echo "?")
	hwm1=$(awk '/VmHWM/ {printf "%.0f", $2/1024}' "/proc/$pid/status")
	R[2,$which]="$(echo "$out" | awk -v t="$times" '{printf "%s, %d B, %.0f ms", $1, $2, t*1000}') ($listed/$created), peak RSS ${hwm0}->${hwm1} MB"

	# 4: user A starts 4 slow analyses at once, then user B one.
	local a b c
	a=$(register_login a@example.com)
	b=$(register_login b@example.com)
	c=$(register_login c@example.com)
	local jobs=()
	for i in 1 2 3 4; do
		{ create "$a" "$FIX/slow?a=$i"; echo; } >"$WORK/a$i.code" &
		jobs+=($!)
	done
	sleep 1
	local bcode
	bcode=$(curl -s -m 30 -o /dev/null -D "$WORK/b.headers" -w '%{http_code}' -H "Authorization: Bearer $b" \
		--data-urlencode "url=$FIX/slow?b=1" "$BASE/api/v1/reports")
	wait "${jobs[@]}"
	R[4,$which]="B: $bcode (A: $(sort "$WORK"/a[1-4].code | tr '\n' ' ' | sed 's/ $//'))"

	# 10: Retry-After on a 503. Users A, B and C each start two slow
	# analyses (6 > 4 workers) and the 503s are looked at.
	jobs=()
	for u in a b c; do
		for i in 1 2; do
			curl -s -m 30 -o /dev/null -D "$WORK/ra-$u$i.headers" -w '%{http_code}' -H "Authorization: Bearer ${!u}" \
				--data-urlencode "url=$FIX/slow?ra=$u$i" "$BASE/api/v1/reports" >"$WORK/ra-$u$i.code" &
			jobs+=($!)
			sleep 0.2
		done
	done
	wait "${jobs[@]}"
	local n503=0 nra=0 f
	for f in "$WORK"/ra-*.code; do
		if [ "$(cat "$f")" = 503 ]; then
			n503=$((n503 + 1))
			grep -qi '^retry-after:' "${f%.code}.headers" && nra=$((nra + 1))
		fi
	done
	local ra503
	if [ "$n503" = 0 ]; then
		ra503="N/A (no 503)"
	else
		ra503="$nra of $n503"
	fi
	api GET /healthz >/dev/null
	local h200
	h200=$(header X-Content-Type-Options)
	api GET /api/v1/no-such-route >/dev/null
	R[10,$which]="nosniff 200: $h200, 404: $(header X-Content-Type-Options); Retry-After on 503: $ra503"

	# 6: leaks.
	api POST /api/v1/reports -H "Authorization: Bearer $key" --data-urlencode "url=http://127.0.0.1:9/" >/dev/null
	R[6a,$which]="$(msg)"
	api POST /api/v1/reports -H "Authorization: Bearer $key" --data-urlencode "url=http://localhost/" >/dev/null
	R[6a2,$which]="$(msg)"
	api GET /readyz >/dev/null
	R[6b,$which]="$(jq -c '[.data.components[]? | {name, state}]' "$WORK/body" 2>/dev/null | cut -c1-80)"
	if [ "$op_created" = yes ]; then
		R[6c,$which]="$(login_times operator@example.com lists@example.com)"
	else
		R[6c,$which]="n/a without Postgres (see TestFailedLoginsCostOneVerification)"
	fi

	# 7: weak secrets.
	local reg share
	reg=$(api POST /api/v1/register -H 'Content-Type: application/json' -d '{"email":"spaces@example.com","password":"        "}' | cut -d' ' -f1)
	share=$(create "$key" "$FIX/small?share=1" --data-urlencode privacy=2 --data-urlencode password=x)
	R[7,$which]="$reg, share: $share"

	# 8: loose input.
	local hex und h1 h2 m1 m2
	hex=$(api GET '/api/v1/pincodes/nearby?latitude=0x1p3&longitude=77' | cut -d' ' -f1)
	und=$(api GET '/api/v1/pincodes/nearby?latitude=1_0&longitude=77' | cut -d' ' -f1)
	h1=$(api POST /api/v1/reports -H "Authorization: Bearer $key" --data-urlencode "url=http://127.1/" | cut -d' ' -f1)
	m1=$(msg)
	h2=$(api POST /api/v1/reports -H "Authorization: Bearer $key" --data-urlencode "url=http://2130706433/" | cut -d' ' -f1)
	m2=$(msg)
	R[8a,$which]="$hex, $und"
	R[8b,$which]="$h1, $h2"
	R[8c,$which]="$(echo "$m1" | cut -c1-100)"

	# 9: amplification: 1 MB of JSON with 90,000 unknown keys.
	python3 - "$WORK/amp.json" <<'PY'
import json, sys
def b36(n):
    s = ""
    while True:
        n, r = divmod(n, 36)
        s = "0123456789abcdefghijklmnopqrstuvwxyz"[r] + s
        if n == 0:
            return s
d = {"email": "amp@example.com", "password": "correct horse battery"}
d.update({"x" + b36(i): 0 for i in range(90000)})
open(sys.argv[1], "w").write(json.dumps(d, separators=(",", ":")))
PY
	out=$(api POST /api/v1/register -H 'Content-Type: application/json' --data-binary "@$WORK/amp.json")
	R[9,$which]="$(echo "$out" | awk -v s="$(stat -c %s "$WORK/amp.json")" '{printf "%s, %d bytes (body sent %d)", $1, $2, s}')"

	# 11: one creation sent twice with the same Idempotency-Key.
	local d c1 c2
	d=$(register_login idem@example.com)
	c1=$(create "$d" "$FIX/small?idem=1" -H 'Idempotency-Key: retry-1')
	c2=$(create "$d" "$FIX/small?idem=1" -H 'Idempotency-Key: retry-1')
	api GET '/api/v1/reports?per_page=100' -H "Authorization: Bearer $d" >/dev/null
	R[11,$which]="$(jq '.data.reports | length' "$WORK/body") listed (answers $c1, $c2)"

	# 12: the share page address of a public report.
	local id1
	create "$d" "$FIX/small?share=public1" --data-urlencode privacy=0 >/dev/null
	id1=$(jq -r '.data.id' "$WORK/created")
	create "$d" "$FIX/small?share=public2" --data-urlencode privacy=0 >/dev/null
	R[12,$which]="share_url $(jq -r '.data.share_url // "none (no share page)"' "$WORK/created"); API ids $id1, $(jq -r '.data.id' "$WORK/created")"
	stop "$pid"
}

# ---- Postgres (optional) -------------------------------------------------
# Findings 3 and 6 need a database that stalls or goes away, and the before
# binary keeps operator accounts (pinsight user create) only in Postgres.
# With Docker and the PostGIS image the tests/ suite builds, each binary
# gets a fresh database in a container published on 127.0.0.1.
PG_IMAGE=${PG_IMAGE:-pinsight/postgis:15-3.3-local}
PG_OK=no
if [ "${COMPARE_POSTGRES:-1}" != 0 ] && command -v docker >/dev/null && docker image inspect "$PG_IMAGE" >/dev/null 2>&1; then
	PG_OK=yes
fi

# pg_start: runs a fresh Postgres container; sets CONTAINER and PG_URL.
pg_start() {
	CONTAINER=pinsight-compare-$$-$RANDOM
	docker run -d --rm --name "$CONTAINER" -p 127.0.0.1::5432 -e POSTGRES_USER=pinsight \
		-e POSTGRES_PASSWORD=pinsight -e POSTGRES_DB=pinsight "$PG_IMAGE" >/dev/null || return 1
	local i port
	for i in $(seq 90); do
		[ "$(docker logs "$CONTAINER" 2>&1 | grep -c 'ready to accept connections')" -ge 2 ] && break
		sleep 1
	done
	port=$(docker port "$CONTAINER" 5432/tcp | head -1 | sed 's/.*://')
	PG_URL="postgres://pinsight:pinsight@127.0.0.1:$port/pinsight?sslmode=disable"
}

# pg_stop: removes the container and waits (at most 15 s) until it is gone.
pg_stop() {
	[ -z "$CONTAINER" ] && return
	docker rm -f "$CONTAINER" >/dev/null 2>&1
	local i
	for i in $(seq 30); do
		[ -z "$(docker ps -aq --filter "name=^$CONTAINER\$")" ] && break
		sleep 0.5
	done
	CONTAINER=
}


probe_postgres() { # findings 3, 6b, 6c on Postgres
	local which=$1 bin_var="BIN_$which"
	local bin=${!bin_var}
	pg_start || { pg_stop; return; }
	"$bin" user create --email operator@example.com --database-url "$PG_URL" >/dev/null 2>&1 || log "$which: user create failed"
	start_server "$which" pg --database-url "$PG_URL" --rate-limit off --auth-rate-limit off || { pg_stop; return; }
	local pid=$SERVER_PID key i
	key=$(register_login pg@example.com)
	R[6c,$which]="$(login_times operator@example.com pg@example.com)"
	# 3: warm the pool, freeze the database, and time a report list and
	# /readyz (4 of each at once; default database timeouts), each cut at 30 s.
	local jobs=()
	for i in 1 2 3 4; do
		curl -s -m 10 -o /dev/null -H "Authorization: Bearer $key" "$BASE/api/v1/reports" &
		jobs+=($!)
	done
	wait "${jobs[@]}"
	docker pause "$CONTAINER" >/dev/null
	jobs=()
	for i in 1 2 3 4; do
		curl -s -m 30 -o /dev/null -D "$WORK/st-l$i.h" -w '%{http_code} %{time_total}\n' -H "Authorization: Bearer $key" \
			"$BASE/api/v1/reports" >"$WORK/st-l$i" &
		jobs+=($!)
		curl -s -m 30 -o /dev/null -w '%{http_code} %{time_total}\n' "$BASE/readyz" >"$WORK/st-r$i" &
		jobs+=($!)
	done
	wait "${jobs[@]}"
	docker unpause "$CONTAINER" >/dev/null
	local lists ready ra
	lists=$(cat "$WORK"/st-l[1-4] | awk '{k=($1=="000")?"none":$1; c[k]++; if ($2>m) m=$2} END {for (k in c) printf "%sx%s ", c[k], k; printf "max %.1f s", m}')
	ready=$(cat "$WORK"/st-r[1-4] | awk '{k=($1=="000")?"none":$1; c[k]++; if ($2>m) m=$2} END {for (k in c) printf "%sx%s ", c[k], k; printf "max %.1f s", m}')
	ra=$(cat "$WORK"/st-l[1-4].h | tr -d '\r' | grep -ci '^retry-after:')
	R[3,$which]="lists $lists (Retry-After $ra/4); readyz $ready"
	# 6b: the database gone: what /readyz says.
	docker stop -t 1 "$CONTAINER" >/dev/null 2>&1
	api GET /readyz >/dev/null
	if grep -qE 'user=|database=|127\.0\.0\.1:[0-9]|dial tcp' "$WORK/body"; then
		R[6b,$which]="$(cut -c1-400 "$WORK/body" | grep -oE 'user=[a-z]+|database=[a-z]+|127\.0\.0\.1:[0-9]+|dial tcp' | sort -u | tr '\n' ' ')named in body"
	else
		R[6b,$which]="$(jq -r '[.errors // {} | to_entries[] | "\(.key): \(.value[0])"] | join("; ")' "$WORK/body" 2>/dev/null | cut -c1-100)"
	fi
	stop "$pid"
	pg_stop
}

STARTED=$(date +%s)
for which in before after; do
	log "$which: finding 1 (rate limit)"
	probe_rate_limit "$which"
	log "$which: finding 5 (per-host throttle)"
	probe_throttle "$which"
	log "$which: findings 2, 4, 6-12"
	probe_main "$which"
	if [ "$PG_OK" = yes ]; then
		log "$which: findings 3 and 6 on Postgres ($PG_IMAGE)"
		probe_postgres "$which"
	fi
done

if [ "$PG_OK" != yes ]; then
	R[3,before]="n/a without $PG_IMAGE"
	R[3,after]="n/a: covered by TestPostgresStalledDatabase (tests/)"
fi

# The table is Markdown, ready for the closing note.
row() { printf '| %-26s | %-52s | %-45s | %s |\n' "$1" "$2" "${R[$3,before]:-?}" "${R[$3,after]:-?}"; }
printf '| %-26s | %-52s | %-45s | %s |\n' finding measured before after
printf '|%s|%s|%s|%s|\n' --- --- --- ---
row "1 rate-limit bypass" "--rate-limit 5/1m, 8 GETs, made-up Bearer each" 1
row "2 report lists" "GET /reports?per_page=100 of 10 2-MiB-title reports" 2
row "3 stalled database" "Postgres paused: 4 GET /reports + 4 /readyz at once (cut at 30 s; none: no answer)" 3
row "4 per-user analysis cap" "A runs 4 slow analyses, then B one (4 workers)" 4
row "5 per-host throttle" "4 analyses via localhost, 127.0.0.1; 1/min per host (after: and per address)" 5
row "6a leak: SSRF message" "POST /reports url=http://127.0.0.1:9/" 6a
row "6a leak: SSRF message" "POST /reports url=http://localhost/" 6a2
if [ "$PG_OK" = yes ]; then
	row "6b leak: /readyz" "/readyz body, Postgres stopped" 6b
	row "6c leak: login timing" "median of 20 wrong logins (Postgres): operator w/o password vs user" 6c
else
	row "6b leak: /readyz" "/readyz, database healthy (failing: TestReadyzStalledAndLeaks)" 6b
	row "6c leak: login timing" "median of 20 wrong logins (SQLite): operator w/o password vs user" 6c
fi
row "7 weak secrets" "register 8 spaces; share password of 1 char" 7
row "8a loose numbers" "nearby latitude=0x1p3; latitude=1_0" 8a
row "8b loose hosts" "analyse http://127.1/; http://2130706433/" 8b
row "8c loose hosts" "message for http://127.1/" 8c
row "9 amplification" "POST /register, 1 MB JSON, 90,000 unknown keys" 9
row "10 headers" "X-Content-Type-Options; Retry-After on 503s" 10
row "11 idempotency" "POST /reports twice, same Idempotency-Key" 11
row "12 enumerable ids" "share_url of a public report" 12
log "done in $(($(date +%s) - STARTED)) s"
