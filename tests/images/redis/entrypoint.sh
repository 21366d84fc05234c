#!/bin/sh
# Entrypoint of the local Redis image, behaving like the official redis
# image: arguments starting with "-" or a .conf file are redis-server's;
# redis-server runs as the redis user in /data, with protected mode off (the
# official image compiles it off: the container's network is the boundary,
# and ports are published only on request). Later arguments win, so
# `--protected-mode yes` or `--requirepass ...` still apply.
set -eu
case "${1:-redis-server}" in
  -*|*.conf) set -- redis-server "$@" ;;
esac
[ $# -eq 0 ] && set -- redis-server
if [ "$1" = redis-server ]; then
  shift
  conf=
  case "${1:-}" in *.conf) conf=$1; shift ;; esac
  set -- redis-server ${conf:+"$conf"} --protected-mode no "$@"
  if [ "$(id -u)" = 0 ]; then
    chown -R redis:redis /data
    exec setpriv --reuid=redis --regid=redis --init-groups "$@"
  fi
fi
exec "$@"
