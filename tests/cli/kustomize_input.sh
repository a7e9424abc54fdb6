#!/usr/bin/env bash
# A kustomization is built by `kubectl apply -k` / `kubectl kustomize`; read as manifests, its
# kustomization.yaml is no Kubernetes object and the resources it lists lack its patches. The
# advice is to render it first and audit the output from standard input.
source "$(dirname "$0")/common.inc"

mkdir "$TMP/kz"
printf 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [cm.yaml]\n' \
  >"$TMP/kz/kustomization.yaml"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: x}\n' >"$TMP/kz/cm.yaml"

run "$FOOTPRINT" audit "$TMP/kz"
expect_status 2
expect_stderr "is a kustomization (kustomization.yaml)"
expect_stderr "hint: render it first: kubectl kustomize $TMP/kz | footprint audit -"
run "$FOOTPRINT" audit "$TMP/kz/kustomization.yaml"
expect_status 2
expect_stderr "hint: render it first: kubectl kustomize $TMP/kz | footprint audit -"
# Not "has no metadata.name", which sends the user after the wrong fix.
if grep -q "metadata.name" "$ERR"; then fail "wrong advice: $(cat "$ERR")"; fi
echo "ok"
