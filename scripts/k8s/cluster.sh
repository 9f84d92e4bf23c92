#!/usr/bin/env bash
# A single-node Kubernetes on this machine, for tests: etcd, kube-apiserver, controller-manager,
# scheduler, containerd (CRI), kubelet, kube-proxy, CoreDNS and local-path-provisioner (the
# default StorageClass). Needs root on Linux (iptables, bridges, mounts, cgroups); Debian's
# packages are installed with apt-get when missing; the Kubernetes binaries and images are built
# once per machine by build.sh and cached outside the repository (lib.sh).
#
#   scripts/k8s/cluster.sh up           build what is not cached, start the cluster, wait until the
#                                       node is Ready and CoreDNS answers; prints the kubeconfig
#                                       (up on a running cluster changes nothing; up after a crash
#                                       removes the stale state first)
#   scripts/k8s/cluster.sh down         stop and remove everything `up` made; keeps the cache
#   scripts/k8s/cluster.sh status       what runs (exit 0 up, 3 down, 1 partly up)
#   scripts/k8s/cluster.sh load IMAGE…  copy docker images into the cluster's containerd (no
#                                       registry: use imagePullPolicy IfNotPresent or Never)
#   scripts/k8s/cluster.sh env          `export KUBECONFIG=… PATH=…` for eval
#   scripts/k8s/cluster.sh build        build the cache only
#
# Everything stays on this machine: the node address and the pods are on two bridges of its own,
# pods are not masqueraded and nothing from them is forwarded off their bridge, CoreDNS serves
# cluster.local only, NodePorts (31000-31999) listen on the node address and 127.0.0.1.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

KBIN=$(kube_dir)/bin
CONTAINERD_SOCK=$K8S_RUN/containerd.sock
ETCD_CLIENT=127.0.0.1:32379
ETCD_PEER=127.0.0.1:32380
PKI=$K8S_STATE/pki
PIDS=$K8S_STATE/pids
LOGS=$K8S_STATE/logs
# Components in the order `down` stops them (kubelet first, so that nothing restarts pods).
COMPONENTS=(kubelet kube-proxy kube-scheduler kube-controller-manager kube-apiserver containerd etcd)
# Kernel settings that the kubelet, kube-proxy or the CNI bridge change; `up` saves them and `down`
# puts them back.
SYSCTLS=(net.ipv4.ip_forward net.bridge.bridge-nf-call-iptables net.ipv4.conf.all.route_localnet
  vm.overcommit_memory vm.panic_on_oom kernel.panic kernel.panic_on_oops kernel.keys.root_maxkeys
  kernel.keys.root_maxbytes)

kubectl() { "$KBIN/kubectl" --kubeconfig "$KUBECONFIG_PATH" "$@"; }
ctr_k8s() { ctr --address "$CONTAINERD_SOCK" --namespace k8s.io "$@"; }

phase_start=$SECONDS
phase() {
  local now=$SECONDS
  [ -z "${phase_name:-}" ] || log "$phase_name: $((now - phase_start)) s"
  phase_name=$1
  phase_start=$now
}

need_root() {
  [ "$(uname -s)" = Linux ] || die "the local cluster runs on Linux only"
  [ "$(id -u)" = 0 ] || die "$1 needs root (iptables, bridges, mounts, cgroups)"
}

# One `up` or `down` at a time on a machine.
take_lock() {
  mkdir -p "$K8S_CACHE"
  exec 9>"$K8S_CACHE/.lock"
  flock -w 900 9 || die "another cluster.sh up/down/build holds $K8S_CACHE/.lock"
}

# --- processes, by their recorded PIDs -----------------------------------------------------------

# start NAME BINARY ARGS...: runs in its own session, logs to logs/NAME.log, PID and binary recorded.
start() {
  local name=$1 binary=$2
  shift 2
  # 9>&-: the lock of take_lock stays with this script, not with the daemons.
  setsid "$binary" "$@" </dev/null >"$LOGS/$name.log" 2>&1 9>&- &
  echo "$! $(readlink -f "$binary")" >"$PIDS/$name"
}

# pid_of NAME: the recorded PID while that process still runs the recorded binary (a PID left
# by a crash may belong to another process by now).
pid_of() {
  local pid binary
  [ -f "$PIDS/$1" ] || return 1
  read -r pid binary <"$PIDS/$1"
  [ -n "$pid" ] && [ "$(readlink "/proc/$pid/exe" 2>/dev/null)" = "$binary" ] && echo "$pid"
}

# stop NAME: SIGTERM, SIGKILL after 3 s (the cluster's data goes anyway; kube-apiserver
# lingers 15 s after its shutdown otherwise); returns once the process is gone (or a zombie).
stop() {
  local pid i
  if pid=$(pid_of "$1"); then
    kill -TERM "$pid" 2>/dev/null || true
    for i in $(seq 100); do
      [ -n "$(readlink "/proc/$pid/exe" 2>/dev/null)" ] || break
      [ "$i" != 15 ] || kill -KILL "$pid" 2>/dev/null || true
      sleep 0.2
    done
  fi
  rm -f "$PIDS/$1"
}

