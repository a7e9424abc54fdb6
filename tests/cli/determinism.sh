#!/usr/bin/env bash
# Output is byte-identical across runs and across thread counts: on the corpus, and on one
# generated 6 MB stream, which the loader cuts into 1 MiB chunks parsed on every thread while the
# Helm release estimate is compressed on another.
source "$(dirname "$0")/common.inc"
need_corpus
for format in text json markdown sarif; do
  "$FOOTPRINT" audit "$SHARED/corpus" --format "$format" --jobs 1 >"$TMP/one.$format"
  "$FOOTPRINT" audit "$SHARED/corpus" --format "$format" --jobs 2 >"$TMP/two.$format"
  "$FOOTPRINT" audit "$SHARED/corpus" --format "$format" --jobs 4 >"$TMP/four.$format"
  "$FOOTPRINT" audit "$SHARED/corpus" --format "$format" >"$TMP/again.$format"
  cmp "$TMP/one.$format" "$TMP/two.$format" || fail "$format differs between --jobs 1 and 2"
  cmp "$TMP/one.$format" "$TMP/four.$format" || fail "$format differs between --jobs 1 and 4"
  cmp "$TMP/one.$format" "$TMP/again.$format" || fail "$format differs between runs"
done

"$PYTHON" "$ROOT/bench/generate.py" 6 >"$TMP/generated.yaml"
[ "$(grep -c '^---$' "$TMP/generated.yaml")" -gt 1000 ] || fail "the generated stream is too small"
for command in audit images airgap; do
  "$FOOTPRINT" "$command" "$TMP/generated.yaml" --format json --jobs 1 >"$TMP/one.json"
  "$FOOTPRINT" "$command" "$TMP/generated.yaml" --format json --jobs 2 >"$TMP/two.json"
  cmp "$TMP/one.json" "$TMP/two.json" || fail "$command differs between --jobs 1 and 2"
done
# Audit's Helm release estimate, compressed on its own thread with --jobs 2, is in the output.
"$FOOTPRINT" audit "$TMP/generated.yaml" --format json --jobs 2 >"$TMP/two.json"
[ "$(json_get "$TMP/two.json" "d['crds']['helmRelease']['gzipBytes'] > 100000")" = True ] ||
  fail "no Helm release estimate for 6 MB of rendered manifests"
