#!/usr/bin/env bash
# Builds a local PostgreSQL 15 + PostGIS 3.3 image equivalent to the public
# postgis/postgis:15-3.3, for machines that have a Docker engine but no
# container registry. Debian's packages are installed into a debootstrap
# root, which `docker import` turns into an image (tests/images/debian.sh).
# Idempotent: an existing image is kept; a lock makes concurrent callers
# (parallel test binaries) build it once. The suite names the image with a
# hash of this recipe, so a changed recipe gets a new image; a manual build
# under the default name keeps an old one: remove it first.
# No STOPSIGNAL: `docker import` on the engines here refuses it as a change
# command. The suite kills its throwaway containers; deployments stop
# PostgreSQL with SIGINT (a fast shutdown) through compose's stop_signal.
#
#   bash tests/images/postgis/build.sh        # builds $PINSIGHT_POSTGIS_IMAGE
set -euo pipefail
image=${PINSIGHT_POSTGIS_IMAGE:-pinsight/postgis:15-3.3-local}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../debian.sh"

debian_image_lock "$image"
debian_root postgresql-15,postgresql-15-postgis-3

# Slim the root, the packaged cluster included.
debian_slim
rm -rf "$root"/var/lib/postgresql/15 "$root"/etc/postgresql/15/main
install -d -o 0 -g 0 "$root"/docker-entrypoint-initdb.d
install -m 0755 "$here/entrypoint.sh" "$root"/usr/local/bin/docker-entrypoint.sh
chroot "$root" sh -c 'install -d -o postgres -g postgres -m 2775 /var/run/postgresql /var/lib/postgresql/data'

debian_import "$image" \
  --change 'ENTRYPOINT ["/usr/local/bin/docker-entrypoint.sh"]' \
  --change 'CMD ["postgres"]' \
  --change 'ENV PATH=/usr/lib/postgresql/15/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'ENV PGDATA=/var/lib/postgresql/data' \
  --change 'ENV LANG=C.UTF-8' \
  --change 'EXPOSE 5432'
