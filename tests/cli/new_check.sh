#!/usr/bin/env bash
# scripts/new-check in a scratch copy of src/: it refuses a taken ID and an unknown area, writes
# the check and its test in the area's folder with the registration after that area's last check,
# and the stubs compile with the flags the build uses for their neighbours.
source "$(dirname "$0")/common.inc"
tree=$TMP/tree
mkdir -p "$tree/scripts"
cp -r "$ROOT/src" "$tree/src"
cp "$ROOT/scripts/new-check" "$tree/scripts/"
list=$tree/src/analysis/check_list.inc
cp "$list" "$TMP/list.before"

# A taken ID and an unknown area change nothing.
"$tree/scripts/new-check" config-data-too-large objects 2>"$TMP/err" && fail "a taken ID was accepted"
grep -q "objects/data_size.cc" "$TMP/err" || fail "the refusal does not name the defining file"
"$tree/scripts/new-check" webhook-thing webhooks 2>"$TMP/err" && fail "an unknown area was accepted"
grep -q "unknown area 'webhooks'" "$TMP/err" || fail "the refusal does not name the area"
"$tree/scripts/new-check" Bad_Id objects 2>/dev/null && fail "a non-kebab-case ID was accepted"
"$tree/scripts/new-check" --dry-run namespace-quota-shared cluster-wide >"$TMP/dry"
grep -q "FOOTPRINT_CHECK(kNamespaceQuotaShared)" "$TMP/dry" || fail "the dry run shows no registration"
cmp -s "$list" "$TMP/list.before" || fail "check_list.inc changed"
[ ! -e "$tree/src/analysis/cluster_wide/namespace_quota_shared.cc" ] || fail "the dry run wrote"

# cluster-wide checks live in cluster_wide/; the last of them in the list is
# kMutatingPolicySharedResources (grep of check_list.inc and shared_cluster_objects.cc).
"$tree/scripts/new-check" namespace-quota-shared cluster-wide >/dev/null
check=$tree/src/analysis/cluster_wide/namespace_quota_shared.cc
test=$tree/src/analysis/cluster_wide/namespace_quota_shared_test.cc
{ [ -f "$check" ] && [ -f "$test" ]; } || fail "the stubs are not in cluster_wide/"
grep -A1 "^FOOTPRINT_CHECK(kMutatingPolicySharedResources)$" "$list" | tail -1 |
  grep -qx "FOOTPRINT_CHECK(kNamespaceQuotaShared)" || fail "registered in the wrong place"
[ "$(diff "$TMP/list.before" "$list" | grep -c '^[<>]')" = 1 ] || fail "check_list.inc changed more than one line"
grep -q '\.area = Area::kClusterWide,' "$check" || fail "the area is not kClusterWide"
grep -q '"namespace-quota-shared"' "$test" || fail "the test does not name the ID"
"$tree/scripts/new-check" namespace-quota-shared cluster-wide 2>/dev/null && fail "written twice"

# The stubs and the registry compile, with the flags of the files beside them.
# A unity build's compile commands name batches of sources, not the neighbours: clang-tidy's
# configuration beside it (scripts/build tidy) names each source.
build_dir=$(dirname "$FOOTPRINT")
commands=$build_dir/compile_commands.json
if grep -q '^CMAKE_UNITY_BUILD:[A-Z]*=ON' "$build_dir/CMakeCache.txt"; then
  commands=$build_dir/tidy/compile_commands.json
  [ -f "$commands" ] ||
    skip_legitimately "a unity build, and no $commands (scripts/build tidy) to compile the stubs with"
fi
[ -f "$commands" ] || skip "no $commands: cannot compile the stubs"
for pair in "cluster_wide/shared_cluster_objects.cc $check" \
  "cluster_wide/shared_cluster_objects_test.cc $test" "registry.cc $tree/src/analysis/registry.cc"; do
  read -r neighbour stub <<<"$pair"
  "$PYTHON" - "$commands" "$ROOT" "$tree" "src/analysis/$neighbour" "$stub" >"$TMP/compile" <<'EOF'
import json, shlex, sys
commands, root, tree, neighbour, stub = sys.argv[1:]
for entry in json.load(open(commands)):
    if entry["file"].endswith("/" + neighbour):
        args = shlex.split(entry["command"])
        break
else:
    sys.exit("no compile command for " + neighbour)
out, skip = [], False
for a in args:
    if skip:
        skip = False
    elif a in ("-o", "-MF", "-MT", "-c"):
        skip = True
    elif a not in ("-MD", "-MMD") and not a.endswith(neighbour):
        out.append(a.replace(root + "/src", tree + "/src").replace("-I../src", "-I" + tree + "/src"))
print(shlex.join(out + ["-fsyntax-only", stub]))
EOF
  (cd "$(dirname "$commands")" && eval "$(cat "$TMP/compile")") 2>"$TMP/cc.err" ||
    fail "$(basename "$stub") does not compile: $(head -c 2000 "$TMP/cc.err")"
done
