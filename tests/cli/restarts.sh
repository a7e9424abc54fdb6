#!/usr/bin/env bash
# footprint restarts BEFORE AFTER on tests/data/cluster/pods-{before,after}.yaml; the expected
# values are counted by hand in src/analysis/commands/restarts_test.cc. Exit 1 when a count grew.
source "$(dirname "$0")/common.inc"
data=$DATA/cluster
bundle=$data/bundle.yaml

run "$FOOTPRINT" restarts "$data/pods-before.yaml" "$data/pods-after.yaml"
expect_status 1
expect_stdout "150 -> 161"
expect_stdout "+11"
expect_stdout "CrashLoopBackOff"
expect_stdout "Error (exit 1)"
expect_stdout "OOMKilled (exit 137)"
expect_stdout "Only in the first sample"
expect_stdout "job-x"
expect_stdout "Only in the second sample"
expect_stdout "job-y"
run "$FOOTPRINT" restarts "$data/pods-before.yaml" "$data/pods-after.yaml" --format json
expect_status 1
[ "$(json_get "$OUT" "[(g['pod'], g['increase']) for g in d['grew']]")" = "[('operator-7d9f', 11), ('web-1', 1)]" ] ||
  fail "json growth"
run "$FOOTPRINT" restarts "$data/pods-after.yaml" "$data/pods-before.yaml"
expect_status 2
expect_stderr "looks newer than"
expect_stderr "161 -> 150"
run "$FOOTPRINT" restarts "$data/pods-after.yaml" "$data/pods-after.yaml"
expect_status 0
expect_stdout "no restart count grew"
run "$FOOTPRINT" restarts "$bundle" "$data/pods-after.yaml"
expect_status 2
expect_stderr "expected Pod objects"
