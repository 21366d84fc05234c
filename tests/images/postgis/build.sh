#!/usr/bin/env bash
# Builds a local PostgreSQL 15 + PostGIS 3.3 image equivalent to the public
# postgis/postgis:15-3.3, for machines that have a Docker engine but no
# container registry. Debian's packages are installed into a debootstrap
# root, which `docker import` turns into an image. Idempotent: an existing
# image is kept; a lock makes concurrent callers (parallel test binaries)
# build it once.
#
#   bash tests/images/postgis/build.sh        # builds $PINSIGHT_POSTGIS_IMAGE
set -euo pipefail
image=${PINSIGHT_POSTGIS_IMAGE:-pinsight/postgis:15-3.3-local}
here=$(cd "$(dirname "$0")" && pwd)

exec 9>"${TMPDIR:-/tmp}/pinsight-image-$(echo "$image" | tr '/:' '__').lock"
flock 9
if docker image inspect "$image" >/dev/null 2>&1; then
  echo "image $image exists"
  exit 0
fi
start=$(date +%s)
if ! command -v debootstrap >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
fi
# Use the mirror apt already uses: it is the one this machine can reach.
mirror=$( (grep -rhoE '^(URIs:|deb) +https?://[^ ]+/debian\b' /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null || true) \
  | head -1 | awk '{print $2}')
mirror=${mirror:-http://deb.debian.org/debian}

root=$(mktemp -d /var/tmp/postgis-root.XXXXXX)
trap 'rm -rf "$root"' EXIT
debootstrap --variant=minbase --include=postgresql-15,postgresql-15-postgis-3 bookworm "$root" "$mirror" >/dev/null

# Slim the root: the packaged cluster, docs, manuals, locales, apt lists.
rm -rf "$root"/var/lib/postgresql/15 "$root"/etc/postgresql/15/main \
  "$root"/usr/share/doc/* "$root"/usr/share/man/* "$root"/usr/share/info/* \
  "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*
find "$root"/usr/share/locale -mindepth 1 -maxdepth 1 ! -name 'en*' -exec rm -rf {} +
install -d -o 0 -g 0 "$root"/docker-entrypoint-initdb.d
install -m 0755 "$here/entrypoint.sh" "$root"/usr/local/bin/docker-entrypoint.sh
chroot "$root" sh -c 'install -d -o postgres -g postgres -m 2775 /var/run/postgresql /var/lib/postgresql/data'

tar -C "$root" -c . | docker import \
  --change 'ENTRYPOINT ["/usr/local/bin/docker-entrypoint.sh"]' \
  --change 'CMD ["postgres"]' \
  --change 'ENV PATH=/usr/lib/postgresql/15/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'ENV PGDATA=/var/lib/postgresql/data' \
  --change 'ENV LANG=C.UTF-8' \
  --change 'EXPOSE 5432' \
  - "$image" >/dev/null
size=$(docker image inspect -f '{{.Size}}' "$image")
echo "built $image in $(( $(date +%s) - start )) s, $(( size / 1024 / 1024 )) MiB"