# stop_all NAME...: stops them together (SIGTERM to all, then waits).
stop_all() {
  local name pids=()
  for name in "$@"; do
    stop "$name" &
    pids+=($!)
  done
  wait "${pids[@]}"
}

# wait_for SECONDS WHAT COMMAND...: retries COMMAND every 0.5 s; names the log to read on failure.
wait_for() {
  local seconds=$1 what=$2 deadline
  shift 2
  deadline=$((SECONDS + seconds))
  until "$@" >/dev/null 2>&1; do
    [ $SECONDS -lt $deadline ] || die "$what did not come up within $seconds s (logs: $LOGS)"
    sleep 0.5
  done
}

# Fails at once when a component has exited (with its log's last lines), so a wait does not
# sit out its whole timeout.
running() {
  local name
  for name in "$@"; do
    if ! pid_of "$name" >/dev/null; then
      echo "k8s: $name exited; last lines of $LOGS/$name.log:" >&2
      tail -n 15 "$LOGS/$name.log" >&2 || true
      exit 1
    fi
  done
}

# --- cgroups: every pod lives under /parley-k8s (kubelet cgroupRoot) -------------------------------

cgroup_roots() {
  local dir
  if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
    echo /sys/fs/cgroup/parley-k8s
    return
  fi
  for dir in /sys/fs/cgroup/*/; do
    if mountpoint -q "$dir"; then echo "${dir%/}/parley-k8s"; fi
  done
}

make_cgroups() {
  local root parent
  for root in $(cgroup_roots); do
    mkdir -p "$root"
    parent=$(dirname "$root")
    # cgroup v1 cpuset: a new group has no CPUs or memory nodes until given its parent's.
    if [ -f "$root/cpuset.cpus" ] && [ -z "$(cat "$root/cpuset.cpus")" ]; then
      cat "$parent/cpuset.cpus" >"$root/cpuset.cpus"
      cat "$parent/cpuset.mems" >"$root/cpuset.mems"
    fi
  done
}

# Kills what is left in our cgroups (a container whose shim was killed), then removes them.
remove_cgroups() {
  local root pids _
  for _ in 1 2 3 4 5; do
    pids=$(for root in $(cgroup_roots); do
      if [ -d "$root" ]; then find "$root" -name cgroup.procs -exec cat {} + 2>/dev/null || true; fi
    done | sort -u)
    [ -n "$pids" ] || break
    # shellcheck disable=SC2086
    kill -KILL $pids 2>/dev/null || true
    sleep 0.3
  done
  for root in $(cgroup_roots); do
    [ -d "$root" ] || continue
    find "$root" -depth -type d -exec rmdir {} + 2>/dev/null || true
    [ ! -d "$root" ] || log "warning: could not remove cgroup $root"
  done
}

# --- mounts ----------------------------------------------------------------------------------------

our_mounts() {
  awk -v a="$K8S_STATE" -v b="$K8S_RUN" \
    '{ p = $5; if (p == a || index(p, a "/") == 1 || p == b || index(p, b "/") == 1) print p }' \
    /proc/self/mountinfo | sort -r
}

unmount_all() {
  local m _
  for _ in 1 2 3; do
    [ -n "$(our_mounts)" ] || return 0
    for m in $(our_mounts); do
      umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true
    done
  done
  [ -z "$(our_mounts)" ] || die "could not unmount: $(our_mounts | tr '\n' ' ')"
}

# --- network ---------------------------------------------------------------------------------------

# The FORWARD chain: bridged pod traffic passes it (br_netfilter), and dockerd sets its policy to
# DROP. Our chain, first in FORWARD, accepts pod-to-pod traffic (directly or through a Service)
# and drops anything forwarded off the pod bridge or onto it from elsewhere, so a pod reaches
# only other pods and this node's own addresses, masqueraded or not.
firewall_up() {
  iptables -N "$FW_CHAIN" 2>/dev/null || iptables -F "$FW_CHAIN"
  iptables -A "$FW_CHAIN" -i "$POD_BRIDGE" -o "$POD_BRIDGE" -j ACCEPT
  iptables -A "$FW_CHAIN" -i "$POD_BRIDGE" -j DROP
  iptables -A "$FW_CHAIN" -o "$POD_BRIDGE" -j DROP
  iptables -C FORWARD -j "$FW_CHAIN" 2>/dev/null || iptables -I FORWARD 1 -j "$FW_CHAIN"
}

network_up() {
  if ! ip link show "$NODE_BRIDGE" >/dev/null 2>&1; then
    ip link add "$NODE_BRIDGE" type bridge
    ip addr add "$NODE_IP/32" dev "$NODE_BRIDGE"
  fi
  ip link set "$NODE_BRIDGE" up
  if ! ip link show "$POD_BRIDGE" >/dev/null 2>&1; then
    ip link add "$POD_BRIDGE" type bridge
    ip addr add "$POD_GATEWAY/${POD_CIDR#*/}" dev "$POD_BRIDGE"
  fi
  ip link set "$POD_BRIDGE" up
  # Service traffic between pods on one bridge must pass iptables (kube-proxy's DNAT).
  [ -f /proc/sys/net/bridge/bridge-nf-call-iptables ] || modprobe br_netfilter 2>/dev/null ||
    die "bridged traffic cannot pass iptables: no br_netfilter (net.bridge.bridge-nf-call-iptables)"
  sysctl -qw net.bridge.bridge-nf-call-iptables=1
  firewall_up
  mkdir -p "$K8S_STATE/cni/net.d" "$K8S_STATE/cni/ipam"
  cat >"$K8S_STATE/cni/net.d/10-parley-k8s.conflist" <<EOF
{
  "cniVersion": "1.0.0",
  "name": "parley-k8s",
  "plugins": [{
    "type": "bridge", "bridge": "$POD_BRIDGE", "isGateway": true, "ipMasq": false, "hairpinMode": true,
    "ipam": {
      "type": "host-local", "dataDir": "$K8S_STATE/cni/ipam",
      "ranges": [[{ "subnet": "$POD_CIDR", "gateway": "$POD_GATEWAY" }]],
      "routes": [{ "dst": "0.0.0.0/0" }]
    }
  }]
}
EOF
}

