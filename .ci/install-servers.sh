#!/usr/bin/env bash
# The real servers the fault tests drive (test/faults/pooler-start.test.ts,
# test/faults/rolling-restart.test.ts, test/faults/varnish-cache.test.ts):
# PgBouncer, HAProxy, Varnish and a PostgreSQL server, from Debian's
# packages, installed when missing. CI runs as root on a
# clean Debian; elsewhere this says what to install.
set -euo pipefail
missing=()
have() { command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ]; }
have pgbouncer || missing+=(pgbouncer)
have haproxy || missing+=(haproxy)
have varnishd || missing+=(varnish)
compgen -G '/usr/lib/postgresql/*/bin/postgres' >/dev/null || missing+=(postgresql)
if [ ${#missing[@]} -eq 0 ]; then
  echo "pgbouncer, haproxy, varnish and postgresql are installed"
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "missing: ${missing[*]}; install them as root: apt-get install -y ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "${missing[@]}"
