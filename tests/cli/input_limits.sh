#!/usr/bin/env bash
# The documented input limits (docs/limits.md), at their real defaults where that is cheap:
# nesting depth, alias expansion and files in a directory. Each is exit 2 naming the file and the
# limit; the byte limits are proved with small limits in loader_test.cc.
source "$(dirname "$0")/common.inc"

# Nesting: 512 levels load, 513 do not.
nest() {
  "$PYTHON" -c "
import sys
n = int(sys.argv[1])
print('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: deep}\ndata: {k: v}\nx: ' + '[' * n + ']' * n)" "$1"
}
nest 509 >"$TMP/ok.yaml"   # the object's mapping and x add two levels, the document one more
run "$FOOTPRINT" audit "$TMP/ok.yaml"
expect_status 0
nest 600 >"$TMP/deep.yaml"
run "$FOOTPRINT" audit "$TMP/deep.yaml"
expect_status 2
expect_stderr "$TMP/deep.yaml:5:"
expect_stderr "512"

# Aliases that expand past a million nodes (a "billion laughs").
"$PYTHON" - >"$TMP/laughs.yaml" <<'PY'
print("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: laughs}")
print("a0: &a0 [x, x, x, x, x, x, x, x, x, x]")
for i in range(1, 8):
    print(f"a{i}: &a{i} [" + ", ".join([f"*a{i-1}"] * 10) + "]")
PY
run "$FOOTPRINT" audit "$TMP/laughs.yaml"
expect_status 2
expect_stderr "$TMP/laughs.yaml:"
expect_stderr "1000000"

# Files and folders in one directory: 10,000.
mkdir "$TMP/many"
cp "$ROOT/examples/inference-operator.yaml" "$TMP/many/a.yaml"
(cd "$TMP/many" && seq 1 9999 | sed 's/$/.txt/' | xargs touch)
run "$FOOTPRINT" audit "$TMP/many"
expect_status 0
touch "$TMP/many/one-more.txt"
run "$FOOTPRINT" audit "$TMP/many"
expect_status 2
expect_stderr "$TMP/many: more than 10000 files and folders under it"
echo "ok"
