#!/usr/bin/env bash
# The CI formats never show a clean run when documents are invalid: --format github writes an
# ::error at each invalid document's file, line and column, and --format junit a failing test
# case per invalid document, as JSON and SARIF list them (invalid_documents.sh). The exit status
# stays 2. A YAML syntax error is one such document.
source "$(dirname "$0")/common.inc"
cd "$TMP"
# A Deployment without metadata.name, which client-go refuses before it reaches the server
# (rest/request.go: "resource name may not be empty"), between two valid objects.
cat >l3.yaml <<'YAML'
apiVersion: v1
kind: ConfigMap
metadata: {name: ok, namespace: x}
---
apiVersion: apps/v1
kind: Deployment
metadata: {namespace: x}
spec: {}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: ok2, namespace: x}
YAML
# A flow sequence that never ends: the YAML spec's flow collections need their closing bracket.
printf 'a: [\n' >bad.yaml

# github_commands FILE: the workflow commands as (command, file, line, col, title), decoded as
# the runner does (properties end at the first "::" and split at "," then "=").
github_commands() {
  "$PYTHON" - "$1" <<'PY'
import sys
for line in open(sys.argv[1]).read().splitlines():
    head, message = line[2:].split("::", 1)
    command, props = head.split(" ", 1)
    fields = dict(p.split("=", 1) for p in props.split(","))
    print(command, fields["file"], fields.get("line"), fields.get("col"), fields["title"])
PY
}

run "$FOOTPRINT" audit --no-config l3.yaml -n x --format github
expect_status 2
github_commands "$OUT" >commands.txt
grep -qxF "error l3.yaml 5 1 invalid-document" commands.txt ||
  fail "an ::error at l3.yaml:5:1: $(cat "$OUT")"
expect_stdout "Deployment has no metadata.name"

run "$FOOTPRINT" audit --no-config bad.yaml --format github
expect_status 2
github_commands "$OUT" >commands.txt
grep -q "^error bad.yaml [0-9]* [0-9]* invalid-document$" commands.txt ||
  fail "a YAML syntax error is an ::error: $(cat "$OUT")"

# junit_invalid FILE: the failing invalid-document test cases' names, and the suite's counts.
junit_invalid() {
  "$PYTHON" - "$1" <<'PY'
import sys, xml.etree.ElementTree as ET
suite = ET.parse(sys.argv[1]).getroot().find("testsuite")
cases = suite.findall("testcase")
assert int(suite.get("tests")) == len(cases), (suite.get("tests"), len(cases))
failed = [c for c in cases if c.find("failure") is not None]
assert int(suite.get("failures")) == len(failed), (suite.get("failures"), len(failed))
for c in failed:
    if c.find("failure").get("type") == "invalid-document":
        print(c.get("name"))
PY
}

run "$FOOTPRINT" audit --no-config l3.yaml -n x --format junit
expect_status 2
[ "$(junit_invalid "$OUT")" = "invalid-document l3.yaml:5:1" ] ||
  fail "a failing test case for l3.yaml:5:1: $(junit_invalid "$OUT")"
run "$FOOTPRINT" audit --no-config bad.yaml --format junit
expect_status 2
junit_invalid "$OUT" | grep -q "^invalid-document bad.yaml:[0-9]*:[0-9]*$" ||
  fail "a YAML syntax error fails a test case: $(cat "$OUT")"
