#!/usr/bin/env bash
# Builds the local cluster's parts once per machine, into $K8S_CACHE (lib.sh), one directory per
# part and version; a part is built only when its directory is missing, and a directory appears
# only complete (built in <dir>.tmp, then renamed):
#   kubernetes-v<version>/bin/   kube-apiserver kube-controller-manager kube-scheduler kubelet
#                                kube-proxy kubectl: from the Go module proxy, through a wrapper
#                                module (`go install k8s.io/kubernetes/...` refuses its replaces)
#   helm-<version>/bin/helm      go install
#   coredns-<version>/           go install; image.tar (the binary alone)
#   local-path-provisioner-<v>/  go install; image.tar (the binary alone)
#   pause-<hash of pause/>/      our pause program (pause/main.go); image.tar
#   busybox/                     Debian's busybox-static, unpacked; image.tar
# The images are written as `docker save` archives by hand, so neither the cluster nor its
# build needs dockerd; cluster.sh imports them into the cluster's containerd on every `up`.
#
# The Kubernetes build is CPU-heavy (about 7 minutes on 2 idle cores): it runs under
# `nice -n ${PARLEY_K8S_BUILD_NICE:-10}` with `go build -p ${PARLEY_K8S_BUILD_JOBS:-2}`.
# Usage: scripts/k8s/build.sh (cluster.sh up calls it). Prints each part's seconds.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

BUILD_NICE=${PARLEY_K8S_BUILD_NICE:-10}
BUILD_JOBS=${PARLEY_K8S_BUILD_JOBS:-2}
export CGO_ENABLED=0
mkdir -p "$K8S_CACHE/logs"

# part NAME DIR FUNCTION: FUNCTION OUTDIR builds the part into OUTDIR, logging to logs/NAME.log.
part() {
  local name=$1 dir=$2 fn=$3 start=$SECONDS
  if [ -f "$dir/.complete" ]; then
    log "build: $name cached (0 s)"
    return 0
  fi
  local tmp=$dir.tmp logfile=$K8S_CACHE/logs/build-$name.log
  if [ -z "${GO:-}" ]; then
    find_go || die "Go >= 1.24 is needed to build the cluster's $name (https://go.dev/dl/)"
    GOARCH_HOST=$("$GO" env GOARCH)
  fi
  rm -rf "$tmp"
  mkdir -p "$tmp"
  log "build: $name (log: $logfile) ..."
  # In the background, so that `set -e` holds inside FUNCTION (an `if` or `||` would lift it).
  local rc=0
  (cd "$tmp" && "$fn" "$tmp") >"$logfile" 2>&1 &
  wait $! || rc=$?
  if [ "$rc" != 0 ]; then
    tail -n 30 "$logfile" >&2
    die "build: $name failed (log: $logfile)"
  fi
  touch "$tmp/.complete"
  rm -rf "$dir"
  mv "$tmp" "$dir"
  log "build: $name built in $((SECONDS - start)) s"
}

go_nice() { nice -n "$BUILD_NICE" "$GO" "$@"; }

# image_tar OUT REF ROOTFS CONFIG: a one-layer image in `docker save` form, which
# `ctr images import` reads. CONFIG is the JSON of the image's run config (Entrypoint, User...).
image_tar() {
  local out=$1 ref=$2 rootfs=$3 config=$4 work layer cfg
  work=$(mktemp -d)
  tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -C "$rootfs" -cf "$work/layer.tar" .
  layer=$(sha256sum "$work/layer.tar" | cut -d' ' -f1)
  mkdir "$work/$layer"
  mv "$work/layer.tar" "$work/$layer/layer.tar"
  printf '{"architecture":"%s","os":"linux","config":%s,"rootfs":{"type":"layers","diff_ids":["sha256:%s"]}}' \
    "$GOARCH_HOST" "$config" "$layer" >"$work/config.json"
  cfg=$(sha256sum "$work/config.json" | cut -d' ' -f1)
  mv "$work/config.json" "$work/$cfg.json"
  printf '[{"Config":"%s.json","RepoTags":["%s"],"Layers":["%s/layer.tar"]}]' "$cfg" "${ref#docker.io/}" "$layer" \
    >"$work/manifest.json"
  tar -C "$work" -cf "$out" manifest.json "$cfg.json" "$layer"
  rm -rf "$work"
}

# One image holding one static binary at /NAME.
binary_image() {
  local out=$1 ref=$2 binary=$3 user=$4 rootfs
  rootfs=$(mktemp -d)
  install -m 0755 "$binary" "$rootfs/$(basename "$binary")"
  mkdir -m 1777 "$rootfs/tmp"
  image_tar "$out/image.tar" "$ref" "$rootfs" \
    "{\"Entrypoint\":[\"/$(basename "$binary")\"],\"User\":\"$user\",\"Env\":[\"PATH=/\"]}"
  rm -rf "$rootfs"
}

