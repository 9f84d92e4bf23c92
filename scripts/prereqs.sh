#!/usr/bin/env bash
# What `pnpm test` needs besides Node and the npm packages: nats-server and Chromium (Debian
# packages), python3-venv, and the tools of scripts/tools.sh (helm, kustomize, kubeconform, k6,
# a Python venv with kubernetes-validate, PyYAML and moto). Installs what is missing when it can
# (root with apt-get; Go >= 1.24 for the tools), otherwise stops at once naming the exact
# command to run. Never lets a tier skip silently.
set -uo pipefail
cd "$(dirname "$0")/.."

fail() {
  echo "pnpm test cannot run: $1" >&2
  echo "  run: $2" >&2
  exit 1
}
can_apt() { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; }

packages=()
command -v nats-server >/dev/null 2>&1 || [ -x /usr/sbin/nats-server ] || packages+=(nats-server)
[ -x /usr/bin/chromium ] || packages+=(chromium)
python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || packages+=(python3-venv)
if [ ${#packages[@]} -gt 0 ]; then
  if can_apt; then
    echo "prereqs: installing ${packages[*]} (apt-get)"
    export DEBIAN_FRONTEND=noninteractive
    { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${packages[@]}"; } >/dev/null ||
      fail "apt-get could not install ${packages[*]}" "apt-get install -y --no-install-recommends ${packages[*]}"
  else
    fail "missing ${packages[*]}" "sudo apt-get install -y --no-install-recommends ${packages[*]}"
  fi
fi

if ! bash scripts/tools.sh --check >/dev/null; then
  go_minor=$(go env GOVERSION 2>/dev/null | sed -E 's/^go1\.([0-9]+).*/\1/')
  if [ "${go_minor:-0}" -ge 24 ] 2>/dev/null; then
    echo "prereqs: building the deployment and load tools (scripts/tools.sh; a few minutes the first time)"
    bash scripts/tools.sh >/dev/null || fail "scripts/tools.sh failed" "bash scripts/tools.sh"
  else
    fail "helm, kustomize, kubeconform and k6 are built with Go >= 1.24, which is not installed" \
      "install Go >= 1.24 (https://go.dev/dl/), then: bash scripts/tools.sh"
  fi
fi
echo "prereqs: nats-server, chromium, deployment and load tools present"