# Rules that kube-proxy and the kubelet leave behind (`kube-proxy --cleanup` needs nft, which
# Debian 12 does not install): jumps into KUBE-* chains, then the chains. Only when no other
# kubelet or kube-proxy runs on this machine, since those chains would be theirs too.
remove_kube_chains() {
  local ipt table rule chain
  if pgrep -x kube-proxy >/dev/null || pgrep -x kubelet >/dev/null; then
    log "warning: another kubelet or kube-proxy runs here; its KUBE-* iptables chains are left alone"
    return 0
  fi
  for ipt in iptables ip6tables; do
    command -v "$ipt" >/dev/null || continue
    for table in filter nat mangle raw; do
      { $ipt -t "$table" -S 2>/dev/null || true; } |
        awk '/^-A / && / -j KUBE-/ && !/^-A KUBE-/ { sub(/^-A /, ""); print }' | while read -r rule; do
        eval "$ipt -t $table -D $rule" 2>/dev/null || true
      done
      for chain in $($ipt -t "$table" -S 2>/dev/null | awk '/^-N KUBE-/ { print $2 }'); do
        $ipt -t "$table" -F "$chain" 2>/dev/null || true
      done
      for chain in $($ipt -t "$table" -S 2>/dev/null | awk '/^-N KUBE-/ { print $2 }'); do
        $ipt -t "$table" -X "$chain" 2>/dev/null || true
      done
    done
  done
}

network_down() {
  local link
  # Pods' network namespaces (containerd keeps them under its state directory; unmounted above).
  rm -rf "$K8S_RUN/containerd/netns"
  if ip link show "$POD_BRIDGE" >/dev/null 2>&1; then
    for link in $(ip -o link show master "$POD_BRIDGE" | awk -F': ' '{ sub(/@.*/, "", $2); print $2 }'); do
      ip link del "$link" 2>/dev/null || true
    done
    ip link del "$POD_BRIDGE"
  fi
  ! ip link show "$NODE_BRIDGE" >/dev/null 2>&1 || ip link del "$NODE_BRIDGE"
  while iptables -D FORWARD -j "$FW_CHAIN" 2>/dev/null; do :; done
  iptables -F "$FW_CHAIN" 2>/dev/null || true
  iptables -X "$FW_CHAIN" 2>/dev/null || true
  remove_kube_chains
}

# --- kernel settings -------------------------------------------------------------------------------

save_sysctls() {
  local key
  [ -f "$K8S_STATE/sysctl.saved" ] && return 0
  for key in "${SYSCTLS[@]}"; do
    if sysctl -n "$key" >/dev/null 2>&1; then echo "$key=$(sysctl -n "$key")"; fi
  done >"$K8S_STATE/sysctl.saved"
}

restore_sysctls() {
  local line
  [ -f "$K8S_STATE/sysctl.saved" ] || return 0
  while read -r line; do
    [ "$(sysctl -n "${line%%=*}" 2>/dev/null)" = "${line#*=}" ] || sysctl -qw "$line" || true
  done <"$K8S_STATE/sysctl.saved"
}

# --- directories outside ours -------------------------------------------------------------------

# Places the components write to whatever they are told: containerd 1.6 its shims' sockets
# (/run/containerd/s), containerd's CNI library its results cache, the kubelet its container log
# links and its device-plugin socket. `up` notes which of them it created; `down` removes our
# files from them, and those directories when it created them.
SHARED_DIRS=(/run/containerd /var/lib/cni /var/log/containers /var/lib/kubelet)

note_shared_dirs() {
  local dir
  for dir in "${SHARED_DIRS[@]}"; do
    [ -e "$dir" ] || echo "$dir"
  done >>"$K8S_STATE/made-dirs"
}

