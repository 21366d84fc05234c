#!/usr/bin/env bash
# compare.sh BEFORE AFTER: run the same black-box probe of each finding of
# issues 13 and 25 against two pinsight binaries, one at a time on loopback
# ports, and print a table per issue with one row per finding:
# finding | measured | before | after. COMPARE_ISSUES="13 25" (the default)
# picks the issues probed. See README.md beside this file.
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

# stop PID: ends a process this script started and waits for it (at most
# 10 s, then it is killed).
stop() {
	kill "$1" 2>/dev/null
	local i
	for i in $(seq 100); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.1
	done
	kill -9 "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}

# ---- fixture pages -------------------------------------------------------
log "building the fixture page server"
go build -o "$WORK/fixture" "$REPO/tests/security/fixture" || exit 1
FPORT=$(free_port)
"$WORK/fixture" --addr "127.0.0.1:$FPORT" --slow 5s --lifetime 12m >"$WORK/fixture.out" 2>"$WORK/fixture.err" &
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
# free loopback port with its storage and data flags plus FLAGS (a flag given
# twice takes the later value); waits (at most 60 s) for /healthz. The SQLite
# file is $WORK/WHICH-NAME.db, or $WORK/WHICH-$DB_NAME.db when DB_NAME is set;
# START_QUIET set, a server that does not start is not logged.
start_server() {
	local which=$1 name=$2
	shift 2
	local bin_var="BIN_$which"
	local bin=${!bin_var}
	local port
	port=$(free_port)
	local args=(serve --addr "127.0.0.1:$port" --log-level error --shutdown-timeout 2s)
	if "$bin" serve --help 2>&1 | grep -q 'sqlite:'; then
		args+=(--database-url "sqlite:$WORK/$which-${DB_NAME:-$name}.db")
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
	[ -z "${START_QUIET:-}" ] && log "$which $name did not start: $(tail -3 "$WORK/$which-$name.log")"
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

# ---- issue 25: helpers ---------------------------------------------------

# now: seconds since the epoch, with fractions.
now() { date +%s.%N; }

# since T: seconds from T (a now) until now, one decimal.
since() { awk -v a="$1" -v b="$(now)" 'BEGIN {printf "%.1f", b-a}'; }

# jcall KEY METHOD PATH: sends stdin as JSON with KEY; prints the status and
# leaves the body in $WORK/body.
jcall() {
	curl -s -m 30 -X "$2" -o "$WORK/body" -w '%{http_code}' -H "Authorization: Bearer $1" \
		-H 'Content-Type: application/json' --data-binary @- "$BASE$3"
}

# webhook KEY URL: POST /account/webhooks; prints the status.
webhook() { printf '{"url":"%s","secret":"0123456789abcdef0123"}' "$2" | jcall "$1" POST /api/v1/account/webhooks; }

# batch KEY PAGE N TAG: POST /reports/batch of N URLs of the fixture's PAGE;
# prints the status.
batch() {
	python3 -c 'import json, sys; print(json.dumps({"urls": [sys.argv[1] + "?" + sys.argv[3] + str(i) for i in range(int(sys.argv[2]))]}))' \
		"$FIX/$2" "$3" "$4" | jcall "$1" POST /api/v1/reports/batch
}

# webhook_race KEY N: N concurrent webhook creations for KEY's user; prints
# "S stored (codes)".
webhook_race() {
	local i jobs=()
	for i in $(seq "$2"); do
		printf '{"url":"%s/hang/race%d","secret":"0123456789abcdef0123"}' "$FIX" "$i" |
			curl -s -m 30 -o /dev/null -w '%{http_code}\n' -H "Authorization: Bearer $1" -H 'Content-Type: application/json' \
				--data-binary @- "$BASE/api/v1/account/webhooks" >"$WORK/race$i" &
		jobs+=($!)
	done
	wait "${jobs[@]}"
	local stored
	stored=$(curl -s -m 30 -H "Authorization: Bearer $1" "$BASE/api/v1/account/webhooks" | jq '.data.webhooks | length' 2>/dev/null)
	echo "${stored:-?} stored ($(cat "$WORK"/race* | sort | uniq -c | awk '{printf "%s%sx%s", (NR>1 ? " " : ""), $1, $2}'))"
	rm -f "$WORK"/race*
}

# tally FILE...: "200 0.0 s" lines of curl's -w as "CODE in S s" per file.
tally() { cat "$@" | awk '{printf "%s%s in %.1f s", (NR>1 ? "; " : ""), ($1=="000" ? "no answer" : $1), $2}'; }

# throttles_off WHICH: the flags that lift the per-site and per-address
# throttles and the rate limits, and let the analyser and webhooks reach the
# fixture.
throttles_off() {
	local bin_var="BIN_$1"
	THROTTLES_OFF=(--rate-limit off --auth-rate-limit off --host-analyses-per-minute 0 --allow-target "127.0.0.1:$FPORT")
	if has_flag "${!bin_var}" address-analyses-per-minute; then
		THROTTLES_OFF+=(--address-analyses-per-minute 0)
	fi
}

# ---- issue 25: probes on SQLite ------------------------------------------

probe_flood() { # issue 25, findings 1 and 14
	local which=$1
	throttles_off "$which"
	start_server "$which" flood "${THROTTLES_OFF[@]}" || return
	local pid=$SERVER_PID f v i made=0 code
	# 1: the flooder's 10 webhooks point at a receiver that never answers;
	# 10 fast and 40 slow analyses feed them. Then the victim queues one
	# report (wait=0) and polls it, at most 40 s.
	f=$(register_login flooder@example.com)
	for i in $(seq 10); do
		code=$(webhook "$f" "$FIX/hang/$i")
		[ "$code" = 201 ] && made=$((made + 1))
	done
	if [ "$made" = 0 ]; then
		R[r3-1,$which]="n/a (refused: $code $(msg))"
	else
		local b1 b2
		b1=$(batch "$f" small 10 flood)
		b2=$(batch "$f" slow 40 flood)
		sleep 2
		v=$(register_login victim@example.com)
		local t0 id st=none
		t0=$(now)
		code=$(curl -s -m 30 -o "$WORK/body" -w '%{http_code}' -H "Authorization: Bearer $v" \
			--data-urlencode "url=$FIX/small?victim" "$BASE/api/v1/reports?wait=0")
		id=$(jq -r '.data.id // empty' "$WORK/body" 2>/dev/null)
		for i in $(seq 400); do
			[ -n "$id" ] || break
			st=$(curl -s -m 5 -H "Authorization: Bearer $v" "$BASE/api/v1/reports/$id" | jq -r '.data.status // "?"' 2>/dev/null)
			case $st in generated | failed) break ;; esac
			[ "$(since "$t0" | cut -d. -f1)" -ge 40 ] && break
			sleep 0.1
		done
		R[r3-1,$which]="$st after $(since "$t0") s (create $code; flood: $made hooks, batches $b1 $b2)"
	fi
	# 14: the queue gauges with deliveries waiting, then /readyz while
	# another process holds the file's write lock (3 checks in a row).
	local gauges
	gauges=$(curl -s -m 10 "$BASE/metrics" | grep -E '^pinsight_(jobs|deliveries)_queued ' | sed 's/^pinsight_//' | awk '{printf "%s%s=%s", (NR>1 ? ", " : ""), $1, $2}')
	R[r3-14b,$which]="${gauges:-none}$(echo "$gauges" | grep -q deliveries || echo ', no deliveries gauge')"
	python3 - "$WORK/$which-flood.db" >"$WORK/lock.out" 2>&1 <<'PY' &
import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=10)
c.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
time.sleep(20)
PY
	local lockpid=$!
	PIDS+=("$lockpid")
	for i in $(seq 100); do
		grep -q locked "$WORK/lock.out" && break
		sleep 0.1
	done
	if grep -q locked "$WORK/lock.out"; then
		: >"$WORK/ready"
		for i in 1 2 3; do
			curl -s -m 10 -o /dev/null -w '%{http_code} %{time_total}\n' "$BASE/readyz" >>"$WORK/ready"
		done
		R[r3-14a,$which]="$(tally "$WORK/ready")"
	else
		R[r3-14a,$which]="? (the lock was not taken: $(tail -1 "$WORK/lock.out"))"
	fi
	stop "$lockpid"
	stop "$pid"
}

