#!/usr/bin/env bash
# An --insecure-registry that names no registry of the images changes nothing, and says so (issue
# 40, trial item C5). The port is part of a registry's name, as in docker's insecure-registries:
# 127.0.0.1 does not match images at 127.0.0.1:1, and the warning names the host with its port.
# Port 1 on the loopback has no listener: each connection is refused at once.
source "$(dirname "$0")/common.inc"
cd "$TMP"
cat >loc.yaml <<'YAML'
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ops}
spec:
  containers:
  - {name: a, image: "127.0.0.1:1/team/a:1.0"}
YAML
run "$FOOTPRINT" images --no-config loc.yaml --sizes --registry-timeout 1 --insecure-registry 127.0.0.1
expect_status 0
expect_stderr "--insecure-registry 127.0.0.1 names no registry of these images"
expect_stderr "did you mean --insecure-registry 127.0.0.1:1?"
run "$FOOTPRINT" images --no-config loc.yaml --sizes --registry-timeout 1 --insecure-registry other:1
expect_status 0
expect_stderr "--insecure-registry other:1 names no registry of these images, so it changes nothing"
run "$FOOTPRINT" images --no-config loc.yaml --sizes --registry-timeout 1 --insecure-registry 127.0.0.1:1
expect_status 0
! grep -q "names no registry" "$ERR" || fail "a matching --insecure-registry was warned about"
