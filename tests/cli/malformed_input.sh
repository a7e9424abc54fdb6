#!/usr/bin/env bash
# Malformed input gets `file:line:col: what is wrong` on stderr and exit 2, quickly, never a
# crash or a hang (run() guards with a timeout). An invalid document is still listed in a report
# (which SARIF and JSON consumers need); a file that cannot be read at all gives no report.
source "$(dirname "$0")/common.inc"

check_rejected() {  # FILE EXPECTED-STDERR
  run "$FOOTPRINT" audit "$1"
  expect_status 2
  expect_stderr "$2"
  if grep -qF "$1:" "$ERR" && grep -qE ":[0-9]+:[0-9]+: " "$ERR"; then
    expect_stdout "Documents that are not valid objects"
  else
    [ ! -s "$OUT" ] || fail "no report expected for $1"
  fi
}

printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: [unclosed\n' >"$TMP/truncated.yaml"
check_rejected "$TMP/truncated.yaml" "$TMP/truncated.yaml:5:1: the '[' at line 4, column 9 is never closed"

printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n\tname: tab\n' >"$TMP/tabs.yaml"
check_rejected "$TMP/tabs.yaml" "$TMP/tabs.yaml:4:1: a tab character in the indentation"

printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  name: b\n' >"$TMP/dup.yaml"
check_rejected "$TMP/dup.yaml" "$TMP/dup.yaml:5:3: duplicate key \"name\" in mapping"

{
  echo 'a: &a ["x","x","x","x","x","x","x","x","x","x"]'
  prev=a
  for n in b c d e f g h i j k; do
    printf '%s: &%s [' "$n" "$n"
    for i in 1 2 3 4 5 6 7 8 9 10; do printf '*%s%s' "$prev" "$([ $i = 10 ] || echo ,)"; done
    echo ']'
    prev=$n
  done
} >"$TMP/bomb.yaml"
check_rejected "$TMP/bomb.yaml" "refusing a possible alias bomb"

"$PYTHON" -c "print('a: ' + '[' * 100000 + ']' * 100000)" >"$TMP/deep.yaml"
# Level 1 is the mapping; the 512th '[' (column 3 + 512) would open level 513.
check_rejected "$TMP/deep.yaml" "$TMP/deep.yaml:1:515: nesting deeper than 512 levels"

head -c 4096 "$FOOTPRINT" >"$TMP/binary.yaml"
check_rejected "$TMP/binary.yaml" "$TMP/binary.yaml: binary data"

# Two files joined, the second saved with a byte-order mark: the mark opens line 4. kubectl
# splits at '---' first and accepts it; the YAML reader does not, and the reason names it.
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: x}\n---\n' >"$TMP/bom.yaml"
printf '\xef\xbb\xbfapiVersion: v1\nkind: ConfigMap\nmetadata: {name: b, namespace: x}\n' >>"$TMP/bom.yaml"
check_rejected "$TMP/bom.yaml" "$TMP/bom.yaml:5:1: a byte-order mark (U+FEFF) starts this line"

# A List without items is, to kubectl's decoder (unstructured.go: "No Items field, so it wasn't a
# list"), one object of kind List, which no API serves; `items: []` is the empty list.
printf 'apiVersion: v1\nkind: List\n' >"$TMP/itemless.yaml"
check_rejected "$TMP/itemless.yaml" "$TMP/itemless.yaml:1:1: List has no items"
printf 'apiVersion: v1\nkind: List\nitems: []\n' >"$TMP/empty-list.yaml"
run "$FOOTPRINT" audit "$TMP/empty-list.yaml" "$TMP/bom.yaml"
expect_status 2
if grep -q "empty-list.yaml" "$ERR"; then fail "an empty List is no error: $(cat "$ERR")"; fi

# An alias whose anchor is in an earlier document: each document is read on its own.
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: &meta {name: a, namespace: x}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: *meta\n' >"$TMP/anchor.yaml"
check_rejected "$TMP/anchor.yaml" "$TMP/anchor.yaml:7:11: unknown anchor 'meta': its anchor &meta is in an earlier document"

: >"$TMP/empty.yaml"
check_rejected "$TMP/empty.yaml" "$TMP/empty.yaml: no Kubernetes objects: the input is empty or only comments"

printf -- '- just\n- a list\n' >"$TMP/list.yaml"
check_rejected "$TMP/list.yaml" "$TMP/list.yaml:1:1: expected a Kubernetes object (a mapping), found a sequence"

printf 'apiVersion: v1\nmetadata: {name: x}\n' >"$TMP/nokind.yaml"
check_rejected "$TMP/nokind.yaml" "$TMP/nokind.yaml:1:1: object has no kind"

check_rejected "$TMP/absent.yaml" "$TMP/absent.yaml: no such file or directory"

# Every error in a file is reported, not just the first.
printf 'apiVersion: v1\nkind: A\nmetadata: {name: a}\n---\nkind: B\nmetadata: {name: b}\n---\n- x\n' >"$TMP/two.yaml"
run "$FOOTPRINT" audit "$TMP/two.yaml"
expect_status 2
expect_stderr "$TMP/two.yaml:5:1: object has no apiVersion"
expect_stderr "$TMP/two.yaml:8:1: expected a Kubernetes object"

if [ -r /etc/shadow ] && [ "$(id -u)" != 0 ]; then
  check_rejected /etc/shadow "cannot read"
fi
