#!/usr/bin/env bash
# diff OLD NEW with -f/--values and --set, as helm users write an upgrade review: the chart
# options apply to the side or sides that are charts (docs/diff.md), here from the release's
# current manifest (helm template stands in for `helm get manifest`) to the next chart version.
# helm's precedence decides the tag: --set wins over -f (helm install --help: "--set ...
# overrides values files"). --old-values and --new-values belong to their own side, which must
# be a chart; an error names the option given and the side that is not a chart.
source "$(dirname "$0")/common.inc"
need_helm
old_chart=$ROOT/tests/charts/modal-operator
new_chart=$ROOT/tests/charts/modal-operator-0.4
cd "$TMP"
"$HELM" template modal-operator "$old_chart" -n modal-system --include-crds >rel-old.yaml
printf 'image: registry.example.com/modal/operator:0.4.1\n' >vals.yaml
image_change() {
  json_get "$OUT" "[c['change'] for c in d['changes'] if c['area'] == 'images']"
}

run "$FOOTPRINT" diff rel-old.yaml "$new_chart" -n modal-system -f vals.yaml --format json
expect_status 0
[ "$(image_change)" = "['registry.example.com/modal/operator:0.3.0 -> registry.example.com/modal/operator:0.4.1']" ] ||
  fail "-f did not reach the chart: $(image_change)"
run "$FOOTPRINT" diff rel-old.yaml "$new_chart" -n modal-system -f vals.yaml \
  --set image=registry.example.com/modal/operator:0.4.2 --format json
expect_status 0
[ "$(image_change)" = "['registry.example.com/modal/operator:0.3.0 -> registry.example.com/modal/operator:0.4.2']" ] ||
  fail "--set did not reach the chart: $(image_change)"
# The other way round: OLD is the chart.
run "$FOOTPRINT" diff "$old_chart" rel-old.yaml -n modal-system \
  --set image=registry.example.com/modal/operator:0.2.9 --format json
expect_status 0
[ "$(image_change)" = "['registry.example.com/modal/operator:0.2.9 -> registry.example.com/modal/operator:0.3.0']" ] ||
  fail "--set did not reach OLD's chart: $(image_change)"

# A side's own values on a side that is no chart: the option and the side are named.
run "$FOOTPRINT" diff rel-old.yaml "$new_chart" -n modal-system --old-values vals.yaml
expect_status 2
expect_stderr "--old-values applies to a chart, and OLD (rel-old.yaml) is not one"
run "$FOOTPRINT" diff "$new_chart" rel-old.yaml -n modal-system --new-values vals.yaml
expect_status 2
expect_stderr "--new-values applies to a chart, and NEW (rel-old.yaml) is not one"
# No chart at all: -f has nothing to apply to.
run "$FOOTPRINT" diff rel-old.yaml rel-old.yaml -f vals.yaml
expect_status 2
expect_stderr "-f/--values applies to charts, and no input is a chart"
echo "ok"
