#!/usr/bin/env bash
# A chart's Chart.yaml, or a folder that holds charts, is not a folder of manifests: the error
# says so and the hint names the chart folder to give instead.
source "$(dirname "$0")/common.inc"
cd "$TMP"
mkdir -p charts/a/templates charts/b
printf 'apiVersion: v2\nname: a\nversion: 0.1.0\n' >charts/a/Chart.yaml
printf 'apiVersion: v2\nname: b\nversion: 0.1.0\n' >charts/b/Chart.yaml
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: {{ .Release.Name }}}\n' >charts/a/templates/cm.yaml

run "$FOOTPRINT" audit charts/a/Chart.yaml
expect_status 2
expect_stderr "charts/a/Chart.yaml describes a chart; it holds no manifests"
expect_stderr "hint: give the chart folder: footprint audit charts/a"
run "$FOOTPRINT" images charts
expect_status 2
expect_stderr "charts holds charts, not manifests"
expect_stderr "hint: give one chart folder: footprint images charts/a"
