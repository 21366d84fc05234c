#!/bin/bash
# Issue 38: Alice's one report of a site while Bob has 200 queued for it,
# on a real server (SQLite, River), the per-address throttle at its default
# 30 a minute (the per-site one off: the site and the address are both
# 127.0.0.1). Usage: tests/load/turns/measure.sh PINSIGHT_BINARY LABEL
# (go build -o /tmp/pinsight ./cmd/pinsight first). Ports 18180-18181.
set -u
BIN=$1; L=$2; HERE=$(cd "$(dirname "$0")" && pwd); D=$(mktemp -d /tmp/turns-$L.XXXX); cd $D
SITE=18181; API=18180
python3 $HERE/site.py $SITE $D/site.log & SP=$!
DB=sqlite:$D/p.db
$BIN migrate --database-url $DB >/dev/null 2>&1
BOB=$($BIN user create --database-url $DB --email bob@example.com 2>/dev/null | tail -1)
ALICE=$($BIN user create --database-url $DB --email alice@example.com 2>/dev/null | tail -1)
$BIN serve --database-url $DB --addr 127.0.0.1:$API --allow-target 127.0.0.1:$SITE --host-analyses-per-minute 0 > $D/serve.log 2>&1 & PP=$!
for i in $(seq 50); do curl -sf localhost:$API/readyz >/dev/null && break; sleep 0.2; done
T0=$(date +%s.%N)
for i in $(seq 0 199); do
  curl -s -o /dev/null -w '%{http_code}\n' -X POST "localhost:$API/api/v1/reports?wait=0" -H "Authorization: Bearer $BOB" -H 'Content-Type: application/json' -d "{\"url\":\"http://127.0.0.1:$SITE/bob/$i\"}"
done | sort | uniq -c
# until Bob spent the burst of 30 and what came back since (1 per 2 s)
while :; do
  n=$(wc -l < $D/site.log); el=$(echo "$(date +%s.%N) - $T0" | bc)
  [ $n -ge $(echo "30 + $el / 2" | bc) ] && break
  sleep 0.5
done
echo "Bob's pages served before Alice asks: $(wc -l < $D/site.log)"
ASK=$(date +%s.%N)
RESP=$(curl -s -X POST "localhost:$API/api/v1/reports?wait=0" -H "Authorization: Bearer $ALICE" -H 'Content-Type: application/json' -d "{\"url\":\"http://127.0.0.1:$SITE/alice\"}")
ID=$(echo "$RESP" | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["id"])')
while :; do
  st=$(curl -s "localhost:$API/api/v1/reports/$ID" -H "Authorization: Bearer $ALICE" | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"].get("status"))')
  [ "$st" != pending ] && [ "$st" != running ] && break
  [ $(echo "$(date +%s.%N) - $ASK > 300" | bc) = 1 ] && { echo "gave up after 300 s"; break; }
  sleep 0.2
done
DONE=$(date +%s.%N)
AT=$(grep ' /alice' $D/site.log | cut -d' ' -f1)
BOBS=$(awk -v a=$ASK -v b=${AT:-1e12} '$1 > a && $1 < b && $2 ~ /bob/' $D/site.log | wc -l)
echo "$L: Alice's report $st $(echo "$DONE - $ASK" | bc) s after she asked (page served $(echo "${AT:-0} - $ASK" | bc) s after); Bob's pages served in between: $BOBS"
kill $PP $SP; wait $PP $SP 2>/dev/null
