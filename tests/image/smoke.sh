#!/usr/bin/env bash
# Builds the scratch runtime image from a static binary and checks that the
# container serves the API as a non-root user, keeping accounts in its
# SQLite file under /data. Needs a Docker engine; pulls nothing.
set -euo pipefail
cd "$(dirname "$0")/../.."
image=${PINSIGHT_IMAGE:-pinsight:smoke}
dist=$(mktemp -d)
name=pinsight-smoke-$$
cleanup() { docker rm -f -v "$name" >/dev/null 2>&1 || true; rm -rf "$dist"; }
trap cleanup EXIT

CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$dist/pinsight" ./cmd/pinsight
mkdir "$dist/data"
docker build -q -t "$image" -f Dockerfile "$dist" >/dev/null
docker run -d --name "$name" -p 127.0.0.1::8080 "$image" >/dev/null
port=$(docker port "$name" 8080/tcp | head -1 | sed 's/.*://')
for _ in $(seq 1 150); do  # up to 30 s: the embedded dataset loads before the server listens
  curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
  sleep 0.2
done
body=$(curl -fsS -X POST "http://127.0.0.1:$port/api/v1/digipin/encode" \
  -H 'Content-Type: application/json' -d '{"latitude":28.622788,"longitude":77.213033}')
echo "$body" | grep -q '"digipin":"39J-49L-L8T4"' || { echo "unexpected body: $body"; docker logs "$name"; exit 1; }
# The embedded dataset is served with nothing mounted.
body=$(curl -fsS "http://127.0.0.1:$port/api/v1/pincodes/110001")
echo "$body" | grep -q '"total":23' || { echo "unexpected 110001 body: $body"; docker logs "$name"; exit 1; }
body=$(curl -fsS "http://127.0.0.1:$port/api/v1/dataset")
echo "$body" | grep -q '"source":"embedded"' || { echo "unexpected dataset body: $body"; docker logs "$name"; exit 1; }
reg=$(curl -sS -o /dev/null -w '%{http_code}' -X POST "http://127.0.0.1:$port/api/v1/register" \
  -H 'Content-Type: application/json' -d '{"email":"smoke@example.com","password":"correct horse"}')
[ "$reg" = 201 ] || { echo "register answered $reg: the default SQLite storage under /data is not writable"; docker logs "$name"; exit 1; }
user=$(docker inspect -f '{{.Config.User}}' "$image")
[ "$user" = "65532:65532" ] || { echo "image runs as '$user', want 65532:65532"; exit 1; }
size=$(docker image inspect -f '{{.Size}}' "$image")
echo "image smoke test passed: $image ($((size / 1024 / 1024)) MiB), user $user"
