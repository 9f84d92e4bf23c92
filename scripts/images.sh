#!/usr/bin/env bash
# Builds every Parley image, and the images Parley runs beside, on a machine with no registry
# images:
#
#   bash scripts/images.sh [--tag TAG] [--bases-only] [--official-bases]
#
# 1. A Docker engine: uses the running one, or (as root, with apt-get) installs docker.io and
#    starts dockerd in the background; and compose (docker-compose from apt when the engine has
#    no compose plugin).
# 2. Bases, each made once and reused (tags carry their versions):
#      parley-local/debian:bookworm     debootstrap --variant=minbase, docker import
#      parley-local/node:<v>            runtime base: node + the C libraries it needs (FROM scratch)
#      parley-local/node-build:<v>      build base: Debian + node + pnpm + the host's CA bundle
#      parley-local/postgres:18         PostgreSQL 18 (Debian unstable's), the official image's contract
#      parley-local/nats:<v>            nats-server built from the Go module proxy, FROM scratch
#    With --official-bases, node:24 bookworm images from Docker Hub are used instead (and the
#    chart/compose defaults postgres:18 and nats:2.10 apply).
# 3. parley/<process>:TAG for the seven processes from docker/Dockerfile (default TAG: dev).
#
# Node.js comes from the npm registry's official binary package (scripts/node.sh), pnpm from
# the one on PATH, the Go toolchain builds nats-server. Everything is cached in
# ${PARLEY_CACHE_DIR:-~/.cache/parley}. Prints the seconds each part took and the image sizes.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

tag=dev
bases_only=false
official=false
while [ $# -gt 0 ]; do
  case "$1" in
    --tag) tag="$2"; shift 2 ;;
    --bases-only) bases_only=true; shift ;;
    --official-bases) official=true; shift ;;
    *) echo "images.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done

NODE_VERSION=$(tr -d ' \n' <.node-version)
NATS_VERSION=2.10.27
PNPM_VERSION=12.21.0
DEBIAN_IMAGE=parley-local/debian:bookworm
NODE_IMAGE=parley-local/node:$NODE_VERSION
BUILD_IMAGE=parley-local/node-build:$NODE_VERSION
POSTGRES_IMAGE=parley-local/postgres:18
NATS_IMAGE=parley-local/nats:$NATS_VERSION
PROCESSES=(gateway identity booking blog voice email settings)
cache="${PARLEY_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/parley}"
mkdir -p "$cache"

log() { echo "images: $*"; }
t_start=$(date +%s)
phase_start=$t_start
phase() {
  local now
  now=$(date +%s)
  log "$1 ($((now - phase_start)) s)"
  phase_start=$now
}
have_image() { docker image inspect "$1" >/dev/null 2>&1; }
mkdir -p "$cache/logs"
# docker build with its output in $cache/logs/<name>.log, shown when the build fails.
dbuild() {
  local name="$1"
  shift
  if ! docker build "$@" >"$cache/logs/$name.log" 2>&1; then
    tail -n 40 "$cache/logs/$name.log" >&2
    echo "images.sh: building $name failed (whole log: $cache/logs/$name.log)" >&2
    exit 1
  fi
}

# --- 1. the engine -----------------------------------------------------------------------------
ensure_docker() {
  if docker info >/dev/null 2>&1; then return; fi
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo "images.sh: no Docker engine is reachable; start one (or, as root on Debian: apt-get install -y docker.io && dockerd &)" >&2
    exit 1
  fi
  if ! command -v dockerd >/dev/null; then
    log "installing docker.io (apt-get)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq --no-install-recommends docker.io >/dev/null
  fi
  log "starting dockerd (log: /var/log/parley-dockerd.log)"
  nohup dockerd >/var/log/parley-dockerd.log 2>&1 &
  for _ in $(seq 1 60); do
    docker info >/dev/null 2>&1 && return
    sleep 0.5
  done
  echo "images.sh: dockerd did not come up; see /var/log/parley-dockerd.log" >&2
  exit 1
}
ensure_docker
phase "docker engine ready"

# Compose, for docker/compose.yaml and the containers tier: the engine's v2 plugin when it has
# one, else docker-compose; as root with apt-get, Debian's docker-compose (1.29, which reads the
# file) is installed when neither is there: Debian's docker.io carries no compose plugin.
ensure_compose() {
  if docker compose version >/dev/null 2>&1 || command -v docker-compose >/dev/null; then return; fi
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo "images.sh: neither 'docker compose' nor docker-compose is installed: docker/compose.yaml needs one" >&2
    return
  fi
  log "installing docker-compose (apt-get)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq --no-install-recommends docker-compose >/dev/null 2>&1 ||
    { apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends docker-compose >/dev/null; }
}
ensure_compose

