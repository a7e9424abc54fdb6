#!/usr/bin/env bash
# images relocate refuses image references the reference grammar refuses (issue 40, trial item
# N-W10), as it refuses Helm templates: exit 2, nothing written, each named with file:line. In
# github.com/distribution/reference a reference starts with an alphanumeric path component, so a
# leading space is no reference, and the repository name must be lowercase ("UPPER/Case:1").
source "$(dirname "$0")/common.inc"
cd "$TMP"
cat >c2.yaml <<'YAML'
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ops}
spec:
  containers:
  - {name: ok, image: "quay.io/team/ok:1.0"}
  - {name: space, image: " nginx:1.25"}
  - {name: upper, image: "UPPER/Case:1"}
YAML
run "$FOOTPRINT" images relocate --registry r.example:5000 c2.yaml -o out
expect_status 2
expect_stderr "2 image references are not valid and cannot be relocated"
expect_stderr 'c2.yaml:7: spec.containers[1].image: " nginx:1.25"'
expect_stderr 'c2.yaml:8: spec.containers[2].image: "UPPER/Case:1"'
[ ! -e out ] || fail "nothing is written: $(find out)"

# Without them the same file relocates.
sed -i '/name: space/d; /name: upper/d' c2.yaml
run "$FOOTPRINT" images relocate --registry r.example:5000 c2.yaml -o out
expect_status 0
expect_stderr "rewrote 1 reference to 1 image"
