#!/usr/bin/env bash
# A kind that differs from "Secret" only by case or surrounding white space (`secret`, `SECRET`,
# " Secret", "Secret\t", a non-breaking space, inside a List) is an invalid document: kubectl's
# REST mapper matches kinds exactly and refuses it with NoKindMatchError
# (k8s.io/apimachinery/pkg/api/meta/errors.go: no matches for kind "Secret\t" in version "v1"). None of
# its values may appear in any command, format or written file. tests/data/secret-kind-spellings.yaml
# holds the canary in image-shaped values, plain values and a docker config.
source "$(dirname "$0")/common.inc"
input=$DATA/secret-kind-spellings.yaml
canaries=(fpkindcanary eyJhdXRocyI6eyJsZWFr)
cd "$TMP"

no_leak() {
  local what=$1 c
  shift
  for c in "${canaries[@]}"; do
    ! grep -rqiF -- "$c" "$@" || fail "$what prints a Secret value ($c): $(grep -rliF -- "$c" "$@")"
  done
}

# check STATUS WHAT COMMAND...: runs, expects STATUS, and finds no canary in its output.
check() {
  local status=$1 what=$2
  shift 2
  run "$@"
  expect_status "$status"
  no_leak "$what" "$OUT" "$ERR"
}

# audit reports each spelling as an invalid document at the kind's line and column, in every
# format, and judges the rest (exit 2: the input holds invalid documents).
for format in text json markdown sarif html github junit; do
  check 2 "audit --format $format" "$FOOTPRINT" audit "$input" -n app --format "$format"
  check 2 "audit --format $format -o" "$FOOTPRINT" audit "$input" -n app --format "$format" \
    -o "report.$format"
  no_leak "audit --format $format -o" "report.$format"
done
run "$FOOTPRINT" audit "$input" -n app --format json
expect_status 2
[ "$(json_get "$OUT" "[(e['line'], e['column']) for e in d['invalidDocuments']]")" = \
  "[(6, 7), (13, 7), (18, 7), (23, 7), (28, 7), (33, 7), (45, 9)]" ] ||
  fail "invalidDocuments: $(json_get "$OUT" "d['invalidDocuments']")"
[ "$(json_get "$OUT" "d['inventory']['objects']")" = 1 ] || fail "only the Deployment is judged"
run "$FOOTPRINT" audit "$input" -n app
expect_status 2
expect_stderr "secret-kind-spellings.yaml:28:7: kind \"Secret\\t\" is not Secret: kinds are case-sensitive"
expect_stderr "(no matches for kind \"SECRET\" in version \"v1\")"

# Every other command that reads manifests refuses the input, without a value in its message.
for format in text json markdown list; do
  check 2 "images --format $format" "$FOOTPRINT" images "$input" --format "$format"
done
check 2 "images relocate -o" "$FOOTPRINT" images relocate --registry mirror.example.com "$input" \
  -o relocated
check 2 "images relocate --plan" "$FOOTPRINT" images relocate --registry mirror.example.com \
  "$input" --plan plan.sh
for format in text json markdown; do
  check 2 "airgap --format $format" "$FOOTPRINT" airgap "$input" --format "$format" -o airgap.out
done
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: app}\n' >base.yaml
for format in text json markdown html; do
  check 2 "compare --format $format" "$FOOTPRINT" compare a="$input" b=base.yaml --format "$format"
  check 2 "diff --format $format (added)" "$FOOTPRINT" diff base.yaml "$input" --format "$format"
  check 2 "diff --format $format (removed)" "$FOOTPRINT" diff "$input" base.yaml --format "$format"
done
check 2 "can-i" "$FOOTPRINT" can-i get secrets "$input" --as system:serviceaccount:app:default -n app
check 2 "who-can" "$FOOTPRINT" who-can get secrets "$input" -A
check 2 "can-install" "$FOOTPRINT" can-install "$input" --as alice -n app
check 2 "can-install --print-role" "$FOOTPRINT" can-install "$input" --as alice -n app --print-role
check 2 "admission" "$FOOTPRINT" admission "$input" --resource secrets --operation CREATE -n app
check 2 "fix rbac" "$FOOTPRINT" fix rbac "$input" -o fixes
check 2 "fix crds" "$FOOTPRINT" fix crds "$input" -o fixes
check 2 "fix webhooks" "$FOOTPRINT" fix webhooks "$input" -n app -o fixes
# restarts reads pod samples: the Secrets are no pods, and their values are not read.
run "$FOOTPRINT" restarts "$input" "$input"
expect_status_in 0 1 2
no_leak "restarts" "$OUT" "$ERR"
# As a cluster snapshot (--cluster), an object that spells Secret is dropped before it is read.
check 0 "audit --cluster" "$FOOTPRINT" audit base.yaml --cluster "$input" --format json
check 0 "can-i --cluster" "$FOOTPRINT" who-can get secrets base.yaml --cluster "$input" -A
for f in relocated plan.sh airgap.out fixes; do
  [ ! -e "$f" ] || fail "$f was written for an input that holds invalid documents"
done
echo "ok"
