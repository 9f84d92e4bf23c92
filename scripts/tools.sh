#!/usr/bin/env bash
# Builds and caches the deployment/load tools under .tools/ (gitignored).
#
#   .tools/bin/helm  kubeconform  kustomize  k6     (go install, pinned versions)
#   .tools/postfix/usr/sbin/smtp-sink  smtp-source  (Debian's postfix package, unpacked; --postfix)
#   .tools/py/                                      (Python venv: kubernetes-validate + PyYAML;
#                                                     its package ships the Kubernetes JSON schemas;
#                                                     moto[server]: a local Amazon SES for the email tests;
#                                                     schemathesis: the API fuzzer of scripts/test/fuzz.int.test.ts)
#
# A tool is rebuilt only when its pinned version changes (a stamp file per tool records the
# version that was built). First run on a fresh machine builds everything from the Go module
# proxy (several minutes on 2 cores, k6 being the longest); later runs take well under a second.
#
# Usage: scripts/tools.sh            build what is missing, print one line per tool
#        scripts/tools.sh --print    print the pinned versions only
# Other scripts source nothing from here: they call it, then use .tools/bin/* and .tools/py/bin/*.
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD
TOOLS=$ROOT/.tools
BIN=$TOOLS/bin

# Pinned versions (all build with the Go found here, go1.26; kustomize v5.8.3+ needs go >= 1.27).
HELM_VERSION=v3.22.0
KUBECONFORM_VERSION=v0.8.0
KUSTOMIZE_VERSION=v5.8.2
K6_VERSION=v1.8.1
KUBERNETES_VALIDATE_VERSION=1.37.0
PYYAML_VERSION=6.0.3
# moto_server answers the SES v1 API locally (services/email/test/ses*.int.test.ts).
MOTO_VERSION=5.2.5
# schemathesis (`st`) fuzzes the merged OpenAPI description (scripts/test/fuzz.int.test.ts).
SCHEMATHESIS_VERSION=4.32.5
# Kubernetes version the manifests are validated against (schemas shipped by kubernetes-validate).
KUBERNETES_VERSION=1.37.0

# Postfix's smtp-sink and smtp-source (`pnpm bench send`): unpacked from Debian's postfix
# package with `apt-get download` + `dpkg -x` (no mail server installed) into .tools/postfix;
# run them with LD_LIBRARY_PATH=.tools/postfix/usr/lib/postfix. `--postfix` does only this.
postfix_tools() {
  local dir=$TOOLS/postfix
  if [ -x "$dir/usr/sbin/smtp-sink" ] && [ -x "$dir/usr/sbin/smtp-source" ]; then
    echo "tools: postfix smtp-sink/smtp-source $(cat "$dir/.version" 2>/dev/null) (cached)"
    return 0
  fi
  if ! command -v apt-get >/dev/null 2>&1 || ! command -v dpkg >/dev/null 2>&1; then
    echo "tools: postfix's smtp-sink needs apt-get and dpkg (Debian/Ubuntu)" >&2
    return 1
  fi
  local tmp
  tmp=$(mktemp -d)
  (cd "$tmp" && apt-get download postfix >/dev/null 2>&1) || {
    echo "tools: apt-get download postfix failed (run apt-get update?)" >&2
    rm -rf "$tmp"
    return 1
  }
  rm -rf "$dir"
  mkdir -p "$dir"
  dpkg -x "$tmp"/postfix_*.deb "$dir"
  basename "$tmp"/postfix_*.deb .deb >"$dir/.version"
  rm -rf "$tmp"
  echo "tools: postfix smtp-sink/smtp-source $(cat "$dir/.version") unpacked in $dir"
}
if [ "${1:-}" = "--postfix" ]; then
  postfix_tools
  exit $?
fi

