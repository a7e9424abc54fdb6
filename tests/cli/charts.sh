#!/usr/bin/env bash
# Charts as input, rendered by the real helm: a directory and a packaged .tgz, values, the
# verbatim text of a template `fail`, capability checks, missing dependencies, and no helm.
# Expected counts are read off tests/charts/modal-operator's templates.
source "$(dirname "$0")/common.inc"
need_helm
chart=$ROOT/tests/charts/modal-operator

# Cluster-wide mode: CRD, ServiceAccount, ClusterRole, ClusterRoleBinding, Deployment, Service,
# one mutating configuration with 2 webhooks and one validating with 1.
run "$FOOTPRINT" audit "$chart" -n modal-system --format json
expect_status 0
[ "$(json_get "$OUT" "sorted(d['inventory']['kinds'].items())")" = \
  "[('ClusterRole', 1), ('ClusterRoleBinding', 1), ('CustomResourceDefinition', 1), ('Deployment', 1), ('MutatingWebhookConfiguration', 1), ('Service', 1), ('ServiceAccount', 1), ('ValidatingWebhookConfiguration', 1)]" ] ||
  fail "cluster-wide mode kinds"
[ "$(json_get "$OUT" "(d['inventory']['webhooks'], d['inventory']['mutatingWebhooks'])")" = "(3, 2)" ] ||
  fail "webhooks counted one by one"
[ "$(json_get "$OUT" "d['charts'][0]['release']")" = modal-operator ] || fail "release defaults to the chart name"
json_get "$OUT" "set(f['source'].get('helmTemplate') for f in d['findings'])" |
  grep -q "modal-operator/templates/webhooks.yaml" || fail "findings keep the # Source template"

# Restricted mode via --set and -f: Roles instead of the manager ClusterRole, no CRD, pinned
# webhooks; one ClusterRole remains, for the CA of the operator's own webhook configurations.
printf 'namespaceRestriction:\n  enabled: true\n  targetNamespace: team-a\n' >"$TMP/restricted.yaml"
run "$FOOTPRINT" audit "$chart" -n modal-system -f "$TMP/restricted.yaml" --set upgradeCRD=false --format json
expect_status 0
[ "$(json_get "$OUT" "(d['inventory']['kinds'].get('Role'), d['inventory']['kinds'].get('ClusterRole'), d['inventory']['kinds'].get('CustomResourceDefinition'))")" = \
  "(2, 1, None)" ] || fail "restricted mode kinds"
[ "$(json_get "$OUT" "sorted(set(w['namespaceSelector'] for w in d['admission']['webhooks']))")" = \
  "['kubernetes.io/metadata.name=team-a']" ] || fail "restricted webhooks are pinned to team-a"

# A template `fail` is shown verbatim with helm's location, exit 2.
run "$FOOTPRINT" audit "$chart" --set namespaceRestriction.enabled=true
expect_status 2
expect_stderr "execution error at (modal-operator/templates/validation.yaml:5:4): VALIDATION ERROR: namespaceRestriction.enabled=true is incompatible with upgradeCRD=true. Set upgradeCRD=false."
run "$FOOTPRINT" audit "$chart" --set webhook.namespaceSelector.team=a
expect_status 2
expect_stderr "VALIDATION ERROR: webhook.namespaceSelector must be empty."

# Capability checks: the PodMonitor renders only with --api-versions monitoring.coreos.com/v1.
run "$FOOTPRINT" audit "$chart" -n modal-system --format json
expect_status 0
[ "$(json_get "$OUT" "d['charts'][0]['capabilityChecks']")" = \
  "[{'apiVersion': 'monitoring.coreos.com/v1', 'declared': False, 'objects': ['PodMonitor modal-operator-modal-operator']}]" ] ||
  fail "capability check detected"
run "$FOOTPRINT" audit "$chart" -n modal-system --api-versions monitoring.coreos.com/v1 --format json
expect_status 0
[ "$(json_get "$OUT" "d['inventory']['kinds'].get('PodMonitor')")" = 1 ] || fail "PodMonitor rendered when declared"
json_get "$OUT" "[f['check'] for f in d['findings']]" | grep -q crd-missing || fail "PodMonitor needs its CRD"

# A packaged chart gives the same render.
"$HELM" package "$chart" -d "$TMP" >/dev/null
run "$FOOTPRINT" audit "$TMP/modal-operator-0.3.0.tgz" -n modal-system --format json
expect_status 0
[ "$(json_get "$OUT" "d['inventory']['objects']")" = 8 ] || fail ".tgz chart"

# SARIF points at the template file of a chart directory.
cd "$ROOT"
run "$FOOTPRINT" audit tests/charts/modal-operator -n modal-system --format sarif
expect_status 0
json_get "$OUT" "set(r['locations'][0]['physicalLocation']['artifactLocation']['uri'] for r in d['runs'][0]['results'])" |
  grep -q "tests/charts/modal-operator/templates/rbac.yaml" || fail "SARIF URI is the template"

# Missing dependencies get a plain hint.
run "$FOOTPRINT" audit "$ROOT/tests/charts/needs-dependency"
expect_status 2
expect_stderr "found in Chart.yaml, but missing in charts/ directory: common-lib"
expect_stderr "hint: the chart's dependencies are not vendored. Run \`helm dependency build"

# Without helm: how to install it, or how to pipe a render instead.
run env -u FOOTPRINT_HELM PATH=/nonexistent "$FOOTPRINT" audit "$chart"
expect_status 2
expect_stderr "helm is not installed"
expect_stderr "| footprint audit -"