clean_shared_dirs() {
  local dir result id
  # One result per attachment: <network>-<sandbox>-<interface>; our sandboxes are those on our
  # network, each also attached to containerd's loopback network.
  for result in /var/lib/cni/results/parley-k8s-*; do
    [ -f "$result" ] || continue
    id=${result#/var/lib/cni/results/parley-k8s-}
    id=${id%-*}
    rm -f "$result" "/var/lib/cni/results/cni-loopback-$id-lo"
  done
  find /var/log/containers -maxdepth 1 -type l -lname "$K8S_STATE/*" -delete 2>/dev/null || true
  [ -f "$K8S_STATE/made-dirs" ] || return 0
  while read -r dir; do
    [ -d "$dir" ] || continue
    if [ "$dir" = /var/lib/kubelet ]; then
      pgrep -x kubelet >/dev/null || rm -rf --one-file-system /var/lib/kubelet
    else
      find "$dir" -depth -type d -empty -delete 2>/dev/null || true
    fi
  done <"$K8S_STATE/made-dirs"
}

# --- down ------------------------------------------------------------------------------------------

stop_containers() {
  local id bundle pid
  if pid_of containerd >/dev/null && [ -S "$CONTAINERD_SOCK" ]; then
    for id in $(ctr_k8s tasks ls -q 2>/dev/null); do ctr_k8s tasks kill -s SIGKILL "$id" >/dev/null 2>&1 || true; done
    for id in $(ctr_k8s tasks ls -q 2>/dev/null); do ctr_k8s tasks delete -f "$id" >/dev/null 2>&1 || true; done
    for id in $(ctr_k8s containers ls -q 2>/dev/null); do ctr_k8s containers delete "$id" >/dev/null 2>&1 || true; done
  fi
  stop containerd
  # Shims outlive containerd by design; each recorded its PID in the task's bundle directory.
  # A killed shim leaves its socket, named by a hash of containerd's address, namespace and task.
  for bundle in "$K8S_RUN"/containerd/io.containerd.runtime.v2.task/*/*/; do
    [ -d "$bundle" ] || continue
    if [ -f "$bundle/shim.pid" ]; then
      pid=$(cat "$bundle/shim.pid")
      if tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q -- "-address $CONTAINERD_SOCK"; then
        kill -KILL "$pid" 2>/dev/null || true
      fi
    fi
    bundle=${bundle%/}
    rm -f "/run/containerd/s/$(printf '%s' "$CONTAINERD_SOCK/$(basename "$(dirname "$bundle")")/$(basename "$bundle")" |
      sha256sum | cut -c1-64)"
  done
}

# timed NAME COMMAND...: runs COMMAND, adds "NAME N s" to $timings.
timed() {
  local name=$1 start=$SECONDS
  shift
  "$@"
  timings+="${timings:+, }$name $((SECONDS - start)) s"
}

down_all() {
  timings=
  timed "kubelet" stop kubelet
  timed "control plane" stop_all kube-proxy kube-scheduler kube-controller-manager kube-apiserver
  timed "containers" stop_containers
  timed "cgroups" remove_cgroups
  timed "etcd" stop etcd
  timed "mounts" unmount_all
  timed "network" network_down
  restore_sysctls
  clean_shared_dirs
  # The components' logs of the last cluster stay, for a look after a failed run.
  if [ -d "$LOGS" ]; then
    rm -rf "$K8S_CACHE/logs/last-cluster"
    mv "$LOGS" "$K8S_CACHE/logs/last-cluster"
  fi
  # --one-file-system: never reach through a mount that is somehow still there.
  timed "files" rm -rf --one-file-system "$K8S_STATE" "$K8S_RUN"
  log "down: $timings"
}

leftovers() {
  [ -e "$K8S_STATE" ] || [ -e "$K8S_RUN" ] || ip link show "$NODE_BRIDGE" >/dev/null 2>&1 ||
    ip link show "$POD_BRIDGE" >/dev/null 2>&1 || iptables -S "$FW_CHAIN" >/dev/null 2>&1
}

cmd_down() {
  need_root down
  take_lock
  local start=$SECONDS
  if ! leftovers; then
    log "no cluster here; nothing to remove"
    return 0
  fi
  down_all
  log "down in $((SECONDS - start)) s (cache kept in $K8S_CACHE)"
}

# --- up --------------------------------------------------------------------------------------------

