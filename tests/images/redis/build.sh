#!/usr/bin/env bash
# Builds a local Redis 7 image equivalent to the public redis:7-bookworm,
# for machines that have a Docker engine but no container registry: Debian
# bookworm's redis-server package (7.0) in a debootstrap root, imported with
# `docker import` (tests/images/debian.sh). Idempotent: an existing image is
# kept; a lock makes concurrent callers (parallel test binaries) build it
# once.
#
#   bash tests/images/redis/build.sh        # builds $PINSIGHT_REDIS_IMAGE
set -euo pipefail
image=${PINSIGHT_REDIS_IMAGE:-pinsight/redis:7-local}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../debian.sh"

debian_image_lock "$image"
debian_root redis-server
debian_slim
install -m 0755 "$here/entrypoint.sh" "$root"/usr/local/bin/docker-entrypoint.sh
chroot "$root" sh -c 'install -d -o redis -g redis -m 0755 /data'

debian_import "$image" \
  --change 'ENTRYPOINT ["/usr/local/bin/docker-entrypoint.sh"]' \
  --change 'CMD ["redis-server"]' \
  --change 'WORKDIR /data' \
  --change 'VOLUME /data' \
  --change 'ENV LANG=C.UTF-8' \
  --change 'EXPOSE 6379'