build_kubernetes() {
  local out=$1 work=$K8S_CACHE/.work-kubernetes gomod minor ldflags=(-s -w) edits=()
  rm -rf "$work"
  mkdir -p "$work" "$out/bin"
  cd "$work"
  # k8s.io/kubernetes points its k8s.io/* dependencies at ./staging with replace directives, which
  # only a main module may have. A wrapper module requires it and points each of those at the
  # published module of the same release (v0.<minor>.<patch>).
  gomod=$("$GO" mod download -json "k8s.io/kubernetes@v$K8S_VERSION" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",*$/\1/p')
  [ -f "$gomod" ] || die "no go.mod for k8s.io/kubernetes@v$K8S_VERSION"
  "$GO" mod init parley.local/k8s-build
  edits=(-go=1.24.0 "-require=k8s.io/kubernetes@v$K8S_VERSION")
  while read -r module; do
    edits+=("-replace=$module=$module@v0.${K8S_VERSION#1.}")
  done < <(awk '$2 == "=>" && $3 ~ /^\.\/staging\// { print $1 }' "$gomod")
  [ ${#edits[@]} -gt 10 ] || die "found no ./staging replaces in $gomod"
  "$GO" mod edit "${edits[@]}"
  GOFLAGS=-mod=mod go_nice get "k8s.io/kubernetes@v$K8S_VERSION"
  minor=${K8S_VERSION#1.}
  minor=${minor%%.*}
  for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    ldflags+=("-X $pkg.gitVersion=v$K8S_VERSION" "-X $pkg.gitMajor=1" "-X $pkg.gitMinor=$minor" "-X $pkg.gitTreeState=clean")
  done
  GOFLAGS="-mod=mod -p=$BUILD_JOBS" go_nice build -trimpath -ldflags "${ldflags[*]}" -o "$out/bin/" \
    k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager \
    k8s.io/kubernetes/cmd/kube-scheduler k8s.io/kubernetes/cmd/kubelet \
    k8s.io/kubernetes/cmd/kube-proxy k8s.io/kubernetes/cmd/kubectl
  cd /
  rm -rf "$work"
}

build_helm() {
  local out=$1 minor=${K8S_VERSION#1.}
  minor=${minor%%.*}
  # Helm's Makefile stamps its version and the Kubernetes version that `helm template` assumes
  # (without it 1.20, which the chart's kubeVersion refuses): this cluster's.
  GOBIN=$out/bin GOFLAGS="-p=$BUILD_JOBS" go_nice install -trimpath -ldflags "-s -w \
-X helm.sh/helm/v3/internal/version.version=$HELM_VERSION \
-X helm.sh/helm/v3/pkg/lint/rules.k8sVersionMajor=1 -X helm.sh/helm/v3/pkg/lint/rules.k8sVersionMinor=$minor \
-X helm.sh/helm/v3/pkg/chartutil.k8sVersionMajor=1 -X helm.sh/helm/v3/pkg/chartutil.k8sVersionMinor=$minor" \
    "helm.sh/helm/v3/cmd/helm@$HELM_VERSION"
}

build_coredns() {
  local out=$1
  GOBIN=$out/bin GOFLAGS="-p=$BUILD_JOBS" go_nice install -trimpath -ldflags "-s -w" "github.com/coredns/coredns@$COREDNS_VERSION"
  # Runs as root inside its container to bind port 53; the manifest drops every capability but that.
  binary_image "$out" "$(coredns_image)" "$out/bin/coredns" "0:0"
}

build_local_path() {
  local out=$1
  GOBIN=$out/bin GOFLAGS="-p=$BUILD_JOBS" go_nice install -trimpath -ldflags "-s -w" \
    "github.com/rancher/local-path-provisioner@$LOCAL_PATH_VERSION"
  binary_image "$out" "$(local_path_image)" "$out/bin/local-path-provisioner" "65534:65534"
}

build_pause() {
  local out=$1
  (cd "$K8S_SRC/pause" && GOFLAGS='' go_nice build -trimpath -ldflags "-s -w" -o "$out/pause" .)
  binary_image "$out" "$(pause_image)" "$out/pause" "65535:65535"
}

build_busybox() {
  local out=$1 deb rootfs applet version
  # Downloaded, not installed: nothing on the machine changes.
  if ! apt-get download busybox-static; then
    apt-get update -qq
    apt-get download busybox-static
  fi
  deb=$(ls busybox-static_*.deb)
  version=$(dpkg-deb -f "$deb" Version)
  rootfs=$out/rootfs
  dpkg-deb -x "$deb" "$out/deb"
  mkdir -p "$rootfs/bin" "$rootfs/etc"
  mkdir -m 1777 "$rootfs/tmp"
  install -m 0755 "$out/deb/bin/busybox" "$rootfs/bin/busybox"
  for applet in $("$rootfs/bin/busybox" --list); do
    [ "$applet" = busybox ] || ln -s busybox "$rootfs/bin/$applet"
  done
  printf 'root:x:0:0:root:/:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/sh\n' >"$rootfs/etc/passwd"
  printf 'root:x:0:\nnobody:x:65534:\n' >"$rootfs/etc/group"
  # The tag is the Debian version, made a valid tag (1:1.35.0-4+deb12u1 -> 1.35.0-4-deb12u1).
  echo "$version" | sed -e 's/^[0-9]*://' -e 's/[^A-Za-z0-9_.-]/-/g' >"$out/tag"
  image_tar "$out/image.tar" "docker.io/parley-k8s/busybox:$(cat "$out/tag")" "$rootfs" \
    '{"Cmd":["/bin/sh"],"Env":["PATH=/bin"]}'
  rm -rf "$out/deb" "$rootfs" "$deb"
}

total=$SECONDS
part "pause-$(pause_key)" "$(pause_dir)" build_pause
part busybox "$(helper_dir)" build_busybox
part "kubernetes-v$K8S_VERSION" "$(kube_dir)" build_kubernetes
part "coredns-$COREDNS_VERSION" "$(coredns_dir)" build_coredns
part "local-path-provisioner-$LOCAL_PATH_VERSION" "$(local_path_dir)" build_local_path
part "helm-$HELM_VERSION" "$(helm_dir)" build_helm
log "build: all parts ready in $((SECONDS - total)) s ($K8S_CACHE)"
