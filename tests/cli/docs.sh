#!/usr/bin/env bash
# docs/checks.md is generated from the check registry: `footprint checks --format markdown` prints
# all of it. After an intended change, run with FOOTPRINT_UPDATE_DOCS=1 and review the diff.
source "$(dirname "$0")/common.inc"
"$FOOTPRINT" checks --format markdown >"$TMP/checks.md"
if [ "${FOOTPRINT_UPDATE_DOCS:-}" = 1 ]; then
  cp "$TMP/checks.md" "$ROOT/docs/checks.md"
fi
diff -u "$ROOT/docs/checks.md" "$TMP/checks.md" ||
  fail "docs/checks.md is out of date: run this test with FOOTPRINT_UPDATE_DOCS=1"
# Every registered check has a section, and each section states the check's severities.
for id in $("$FOOTPRINT" checks --format json | "$PYTHON" -c "import json,sys; print(' '.join(c['id'] for c in json.load(sys.stdin)))"); do
  grep -q "^### $id\$" "$ROOT/docs/checks.md" || fail "docs/checks.md has no section for $id"
done
