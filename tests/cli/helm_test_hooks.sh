#!/usr/bin/env bash
# Helm test hooks (helm.sh/hook: test) are run by `helm test`, never installed: the audit leaves
# them out of the footprint and the findings and names each in its notes. The fixture holds 7
# objects, 3 of them test-only hooks (one a RoleBinding to cluster-admin, which installed would be
# a critical finding).
source "$(dirname "$0")/common.inc"

run "$FOOTPRINT" audit --no-config "$DATA/helm-tests/rendered.yaml" -n op-system --format json
expect_status 0
[ "$(json_get "$OUT" "d['inventory']['objects']")" = 4 ] || fail "4 installed objects"
[ "$(json_get "$OUT" "len(d['findings'])")" = 0 ] || fail "no finding from a test hook"
[ "$(json_get "$OUT" "sum(n.startswith('left out ') and 'a Helm test hook' in n for n in d['notes'])")" = 3 ] ||
  fail "each of the 3 test hooks named in the notes"

run "$FOOTPRINT" images --no-config "$DATA/helm-tests/rendered.yaml"
expect_status 0
expect_no_stdout "busybox"
