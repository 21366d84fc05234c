#!/usr/bin/env bash
# Builds a local HAProxy image standing in for the public haproxy:2.8-bookworm
# on machines with a Docker engine but no container registry: Debian
# bookworm's haproxy package (2.6) in a debootstrap root, imported with
# `docker import` (tests/images/debian.sh). Like the official image it runs
# as the haproxy user and reads /usr/local/etc/haproxy/haproxy.cfg
# (deploy/compose.yaml mounts deploy/images/haproxy/haproxy.cfg there).
# Idempotent: an existing image is kept. Not built in CI.
#
#   bash deploy/images/haproxy/build.sh     # builds $LB_IMAGE
set -euo pipefail
image=${LB_IMAGE:-pinsight/haproxy:2.6-local}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../../tests/images/debian.sh"

debian_image_lock "$image"
debian_root haproxy
debian_slim
install -d "$root"/usr/local/etc/haproxy
install -m 0644 "$here/haproxy.cfg" "$root"/usr/local/etc/haproxy/haproxy.cfg
install -m 0644 "$here/503.http" "$root"/usr/local/etc/haproxy/503.http
install -m 0755 "$here/entrypoint.sh" "$root"/usr/local/bin/docker-entrypoint.sh

debian_import "$image" \
  --change 'ENTRYPOINT ["/usr/local/bin/docker-entrypoint.sh"]' \
  --change 'CMD ["haproxy", "-f", "/usr/local/etc/haproxy/haproxy.cfg"]' \
  --change 'USER haproxy' \
  --change 'EXPOSE 8080'
