#!/usr/bin/env bash
# --baseline and diff compare severity, not only fingerprints: a finding the baseline (or diff's
# OLD) has at a lower severity is "worse", reported and judged by --fail-on at its new severity;
# one it has at a higher severity is "better". The fixtures hold one CRD whose conversion webhook
# calls a Service nothing creates: low with one version (the API server converts only between
# versions, so it never calls the webhook), high with two. The finding's fingerprint (check, CRD,
# the clientConfig.service node) is the same in both.
source "$(dirname "$0")/common.inc"
cd "$TMP"
one=$DATA/severity-change/one-version.yaml
two=$DATA/severity-change/two-versions.yaml
check=crd-conversion-service-missing

run "$FOOTPRINT" audit --no-config "$one" -n ops --format json -o one.json
expect_status 0
[ "$(json_get one.json "[f['severity'] for f in d['findings'] if f['check'] == '$check']")" = \
  "['low']" ] || fail "one version: $check is low"
run "$FOOTPRINT" audit --no-config "$two" -n ops --format json -o two.json
expect_status 0
[ "$(json_get two.json "[f['severity'] for f in d['findings'] if f['check'] == '$check']")" = \
  "['high']" ] || fail "two versions: $check is high"
[ "$(json_get one.json "[f['fingerprint'] for f in d['findings'] if f['check'] == '$check']")" = \
  "$(json_get two.json "[f['fingerprint'] for f in d['findings'] if f['check'] == '$check']")" ] ||
  fail "the finding keeps its fingerprint"

# Rose from low to high: worse, and it fails a high gate.
run "$FOOTPRINT" audit --no-config "$two" -n ops --baseline one.json --fail-on high
expect_status 1
head -n 1 "$OUT" | grep -q "^0 new, [1-9][0-9]* worse, 0 resolved" ||
  fail "the counts name the worse findings: $(head -n 1 "$OUT")"
expect_stdout "$check  CustomResourceDefinition widgets.example.com  (worse: low before)"
run "$FOOTPRINT" audit --no-config "$two" -n ops --baseline one.json --format json
expect_status 0
[ "$(json_get "$OUT" "[(f['baseline'], f['severityBefore']) for f in d['findings'] if f['check'] == '$check']")" = \
  "[('worse', 'low')]" ] || fail "JSON marks it worse"
[ "$(json_get "$OUT" "d['summary']['baseline']['worse'] >= 1 and d['summary']['baseline']['new'] == 0")" = True ] ||
  fail "summary.baseline counts it worse, not new: $(json_get "$OUT" "d['summary']['baseline']")"
run "$FOOTPRINT" audit --no-config "$two" -n ops --baseline one.json --format sarif
expect_status 0
[ "$(json_get "$OUT" "[r['baselineState'] for r in d['runs'][0]['results'] if r['ruleId'] == '$check']")" = \
  "['updated']" ] || fail "SARIF: updated"
run "$FOOTPRINT" audit --no-config "$two" -n ops --baseline one.json --format github
expect_status 0
grep -q "^::error .*title=$check (high)" "$OUT" || fail "a worse finding is annotated: $(cat "$OUT")"

# Fell from high to low: better, known, and no gate fails on it.
run "$FOOTPRINT" audit --no-config "$one" -n ops --baseline two.json --fail-on low
expect_status 0
expect_stdout "$check  CustomResourceDefinition widgets.example.com  (better: high before)"
head -n 1 "$OUT" | grep -q "better" || fail "the counts name the better ones: $(head -n 1 "$OUT")"

# diff: the same comparison between OLD and NEW.
run "$FOOTPRINT" diff --no-config "$one" "$two" -n ops --format json
expect_status 0
[ "$(json_get "$OUT" "[(f['check'], f['severity'], f['severityBefore']) for f in d['findings']['worse'] if f['check'] == '$check']")" = \
  "[('$check', 'high', 'low')]" ] || fail "diff JSON: worse $(json_get "$OUT" "d['findings']")"
[ "$(json_get "$OUT" "'$check' in [f['check'] for f in d['findings']['new']]")" = False ] ||
  fail "a finding OLD has is not new"
run "$FOOTPRINT" diff --no-config "$one" "$two" -n ops
expect_status 0
expect_stdout "Worse findings (severity rose)"
expect_stdout "HIGH (low before) $check"
run "$FOOTPRINT" diff --no-config "$two" "$one" -n ops --format json
expect_status 0
[ "$(json_get "$OUT" "[(f['severity'], f['severityBefore']) for f in d['findings']['better'] if f['check'] == '$check']")" = \
  "[('low', 'high')]" ] || fail "diff JSON: better"
# The upgrade's only change (a version added) is info: what fails a high gate is the finding that
# rose to high, judged at its new severity.
run "$FOOTPRINT" diff --no-config "$one" "$two" -n ops --fail-on high
expect_status 1
run "$FOOTPRINT" diff --no-config "$one" "$two" -n ops --fail-on critical
expect_status 0
