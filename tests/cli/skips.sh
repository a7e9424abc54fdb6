#!/usr/bin/env bash
# Skips go through skip/skip_legitimately (common.inc) or FOOTPRINT_SKIP (util/test_skip.h), so
# that under CI=true a skip that CI's own setup should have prevented fails instead of passing.
source "$(dirname "$0")/common.inc"

cd "$ROOT"
stray=$(grep -n 'exit 77' tests/cli/*.sh | grep -v -e '^tests/cli/common.inc:' -e '^tests/cli/skips.sh:' || true)
[ -z "$stray" ] || fail "a CLI test skips around skip(): $stray"
stray=$(grep -rn 'GTEST_SKIP' src --include='*_test.cc' || true)
[ -z "$stray" ] || fail "a unit test skips around FOOTPRINT_SKIP: $stray"

# The rule itself: under CI=true skip fails, skip_legitimately still skips.
printf 'source "%s/tests/cli/common.inc"\nskip "no frobnicator"\n' "$ROOT" >"$TMP/skips.sh"
run env CI=true bash "$TMP/skips.sh"
expect_status 1
expect_stderr "would skip under CI: no frobnicator"
run env CI= bash "$TMP/skips.sh"
expect_status 77
printf 'source "%s/tests/cli/common.inc"\nskip_legitimately "root reads all"\n' "$ROOT" >"$TMP/legit.sh"
run env CI=true bash "$TMP/legit.sh"
expect_status 77

# An unchecked exit status fails the test, at the next run and at the end.
printf 'source "%s/tests/cli/common.inc"\nrun true\nrun true\nexpect_status 0\n' "$ROOT" >"$TMP/next.sh"
run bash "$TMP/next.sh"
expect_status 1
expect_stderr "the exit status of 'true' was never checked"
printf 'source "%s/tests/cli/common.inc"\nrun false\n' "$ROOT" >"$TMP/end.sh"
run bash "$TMP/end.sh"
expect_status 1
expect_stderr "the exit status of 'false' was never checked"

# A sanitizer's report fails the test even when the status is the one expected.
cat >"$TMP/reports.sh" <<EOF
source "$ROOT/tests/cli/common.inc"
run touch "\$TMP/sanitizer.1"
expect_status 0
EOF
run bash "$TMP/reports.sh"
expect_status 1
expect_stderr "a sanitizer reported"