if [ "${1:-}" = "--print" ]; then
  printf 'helm %s\nkubeconform %s\nkustomize %s\nk6 %s\nkubernetes-validate %s\npyyaml %s\nmoto %s\nschemathesis %s\nkubernetes %s\n' \
    "$HELM_VERSION" "$KUBECONFORM_VERSION" "$KUSTOMIZE_VERSION" "$K6_VERSION" \
    "$KUBERNETES_VALIDATE_VERSION" "$PYYAML_VERSION" "$MOTO_VERSION" "$SCHEMATHESIS_VERSION" "$KUBERNETES_VERSION"
  exit 0
fi

# --check: exit 0 when every tool is built at its pinned version, else name what is missing
# (scripts/prereqs.sh decides whether it can build them).
if [ "${1:-}" = "--check" ]; then
  status=0
  for pair in "helm $HELM_VERSION" "kubeconform $KUBECONFORM_VERSION" "kustomize $KUSTOMIZE_VERSION" "k6 $K6_VERSION"; do
    set -- $pair
    if [ ! -x "$BIN/$1" ] || [ "$(cut -d' ' -f1 "$BIN/.$1.version" 2>/dev/null)" != "$2" ]; then
      echo "tools: $1 $2 is not built"
      status=1
    fi
  done
  if [ "$(cat "$TOOLS/py/.version" 2>/dev/null)" != "kubernetes-validate==$KUBERNETES_VALIDATE_VERSION pyyaml==$PYYAML_VERSION moto[server]==$MOTO_VERSION schemathesis==$SCHEMATHESIS_VERSION" ]; then
    echo "tools: the Python venv (kubernetes-validate, PyYAML, moto, schemathesis) is not installed"
    status=1
  fi
  if [ "$(cat "$TOOLS/kubeconform-schemas/.version" 2>/dev/null)" != "$KUBERNETES_VALIDATE_VERSION $KUBERNETES_VERSION" ]; then
    echo "tools: the kubeconform schemas are not written"
    status=1
  fi
  exit $status
fi

mkdir -p "$BIN"

if ! command -v go >/dev/null 2>&1; then
  echo "tools: Go >= 1.24 is required (go install builds helm, kubeconform, kustomize and k6)" >&2
  exit 1
fi
go_minor=$(go env GOVERSION | sed -E 's/^go1\.([0-9]+).*/\1/')
if [ "${go_minor:-0}" -lt 24 ]; then
  echo "tools: Go >= 1.24 is required, found $(go env GOVERSION)" >&2
  exit 1
fi

