#!/usr/bin/env bash
# An image that is not a reference is never accepted as one: a tag over 128 characters
# (distribution/reference: [\w][\w.-]{0,127}) and `image: 12345` (a YAML int where core/v1
# Container.Image is a string) are high findings in audit, and named on stderr by the list format.
source "$(dirname "$0")/common.inc"

tag=$(printf 't%.0s' {1..129})
cat >"$TMP/pod.yaml" <<YAML
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
  - {name: a, image: "nginx:$tag"}
  - {name: b, image: 12345}
  - {name: c, image: "nginx:1.25"}
YAML
run "$FOOTPRINT" audit "$TMP/pod.yaml" --format json --fail-on high
expect_status 1
[ "$(json_get "$OUT" "[f['source']['line'] for f in d['findings'] if f['check'] == 'image-reference-invalid']")" = "[6, 7]" ] ||
  fail "two image-reference-invalid findings, lines 6 and 7: $(json_get "$OUT" "[(f['check'], f['message']) for f in d['findings']]")"
grep -q "the tag has 129 characters, more than 128" "$OUT" || fail "the long tag is explained"
grep -q "a YAML int, not a string" "$OUT" || fail "the number is explained"

run "$FOOTPRINT" images "$TMP/pod.yaml" --format list
expect_status 0
[ "$(cat "$OUT")" = "docker.io/library/nginx:1.25" ] || fail "only the valid image is listed: $(cat "$OUT")"
expect_stderr "not listed: 2 image fields hold no valid image reference: nginx:$tag ($TMP/pod.yaml:6), 12345 ($TMP/pod.yaml:7)"
echo "ok"
