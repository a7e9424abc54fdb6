#!/usr/bin/env bash
# --version names the version from CMakeLists.txt and the git commit built from, which comes
# from git in a checkout, from cmake/git_commit.txt in a `git archive` tarball (export-subst),
# or from -DFOOTPRINT_GIT_COMMIT; without any of them it says "unknown".
source "$(dirname "$0")/common.inc"
version=$(sed -n 's/^project(footprint VERSION \([0-9.]*\).*/\1/p' "$ROOT/CMakeLists.txt")
[ -n "$version" ] || fail "no version in CMakeLists.txt"

run "$FOOTPRINT" --version
expect_status 0
expect_stdout "footprint $version (commit "
if git -C "$ROOT" rev-parse HEAD >/dev/null 2>&1; then
  expect_stdout "(commit $(git -C "$ROOT" rev-parse HEAD)"
fi

# The same script the build runs, on sources without git metadata.
build_info() {  # SOURCE_DIR [cmake -D...]: prints the generated file
  local dir=$1
  shift
  cmake "$@" -DSOURCE_DIR="$dir" -DOUTPUT="$TMP/build_info.cc" -P "$dir/cmake/build_info.cmake"
  cat "$TMP/build_info.cc"
}
mkdir -p "$TMP/copy/cmake"
cp "$ROOT/cmake/build_info.cmake" "$ROOT/cmake/git_commit.txt" "$TMP/copy/cmake/"
build_info "$TMP/copy" | grep -qF 'kBuildCommit = "unknown"' || fail "a plain copy should say unknown"
build_info "$TMP/copy" -DFOOTPRINT_GIT_COMMIT=0123abcd | grep -qF 'kBuildCommit = "0123abcd"' ||
  fail "-DFOOTPRINT_GIT_COMMIT should win"

if git -C "$ROOT" rev-parse HEAD >/dev/null 2>&1; then
  head=$(git -C "$ROOT" rev-parse HEAD)
  mkdir -p "$TMP/tarball"
  git -C "$ROOT" archive --format=tar HEAD cmake | tar -x -C "$TMP/tarball"
  if [ -f "$TMP/tarball/cmake/build_info.cmake" ]; then  # HEAD may predate the script
    build_info "$TMP/tarball" | grep -qF "kBuildCommit = \"$head\"" ||
      fail "a git archive tarball should name HEAD ($head)"
  fi
fi
