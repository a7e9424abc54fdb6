#!/usr/bin/env bash
# kubectl reads an input that starts with '{' as a stream of JSON values (apimachinery's
# YAMLOrJSONDecoder hands it to Go's json.Decoder): concatenated objects and newline-delimited
# JSON are several objects, and what Go's decoder refuses, such as a trailing comma, is an error
# at file:line:col with the decoder's message.
source "$(dirname "$0")/common.inc"

cm() { printf '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"%s","namespace":"x"}}' "$1"; }
{ cm a; cm b; echo; } >"$TMP/concat.json"
{ cm a; echo; cm b; echo; cm c; echo; } >"$TMP/lines.json"

run "$FOOTPRINT" audit "$TMP/concat.json" --format json
expect_status 0
[ "$(json_get "$OUT" "d['inventory']['objects']")" = 2 ] || fail "concatenated JSON: 2 objects"
run "$FOOTPRINT" audit - --format json <"$TMP/lines.json"
expect_status 0
[ "$(json_get "$OUT" "d['inventory']['objects']")" = 3 ] || fail "newline-delimited JSON: 3 objects"

printf '{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x",}}\n' >"$TMP/comma.json"
run "$FOOTPRINT" audit "$TMP/comma.json"
expect_status 2
# The "}" after the comma is at column 68.
expect_stderr "comma.json:1:68: a comma before the closing bracket, which JSON does not allow"
expect_stderr "invalid character '}' looking for beginning of object key string"
echo "ok"