packages() {
  local missing=()
  command -v etcd >/dev/null || missing+=(etcd-server)
  command -v containerd >/dev/null || missing+=(containerd)
  command -v runc >/dev/null || missing+=(runc)
  [ -x /usr/lib/cni/bridge ] && [ -x /usr/lib/cni/host-local ] && [ -x /usr/lib/cni/loopback ] ||
    missing+=(containernetworking-plugins)
  command -v iptables >/dev/null || missing+=(iptables)
  command -v docker >/dev/null || missing+=(docker.io)
  command -v openssl >/dev/null || missing+=(openssl)
  command -v flock >/dev/null && command -v mountpoint >/dev/null || missing+=(util-linux)
  [ ${#missing[@]} -gt 0 ] || return 0
  command -v apt-get >/dev/null || die "missing ${missing[*]}, and there is no apt-get to install them"
  log "packages: installing ${missing[*]} (apt-get)"
  export DEBIAN_FRONTEND=noninteractive
  if ! apt-get install -y -qq --no-install-recommends "${missing[@]}" >"$K8S_CACHE/logs/apt.log" 2>&1; then
    apt-get update -qq >>"$K8S_CACHE/logs/apt.log" 2>&1
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >>"$K8S_CACHE/logs/apt.log" 2>&1 ||
      die "apt-get could not install ${missing[*]} (log: $K8S_CACHE/logs/apt.log)"
  fi
}

# The cluster is up when an `up` finished, every component still runs and the node is Ready.
healthy() {
  local name
  [ -f "$K8S_STATE/up.done" ] || return 1
  for name in "${COMPONENTS[@]}"; do pid_of "$name" >/dev/null || return 1; done
  [ -f "$KUBECONFIG_PATH" ] &&
    [ "$(kubectl get node "$NODE_NAME" -o 'jsonpath={.status.conditions[?(@.type=="Ready")].status}' 2>/dev/null)" = True ]
}

# cert NAME SUBJECT [SUBJECT_ALT_NAMES]: an EC key and a certificate signed by our CA (or by
# the CA named in PKI_CA).
cert() {
  local name=$1 subject=$2 san=${3:-}
  openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$PKI/$name.key" 2>/dev/null
  openssl req -new -key "$PKI/$name.key" -subj "$subject" -out "$PKI/$name.csr" 2>/dev/null
  {
    echo "basicConstraints=CA:FALSE"
    echo "keyUsage=critical,digitalSignature,keyEncipherment"
    echo "extendedKeyUsage=serverAuth,clientAuth"
    [ -z "$san" ] || echo "subjectAltName=$san"
  } >"$PKI/$name.ext"
  openssl x509 -req -in "$PKI/$name.csr" -CA "$PKI/${PKI_CA:-ca}.crt" -CAkey "$PKI/${PKI_CA:-ca}.key" -CAcreateserial \
    -days 30 -extfile "$PKI/$name.ext" -out "$PKI/$name.crt" 2>/dev/null
  rm -f "$PKI/$name.csr" "$PKI/$name.ext"
}

# kubeconfig FILE USER: a kubeconfig with the certificates inline.
kubeconfig() {
  cat >"$1" <<EOF
apiVersion: v1
kind: Config
clusters:
  - name: parley-k8s
    cluster:
      server: https://$NODE_IP:6443
      certificate-authority-data: $(base64 -w0 "$PKI/ca.crt")
users:
  - name: $2
    user:
      client-certificate-data: $(base64 -w0 "$PKI/$2.crt")
      client-key-data: $(base64 -w0 "$PKI/$2.key")
contexts:
  - name: parley-k8s
    context: { cluster: parley-k8s, user: $2 }
current-context: parley-k8s
EOF
  chmod 600 "$1"
}

pki() {
  mkdir -p "$PKI"
  openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$PKI/ca.key" 2>/dev/null
  openssl req -x509 -new -key "$PKI/ca.key" -subj /CN=parley-k8s-ca -days 30 -out "$PKI/ca.crt" 2>/dev/null
  openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$PKI/sa.key" 2>/dev/null
  openssl pkey -in "$PKI/sa.key" -pubout -out "$PKI/sa.pub" 2>/dev/null
  cert apiserver /CN=kube-apiserver \
    "DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local,DNS:localhost,IP:127.0.0.1,IP:$NODE_IP,IP:$API_SERVICE_IP"
  cert apiserver-kubelet-client "/CN=kube-apiserver-kubelet-client/O=system:masters"
  cert admin "/CN=parley-k8s-admin/O=system:masters"
  cert kube-controller-manager /CN=system:kube-controller-manager
  cert kube-scheduler /CN=system:kube-scheduler
  cert kube-proxy /CN=system:kube-proxy
  # The kubelet's one certificate serves its API and signs it in as the node.
  cert kubelet "/CN=system:node:$NODE_NAME/O=system:nodes" "DNS:$NODE_NAME,IP:$NODE_IP"
  # The aggregation layer (an API server such as metrics-server behind kube-apiserver) trusts
  # request headers only from a client of a CA of its own.
  openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$PKI/front-proxy-ca.key" 2>/dev/null
  openssl req -x509 -new -key "$PKI/front-proxy-ca.key" -subj /CN=parley-k8s-front-proxy-ca -days 30 \
    -out "$PKI/front-proxy-ca.crt" 2>/dev/null
  PKI_CA=front-proxy-ca cert front-proxy-client /CN=front-proxy-client
  kubeconfig "$KUBECONFIG_PATH" admin
  local name
  for name in kube-controller-manager kube-scheduler kube-proxy kubelet; do
    kubeconfig "$K8S_STATE/$name.kubeconfig" "$name"
  done
}

containerd_up() {
  mkdir -p "$K8S_STATE/containerd" "$K8S_RUN"
  cat >"$K8S_STATE/containerd/config.toml" <<EOF
version = 2
root = "$K8S_STATE/containerd/root"
state = "$K8S_RUN/containerd"
[grpc]
  address = "$CONTAINERD_SOCK"
[plugins."io.containerd.internal.v1.opt"]
  path = "$K8S_STATE/containerd/opt"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "$(pause_image)"
  # Root here may lack CAP_SYS_RESOURCE: runc then cannot lower a sandbox's oom_score_adj.
  restrict_oom_score_adj = true
  # Pods' network namespaces under the state directory, so that down finds exactly ours.
  netns_mounts_under_state_dir = true
  stream_server_address = "127.0.0.1"
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = false
        Root = "$K8S_RUN/runc"
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$K8S_STATE/cni/net.d"
EOF
  start containerd "$(command -v containerd)" --config "$K8S_STATE/containerd/config.toml"
  wait_for 30 containerd ctr_k8s version
}

import_images() {
  local tar
  for tar in "$(pause_dir)/image.tar" "$(coredns_dir)/image.tar" "$(local_path_dir)/image.tar" "$(helper_dir)/image.tar"; do
    ctr_k8s images import "$tar" >/dev/null
  done
}

control_plane_up() {
  start etcd "$(command -v etcd)" --name parley-k8s --data-dir "$K8S_STATE/etcd" \
    --listen-client-urls "http://$ETCD_CLIENT" --advertise-client-urls "http://$ETCD_CLIENT" \
    --listen-peer-urls "http://$ETCD_PEER" --initial-advertise-peer-urls "http://$ETCD_PEER" \
    --initial-cluster "parley-k8s=http://$ETCD_PEER" --logger=zap
  start kube-apiserver "$KBIN/kube-apiserver" --etcd-servers="http://$ETCD_CLIENT" \
    --bind-address="$NODE_IP" --advertise-address="$NODE_IP" --secure-port=6443 \
    --service-cluster-ip-range="$SERVICE_CIDR" --service-node-port-range="$NODE_PORT_RANGE" \
    --allow-privileged=true --authorization-mode=Node,RBAC --enable-admission-plugins=NodeRestriction \
    --client-ca-file="$PKI/ca.crt" --tls-cert-file="$PKI/apiserver.crt" --tls-private-key-file="$PKI/apiserver.key" \
    --kubelet-client-certificate="$PKI/apiserver-kubelet-client.crt" --kubelet-client-key="$PKI/apiserver-kubelet-client.key" \
    --kubelet-certificate-authority="$PKI/ca.crt" --kubelet-preferred-address-types=InternalIP,Hostname \
    --service-account-key-file="$PKI/sa.pub" --service-account-signing-key-file="$PKI/sa.key" \
    --service-account-issuer=https://kubernetes.default.svc.cluster.local --profiling=false \
    --requestheader-client-ca-file="$PKI/front-proxy-ca.crt" --requestheader-allowed-names=front-proxy-client \
    --requestheader-username-headers=X-Remote-User --requestheader-group-headers=X-Remote-Group \
    --requestheader-extra-headers-prefix=X-Remote-Extra- \
    --proxy-client-cert-file="$PKI/front-proxy-client.crt" --proxy-client-key-file="$PKI/front-proxy-client.key"
  local deadline=$((SECONDS + 120))
  until kubectl get --raw=/readyz >/dev/null 2>&1; do
    running etcd kube-apiserver
    [ $SECONDS -lt $deadline ] || die "kube-apiserver not ready within 120 s (logs: $LOGS)"
    sleep 0.5
  done
  local common=(--bind-address="$NODE_IP" --leader-elect=false --profiling=false)
  start kube-controller-manager "$KBIN/kube-controller-manager" "${common[@]}" \
    --kubeconfig="$K8S_STATE/kube-controller-manager.kubeconfig" \
    --authentication-kubeconfig="$K8S_STATE/kube-controller-manager.kubeconfig" \
    --authorization-kubeconfig="$K8S_STATE/kube-controller-manager.kubeconfig" \
    --cluster-signing-cert-file="$PKI/ca.crt" --cluster-signing-key-file="$PKI/ca.key" --root-ca-file="$PKI/ca.crt" \
    --service-account-private-key-file="$PKI/sa.key" --use-service-account-credentials=true \
    --service-cluster-ip-range="$SERVICE_CIDR"
  start kube-scheduler "$KBIN/kube-scheduler" "${common[@]}" \
    --kubeconfig="$K8S_STATE/kube-scheduler.kubeconfig" \
    --authentication-kubeconfig="$K8S_STATE/kube-scheduler.kubeconfig" \
    --authorization-kubeconfig="$K8S_STATE/kube-scheduler.kubeconfig"
}

node_up() {
  mkdir -p "$K8S_STATE/kubelet" "$K8S_STATE/pod-logs"
  echo "nameserver $DNS_SERVICE_IP" >"$K8S_STATE/resolv.conf"
  make_cgroups
  cat >"$K8S_STATE/kubelet.yaml" <<EOF
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
address: $NODE_IP
readOnlyPort: 0
healthzBindAddress: $NODE_IP
authentication:
  anonymous: { enabled: false }
  webhook: { enabled: true }
  x509: { clientCAFile: $PKI/ca.crt }
authorization: { mode: Webhook }
tlsCertFile: $PKI/kubelet.crt
tlsPrivateKeyFile: $PKI/kubelet.key
containerRuntimeEndpoint: unix://$CONTAINERD_SOCK
cgroupDriver: cgroupfs
# Every pod's cgroup under this one, which down empties and removes.
cgroupRoot: /parley-k8s
# These machines run cgroup v1: Kubernetes 1.33 still runs there when told to.
failCgroupV1: false
failSwapOn: false
clusterDomain: cluster.local
clusterDNS: [$DNS_SERVICE_IP]
resolvConf: $K8S_STATE/resolv.conf
podLogsDir: $K8S_STATE/pod-logs
serializeImagePulls: false
# Images are loaded, never pulled: none may be garbage-collected.
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
evictionHard: { memory.available: 100Mi, nodefs.available: 1%, imagefs.available: 1%, nodefs.inodesFree: 1% }
EOF
  cat >"$K8S_STATE/kube-proxy.yaml" <<EOF
apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
mode: iptables
clientConnection: { kubeconfig: $K8S_STATE/kube-proxy.kubeconfig }
hostnameOverride: $NODE_NAME
clusterCIDR: $POD_CIDR
bindAddress: $NODE_IP
healthzBindAddress: $NODE_IP:10256
metricsBindAddress: $NODE_IP:10249
# 0: leave the machine's conntrack settings as they are.
conntrack: { maxPerCore: 0, min: 0, tcpEstablishedTimeout: 0s, tcpCloseWaitTimeout: 0s }
nodePortAddresses: [$NODE_IP/32, 127.0.0.1/32]
EOF
  start kubelet "$KBIN/kubelet" --config="$K8S_STATE/kubelet.yaml" --kubeconfig="$K8S_STATE/kubelet.kubeconfig" \
    --hostname-override="$NODE_NAME" --node-ip="$NODE_IP" --root-dir="$K8S_STATE/kubelet"
  start kube-proxy "$KBIN/kube-proxy" --config="$K8S_STATE/kube-proxy.yaml"
}

node_ready() {
  [ "$(kubectl get node "$NODE_NAME" -o 'jsonpath={.status.conditions[?(@.type=="Ready")].status}' 2>/dev/null)" = True ]
}

addon() {
  sed -e "s|@COREDNS_IMAGE@|$(coredns_image)|g" -e "s|@LOCAL_PATH_IMAGE@|$(local_path_image)|g" \
    -e "s|@HELPER_IMAGE@|$(helper_image)|g" -e "s|@DNS_SERVICE_IP@|$DNS_SERVICE_IP|g" \
    -e "s|@LOCAL_PATH_DIR@|$K8S_STATE/local-path|g" "$K8S_SRC/addons/$1" | kubectl apply -f - >/dev/null
}

# dns_answers NAME: asks CoreDNS through its Service for NAME's A record (bash's /dev/udp, od);
# prints the first address.
dns_answers() {
  local query="\x12\x34\x01\x00\x00\x01\x00\x00\x00\x00\x00\x00" label bytes
  for label in ${1//./ }; do query+=$(printf '\\x%02x%s' "${#label}" "$label"); done
  query+="\x00\x00\x01\x00\x01"
  # The query goes out in one write through a file: printf flushes at every 0x0a byte, and
  # each write on a UDP socket is a datagram of its own.
  # shellcheck disable=SC2059
  printf "$query" >"$K8S_STATE/dns-query"
  bytes=$(
    exec 3<>"/dev/udp/$DNS_SERVICE_IP/53"
    dd if="$K8S_STATE/dns-query" bs=512 count=1 >&3 2>/dev/null
    timeout 2 dd bs=1024 count=1 <&3 2>/dev/null | od -An -v -tu1
  )
  # shellcheck disable=SC2086 # one word per byte
  set -- $bytes
  # Same ID, a response, no error, at least one answer; the address is the last 4 bytes.
  [ $# -ge 16 ] && [ "$1" = 18 ] && [ "$2" = 52 ] && [ $(($4 & 15)) = 0 ] && [ $(($7 * 256 + $8)) -ge 1 ] || return 1
  shift $(($# - 4))
  echo "$1.$2.$3.$4"
}

cluster_dns_ok() { [ "$(dns_answers kubernetes.default.svc.cluster.local)" = "$API_SERVICE_IP" ]; }

print_usage_hint() {
  log "kubeconfig: $KUBECONFIG_PATH"
  log "use it:     eval \"\$(scripts/k8s/cluster.sh env)\"   (kubectl $K8S_VERSION and helm $HELM_VERSION on PATH)"
}

cmd_up() {
  need_root up
  take_lock
  local total=$SECONDS
  mkdir -p "$K8S_CACHE/logs"
  trap 'log "up failed; logs in $LOGS; \`scripts/k8s/cluster.sh down\` removes what was started"' EXIT
  phase packages
  packages
  phase build
  bash "$K8S_SRC/build.sh"
  phase check
  if healthy; then
    trap - EXIT
    log "already up (node $NODE_NAME Ready); nothing changed"
    print_usage_hint
    return 0
  fi
  if leftovers; then
    log "removing the state of an earlier cluster that is not (fully) running"
    down_all
  fi
  phase "network and certificates"
  mkdir -p "$K8S_STATE" "$PIDS" "$LOGS"
  save_sysctls
  note_shared_dirs
  network_up
  pki
  phase "containerd and images"
  containerd_up
  # Imported while the control plane starts; needed before the first pod.
  import_images >"$LOGS/import.log" 2>&1 9>&- &
  local importer=$!
  phase "etcd and control plane"
  control_plane_up
  phase "kubelet and kube-proxy"
  node_up
  local deadline=$((SECONDS + 120))
  until node_ready; do
    running kubelet kube-proxy kube-controller-manager kube-scheduler
    [ $SECONDS -lt $deadline ] || die "node $NODE_NAME not Ready within 120 s (logs: $LOGS)"
    sleep 0.5
  done
  wait "$importer" || die "importing the cluster's images failed (log: $LOGS/import.log)"
  phase "CoreDNS and local-path"
  addon coredns.yaml
  addon local-path.yaml
  kubectl -n kube-system rollout status deploy/coredns --timeout=120s >/dev/null
  wait_for 60 "CoreDNS's answer for kubernetes.default" cluster_dns_ok
  kubectl -n local-path-storage rollout status deploy/local-path-provisioner --timeout=120s >/dev/null
  # Pods cannot be created in a namespace before its default ServiceAccount exists.
  wait_for 60 "the default ServiceAccount" kubectl -n default get serviceaccount default
  phase finished
  touch "$K8S_STATE/up.done"
  trap - EXIT
  log "up in $((SECONDS - total)) s: node $NODE_NAME Ready at $NODE_IP, CoreDNS answers, StorageClass local-path"
  print_usage_hint
}

# --- status, load, env -----------------------------------------------------------------------------

cmd_status() {
  local name up=0 total=${#COMPONENTS[@]} pid
  for name in "${COMPONENTS[@]}"; do
    if pid=$(pid_of "$name" 2>/dev/null); then
      up=$((up + 1))
      printf 'k8s: %-24s running (pid %s)\n' "$name" "$pid"
    else
      printf 'k8s: %-24s not running\n' "$name"
    fi
  done
  if [ "$up" = 0 ] && ! leftovers; then
    log "down"
    return 3
  fi
  if [ "$up" = "$total" ] && node_ready; then
    kubectl get nodes -o wide
    print_usage_hint
    return 0
  fi
  log "partly up: run \`scripts/k8s/cluster.sh up\` (it removes the stale state first) or \`down\`"
  return 1
}

# An image already loaded is skipped: its docker image ID is recorded in $K8S_STATE/loaded
# (gone with the cluster at `down`), and it is loaded again only when that ID changed or
# containerd lacks it.
cmd_load() {
  [ $# -gt 0 ] || die "usage: cluster.sh load IMAGE..."
  pid_of containerd >/dev/null || die "the cluster is not up (scripts/k8s/cluster.sh up)"
  command -v docker >/dev/null || die "docker is not installed"
  local start=$SECONDS image id stamp ref todo=() ids=()
  docker image inspect "$@" >/dev/null || die "not in docker's image store: $*"
  mkdir -p "$K8S_STATE/loaded"
  for image in "$@"; do
    id=$(docker image inspect -f '{{.Id}}' "$image")
    stamp=$K8S_STATE/loaded/$(echo "$image" | tr '/:' '__')
    ref=$image
    [[ $ref == */* ]] || ref=library/$ref
    [[ ${ref%%/*} == *.* ]] || ref=docker.io/$ref
    if [ "$(cat "$stamp" 2>/dev/null)" = "$id" ] && [ -n "$(ctr_k8s images ls -q "name==$ref")" ]; then
      continue
    fi
    todo+=("$image")
    ids+=("$id")
  done
  if [ ${#todo[@]} -eq 0 ]; then
    log "loaded already: $*"
    return 0
  fi
  docker save "${todo[@]}" | ctr_k8s images import - >/dev/null
  local i
  for i in "${!todo[@]}"; do
    echo "${ids[$i]}" >"$K8S_STATE/loaded/$(echo "${todo[$i]}" | tr '/:' '__')"
  done
  log "loaded ${todo[*]} in $((SECONDS - start)) s ($(($# - ${#todo[@]})) of $# were loaded already)"
}

cmd_env() {
  echo "export KUBECONFIG=$KUBECONFIG_PATH"
  echo "export PATH=$KBIN:$(helm_dir)/bin:\$PATH"
}

case "${1:-}" in
  up) cmd_up ;;
  down) cmd_down ;;
  status) cmd_status ;;
  load)
    shift
    cmd_load "$@"
    ;;
  env) cmd_env ;;
  build) bash "$K8S_SRC/build.sh" ;;
  *)
    awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
    exit 2
    ;;
esac
