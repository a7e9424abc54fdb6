#!/usr/bin/env bash
# An OLM bundle folder is rendered as OLM installs it (src/load/olm_*.cc, whose unit tests argue
# each object from OLM's source): audit names the renderer and the install mode, finds the
# generated webhook configurations, Service and CRD conversion wiring, and raises no missing-CA
# finding, since OLM supplies the serving certificates. Without --install-mode, audit compares
# every mode the bundle supports; OLM's refusals are errors with OLM's own message.
source "$(dirname "$0")/common.inc"

webhooks=$ROOT/tests/data/olm/webhook-operator
argocd=$SHARED/olm/argocd-operator.v0.6.0/bundle

run "$FOOTPRINT" audit "$webhooks" -n ops --install-mode AllNamespaces --format json
expect_status 0
for id in webhook-service-missing webhook-service-port-mismatch webhook-ca-not-injected \
  crd-conversion-service-missing crd-conversion-port-mismatch crd-conversion-ca-not-injected; do
  if grep -q "\"$id\"" "$OUT"; then fail "OLM provides the webhooks' Service and CA, yet: $id"; fi
done
grep -q "OLM supplies the serving certificates" "$OUT" || fail "the certificate note is missing"
grep -q "install mode AllNamespaces" "$OUT" || fail "the install mode is not named"
grep -q "vwidget.example.com" "$OUT" || fail "the validating webhook is not audited"

# Text: findings on generated objects name the renderer and the CSV line they come from.
COLUMNS=300 run "$FOOTPRINT" audit "$webhooks" -n ops --install-mode AllNamespaces
expect_status 0
expect_stdout "rendered by olm; from $webhooks/manifests/webhook-operator.clusterserviceversion.yaml:"

# A mode the bundle does not support, and OLM's validator message.
run "$FOOTPRINT" audit "$webhooks" -n ops --install-mode OwnNamespace
expect_status 2
expect_stderr "does not support install mode OwnNamespace (it supports AllNamespaces)"
run "$FOOTPRINT" audit "$webhooks" --install-mode SingleNamespace
expect_status 2
expect_stderr "name the namespaces it watches: SingleNamespace=NS"

cp -r "$webhooks" "$TMP/refused"
sed -i 's/    - apiGroups: \[example.com\]/    - apiGroups: ["*"]/' \
  "$TMP/refused/manifests/webhook-operator.clusterserviceversion.yaml"
run "$FOOTPRINT" audit "$TMP/refused" --install-mode AllNamespaces
expect_status 2
expect_stderr "webhook \"vwidget.example.com\" contains forbidden rule: admission webhook rules cannot reference API group \"*\""

# spec.relatedImages join the air-gap list: the operator may start them.
run "$FOOTPRINT" airgap "$webhooks" --install-mode AllNamespaces --format json
expect_status 0
grep -q "widget-sidecar:v2" "$OUT" || fail "relatedImages are not in the air-gap list"
grep -q '"relatedImages"' "$OUT" || fail "the related image's source is not named"

# A real bundle (third-party, so in ../shared/olm, not in the repository).
[ -d "$argocd" ] || skip "$argocd not found; ../shared/olm holds the OLM oracle"
# Every supported mode side by side: argocd-operator supports three.
run "$FOOTPRINT" audit "$argocd" -n argocd-system
expect_status 0
expect_stdout "Modes: OwnNamespace, SingleNamespace=watched, AllNamespaces."
run "$FOOTPRINT" audit "$argocd" --format sarif
expect_status 2
expect_stderr "hint: choose one mode with --install-mode"
echo "ok"
