#!/usr/bin/env bash
# Tables fit the terminal's width on a terminal, wrapping at spaces with continuation lines
# indented, or as one record per row when the columns cannot fit, and never split an identifier;
# written to a file or a pipe they never wrap, so grep finds whole rows (as kubectl does).
source "$(dirname "$0")/common.inc"

long=inferencegraphdeployments.serving.example.com
cat >"$TMP/in.yaml" <<YAML
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: wide}
rules:
- apiGroups: [serving.example.com]
  resources: [inferencegraphdeployments, inferencegraphdeployments/status, inferencegraphdeployments/finalizers, modelservices]
  verbs: [get, list, watch, create, update, patch, delete]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: wide}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: wide}
subjects: [{kind: ServiceAccount, name: controller, namespace: system}]
YAML
who=system:serviceaccount:system:controller

# Not a terminal: one line per row, however long.
run "$FOOTPRINT" can-i --list --as "$who" "$TMP/in.yaml"
expect_status 0
row=$(grep "ClusterRoleBinding wide" "$OUT")
[ "$(grep -c "$long" "$OUT")" = 1 ] || fail "one line for the row: $(cat "$OUT")"
for word in "$long" "inferencegraphdeployments/finalizers.serving.example.com" "ClusterRoleBinding wide"; do
  grep -qF "$word" <<<"$row" || fail "the row holds '$word' whole: $row"
done
[ "$(awk '{ print length }' "$OUT" | sort -n | tail -1)" -gt 150 ] || fail "the row is not wrapped"
run "$FOOTPRINT" audit "$TMP/in.yaml" -o "$TMP/report.txt"
expect_status 0
grep -q "ClusterRole wide" "$TMP/report.txt" || fail "report"

# A terminal 60 columns wide: the 56-character resource name cannot share a line with the other
# columns, so each row is a record of "HEADER: value" lines. No line is wider than the terminal
# but one that holds a single word wider than it; the name stays whole.
if ! command -v script >/dev/null; then
  skip "script(1) is needed for a terminal"
fi
script -qec "stty cols 60; $FOOTPRINT can-i --list --as $who $TMP/in.yaml --color never" /dev/null |
  tr -d '\r' >"$TMP/tty"
grep -q "^VIA: *ClusterRoleBinding wide" "$TMP/tty" || fail "a record on the terminal: $(cat "$TMP/tty")"
grep -qF "$long" "$TMP/tty" || fail "an identifier is never split: $(cat "$TMP/tty")"
while IFS= read -r line; do
  if [ "${#line}" -gt 60 ] && [ "$(wc -w <<<"$line")" -gt 1 ]; then
    fail "a line wider than the terminal that is not one long word: '$line'"
  fi
done <"$TMP/tty"
grep -q "^ \{5,\}[a-z]" "$TMP/tty" || fail "continuation lines are indented: $(cat "$TMP/tty")"

# 150 columns hold the table: one line for the header, cells wrapped within their columns.
script -qec "stty cols 150; $FOOTPRINT can-i --list --as $who $TMP/in.yaml --color never" /dev/null |
  tr -d '\r' >"$TMP/tty"
grep -q "^SCOPE  *VERBS  *RESOURCES" "$TMP/tty" || fail "a table at 150 columns: $(cat "$TMP/tty")"
[ "$(awk '{ print length }' "$TMP/tty" | sort -n | tail -1)" -le 150 ] || fail "wider than 150: $(cat "$TMP/tty")"
echo "ok"