probe_r3_main() { # issue 25, findings 2, 4 (SQLite), 7, 10-13
	local which=$1 bin_var="BIN_$which"
	local bin=${!bin_var}
	throttles_off "$which"
	local mbase mflag=() mport=
	if has_flag "$bin" metrics-addr; then
		mport=$(free_port)
		mflag=(--metrics-addr "127.0.0.1:$mport")
	fi
	start_server "$which" r3main "${THROTTLES_OFF[@]}" --user-daily-analyses 60 "${mflag[@]}" || return
	local pid=$SERVER_PID i code
	mbase=$BASE
	[ -n "$mport" ] && mbase="http://127.0.0.1:$mport"

	# 13: /metrics on the public listener and on --metrics-addr.
	code=$(curl -s -m 10 -o /dev/null -w '%{http_code}' "$BASE/metrics")
	if [ -n "$mport" ]; then
		R[r3-13,$which]="--addr $code, --metrics-addr $(curl -s -m 10 -o /dev/null -w '%{http_code}' "$mbase/metrics")"
	else
		R[r3-13,$which]="--addr $code; --metrics-addr: n/a (flag unknown)"
	fi

	# 7: three analyses of a slow page whose client leaves after 0.5 s.
	local g errs0 errs1 n499 n500
	g=$(register_login gone@example.com)
	errs0=$(grep -c '"level":"ERROR"' "$WORK/$which-r3main.log")
	for i in 1 2 3; do
		curl -s -m 0.5 -o /dev/null -H "Authorization: Bearer $g" --data-urlencode "url=$FIX/slow?gone=$i" "$BASE/api/v1/reports"
	done
	sleep 1
	errs1=$(grep -c '"level":"ERROR"' "$WORK/$which-r3main.log")
	curl -s -m 10 "$mbase/metrics" >"$WORK/metrics"
	n499=$(grep -F 'pinsight_http_requests_total{route="POST /api/v1/reports",status="499"}' "$WORK/metrics" | awk '{print $NF}')
	n500=$(grep -F 'pinsight_http_requests_total{route="POST /api/v1/reports",status="500"}' "$WORK/metrics" | awk '{print $NF}')
	R[r3-7,$which]="metrics 499: ${n499:-0}, 500: ${n500:-0}; error log lines: $((errs1 - errs0))"

	# 10, 11: reviews with invisible or stacked characters; rating 1e0.
	local r office t1 t2 t3
	r=$(register_login reviews@example.com)
	office=$(curl -s -m 10 "$BASE/api/v1/pincodes/110001" | jq -r '.data.post_offices[0].id')
	t1=$(python3 -c 'import json; print(json.dumps({"rating": 4, "title": "good \u202eevil", "text": "x"}))' | jcall "$r" PUT "/api/v1/post-offices/$office/review")
	t2=$(python3 -c 'import json; print(json.dumps({"rating": 4, "title": "good\u200bone", "text": "x"}))' | jcall "$r" PUT "/api/v1/post-offices/$office/review")
	t3=$(python3 -c 'import json; print(json.dumps({"rating": 4, "title": "marks", "text": "a" + "\u0301" * 1999}))' | jcall "$r" PUT "/api/v1/post-offices/$office/review")
	R[r3-10,$which]="U+202E $t1, U+200B $t2, marks $t3"
	code=$(echo '{"rating": 1e0, "title": "t", "text": "x"}' | jcall "$r" PUT "/api/v1/post-offices/$office/review")
	R[r3-11,$which]="$code: $(msg | cut -c1-80)"

	# 12: webhook URLs refused at creation.
	local w l n
	w=$(register_login hooks@example.com)
	l=$(webhook "$w" http://localhost/)
	n=$(webhook "$w" http://no-such-host.invalid/)
	R[r3-12,$which]="localhost $l, no-such-host.invalid $n"

	# 4: 40 webhook creations at once (cap 10).
	R[r3-4s,$which]="$(webhook_race "$(register_login race@example.com)" 40)"

	# 2: two batches of 50 against a daily quota of 60; 52 scheduled reports.
	local q s b1 b2 total codes scheduled
	q=$(register_login quota@example.com)
	b1=$(batch "$q" small 50 q1)
	b2=$(batch "$q" small 50 q2)
	total=$(curl -s -m 30 -H "Authorization: Bearer $q" "$BASE/api/v1/reports" | jq '.data.meta.total' 2>/dev/null)
	R[r3-2a,$which]="$b1, $b2: ${total:-?} accepted"
	s=$(register_login schedules@example.com)
	: >"$WORK/sched"
	for i in $(seq 52); do
		curl -s -m 30 -o /dev/null -w '%{http_code}\n' -H "Authorization: Bearer $s" --data-urlencode "url=$FIX/small?sched=$i" \
			--data-urlencode schedule=daily "$BASE/api/v1/reports?wait=0" >>"$WORK/sched"
	done
	scheduled=$(curl -s -m 30 -H "Authorization: Bearer $s" "$BASE/api/v1/reports?per_page=100" | jq '[.data.reports[] | select(.schedule == "daily")] | length' 2>/dev/null)
	codes=$(sort "$WORK/sched" | uniq -c | awk '{printf "%s%sx%s", (NR>1 ? " " : ""), $1, $2}')
	R[r3-2b,$which]="${scheduled:-?} scheduled ($codes)"
	stop "$pid"
}

probe_two() { # issue 25, finding 9
	local which=$1 first second k i code="" t0
	start_server "$which" two1 --rate-limit off --auth-rate-limit off || return
	first=$SERVER_PID
	local a=$BASE
	if ! START_QUIET=1 DB_NAME=two1 start_server "$which" two2 --rate-limit off --auth-rate-limit off; then
		R[r3-9,$which]="second refused: $(grep -o 'another pinsight serve[^;]*' "$WORK/$which-two2.log" | head -1 | sed 's/ (pid [0-9]*)//; s| /[^ ]*| the file|' | cut -c1-60)"
		stop "$first"
		return
	fi
	second=$SERVER_PID
	local b=$BASE
	BASE=$a
	k=$(register_login twice@example.com)
	curl -s -m 10 -o /dev/null -H "Authorization: Bearer $k" "$b/api/v1/account" # the other learns the key
	curl -s -m 10 -o /dev/null -X POST -H "Authorization: Bearer $k" "$a/api/v1/account/api-key" # rotating revokes it
	t0=$(now)
	for i in $(seq 100); do
		code=$(curl -s -m 5 -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $k" "$b/api/v1/account")
		[ "$code" = 401 ] && break
		[ "$(since "$t0" | cut -d. -f1)" -ge 10 ] && break
		sleep 0.2
	done
	if [ "$code" = 401 ]; then
		R[r3-9,$which]="second starts; revoked key 401 on it after $(since "$t0") s"
	else
		R[r3-9,$which]="second starts; revoked key still $code on it after $(since "$t0") s"
	fi
	stop "$second"
	stop "$first"
}

# ---- Postgres (optional) -------------------------------------------------
# Findings 3 and 6 of issue 13 and 3-6 and 15 of issue 25 need a database
# that stalls or goes away, and the before binary keeps operator accounts
# (pinsight user create) only in Postgres. With Docker and the PostGIS image
# the tests/ suite builds (the newest pinsight/postgis:15-3.3-local-<recipe
# hash>, or PG_IMAGE), each binary gets a fresh container published on
# 127.0.0.1, one database per probe.
if [ -z "${PG_IMAGE:-}" ] && command -v docker >/dev/null; then
	PG_IMAGE=$(docker images pinsight/postgis --format '{{.Repository}}:{{.Tag}}' 2>/dev/null | grep ':15-3.3-local' | head -1)
fi
PG_IMAGE=${PG_IMAGE:-pinsight/postgis:15-3.3-local}
PG_OK=no
if [ "${COMPARE_POSTGRES:-1}" != 0 ] && command -v docker >/dev/null && docker image inspect "$PG_IMAGE" >/dev/null 2>&1; then
	PG_OK=yes
fi

# pg_start: runs a fresh Postgres container (waiting at most 90 s); sets
# CONTAINER and PG_URL (its database pinsight).
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

# pg_sql SQL: runs SQL in the container's database pinsight (at most 20 s);
# prints the rows unaligned.
pg_sql() { timeout 20 docker exec "$CONTAINER" psql -U pinsight -d pinsight -Atqc "$1"; }

# pg_db NAME: creates database NAME in the container; prints its URL.
pg_db() { pg_sql "CREATE DATABASE $1" >/dev/null && echo "${PG_URL/\/pinsight\?//$1?}"; }

# pg_conns NAME: "N connections (M idle)" to database NAME now.
pg_conns() { pg_sql "SELECT count(*) || ' connections (' || count(*) FILTER (WHERE state = 'idle') || ' idle)' FROM pg_stat_activity WHERE datname = '$1'"; }

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

# wait_ready: waits (at most 60 s) until the server's /readyz is 200.
wait_ready() {
	local i
	for i in $(seq 60); do
		[ "$(curl -s -o /dev/null -m 2 -w '%{http_code}' "$BASE/readyz")" = 200 ] && return 0
		sleep 1
	done
	return 1
}

# dataset_version: the served dataset's version.
dataset_version() { curl -s -m 5 "$BASE/api/v1/dataset" | jq -r '.data.version // empty' 2>/dev/null; }

probe_r3_postgres() { # issue 25, findings 3, 4, 5, 6, 15 on Postgres
	local which=$1 bin_var="BIN_$which"
	local bin=${!bin_var} url
	url=$(pg_db r3) || { log "$which: no database r3"; return; }
	throttles_off "$which"
	start_server "$which" r3pg --database-url "$url" "${THROTTLES_OFF[@]}" || return
	local pid=$SERVER_PID i key
	wait_ready || log "$which: r3pg not ready after 60 s"
	# 15: connections of the idle instance (and after the probes below).
	sleep 3
	R[r3-15,$which]="idle $(pg_conns r3)"
	# 4: 40 webhook creations at once (cap 10).
	R[r3-4p,$which]="$(webhook_race "$(register_login race@example.com)" 40)"
	# 3 and 5: the database paused under postal reads of PINs and a point
	# never asked before, a report list and a report creation, each cut at 30 s.
	key=$(register_login stall@example.com)
	curl -s -m 10 -o /dev/null -H "Authorization: Bearer $key" "$BASE/api/v1/reports"
	local fresh
	fresh=$(register_login stall2@example.com) # a key no request has used yet: its check reads the database too
	docker pause "$CONTAINER" >/dev/null
	local jobs=() w='%{http_code} %{time_total}\n'
	curl -s -m 30 -o /dev/null -w "$w" "$BASE/api/v1/pincodes/560001" >"$WORK/pz1" &
	jobs+=($!)
	curl -s -m 30 -o /dev/null -w "$w" "$BASE/api/v1/pincodes/400001/details" >"$WORK/pz2" &
	jobs+=($!)
	curl -s -m 30 -o /dev/null -w "$w" "$BASE/api/v1/pincodes/nearby?latitude=12.97&longitude=77.59" >"$WORK/pz3" &
	jobs+=($!)
	curl -s -m 30 -o /dev/null -w "$w" -H "Authorization: Bearer $key" "$BASE/api/v1/reports" >"$WORK/pz4" &
	jobs+=($!)
	curl -s -m 30 -o /dev/null -w "$w" -H "Authorization: Bearer $key" --data-urlencode "url=$FIX/small?stall" \
		"$BASE/api/v1/reports?wait=0" >"$WORK/pz5" &
	jobs+=($!)
	curl -s -m 30 -o /dev/null -w "$w" -H "Authorization: Bearer $fresh" "$BASE/api/v1/reports" >"$WORK/pz6" &
	jobs+=($!)
	wait "${jobs[@]}"
	docker unpause "$CONTAINER" >/dev/null
	R[r3-3,$which]="$(tally "$WORK/pz1" "$WORK/pz2" "$WORK/pz3")"
	R[r3-5,$which]="read $(tally "$WORK/pz4"); write $(tally "$WORK/pz5"); read with an unused key $(tally "$WORK/pz6")"
	# 6: pinsight import of the directory less 100 rows; seconds from the
	# command's end until the running server serves it (at most 30 s).
	local v0 v t0 out
	wait_ready
	v0=$(dataset_version)
	if ! timeout 120 "$bin" import --database-url "$url" --data-dir "$WORK/data2" >/dev/null 2>"$WORK/$which-import.err"; then
		R[r3-6,$which]="import failed: $(tail -1 "$WORK/$which-import.err" | cut -c1-60)"
	else
		t0=$(now)
		for i in $(seq 300); do
			v=$(dataset_version)
			[ -n "$v" ] && [ "$v" != "$v0" ] && break
			[ "$(since "$t0" | cut -d. -f1)" -ge 30 ] && break
			sleep 0.1
		done
		out=$(since "$t0")
		if [ -n "$v" ] && [ "$v" != "$v0" ]; then
			R[r3-6,$which]="served after $out s"
		else
			R[r3-6,$which]="not served after $out s"
		fi
	fi
	R[r3-15,$which]+="; after the probes $(pg_conns r3)"
	stop "$pid"
}

probe_postgres() { # issue 13, findings 3, 6b, 6c on Postgres
	local which=$1 bin_var="BIN_$which"
	local bin=${!bin_var}
	"$bin" user create --email operator@example.com --database-url "$PG_URL" >/dev/null 2>&1 || log "$which: user create failed"
	start_server "$which" pg --database-url "$PG_URL" --rate-limit off --auth-rate-limit off || return
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
}

# ---- run -----------------------------------------------------------------
ISSUES=" ${COMPARE_ISSUES:-13 25} "
on() { [[ $ISSUES == *" $1 "* ]]; }

if on 25 && [ "$PG_OK" = yes ]; then
	# The directory less its last 100 rows: a dataset of another version
	# for pinsight import.
	mkdir -p "$WORK/data2"
	cp "$WORK"/data/*.csv.gz "$WORK/data2/"
	python3 - "$WORK/data2/all_india_pincode_directory.csv.gz" <<'PY'
import gzip, sys
with gzip.open(sys.argv[1], "rt", encoding="utf-8", newline="") as f:
    lines = f.read().splitlines(keepends=True)
with gzip.open(sys.argv[1], "wt", encoding="utf-8", newline="") as f:
    f.write("".join(lines[:-100]))
PY
fi

STARTED=$(date +%s)
for which in before after; do
	if on 13; then
		log "$which: issue 13, finding 1 (rate limit)"
		probe_rate_limit "$which"
		log "$which: issue 13, finding 5 (per-host throttle)"
		probe_throttle "$which"
		log "$which: issue 13, findings 2, 4, 6-12"
		probe_main "$which"
	fi
	if on 25; then
		log "$which: issue 25, findings 1 and 14 (flood, locked file)"
		probe_flood "$which"
		log "$which: issue 25, findings 2, 4, 7, 10-13"
		probe_r3_main "$which"
		log "$which: issue 25, finding 9 (two serve on one file)"
		probe_two "$which"
	fi
	if [ "$PG_OK" = yes ] && { on 13 || on 25; }; then
		log "$which: Postgres ($PG_IMAGE)"
		if pg_start; then
			if on 25; then
				log "$which: issue 25, findings 3-6 and 15 on Postgres"
				probe_r3_postgres "$which"
			fi
			if on 13; then
				log "$which: issue 13, findings 3 and 6 on Postgres"
				probe_postgres "$which"
			fi
		fi
		pg_stop
	fi
done

if [ "$PG_OK" != yes ]; then
	R[3,before]="n/a without $PG_IMAGE"
	R[3,after]="n/a: covered by TestPostgresStalledDatabase (tests/)"
	for f in r3-3 r3-4p r3-5 r3-6 r3-15; do
		R[$f,before]="n/a without $PG_IMAGE"
		R[$f,after]="n/a without $PG_IMAGE"
	done
fi

# The tables are Markdown, ready for the closing note.
row() { printf '| %-26s | %-52s | %-45s | %s |\n' "$1" "$2" "${R[$3,before]:-?}" "${R[$3,after]:-?}"; }
header_row() {
	printf '| %-26s | %-52s | %-45s | %s |\n' finding measured before after
	printf '|%s|%s|%s|%s|\n' --- --- --- ---
}
if on 13; then
	echo "Issue 13"
	echo
	header_row
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
	echo
fi
if on 25; then
	R[r3-8,before]="queued after the commit (no test)"
	R[r3-8,after]="same transaction: porttest \"queued by the write that finishes a report\" (memory, SQLite, Postgres)"
	R[r3-16,before]="5.55x (one EVALSHA per request)"
	R[r3-16,after]="1.03-1.32x one client, 1.51-1.73x 10,000 clients (tests/load/run.sh quotas, docs/SCALING.md)"
	echo "Issue 25"
	echo
	header_row
	row "1 one user starves others" "flooder: 10 hanging webhooks, batches of 10 fast + 40 slow; victim's report (wait=0) until generated (cap 40 s)" r3-1
	row "2 queued work unbounded" "daily quota 60: two batches of 50 (statuses, reports accepted)" r3-2a
	row "2 queued work unbounded" "52 reports created with schedule=daily" r3-2b
	row "3 postal reads need Postgres" "Postgres paused: GET /pincodes/560001, /pincodes/400001/details, /pincodes/nearby, never asked before (cut at 30 s)" r3-3
	row "4 webhook cap race (SQLite)" "40 concurrent POST /account/webhooks, one user (cap 10)" r3-4s
	row "4 webhook cap race (Postgres)" "40 concurrent POST /account/webhooks, one user (cap 10)" r3-4p
	row "5 stalled database" "Postgres paused: GET /reports vs POST /reports?wait=0 vs GET /reports with a key not used yet (cut at 30 s)" r3-5
	row "6 dataset reload" "pinsight import (directory less 100 rows): end of the command until /dataset shows the new version (cap 30 s)" r3-6
	row "7 client gone" "3 POST /reports of a 5 s page, client gone at 0.5 s: statuses counted, ERROR log lines" r3-7
	row "8 delivery after the commit" "not black-box" r3-8
	row "9 two serve on one SQLite file" "second serve starts? key revoked on the first, then used on the second (cap 10 s)" r3-9
	row "10 review text" "PUT review: title with U+202E, title with U+200B, text of a + 1,999 U+0301 (2,000 characters)" r3-10
	row "11 Go internals in errors" "PUT review with rating 1e0: status and message" r3-11
	row "12 webhook URLs at creation" "POST /account/webhooks url=http://localhost/, http://no-such-host.invalid/" r3-12
	row "13 public /metrics" "GET /metrics on --addr and on --metrics-addr" r3-13
	row "14a readiness, locked file" "3 GET /readyz in a row while another process holds the SQLite write lock" r3-14a
	row "14b queue gauges" "/metrics queue gauges during the flood of finding 1 (deliveries waiting)" r3-14b
	row "15 Postgres connections" "pg_stat_activity of one instance, idle and after the probes of 3-6; docs/SCALING.md bound: 12 (pool 10 + 2 listeners)" r3-15
	row "16 Redis quota cost" "not black-box" r3-16
fi
log "done in $(($(date +%s) - STARTED)) s"
