#!/usr/bin/env bash
# Output is byte-identical across runs and across parser thread counts.
source "$(dirname "$0")/common.inc"
need_corpus
for format in text json markdown sarif; do
  "$FOOTPRINT" audit "$SHARED/corpus" --format "$format" --jobs 1 >"$TMP/one.$format"
  "$FOOTPRINT" audit "$SHARED/corpus" --format "$format" --jobs 4 >"$TMP/four.$format"
  "$FOOTPRINT" audit "$SHARED/corpus" --format "$format" >"$TMP/again.$format"
  cmp "$TMP/one.$format" "$TMP/four.$format" || fail "$format differs between --jobs 1 and 4"
  cmp "$TMP/one.$format" "$TMP/again.$format" || fail "$format differs between runs"
done
