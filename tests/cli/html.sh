#!/usr/bin/env bash
# --format html: a well-formed, self-contained page for audit and compare (checked by two
# parsers in html_wellformed.py), with text escaped and Secret values absent. The browser test
# (tests/browser/) checks the same pages rendered in chromium.
source "$(dirname "$0")/common.inc"
check_pages() { "$PYTHON" "$ROOT/tests/cli/html_wellformed.py" "$@" || fail "malformed page"; }

# Markup in a manifest is text on the page, never markup; a Secret's values never appear.
cat >"$TMP/hostile.yaml" <<'YAML'
apiVersion: apps/v1
kind: Deployment
metadata: {name: app, namespace: team}
spec:
  selector: {matchLabels: {app: x}}
  template:
    metadata: {labels: {app: x}}
    spec:
      containers:
      - name: c
        image: 'registry.example.com/app:1.0"><script>alert(1)</script>'
---
apiVersion: v1
kind: Secret
metadata: {name: creds, namespace: team}
stringData: {password: hunter2-secret-value}
data: {token: c2VjcmV0LXRva2VuLWJhc2U2NA==}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: everyone-admin}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}
subjects:
- {apiGroup: rbac.authorization.k8s.io, kind: Group, name: 'system:authenticated'}
YAML
run "$FOOTPRINT" audit "$TMP/hostile.yaml" -n team --format html -o "$TMP/hostile.html"
expect_status_in 0 1
check_pages "$TMP/hostile.html"
grep -qF '&lt;script&gt;alert(1)&lt;/script&gt;' "$TMP/hostile.html" || fail "the image is shown, escaped"
! grep -qF '<script>alert' "$TMP/hostile.html" || fail "markup from the manifest reached the page"
! grep -qE 'hunter2-secret-value|c2VjcmV0LXRva2VuLWJhc2U2NA' "$TMP/hostile.html" || fail "a Secret value"
# cluster-admin for every authenticated user: a cluster-wide binding whose path is risky.
grep -qF 'data-binding="ClusterRoleBinding everyone-admin" data-risky="1"' "$TMP/hostile.html" ||
  fail "risky cluster-wide binding drawn"

# The field report's two modes and their comparison.
field=$DATA/field-report
for mode in global restricted; do
  run "$FOOTPRINT" audit "$field/$mode.yaml" -n dynamo-system --format html -o "$TMP/$mode.html"
  expect_status_in 0 1
done
check_pages "$TMP/global.html" "$TMP/restricted.html"
# global.yaml has four mutating and four validating webhooks (its README and a count by hand).
grep -qF 'data-webhooks="8"' "$TMP/global.html" || fail "8 webhooks in global mode"
run "$FOOTPRINT" compare "global=$field/global.yaml" "restricted=$field/restricted.yaml" \
  -n dynamo-system --format html
expect_status 0
cp "$OUT" "$TMP/compare.html"
check_pages "$TMP/compare.html"
grep -q '<tr class="differs">' "$TMP/compare.html" || fail "differing rows highlighted"

# Every corpus bundle renders a well-formed page.
if [ -d "$SHARED/corpus" ]; then
  for bundle in "$SHARED"/corpus/*.yaml; do
    name=$(basename "$bundle" .yaml)
    run "$FOOTPRINT" audit "$bundle" --format html -o "$TMP/corpus-$name.html"
    expect_status_in 0 1
  done
  check_pages "$TMP"/corpus-*.html
else
  echo "skipping the corpus pages: $SHARED/corpus is missing"
fi
echo "html: ok"
