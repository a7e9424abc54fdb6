#!/usr/bin/env bash
# Objects that may hold Secret values never have them printed: a mis-cased `kind: secret` or
# `kind: SECRET` of a custom group, an unknown kind shaped like a Secret (data or stringData
# beside type), and a real Secret whose value kubectl cannot encode. Every command and format is
# run over tests/data/secret-lookalikes.yaml (as manifests, and as a --cluster snapshot), and
# neither the canary token, its base64, nor the base64 of the docker config holding it may appear
# in stdout, stderr or any file written.
source "$(dirname "$0")/common.inc"
input=$DATA/secret-lookalikes.yaml
canaries=(fpcanary ZnBjYW5hcnktVDBrM24tNWVjcjN0 eyJhdXRocyI6)
cd "$TMP"

# no_leak WHAT FILE...: none of the canaries in the files (case-insensitive: the image-shaped
# values are lower-cased).
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

for format in text json markdown sarif html; do
  check 0 "audit --format $format" "$FOOTPRINT" audit "$input" --format "$format"
  check 0 "audit --cluster --format $format" \
    "$FOOTPRINT" audit "$input" --cluster "$input" --format "$format"
done
for format in text json markdown; do
  check 0 "airgap --format $format" "$FOOTPRINT" airgap "$input" --format "$format"
done
for format in text json markdown list; do
  check 0 "images --format $format" "$FOOTPRINT" images "$input" --format "$format"
  check 0 "images --include-possible --format $format" \
    "$FOOTPRINT" images "$input" --include-possible --format "$format"
done
for format in text json markdown html; do
  check 0 "compare --format $format" "$FOOTPRINT" compare a="$input" b="$input" --format "$format"
done
# Against a bundle of one ConfigMap, every object of the input is an addition the review reports.
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: app}\n' >base.yaml
for format in text json markdown html; do
  check 0 "diff --format $format" "$FOOTPRINT" diff "$input" "$input" --format "$format"
  check 0 "diff --format $format (added)" "$FOOTPRINT" diff base.yaml "$input" --format "$format"
  check 0 "diff --format $format (removed)" "$FOOTPRINT" diff "$input" base.yaml --format "$format"
done
for format in text json; do
  check 0 "who-can --format $format" "$FOOTPRINT" who-can get secrets "$input" -A --format "$format"
  check 1 "can-i --format $format (not allowed)" "$FOOTPRINT" can-i get secrets "$input" \
    --as system:serviceaccount:app:default -n app --format "$format"
  check 1 "can-install --format $format (not allowed)" "$FOOTPRINT" can-install "$input" \
    --as system:serviceaccount:app:default -n app --format "$format"
done
check 0 "can-install --print-role" "$FOOTPRINT" can-install "$input" --as alice -n app --print-role
check 0 "admission" "$FOOTPRINT" admission "$input" --resource secrets --operation CREATE -n app

# Files written: reports, relocated manifests and the copy plan, fixes.
check 0 "audit -o" "$FOOTPRINT" audit "$input" --format html -o report.html
check 0 "images relocate" "$FOOTPRINT" images relocate --registry mirror.example.com "$input" \
  --include-possible -o relocated
expect_stderr "secret app/lower-case"
expect_stderr "SECRET app/upper-case"
expect_stderr "Credentials app/look-alike"
check 0 "images relocate to stdout" "$FOOTPRINT" images relocate \
  --registry mirror.example.com "$input" --plan plan.sh
grep -q "mirror.example.com/library/nginx:1.25" "$OUT" || fail "the Deployment is relocated"
check 0 "fix rbac" "$FOOTPRINT" fix rbac "$input" -o fixes
check 0 "fix crds" "$FOOTPRINT" fix crds "$input" -o fixes
no_leak "a written file" report.html relocated plan.sh
[ ! -e fixes ] || no_leak "fix" fixes

# Invalid documents holding Secret values: their messages name the place and the problem, never
# the value (no name, a duplicate key, a value kubectl cannot decode, an unterminated quote).
cat >invalid.yaml <<'YAML'
apiVersion: v1
kind: secret
stringData: {token: fpcanary-T0k3n-5ecr3t}
---
apiVersion: v1
kind: Secret
metadata: {name: duplicate, namespace: app}
data: {token: ZnBjYW5hcnktVDBrM24tNWVjcjN0, token: ZnBjYW5hcnktVDBrM24tNWVjcjN0}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: fine, namespace: app}
---
apiVersion: v1
kind: Secret
metadata: {name: unterminated, namespace: app}
stringData:
  token: "fpcanary-T0k3n-5ecr3t
YAML
for format in text json markdown sarif html; do
  check 2 "audit of invalid documents --format $format" \
    "$FOOTPRINT" audit invalid.yaml --format "$format"
done
check 2 "images of invalid documents" "$FOOTPRINT" images invalid.yaml
echo "ok"
