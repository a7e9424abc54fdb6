#!/usr/bin/env bash
# The file behind standard input is an input: `footprint audit - -o in.yaml < in.yaml` names the
# file that "-" reads (same device and inode as descriptor 0), so it is refused like any input
# named on the command line, before anything is written. Through a hard link too.
source "$(dirname "$0")/common.inc"

cd "$TMP"
cp "$ROOT/examples/inference-operator.yaml" in.yaml
sum=$(sha256sum in.yaml)
unchanged() { [ "$(sha256sum in.yaml)" = "$sum" ] || fail "in.yaml was changed: $*"; }
ln in.yaml hard.yaml

for out in in.yaml ./in.yaml "$TMP/in.yaml" hard.yaml; do
  run "$FOOTPRINT" audit - -o "$out" <in.yaml
  expect_status 2
  expect_stderr "$out is the file on standard input, one of the inputs; refusing to write over it"
  unchanged "audit - -o $out"
done
run "$FOOTPRINT" images - -o in.yaml <in.yaml
expect_status 2
unchanged "images -o"
run "$FOOTPRINT" airgap - --format json -o in.yaml <in.yaml
expect_status 2
unchanged "airgap -o"
run "$FOOTPRINT" compare a=- b="$ROOT/examples/inference-operator.yaml" -o in.yaml <in.yaml
expect_status 2
unchanged "compare -o"
run "$FOOTPRINT" diff "$ROOT/examples/inference-operator.yaml" - -o in.yaml <in.yaml
expect_status 2
unchanged "diff -o"
run "$FOOTPRINT" images relocate --registry mirror.example.com - --plan in.yaml <in.yaml
expect_status 2
unchanged "images relocate --plan"
# A file footprint names inside -o DIR, even with --force.
mkdir fixes
cp in.yaml fixes/rbac-fix.yaml
run "$FOOTPRINT" fix rbac - -o fixes --force <fixes/rbac-fix.yaml
expect_status 2
expect_stderr "is the file on standard input"
cmp -s in.yaml fixes/rbac-fix.yaml || fail "fix rbac wrote over the file on standard input"

# Another file is written as usual.
run "$FOOTPRINT" audit - -o report.txt <in.yaml
expect_status 0
grep -q "^footprint" report.txt || fail "audit - -o report.txt wrote no report"
echo "ok"
