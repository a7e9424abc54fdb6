#!/usr/bin/env bash
# Report layout: the example's text and Markdown reports match tests/golden/. These pin layout
# only; what each check finds is asserted by its own tests. After an intended change, run with
# FOOTPRINT_UPDATE_GOLDEN=1 and review the diff.
source "$(dirname "$0")/common.inc"
cd "$ROOT"
for format in text markdown; do
  golden=tests/golden/inference-operator.$format
  "$FOOTPRINT" audit examples/inference-operator.yaml -n inference-system --format "$format" \
    >"$TMP/actual"
  if [ "${FOOTPRINT_UPDATE_GOLDEN:-}" = 1 ]; then
    cp "$TMP/actual" "$golden"
  fi
  diff -u "$golden" "$TMP/actual" || fail "$format report differs from $golden"
done
