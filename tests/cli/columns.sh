#!/usr/bin/env bash
# COLUMNS=80, as an 80-column terminal exports it: the text of every list and table command fits
# in 80 columns (counted in characters, so `✓` or `…` is one), through a pipe as on a terminal;
# only a word wider than the whole line (an image digest, a long URL) may pass the edge, alone
# on its line. Without COLUMNS, and in a file given with -o, tables keep one line per row.
source "$(dirname "$0")/common.inc"
example=$ROOT/examples/inference-operator.yaml
sa=system:serviceaccount:inference-system:inference-operator-controller-manager
cluster=$DATA/cluster

# fits NAME: every line of $OUT is at most 80 characters wide, or one word alone.
fits() {
  "$PYTHON" - "$OUT" "$1" <<'PY' || fail "$1 is wider than 80 columns"
import re, sys
path, name = sys.argv[1], sys.argv[2]
text = open(path, encoding="utf-8").read()
bad = [l for l in text.splitlines() if len(l) > 80 and len(l.split()) > 1]
if re.search("\x1b", text):
    sys.exit(print(f"{name}: colour codes in piped output") or 1)
if bad:
    print(f"{name}: {len(bad)} lines wider than 80 columns, e.g.:", *bad[:3], sep="\n  ")
    sys.exit(1)
PY
  [ -s "$OUT" ] || fail "$1 printed nothing"
}

export COLUMNS=80
run "$FOOTPRINT" can-i --list --as "$sa" "$example"
expect_status 0
fits "can-i --list"
run "$FOOTPRINT" who-can create pods -n team-a "$example"
expect_status 0
fits "who-can"
run "$FOOTPRINT" images "$example"
expect_status 0
fits "images"
run "$FOOTPRINT" checks
expect_status 0
fits "checks"
run "$FOOTPRINT" admission "$example" --release-namespace inference-system \
  --resource inferencegraphs.serving.example.com --operation UPDATE -n team-a
expect_status_in 0 1
fits "admission"
run "$FOOTPRINT" restarts "$cluster/pods-before.yaml" "$cluster/pods-after.yaml"
expect_status 1
fits "restarts"
run "$FOOTPRINT" audit "$example" -n inference-system
expect_status 0
fits "audit"

# The table of can-i --list holds a 54-character resource name: it wraps (or stacks) rather than
# overflowing, and the name stays whole.
printf 'apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: wide}\nrules:\n- apiGroups: [serving.example.com]\n  resources: [inferencegraphdeployments, inferencegraphdeployments/finalizers]\n  verbs: [get, list, watch, create, update, patch, delete]\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata: {name: wide}\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: wide}\nsubjects: [{kind: ServiceAccount, name: controller, namespace: system}]\n' >"$TMP/wide.yaml"
run "$FOOTPRINT" can-i --list --as system:serviceaccount:system:controller "$TMP/wide.yaml"
expect_status 0
fits "can-i --list, long names"
expect_stdout "inferencegraphdeployments/finalizers.serving.example.com"

# compare's table, from two rendered bundles.
run "$FOOTPRINT" compare global="$DATA/field-report/global.yaml" \
  restricted="$DATA/field-report/restricted.yaml" -n dynamo-system
expect_status 0
fits "compare"

# An output file is an artefact, not a screen: COLUMNS leaves it as it is without COLUMNS
# (tables unwrapped, prose at 100 columns), while standard output fits 80.
run "$FOOTPRINT" audit "$example" -n inference-system -o "$TMP/with.txt"
expect_status 0
run "$FOOTPRINT" audit "$example" -n inference-system
expect_status 0
cp "$OUT" "$TMP/screen.txt"
env -u COLUMNS "$FOOTPRINT" audit "$example" -n inference-system -o "$TMP/without.txt" ||
  fail "audit -o without COLUMNS"
cmp -s "$TMP/with.txt" "$TMP/without.txt" || fail "COLUMNS changed a file written with -o"
! cmp -s "$TMP/with.txt" "$TMP/screen.txt" || fail "COLUMNS=80 changed nothing on standard output"
unset COLUMNS
run "$FOOTPRINT" can-i --list --as system:serviceaccount:system:controller "$TMP/wide.yaml"
expect_status 0
[ "$(awk '{ print length }' "$OUT" | sort -n | tail -1)" -gt 80 ] || fail "without COLUMNS rows are not wrapped"

# A COLUMNS that is not a whole number of at least 20 is ignored, as if unset (README): "-5"
# once wrapped round to a huge width and switched prose wrapping off.
unset COLUMNS
run "$FOOTPRINT" audit "$example" -n inference-system
expect_status 0
cp "$OUT" "$TMP/unset.txt"
for value in -5 0 abc 10 80x " 80" +80; do
  COLUMNS=$value run "$FOOTPRINT" audit "$example" -n inference-system
  expect_status 0
  cmp -s "$OUT" "$TMP/unset.txt" || fail "COLUMNS='$value' is not ignored"
done

# Every corpus bundle: the audit report and the image list fit.
need_corpus
export COLUMNS=80
for bundle in "$SHARED"/corpus/*.yaml; do
  name=$(basename "$bundle" .yaml)
  run "$FOOTPRINT" audit "$bundle" --no-config
  expect_status 0
  fits "audit $name"
  run "$FOOTPRINT" images "$bundle" --no-config
  expect_status 0
  fits "images $name"
done
echo ok
