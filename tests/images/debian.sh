# Sourced by the image build scripts (tests/images/*/build.sh,
# deploy/images/*/build.sh): builds a Docker image from Debian bookworm's
# packages on a machine with a Docker engine but no container registry. The
# packages go into a debootstrap root, which `docker import` turns into an
# image. Needs root (debootstrap, chroot) and a reachable Debian mirror.
#
#   debian_image_lock "$image"       # serialises builders; exits 0 if the image exists
#   debian_root pkg1,pkg2            # bootstraps $root with the packages (removed on exit)
#   debian_slim                      # drops docs, manuals, other locales, apt lists
#   debian_import "$image" --change 'CMD ["..."]' ...
#
# Callers set `set -euo pipefail` first.

# debian_image_lock takes a lock named after the image, so concurrent callers
# (parallel test binaries) build it once, and exits the calling script when
# the image already exists.
debian_image_lock() {
  exec 9>"${TMPDIR:-/tmp}/pinsight-image-$(echo "$1" | tr '/:' '__').lock"
  flock 9
  if docker image inspect "$1" >/dev/null 2>&1; then
    echo "image $1 exists"
    exit 0
  fi
  debian_start=$(date +%s)
}

# debian_root installs debootstrap when missing and bootstraps a minimal
# bookworm with the given comma-separated packages into $root.
debian_root() {
  if ! command -v debootstrap >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
  fi
  # Use the mirror apt already uses: it is the one this machine can reach.
  local mirror
  mirror=$( (grep -rhoE '^(URIs:|deb) +https?://[^ ]+/debian\b' /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null || true) \
    | head -1 | awk '{print $2}')
  mirror=${mirror:-http://deb.debian.org/debian}
  root=$(mktemp -d /var/tmp/pinsight-root.XXXXXX)
  trap 'rm -rf "$root"' EXIT
  debootstrap --variant=minbase --include="$1" bookworm "$root" "$mirror" >/dev/null
}

# debian_slim removes what a container never reads: documentation, manuals,
# locales other than English, apt's lists and caches.
debian_slim() {
  rm -rf "$root"/usr/share/doc/* "$root"/usr/share/man/* "$root"/usr/share/info/* \
    "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*
  find "$root"/usr/share/locale -mindepth 1 -maxdepth 1 ! -name 'en*' -exec rm -rf {} +
}

# debian_import makes the image from $root; the remaining arguments are
# passed to docker import (--change ...).
debian_import() {
  local image=$1
  shift
  tar -C "$root" -c . | docker import "$@" - "$image" >/dev/null
  local size
  size=$(docker image inspect -f '{{.Size}}' "$image")
  echo "built $image in $(( $(date +%s) - debian_start )) s, $(( size / 1024 / 1024 )) MiB"
}