# go_tool NAME PACKAGE VERSION [LDFLAGS]
go_tool() {
  local name=$1 pkg=$2 version=$3 ldflags=${4:-}
  local stamp=$BIN/.$name.version
  local want="$version $ldflags"
  if [ -x "$BIN/$name" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
    echo "tools: $name $version (cached)"
    return 0
  fi
  local start=$SECONDS
  echo "tools: building $name $version (go install $pkg@$version) ..."
  local args=(-trimpath)
  [ -n "$ldflags" ] && args+=("-ldflags=$ldflags")
  GOBIN=$BIN GOFLAGS=-mod=mod CGO_ENABLED=0 go install "${args[@]}" "$pkg@$version"
  echo "$want" >"$stamp"
  echo "tools: $name $version built in $((SECONDS - start)) s"
}

total_start=$SECONDS
# helm: its Makefile stamps the version and the Kubernetes version it was built against
# (client-go v0.37 -> 1.37) with ldflags; without them `helm template` assumes Kubernetes 1.20.
HELM_KUBE_MINOR=37
go_tool helm helm.sh/helm/v3/cmd/helm "$HELM_VERSION" "-s -w \
-X helm.sh/helm/v3/internal/version.version=$HELM_VERSION \
-X helm.sh/helm/v3/pkg/lint/rules.k8sVersionMajor=1 -X helm.sh/helm/v3/pkg/lint/rules.k8sVersionMinor=$HELM_KUBE_MINOR \
-X helm.sh/helm/v3/pkg/chartutil.k8sVersionMajor=1 -X helm.sh/helm/v3/pkg/chartutil.k8sVersionMinor=$HELM_KUBE_MINOR"
go_tool kubeconform github.com/yannh/kubeconform/cmd/kubeconform "$KUBECONFORM_VERSION"
go_tool kustomize sigs.k8s.io/kustomize/kustomize/v5 "$KUSTOMIZE_VERSION"
go_tool k6 go.k6.io/k6 "$K6_VERSION"

# Python venv with kubernetes-validate (ships the Kubernetes JSON schemas), PyYAML
# (used by scripts/test/tools.ts to parse rendered manifests), moto's server (.tools/py/bin/moto_server)
# and schemathesis (.tools/py/bin/st).
PY=$TOOLS/py
py_stamp=$PY/.version
py_want="kubernetes-validate==$KUBERNETES_VALIDATE_VERSION pyyaml==$PYYAML_VERSION moto[server]==$MOTO_VERSION schemathesis==$SCHEMATHESIS_VERSION"
if [ -x "$PY/bin/python" ] && [ "$(cat "$py_stamp" 2>/dev/null)" = "$py_want" ]; then
  echo "tools: $py_want (cached)"
else
  start=$SECONDS
  # An existing venv is updated in place (pip installs only what changed), so a moto_server
  # that another test run started keeps its files; a broken one is rebuilt from scratch.
  if ! "$PY/bin/python" -c 'import sys' 2>/dev/null; then
    rm -rf "$PY"
    python3 -m venv "$PY"
  fi
  "$PY/bin/pip" install --quiet --disable-pip-version-check $py_want
  echo "$py_want" >"$py_stamp"
  echo "tools: $py_want installed in $((SECONDS - start)) s"
fi

# Offline schema directory for kubeconform, taken from the kubernetes-validate package.
schemas=$("$PY/bin/python" - <<'EOF'
import os, kubernetes_validate
print(os.path.join(os.path.dirname(kubernetes_validate.__file__), "kubernetes-json-schema"))
EOF
)
if [ ! -d "$schemas" ]; then
  echo "tools: kubernetes-validate schema directory not found at $schemas" >&2
  exit 1
fi
ln -sfn "$schemas" "$TOOLS/kubernetes-json-schema"

# kubeconform cannot use those files as they are: each carries an https `$id` and refers to
# `/api/_definitions.json`, which kubeconform would try to fetch. Write a copy per Kubernetes
# version in kubeconform's own layout (<version>-standalone[-strict]/<kind>-<group>-<ver>.json)
# with the `$id` dropped and the references made relative (only KUBERNETES_VERSION).
KC=$TOOLS/kubeconform-schemas
kc_stamp=$KC/.version
if [ "$(cat "$kc_stamp" 2>/dev/null)" != "$KUBERNETES_VALIDATE_VERSION $KUBERNETES_VERSION" ]; then
  rm -rf "$KC"
  "$PY/bin/python" - "$schemas" "$KC" "v$KUBERNETES_VERSION" <<'PYEOF'
import json, os, sys
src, dst, version = sys.argv[1], sys.argv[2], sys.argv[3]
for version_dir in (version + "-local", version + "-local-strict"):
    out = os.path.join(dst, version_dir.replace("-local", "-standalone"))
    os.makedirs(out, exist_ok=True)
    for name in os.listdir(os.path.join(src, version_dir)):
        with open(os.path.join(src, version_dir, name)) as f:
            doc = json.load(f)
        doc.pop("$id", None)
        text = json.dumps(doc).replace('"/api/_definitions.json#', '"_definitions.json#')
        with open(os.path.join(out, name), "w") as f:
            f.write(text)
PYEOF
  echo "$KUBERNETES_VALIDATE_VERSION $KUBERNETES_VERSION" >"$kc_stamp"
  echo "tools: kubeconform schemas written to $KC"
fi

postfix_tools || echo "tools: postfix's smtp-sink is not available (only \`pnpm bench send\` needs it)"

echo "tools: ready in $((SECONDS - total_start)) s ($BIN)"
