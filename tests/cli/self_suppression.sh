#!/usr/bin/env bash
# The chart under review does not decide its own verdict: a footprint.dev/ignore annotation in
# the input suppresses nothing by default. Its findings are reported, count for --fail-on and are
# marked "The chart asks to suppress this: REASON" in every format. The user may trust the
# annotations (--trust-annotations, or trustAnnotations in .footprint.yaml) for findings below
# critical; a critical finding is waived only by an ignore entry of the user's own configuration.
source "$(dirname "$0")/common.inc"
cd "$TMP"
chart=$DATA/untrusted/self-suppressed.yaml
mark="The chart asks to suppress this: reviewed"

run "$FOOTPRINT" audit --no-config "$chart" --fail-on low
expect_status 1
expect_no_stdout "No findings"
expect_stdout "CRITICAL"
expect_stdout "$mark"
expect_stdout "The chart asks to suppress this: kept for kustomize"
expect_stdout "the chart asks to suppress"  # the counts line
expect_no_stdout "Suppressed"

run "$FOOTPRINT" audit --no-config "$chart" --format json
expect_status 0
"$PYTHON" - "$OUT" <<'PY' || fail "JSON: every finding reported with its request"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["summary"]["suppressed"] == 0 and d["summary"]["findings"]["critical"] >= 1, d["summary"]
assert d["summary"]["suppressionRequests"] == len(d["findings"]), d["summary"]
for f in d["findings"]:
    assert not f["suppressed"], f
    assert f["suppressionRequest"]["by"] == "footprint.dev/ignore", f
    assert f["suppressionRequest"]["honoured"] is False, f
    assert f["suppressionRequest"]["reason"] in ("reviewed", "kept for kustomize"), f
PY

run "$FOOTPRINT" audit --no-config "$chart" --format sarif
expect_status 0
"$PYTHON" - "$OUT" <<'PY' || fail "SARIF: results are not suppressed, and say what was asked"
import json, sys
results = json.load(open(sys.argv[1]))["runs"][0]["results"]
assert results
for r in results:
    assert "suppressions" not in r, r
    assert "The chart asks to suppress this" in r["message"]["text"], r["message"]
PY

for format in markdown html; do
  run "$FOOTPRINT" audit --no-config "$chart" --format "$format"
  expect_status 0
  expect_stdout "$mark"
done

# The CI formats: an annotation per finding, and a failing test case.
run "$FOOTPRINT" audit --no-config "$chart" --format github --fail-on critical
expect_status 1
grep -q '^::error .*The chart asks to suppress this: reviewed' "$OUT" ||
  fail "github: the critical finding is an ::error with its mark: $(cat "$OUT")"
run "$FOOTPRINT" audit --no-config "$chart" --format junit
expect_status 0
"$PYTHON" - "$OUT" <<'PY' || fail "junit: the findings fail their test cases, marked"
import sys, xml.etree.ElementTree as ET
suite = ET.parse(sys.argv[1]).getroot().find("testsuite")
failures = [c.find("failure") for c in suite.findall("testcase") if c.find("failure") is not None]
assert len(failures) >= 2, len(failures)
assert all("The chart asks to suppress this" in f.text for f in failures)
PY

# Trusted: the low finding is suppressed; the critical ones stay, and say why.
run "$FOOTPRINT" audit --no-config "$chart" --trust-annotations --format json
expect_status 0
"$PYTHON" - "$OUT" <<'PY' || fail "--trust-annotations honours the annotation below critical only"
import json, sys
d = json.load(open(sys.argv[1]))
for f in d["findings"]:
    if f["severity"] == "critical":
        assert not f["suppressed"] and "own .footprint.yaml" in f["suppressionRequest"]["text"], f
    else:
        assert f["suppressed"] and f["suppression"]["by"] == "footprint.dev/ignore", f
        assert "suppressionRequest" not in f, f
assert d["summary"]["suppressed"] >= 1
PY
run "$FOOTPRINT" audit --no-config "$chart" --trust-annotations
expect_status 0
tr -s ' \n' ' ' <"$OUT" | grep -qF "2 findings suppressed by footprint.dev/ignore annotations in the input" ||
  fail "the summary counts what the trusted annotations suppressed: $(head -20 "$OUT")"

# The same from the user's own configuration; an ignore entry there waives the critical ones.
printf 'trustAnnotations: true\n' >.footprint.yaml
run "$FOOTPRINT" audit "$chart" --fail-on low
expect_status 1
# The text report wraps at the terminal's width: compare with the line breaks folded.
tr -s ' \n' ' ' <"$OUT" |
  grep -qF "a critical finding is waived only by an ignore entry of your own .footprint.yaml" ||
  fail "a critical finding is said to be waived only by the user's configuration: $(head -40 "$OUT")"
expect_no_stdout "The chart asks to suppress this: kept for kustomize"
cat >.footprint.yaml <<'YAML'
trustAnnotations: true
ignore:
  - check: "*"
    kind: ClusterRoleBinding
    name: vendor-binding
    reason: approved by the platform team
YAML
run "$FOOTPRINT" audit "$chart" --fail-on low
expect_status 0
expect_stdout "approved by the platform team"
printf 'trustAnnotations: yes\n' >.footprint.yaml
run "$FOOTPRINT" audit "$chart"
expect_status 2
expect_stderr "trustAnnotations must be true or false"
