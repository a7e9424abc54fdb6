#!/usr/bin/env bash
# docs/checks.md lists exactly the registered checks, as `footprint checks --format markdown`.
source "$(dirname "$0")/common.inc"
"$FOOTPRINT" checks --format markdown >"$TMP/checks.md"
sed -n '/^| CHECK |/,$p' "$ROOT/docs/checks.md" >"$TMP/documented.md"
diff -u "$TMP/documented.md" "$TMP/checks.md" ||
  fail "docs/checks.md is out of date: regenerate its table with \`footprint checks --format markdown\`"
