#!/usr/bin/env bash
# Checks a running local cluster (scripts/k8s/cluster.sh up) end to end, in a namespace of its own
# that it deletes again:
#   - a docker image built on this machine, loaded with `cluster.sh load`, runs as a pod
#     (imagePullPolicy Never: nothing is pulled);
#   - a Service: that pod reaches a web server pod by the Service's DNS name, and the server's
#     pod IP resolves through a headless Service (DNS between pods);
#   - a NodePort answers on 127.0.0.1 and on the node address;
#   - a PersistentVolumeClaim on the default StorageClass (local-path) is bound, written, read,
#     and its directory is removed with the claim.
# Usage: scripts/k8s/smoke.sh [IMAGE]   (default parley-local/debian:bookworm: needs bash and getent)
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

IMAGE=${1:-parley-local/debian:bookworm}
NS=parley-smoke
NODE_PORT=31999
kubectl() { "$(kube_dir)/bin/kubectl" --kubeconfig "$KUBECONFIG_PATH" "$@"; }
check_start=$SECONDS
ok() {
  echo "smoke: ok   $* ($((SECONDS - check_start)) s)"
  check_start=$SECONDS
}
fail() {
  echo "smoke: FAIL $*" >&2
  kubectl -n "$NS" get pods,svc,pvc -o wide >&2 || true
  kubectl -n "$NS" describe pods >&2 2>/dev/null | tail -n 40 || true
  exit 1
}

bash "$K8S_SRC/cluster.sh" status >/dev/null || fail "the cluster is not up (scripts/k8s/cluster.sh up)"
kubectl delete namespace "$NS" --ignore-not-found --wait=true >/dev/null
bash "$K8S_SRC/cluster.sh" load "$IMAGE" >/dev/null || fail "could not load $IMAGE"
ok "loaded $IMAGE from docker"

kubectl apply -f - >/dev/null <<EOF
apiVersion: v1
kind: Namespace
metadata: { name: $NS }
---
apiVersion: apps/v1
kind: Deployment
metadata: { name: web, namespace: $NS }
spec:
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      terminationGracePeriodSeconds: 1
      containers:
        - name: web
          image: $(helper_image)
          imagePullPolicy: Never
          command: [sh, -c, 'mkdir -p /tmp/www && echo "hello from \$(hostname)" >/tmp/www/index.html && exec httpd -f -p 8080 -h /tmp/www']
          ports: [{ containerPort: 8080 }]
          readinessProbe: { tcpSocket: { port: 8080 }, periodSeconds: 1 }
---
apiVersion: v1
kind: Service
metadata: { name: web, namespace: $NS }
spec:
  type: NodePort
  selector: { app: web }
  ports: [{ port: 80, targetPort: 8080, nodePort: $NODE_PORT }]
---
apiVersion: v1
kind: Service
metadata: { name: web-pods, namespace: $NS }
spec:
  clusterIP: None
  selector: { app: web }
  ports: [{ port: 8080 }]
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: { name: data, namespace: $NS }
spec:
  accessModes: [ReadWriteOnce]
  resources: { requests: { storage: 16Mi } }
---
apiVersion: batch/v1
kind: Job
metadata: { name: client, namespace: $NS }
spec:
  backoffLimit: 0
  template:
    spec:
      restartPolicy: Never
      terminationGracePeriodSeconds: 1
      containers:
        - name: client
          image: $IMAGE
          imagePullPolicy: Never
          command:
            - bash
            - -ec
            - |
              echo "service: \$(getent hosts web.$NS.svc.cluster.local)"
              echo "pod: \$(getent hosts web-pods.$NS.svc.cluster.local)"
              exec 3<>/dev/tcp/web.$NS.svc.cluster.local/80
              printf 'GET / HTTP/1.0\r\nHost: web\r\n\r\n' >&3
              tail -n 1 <&3 >/data/answer
              echo "stored: \$(cat /data/answer)"
          volumeMounts: [{ name: data, mountPath: /data }]
      volumes:
        - name: data
          persistentVolumeClaim: { claimName: data }
EOF
ok "applied a Deployment, a NodePort and a headless Service, a PVC and a Job"

kubectl -n "$NS" rollout status deploy/web --timeout=120s >/dev/null || fail "the web pod did not become ready"
web_pod=$(kubectl -n "$NS" get pods -l app=web -o 'jsonpath={.items[0].metadata.name}')
web_ip=$(kubectl -n "$NS" get pods -l app=web -o 'jsonpath={.items[0].status.podIP}')
ok "web pod $web_pod ready at $web_ip"

kubectl -n "$NS" wait --for=condition=complete job/client --timeout=120s >/dev/null || fail "the client Job did not complete"
logs=$(kubectl -n "$NS" logs job/client)
while read -r line; do echo "smoke:      $line"; done <<<"$logs"
service_ip=$(kubectl -n "$NS" get svc web -o 'jsonpath={.spec.clusterIP}')
echo "$logs" | grep -q "^service: $service_ip " || fail "the Service's name did not resolve to $service_ip"
echo "$logs" | grep -q "^pod: $web_ip " || fail "the headless Service's name did not resolve to the pod IP $web_ip"
echo "$logs" | grep -q "^stored: hello from $web_pod$" || fail "the client did not get the web pod's page through the Service"
ok "a pod from $IMAGE resolved the Service and the pod by DNS and fetched the page through the Service"

pv=$(kubectl -n "$NS" get pvc data -o 'jsonpath={.spec.volumeName}')
[ "$(kubectl -n "$NS" get pvc data -o 'jsonpath={.status.phase}')" = Bound ] || fail "the claim is not Bound"
pv_dir=$(kubectl get pv "$pv" -o 'jsonpath={.spec.hostPath.path}{.spec.local.path}')
case "$pv_dir" in "$K8S_STATE/local-path/"*) ;; *) fail "volume $pv is at $pv_dir, not under $K8S_STATE/local-path" ;; esac
[ "$(cat "$pv_dir/answer")" = "hello from $web_pod" ] || fail "the volume's file on the node does not hold the answer"
ok "claim data Bound to $pv at $pv_dir, holding what the pod wrote"

for address in 127.0.0.1 "$NODE_IP"; do
  answer=$(exec 3<>"/dev/tcp/$address/$NODE_PORT" && printf 'GET / HTTP/1.0\r\n\r\n' >&3 && tail -n 1 <&3) ||
    fail "nothing answered on $address:$NODE_PORT"
  [ "$answer" = "hello from $web_pod" ] || fail "$address:$NODE_PORT answered '$answer'"
done
ok "NodePort $NODE_PORT answers on 127.0.0.1 and $NODE_IP"

kubectl delete namespace "$NS" --wait=true --timeout=120s >/dev/null || fail "the namespace was not deleted"
deadline=$((SECONDS + 60))
while kubectl get pv "$pv" >/dev/null 2>&1 || [ -e "$pv_dir" ]; do
  [ $SECONDS -lt $deadline ] || fail "volume $pv or its directory $pv_dir is still there 60 s after its claim went"
  sleep 1
done
ok "namespace deleted; volume $pv and its directory removed"
echo "smoke: all checks passed"
