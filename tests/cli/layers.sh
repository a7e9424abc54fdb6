#!/usr/bin/env bash
# The include direction of ARCHITECTURE.md, checked by scripts/check-layers, which the build also
# runs before it links footprint: the tree passes, and an include up a floor or across areas
# fails.
source "$(dirname "$0")/common.inc"
run bash "$ROOT/scripts/check-layers" "$ROOT"
expect_status 0
grep -q "^layers: " "$OUT" || fail "no summary: $(cat "$OUT")"

# A copy of the tree with one wrong include at a time.
cp -r "$ROOT/src" "$TMP/src"
wrong_include() {  # FILE INCLUDE: adds the include to FILE, runs the check, restores FILE
  cp "$TMP/src/$1" "$TMP/saved"
  echo "#include \"$2\"" >>"$TMP/src/$1"
  run bash "$ROOT/scripts/check-layers" "$TMP"
  expect_status 1
  grep -qF "$1" "$OUT" || fail "$1 including $2 is not named: $(cat "$OUT")"
  cp "$TMP/saved" "$TMP/src/$1"
}
wrong_include model/object.h analysis/context.h                      # a layer up
wrong_include analysis/models/images.cc analysis/context.h           # models -> core
wrong_include analysis/models/rights.h analysis/rbac/rbac_internal.h # models -> an area
wrong_include analysis/context.h analysis/rbac/rbac_internal.h       # core -> an area
wrong_include analysis/crds/crd_sizes.cc analysis/rbac/rbac_internal.h  # area -> another area
wrong_include analysis/compare/compare.cc analysis/admission/admission_chain.cc  # engine -> area
