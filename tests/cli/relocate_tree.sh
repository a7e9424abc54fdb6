#!/usr/bin/env bash
# images relocate -o mirrors the input tree (kustomize bases and overlays share file names), and
# writes nothing at all when anything fails.
source "$(dirname "$0")/common.inc"

cd "$TMP"
mkdir -p k/base k/overlay
pod() {
  printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: %s}\nspec:\n  containers: [{name: c, image: "%s"}]\n' "$1" "$2" >"$3"
}
pod a nvcr.io/nvidia/a:1.0 k/base/x.yaml
pod b quay.io/team/b:2.0 k/overlay/x.yaml

run "$FOOTPRINT" images relocate --registry mirror.internal:5000 k/base/x.yaml k/overlay/x.yaml -o out
expect_status 0
grep -q "image: \"mirror.internal:5000/nvidia/a:1.0\"" out/base/x.yaml || fail "out/base/x.yaml: $(cat out/base/x.yaml)"
grep -q "image: \"mirror.internal:5000/team/b:2.0\"" out/overlay/x.yaml || fail "out/overlay/x.yaml"
[ -x out/copy-images.sh ] || fail "the copy plan is executable"
[ "$(find out -type f | wc -l)" = 3 ] || fail "expected 2 manifests and the plan: $(find out -type f)"

# A directory input keeps its layout under -o as well.
run "$FOOTPRINT" images relocate --registry mirror.internal:5000 k -o out-dir
expect_status 0
[ -f out-dir/base/x.yaml ] && [ -f out-dir/overlay/x.yaml ] || fail "layout: $(find out-dir)"

# A failure part-way writes nothing: here the second destination is a directory already.
mkdir -p blocked/overlay/x.yaml
run "$FOOTPRINT" images relocate --registry mirror.internal:5000 k/base/x.yaml k/overlay/x.yaml -o blocked
expect_status 2
expect_stderr "blocked/overlay/x.yaml"
[ ! -e blocked/base ] || fail "blocked/base was created although the run failed"
[ ! -e blocked/copy-images.sh ] || fail "the plan was written although the run failed"
! find blocked -name '*footprint-*' | grep -q . || fail "a temporary file was left"

# --plan over a rewritten manifest: refused before writing.
run "$FOOTPRINT" images relocate --registry mirror.internal:5000 k/base/x.yaml -o out3 --plan out3/x.yaml
expect_status 2
[ ! -e out3 ] || fail "out3 was created"
echo "ok"
