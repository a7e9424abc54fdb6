#!/usr/bin/env bash
# --format junit: well-formed XML with one test case per registered check, a failure on each
# check that found something, listing every finding, and nothing for waived findings.
source "$(dirname "$0")/common.inc"
cd "$TMP"
# Two ClusterRoles with a namespace (namespace-on-cluster-scoped twice) and a PodMonitor without
# its CRD (crd-missing once): two failing checks, three findings. The namespace findings point at
# the metadata lines (3 and 7).
cat >bundle.yaml <<'YAML'
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: viewer, namespace: ops}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: editor, namespace: ops}
---
apiVersion: monitoring.coreos.com/v1
kind: PodMonitor
metadata: {name: pm, namespace: ops}
YAML
run "$FOOTPRINT" checks --format json
expect_status 0
checks=$(json_get "$OUT" "len(d)")
run "$FOOTPRINT" audit --no-config bundle.yaml --format junit --fail-on medium
expect_status 1
"$PYTHON" - "$OUT" "$checks" <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
suite = root.find("testsuite")
cases = suite.findall("testcase")
assert len(cases) == int(sys.argv[2]) == int(suite.get("tests")), (len(cases), sys.argv[2])
failed = {c.get("name"): c.find("failure") for c in cases if c.find("failure") is not None}
assert set(failed) == {"namespace-on-cluster-scoped", "crd-missing"}, set(failed)
assert suite.get("failures") == "2"
ns = failed["namespace-on-cluster-scoped"]
assert ns.get("message") == "2 findings, worst low", ns.get("message")
assert "ClusterRole viewer (bundle.yaml:3)" in ns.text and "ClusterRole editor (bundle.yaml:7)" in ns.text, ns.text
assert failed["crd-missing"].get("message") == "1 finding, worst medium"
PY
printf 'ignore:\n  - check: crd-missing\n    reason: installed\n' >gate.yaml
run "$FOOTPRINT" audit --config gate.yaml bundle.yaml --format junit --fail-on medium
expect_status 0
"$PYTHON" -c "import sys, xml.etree.ElementTree as ET; s = ET.parse(sys.argv[1]).getroot().find('testsuite'); assert s.get('failures') == '1', s.get('failures')" "$OUT" ||
  fail "a waived finding is no failure"
