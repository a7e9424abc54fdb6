# Shared by the CLI tests: one shell script per feature, run by ctest with $FOOTPRINT set to the
# binary under test. A test exits 0 on success, 1 on failure, 77 to be reported as skipped.
set -euo pipefail
: "${FOOTPRINT:?FOOTPRINT must name the footprint binary}"
ROOT=${FOOTPRINT_SOURCE_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
SHARED=${FOOTPRINT_SHARED_DIR:-$ROOT/../shared}
DATA=$ROOT/tests/data
PYTHON=/usr/bin/python3
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# run CMD...: runs with a guard against hangs; sets STATUS, and OUT/ERR to the output files.
run() {
  set +e
  timeout 60 "$@" >"$TMP/stdout" 2>"$TMP/stderr"
  STATUS=$?
  set -e
  OUT=$TMP/stdout
  ERR=$TMP/stderr
}

expect_status() {
  [ "$STATUS" = "$1" ] || fail "expected exit $1, got $STATUS; stderr: $(head -c 2000 "$ERR")"
}

expect_stdout() {
  grep -qF -- "$1" "$OUT" || fail "stdout lacks '$1'; stdout: $(head -c 3000 "$OUT")"
}

expect_stderr() {
  grep -qF -- "$1" "$ERR" || fail "stderr lacks '$1'; stderr: $(head -c 3000 "$ERR")"
}

expect_no_stdout() {
  ! grep -qF -- "$1" "$OUT" || fail "stdout unexpectedly contains '$1'"
}

need_corpus() {
  if [ ! -d "$SHARED/corpus" ]; then
    echo "SKIP: $SHARED/corpus not found; the integration tests need ../shared/corpus"
    exit 77
  fi
}

# json_get FILE EXPR: evaluates a Python expression over the JSON document `d`.
json_get() {
  "$PYTHON" -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"
}
