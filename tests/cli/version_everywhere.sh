#!/usr/bin/env bash
# --version answers before anything else is checked, in every command, with the version line
# the top-level --version prints.
source "$(dirname "$0")/common.inc"

for cmd in audit images "images relocate" airgap compare diff can-i can-install who-can admission \
  checks "fix rbac" "fix crds" fix hf-cache; do
  # shellcheck disable=SC2086
  run "$FOOTPRINT" $cmd --version
  expect_status 0
  # The whole line, commit included (the trial: `audit --version` said only "footprint 0.1.0").
  [ "$(cat "$OUT")" = "$("$FOOTPRINT" --version)" ] || fail "$cmd --version: $(cat "$OUT")"
done
echo "ok"
