#!/bin/sh
# Entrypoint of the local HAProxy image, as the official image's: arguments
# starting with "-" are haproxy's, and haproxy runs in the foreground in
# master-worker mode (-W -db); SIGUSR1 (compose sets stop_signal) stops it
# gracefully.
set -eu
case "${1:-}" in -*) set -- haproxy "$@" ;; esac
if [ "${1:-}" = haproxy ]; then
  shift
  set -- haproxy -W -db "$@"
fi
exec "$@"
