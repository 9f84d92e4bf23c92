// The pod sandbox's process (the role of registry.k8s.io/pause, which cannot be pulled here):
// it holds the pod's namespaces, reaps orphans as PID 1 of a shared PID namespace, and exits on
// SIGINT or SIGTERM. Built by scripts/k8s/build.sh into an image with nothing else in it.
package main

import (
	"os"
	"os/signal"
	"syscall"
)

func main() {
	signals := make(chan os.Signal, 16)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM, syscall.SIGCHLD)
	for sig := range signals {
		if sig != syscall.SIGCHLD {
			os.Exit(0)
		}
		reap()
	}
}

// reap collects every exited child without blocking.
func reap() {
	for {
		var status syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &status, syscall.WNOHANG, nil)
		if pid <= 0 || err != nil {
			return
		}
	}
}
