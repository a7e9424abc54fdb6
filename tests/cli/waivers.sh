#!/usr/bin/env bash
# Waivers in .footprint.yaml: owner, ticket and expiry date; an expired waiver waives nothing and
# is reported with its owner (its findings count toward --fail-on again); one matching nothing is
# stale. The date comes from FOOTPRINT_TODAY, so the test does not depend on the clock.
source "$(dirname "$0")/common.inc"
cd "$TMP"
# Two ClusterRoles with a namespace: namespace-on-cluster-scoped (low) on each.
cat >bundle.yaml <<'YAML'
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: viewer, namespace: ops}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: editor, namespace: ops}
YAML
run "$FOOTPRINT" audit --no-config bundle.yaml --format json -o plain.json
expect_status 0
editor=$(json_get plain.json "[f['fingerprint'] for f in d['findings'] if f['object']['name'] == 'editor'][0]")
cat >.footprint.yaml <<YAML
ignore:
  - check: namespace-on-cluster-scoped
    name: viewer
    reason: kustomize overlays set it
    owner: alice
    ticket: OPS-12
    expires: 2026-03-31
  - check: "*"
    fingerprint: $editor
    reason: vendor chart, fixed upstream in 2.0
    owner: bob
  - check: crd-missing
    reason: prometheus-operator is installed
YAML

# On the expiry day the waiver still holds; the third waiver matches nothing.
FOOTPRINT_TODAY=2026-03-31 run "$FOOTPRINT" audit bundle.yaml --fail-on low
expect_status 0
expect_stdout "Findings: none; 2 suppressed"
expect_stdout ".footprint.yaml:12: the waiver of crd-missing matches no finding (no owner): remove it."
expect_no_stdout "expired"

# The day after, the finding is back, fails the gate, and the owner is named.
FOOTPRINT_TODAY=2026-04-01 run "$FOOTPRINT" audit bundle.yaml --fail-on low
expect_status 1
expect_stdout "Findings: 1 low; 1 suppressed"
expect_stdout ".footprint.yaml:2: the waiver of namespace-on-cluster-scoped expired on 2026-03-31 (owner alice,"
expect_stdout "ticket OPS-12)"
FOOTPRINT_TODAY=2026-04-01 run "$FOOTPRINT" audit bundle.yaml --format markdown
expect_status 0
expect_stdout "- \`.footprint.yaml:2\`: the waiver of \`namespace-on-cluster-scoped\` expired on 2026-03-31 (owner alice, ticket OPS-12); 1 finding reported again"
FOOTPRINT_TODAY=2026-04-01 run "$FOOTPRINT" audit bundle.yaml --format json
expect_status 0
[ "$(json_get "$OUT" "[(w['at'], w['status'], w.get('owner'), w['findings']) for w in d['waivers']]")" = \
  "[('.footprint.yaml:2', 'expired', 'alice', 1), ('.footprint.yaml:12', 'stale', None, 0)]" ] ||
  fail "waivers in JSON: $(json_get "$OUT" "d['waivers']")"
[ "$(json_get "$OUT" "{f['object']['name']: f['suppressed'] for f in d['findings']}")" = \
  "{'viewer': False, 'editor': True}" ] || fail "the fingerprint waiver holds, the expired one not"

# The trial's case: an expired waiver whose finding a second waiver (by fingerprint) suppresses.
# That finding is not reported, so the expired waiver must not say it is.
viewer=$(json_get plain.json "[f['fingerprint'] for f in d['findings'] if f['object']['name'] == 'viewer'][0]")
cat >.footprint.yaml <<YAML
ignore:
  - check: namespace-on-cluster-scoped
    name: viewer
    reason: kustomize overlays set it
    expires: 2026-03-31
  - check: "*"
    fingerprint: $viewer
    reason: accepted until the overlay is gone
YAML
FOOTPRINT_TODAY=2026-04-01 run "$FOOTPRINT" audit bundle.yaml
expect_status 0
expect_no_stdout "reported above"
expect_stdout "the 1 finding it matches is under Suppressed: another waiver or a trusted"
FOOTPRINT_TODAY=2026-04-01 run "$FOOTPRINT" audit bundle.yaml --format markdown
expect_status 0
expect_stdout "0 findings reported again, 1 suppressed by another waiver or a trusted annotation"

# Dates are checked, in the file and in FOOTPRINT_TODAY.
printf 'ignore:\n  - check: crd-missing\n    reason: x\n    expires: 2026-02-30\n' >.footprint.yaml
run "$FOOTPRINT" audit bundle.yaml
expect_status 2
expect_stderr ".footprint.yaml:4:14: expires must be a date as YYYY-MM-DD, not \"2026-02-30\""
rm .footprint.yaml
FOOTPRINT_TODAY=tomorrow run "$FOOTPRINT" audit bundle.yaml
expect_status 2
expect_stderr "FOOTPRINT_TODAY must be a date as YYYY-MM-DD"
