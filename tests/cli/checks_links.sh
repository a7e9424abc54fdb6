#!/usr/bin/env bash
# The checks page links each check ID to its section: `[id](#id)` stays a Markdown link, not
# text escaped as \[id\](#id); other cells are still escaped.
source "$(dirname "$0")/common.inc"
run "$FOOTPRINT" checks --format markdown
expect_status 0
expect_stdout "| [crd-missing](#crd-missing) |"
expect_no_stdout '\[crd-missing\]'
# GitHub names a heading's anchor after its text: "### crd-missing" is #crd-missing.
grep -q '^### crd-missing$' "$OUT" || fail "no section for the link to reach"
