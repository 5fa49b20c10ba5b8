#!/usr/bin/env bash
# Starts Debian's PostgreSQL (the oldest major installed: 15 on Debian 12, the oldest the service
# supports) in a scratch directory, as its system user, for a test tier to run on
# (TEST_DATABASE_URL), and prints "<directory> <url>". Durability is off: the data is thrown away.
# Stop it with: su postgres -c "<bin>/pg_ctl -D <directory>/data stop", or .ci/run's trap does.
# Needs root (CI runs as root); elsewhere it says so and prints nothing.
set -euo pipefail
if [ "$(id -u)" -ne 0 ]; then
  echo "not root: the tier runs on the embedded PostgreSQL instead of Debian's" >&2
  exit 0
fi
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | head -1)
dir=$(mktemp -d /tmp/ci-postgres-XXXX)
chown postgres "$dir"
port=$((20000 + RANDOM % 20000))
su postgres -s /bin/sh -c "'$bin/initdb' -D '$dir/data' -A trust -U postgres -E UTF8 --no-sync" >"$dir/initdb.log"
options="-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
su postgres -s /bin/sh -c "'$bin/pg_ctl' -D '$dir/data' -l '$dir/server.log' -w -o '$options' start" >/dev/null
echo "$dir postgres://postgres@127.0.0.1:$port/postgres"
