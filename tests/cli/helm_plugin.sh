#!/usr/bin/env bash
# The helm plugin in packaging/helm-plugin, installed with the real helm 4 (`helm plugin install
# DIR`): `helm footprint CHART -f values.yaml -n NS` renders the chart with that helm and audits
# it, exactly as `footprint audit CHART -f values.yaml -n NS` does. helm takes -n out of the
# plugin's arguments and passes it as HELM_NAMESPACE (pkg/cmd/load_plugins.go,
# manuallyProcessArgs), so this also proves the plugin reads the namespace from there.
source "$(dirname "$0")/common.inc"
need_helm
# A helm home of its own; plugins go to $HELM_DATA_HOME/plugins.
unset HELM_PLUGINS
export HELM_CONFIG_HOME=$TMP/config HELM_CACHE_HOME=$TMP/cache HELM_DATA_HOME=$TMP/data
run "$HELM" plugin install "$ROOT/packaging/helm-plugin"
expect_status 0
run "$HELM" plugin list
expect_status 0
grep -qE '^footprint[[:space:]]+0\.1\.0[[:space:]]+cli/v1' "$OUT" || fail "helm plugin list: $(cat "$OUT")"

# footprint from the build, as the package puts it on PATH.
bin=$TMP/bin
mkdir -p "$bin"
ln -s "$FOOTPRINT" "$bin/footprint"
chart=$ROOT/tests/charts/modal-operator
printf 'namespaceRestriction:\n  enabled: true\n  targetNamespace: team-a\n' >"$TMP/restricted.yaml"

PATH=$bin:$PATH run "$HELM" footprint "$chart" -f "$TMP/restricted.yaml" --set upgradeCRD=false \
  -n modal-system --format json
expect_status 0
cp "$OUT" "$TMP/plugin.json"
# Restricted mode (tests/charts/modal-operator/templates/rbac.yaml): two Roles, one ClusterRole
# (the webhook CA injector's, which must patch the cluster-scoped webhook configuration), no CRD.
[ "$(json_get "$TMP/plugin.json" "(d['inventory']['kinds'].get('Role'), d['inventory']['kinds'].get('ClusterRole'), d['inventory']['kinds'].get('CustomResourceDefinition'))")" = \
  "(2, 1, None)" ] || fail "the values file and --set reached helm"
json_get "$TMP/plugin.json" "d['charts'][0]['command']" | grep -qF -- "--namespace modal-system" ||
  fail "-n should reach the render: $(json_get "$TMP/plugin.json" "d['charts'][0]['command']")"

FOOTPRINT_HELM=$HELM run "$FOOTPRINT" audit "$chart" -f "$TMP/restricted.yaml" \
  --set upgradeCRD=false -n modal-system --format json
expect_status 0
diff -u "$OUT" "$TMP/plugin.json" || fail "helm footprint and footprint audit disagree"

# footprint's exit code comes through helm 4 (the subprocess runtime's InvokeExecError keeps the
# plugin's exit code, and helm exits with it): a template `fail` is exit 2. helm adds only
# "Error: plugin ... exited with error", so the plugin names the verdict on stderr.
PATH=$bin:$PATH run "$HELM" footprint "$chart" --set namespaceRestriction.enabled=true
expect_status 2
expect_stderr "VALIDATION ERROR"
expect_stderr "helm footprint: exit 2: footprint could not audit the chart"
# The unrestricted chart has high findings (its cluster-wide RBAC): exit 1, as documented for
# --fail-on, and said as such.
PATH=$bin:$PATH run "$HELM" footprint "$chart" -n modal-system --fail-on high
expect_status 1
expect_stderr "helm footprint: exit 1: a finding reached --fail-on"
PATH=$bin:$PATH run "$HELM" footprint "$chart" -n modal-system --fail-on none
expect_status 0
! grep -qF "helm footprint: exit" "$ERR" || fail "no verdict line on a pass"

# Without footprint on PATH the plugin says what to install.
PATH=/usr/bin:/bin run "$HELM" footprint "$chart"
expect_failure
expect_stderr "footprint binary is not on PATH"
