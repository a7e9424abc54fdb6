#!/usr/bin/env bash
# Sizes nobody could read are unknown, not 0 bytes (issue 40, trial item N-W18): with every
# registry unreachable, images --sizes and airgap --sizes say the size to transfer is unknown,
# and JSON's totalBytes is null. Port 1 on the loopback has no listener, so each connection is
# refused at once; no traffic leaves 127.0.0.1.
source "$(dirname "$0")/common.inc"
cd "$TMP"
cat >loc.yaml <<'YAML'
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ops}
spec:
  containers:
  - {name: a, image: "127.0.0.1:1/team/a:1.0"}
  - {name: b, image: "127.0.0.1:1/team/b:2.0"}
YAML
for command in images airgap; do
  run "$FOOTPRINT" $command --no-config loc.yaml --sizes --registry-timeout 1
  expect_status 0
  # (the text report wraps at 80 columns, so lines are joined before matching)
  tr -s ' \n' ' ' <"$OUT" | grep -qF "none of the 2 images could be read, so the size to transfer is unknown" ||
    fail "$command: the size is not said to be unknown: $(cat "$OUT")"
  expect_no_stdout "0 bytes"
  expect_no_stdout " 0 B"
  run "$FOOTPRINT" $command --no-config loc.yaml --sizes --registry-timeout 1 --format json
  expect_status 0
  [ "$(json_get "$OUT" "d['$command']['totalBytes']")" = None ] ||
    fail "$command: totalBytes is not null: $(head -c 2000 "$OUT")"
done
