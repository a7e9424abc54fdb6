#!/usr/bin/env bash
# --namespaces gives the cluster's enforce labels: a Deployment whose pods fail the namespace's
# level is reported high (its pods are never created), and --fail-on high exits 1.
source "$(dirname "$0")/common.inc"
cat >"$TMP/app.yaml" <<'YAML'
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: apps}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx@sha256:0000000000000000000000000000000000000000000000000000000000000000}]
YAML
cat >"$TMP/ns.yaml" <<'YAML'
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Namespace
  metadata:
    name: apps
    labels: {pod-security.kubernetes.io/enforce: restricted}
- apiVersion: v1
  kind: Namespace
  metadata: {name: kube-system}
YAML
run "$FOOTPRINT" audit "$TMP/app.yaml" --namespaces "$TMP/ns.yaml" --fail-on high
expect_status 1
expect_stdout "pod-security-enforce-violation"
expect_stdout "Namespace apps: enforces restricted:latest in the cluster."
expect_stdout "Deployment web  baseline  NO"

# Without --namespaces the namespace's labels are unknown: no violation is claimed.
run "$FOOTPRINT" audit "$TMP/app.yaml" --fail-on high
expect_status 0
expect_stdout "Namespace apps: enforce label unknown"
expect_no_stdout "pod-security-enforce-violation"

# A namespace --namespaces does not list, and the bundle does not create: still unknown.
sed -i 's/name: apps$/name: web-apps/' "$TMP/ns.yaml"
run "$FOOTPRINT" audit "$TMP/app.yaml" --namespaces "$TMP/ns.yaml" --fail-on high
expect_status 0
expect_stdout "--namespaces does not"
