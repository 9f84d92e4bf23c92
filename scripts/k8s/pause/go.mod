module parley.local/k8s-pause

go 1.24
