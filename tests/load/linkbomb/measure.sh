#!/bin/bash
# Issue 38 on a real server (SQLite, River): the server's resident set
# before and at its peak while it crawls the link bomb (site.py: one page
# of 190,000 same-site links) with max_pages 300 and concurrency 4, the
# URLs the crawl stored, and the time from a cancel to `cancelled` of a
# crawl of slow pages. Usage: tests/load/linkbomb/measure.sh PINSIGHT_BINARY LABEL
# (go build -o /tmp/pinsight ./cmd/pinsight first). Ports 18190-18191.
set -u
BIN=$1; L=$2; HERE=$(cd "$(dirname "$0")" && pwd); D=$(mktemp -d /tmp/linkbomb-$L.XXXX); cd $D
SITE=18191; API=18190
python3 $HERE/site.py $SITE & SP=$!
DB=sqlite:$D/p.db
$BIN migrate --database-url $DB >/dev/null 2>&1
KEY=$($BIN user create --database-url $DB --email bob@example.com 2>/dev/null | tail -1)
$BIN serve --database-url $DB --addr 127.0.0.1:$API --allow-target 127.0.0.1:$SITE > $D/serve.log 2>&1 & PP=$!
for i in $(seq 100); do curl -sf localhost:$API/readyz >/dev/null && break; sleep 0.2; done
rss() { awk '/VmRSS/ {print int($2/1024)}' /proc/$PP/status; }
api() { curl -s -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' "$@"; }
field() { python3 -c "import json,sys; d=json.load(sys.stdin)['data']; print(eval(sys.argv[1]))" "$1"; }
sleep 2
BASE=$(rss); PEAK=$BASE
ID=$(api -X POST localhost:$API/api/v1/crawls -d "{\"url\":\"http://127.0.0.1:$SITE/\",\"max_pages\":300,\"concurrency\":4}" | field 'd["id"]')
T0=$(date +%s.%N)
while :; do
  r=$(rss); [ "$r" -gt "$PEAK" ] && PEAK=$r
  st=$(api localhost:$API/api/v1/crawls/$ID | field 'd["status"]')
  case $st in finished|failed|cancelled) break;; esac
  [ $(echo "$(date +%s.%N) - $T0 > 600" | bc) = 1 ] && { echo "gave up after 600 s"; break; }
  sleep 0.1
done
OUT=$(api localhost:$API/api/v1/crawls/$ID)
echo "$L: link bomb crawl $st in $(echo "$(date +%s.%N) - $T0" | bc) s; RSS $BASE MB -> peak $PEAK MB (+$((PEAK - BASE)) MB); $(echo "$OUT" | field '"crawled %s, discovered (stored URLs) %s" % (d["pages"]["crawled"], d["pages"]["discovered"])')"
# A crawl of slow pages (3 s each), cancelled once it runs.
ID=$(api -X POST localhost:$API/api/v1/crawls -d "{\"url\":\"http://127.0.0.1:$SITE/slow/1\",\"max_pages\":50,\"concurrency\":1}" | field 'd["id"]')
while [ "$(api localhost:$API/api/v1/crawls/$ID | field 'd["status"]')" != running ]; do sleep 0.1; done
sleep 1
C0=$(date +%s.%N)
code=$(api -o /dev/null -w '%{http_code}' -X POST localhost:$API/api/v1/crawls/$ID/cancel)
while :; do
  st=$(api localhost:$API/api/v1/crawls/$ID | field 'd["status"]')
  [ "$st" = cancelled ] && break
  [ $(echo "$(date +%s.%N) - $C0 > 120" | bc) = 1 ] && { echo "not cancelled after 120 s ($st)"; break; }
  sleep 0.05
done
echo "$L: cancel answered $code; the crawl read $st $(echo "$(date +%s.%N) - $C0" | bc) s after the cancel"
kill $PP $SP; wait $PP $SP 2>/dev/null
