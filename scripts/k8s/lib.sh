# shellcheck shell=bash disable=SC2034
# Shared settings of scripts/k8s/cluster.sh and scripts/k8s/build.sh (sourced, never run).
#
# Three places outside the repository:
#   $K8S_CACHE/<part>-<version>/   built once per machine, kept by `down` (see build.sh)
#   $K8S_STATE/                     the running cluster: PKI, configs, logs, PIDs, etcd, containerd,
#                                   kubelet and local-path data; `down` removes it whole
#   $K8S_RUN/                       containerd's socket and state, pods' network namespaces

# Versions: Kubernetes 1.33 is the last minor that runs on cgroup v1 with containerd 1.6 (Debian 12).
K8S_VERSION=1.33.13
HELM_VERSION=v3.22.0
COREDNS_VERSION=v1.15.0
LOCAL_PATH_VERSION=v0.0.30

PARLEY_CACHE_DIR=${PARLEY_CACHE_DIR:-${HOME:-/root}/.cache/parley}
K8S_CACHE=$PARLEY_CACHE_DIR/k8s
K8S_STATE=${PARLEY_K8S_STATE:-$K8S_CACHE/cluster}
# Short: containerd's socket path must stay under 108 bytes.
K8S_RUN=/run/parley-k8s
KUBECONFIG_PATH=$K8S_STATE/kubeconfig

# The network, all of it on this machine. The node address sits on an empty bridge of its own
# (this kernel has no dummy driver); pods are on a second bridge, with no masquerading and
# nothing forwarded off it (see the PARLEY-K8S chain in cluster.sh).
NODE_NAME=parley-node
NODE_BRIDGE=parley-node0
NODE_IP=10.201.0.1
POD_BRIDGE=parley-pods0
POD_CIDR=10.244.0.0/24
POD_GATEWAY=10.244.0.1
SERVICE_CIDR=10.96.0.0/16
API_SERVICE_IP=10.96.0.1
DNS_SERVICE_IP=10.96.0.10
NODE_PORT_RANGE=31000-31999
FW_CHAIN=PARLEY-K8S

K8S_SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

log() { echo "k8s: $*"; }
die() {
  echo "k8s: $*" >&2
  exit 1
}

# Go >= 1.24 builds every part; /usr/local/go is where the official tarball goes.
find_go() {
  GO=$(command -v go || true)
  [ -n "$GO" ] || { [ -x /usr/local/go/bin/go ] && GO=/usr/local/go/bin/go; }
  [ -n "$GO" ] || return 1
  local minor
  minor=$("$GO" env GOVERSION | sed -E 's/^go1\.([0-9]+).*/\1/')
  [ "${minor:-0}" -ge 24 ] 2>/dev/null
}

# Directory of each cached part (built by build.sh).
kube_dir() { echo "$K8S_CACHE/kubernetes-v$K8S_VERSION"; }
helm_dir() { echo "$K8S_CACHE/helm-$HELM_VERSION"; }
coredns_dir() { echo "$K8S_CACHE/coredns-$COREDNS_VERSION"; }
local_path_dir() { echo "$K8S_CACHE/local-path-provisioner-$LOCAL_PATH_VERSION"; }
# The pause program is ours: its cache key is a hash of its source.
pause_key() { cat "$K8S_SRC"/pause/go.mod "$K8S_SRC"/pause/main.go | sha256sum | cut -c1-12; }
pause_dir() { echo "$K8S_CACHE/pause-$(pause_key)"; }
# The helper image (Debian's static busybox, for local-path's volume set-up pods and for checks
# inside the cluster); its tag is the Debian package version it was unpacked from.
helper_dir() { echo "$K8S_CACHE/busybox"; }

# Image references as the CRI sees them (ctr import names a bare "a/b:t" docker.io/a/b:t).
pause_image() { echo "docker.io/parley-k8s/pause:$(pause_key)"; }
coredns_image() { echo "docker.io/parley-k8s/coredns:$COREDNS_VERSION"; }
local_path_image() { echo "docker.io/parley-k8s/local-path-provisioner:$LOCAL_PATH_VERSION"; }
helper_image() { echo "docker.io/parley-k8s/busybox:$(cat "$(helper_dir)/tag" 2>/dev/null)"; }