# --- 2. bases ----------------------------------------------------------------------------------
node_dir() {
  # scripts/node.sh prints `export PATH="<dir>/bin:$PATH"`.
  bash scripts/node.sh | sed -E 's/^export PATH="(.*)\/bin:.*$/\1/'
}

make_debian() {
  have_image "$DEBIAN_IMAGE" && return
  command -v debootstrap >/dev/null || {
    [ "$(id -u)" = 0 ] || { echo "images.sh: debootstrap is needed (apt-get install debootstrap)" >&2; exit 1; }
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
  }
  local dir
  dir=$(mktemp -d)
  log "debootstrap bookworm (minbase)"
  debootstrap --variant=minbase --include=ca-certificates bookworm "$dir" http://deb.debian.org/debian >/dev/null
  rm -rf "$dir"/var/cache/apt/archives/*.deb "$dir"/var/lib/apt/lists/*
  tar -C "$dir" -c . | docker import - "$DEBIAN_IMAGE" >/dev/null
  rm -rf "$dir"
  phase "made $DEBIAN_IMAGE"
}

make_node_bases() {
  local ndir ctx
  ndir=$(node_dir)
  if ! have_image "$NODE_IMAGE"; then
    ctx=$(mktemp -d)
    cp "$ndir/bin/node" "$ctx/node"
    dbuild node -f docker/base/node.Dockerfile --build-arg DEBIAN_IMAGE="$DEBIAN_IMAGE" -t "$NODE_IMAGE" "$ctx"
    rm -rf "$ctx"
    phase "made $NODE_IMAGE"
  fi
  if ! have_image "$BUILD_IMAGE"; then
    local pnpm_bin pnpm_pkg
    pnpm_bin=$(command -v pnpm || true)
    [ -n "$pnpm_bin" ] && [ "$(pnpm --version)" = "$PNPM_VERSION" ] || {
      echo "images.sh: pnpm $PNPM_VERSION must be on PATH (npm install -g pnpm@$PNPM_VERSION)" >&2
      exit 1
    }
    pnpm_pkg=$(dirname "$(readlink -f "$pnpm_bin")")
    ctx=$(mktemp -d)
    cp "$ndir/bin/node" "$ctx/node"
    cp -R "$pnpm_pkg" "$ctx/pnpm"
    cp /etc/ssl/certs/ca-certificates.crt "$ctx/ca-certificates.crt"
    dbuild node-build -f docker/base/node-build.Dockerfile --build-arg DEBIAN_IMAGE="$DEBIAN_IMAGE" -t "$BUILD_IMAGE" "$ctx"
    rm -rf "$ctx"
    phase "made $BUILD_IMAGE"
  fi
}

make_postgres() {
  have_image "$POSTGRES_IMAGE" && return
  dbuild postgres -f docker/base/postgres.Dockerfile --build-arg DEBIAN_IMAGE="$DEBIAN_IMAGE" \
    -t "$POSTGRES_IMAGE" docker/base
  phase "made $POSTGRES_IMAGE"
}

make_nats() {
  have_image "$NATS_IMAGE" && return
  local bin="$cache/go-bin/nats-$NATS_VERSION/nats-server"
  if [ ! -x "$bin" ]; then
    command -v go >/dev/null || { echo "images.sh: Go is needed to build nats-server $NATS_VERSION" >&2; exit 1; }
    log "building nats-server $NATS_VERSION (Go module proxy)"
    CGO_ENABLED=0 GOBIN="$(dirname "$bin")" go install -trimpath -ldflags='-s -w' \
      "github.com/nats-io/nats-server/v2@v$NATS_VERSION"
  fi
  local ctx
  ctx=$(mktemp -d)
  cp "$bin" "$ctx/nats-server"
  dbuild nats -f docker/base/nats.Dockerfile -t "$NATS_IMAGE" "$ctx"
  rm -rf "$ctx"
  phase "made $NATS_IMAGE"
}

if $official; then
  BUILD_IMAGE=node:$NODE_VERSION-bookworm
  NODE_IMAGE=node:$NODE_VERSION-bookworm-slim
else
  make_debian
  make_node_bases
  make_postgres
  make_nats
fi
$bases_only && { log "bases ready in $(($(date +%s) - t_start)) s"; exit 0; }

# --- 3. Parley ---------------------------------------------------------------------------------
for p in "${PROCESSES[@]}"; do
  dbuild "parley-$p" -f docker/Dockerfile --target "$p" \
    --build-arg BUILD_IMAGE="$BUILD_IMAGE" --build-arg NODE_IMAGE="$NODE_IMAGE" \
    -t "parley/$p:$tag" .
  phase "built parley/$p:$tag"
done

for p in "${PROCESSES[@]}"; do
  size=$(docker image inspect -f '{{.Size}}' "parley/$p:$tag")
  log "parley/$p:$tag $((size / 1000000)) MB"
done
log "done in $(($(date +%s) - t_start)) s"
