#!/usr/bin/env bash
# footprint images relocate: every reference rewritten with tag and digest kept, comments and
# everything else left as they were, Secrets left out and named, and a skopeo plan that copies
# exactly the images the rewritten manifests use.
source "$(dirname "$0")/common.inc"
fixture=$DATA/airgap/platform.yaml
mirror=mirror.internal:5000/team

run "$FOOTPRINT" images relocate --registry "$mirror" "$fixture" -o "$TMP/out"
expect_status 0
expect_stderr "left out 1 Secret,"
expect_stderr "Secret platform-system/registry-credentials"
out=$TMP/out/platform.yaml
plan=$TMP/out/copy-images.sh
[ -x "$plan" ] || fail "the plan is not executable"

! grep -q "kind: Secret" "$out" || fail "a Secret was written"
! grep -q -e never-print-me -e s3cr3t "$out" "$plan" "$ERR" || fail "a Secret value was written"
for comment in "# a familiar Docker Hub name" "# images the operator starts on demand" \
  "# shared with the frontend" "# Source: platform/templates/operator.yaml"; do
  grep -qF -- "$comment" "$out" || fail "comment lost: $comment"
done

"$FOOTPRINT" images "$fixture" --format json >"$TMP/before.json"
"$FOOTPRINT" images "$out" --format json >"$TMP/after.json"
"$PYTHON" - "$fixture" "$out" "$TMP/before.json" "$TMP/after.json" "$plan" "$mirror" <<'PY' ||
import json, re, sys
fixture, out, before, after, plan, mirror = sys.argv[1:]
host, prefix = mirror.split("/", 1)
b = json.load(open(before))["images"]["images"]
a = json.load(open(after))["images"]["images"]
# Every image moved, in the same order, keeping repository path, tag and digest.
assert len(a) == len(b) == 6, (len(a), len(b))
for old, new in zip(b, a):
    assert new["registry"] == host, new["reference"]
    assert new["repository"] == prefix + "/" + old["repository"], (old["repository"], new["repository"])
    assert (new["tag"], new["digest"]) == (old["tag"], old["digest"]), new["reference"]
    assert len(new["uses"]) == len(old["uses"])
# Every other line is unchanged: only lines holding a reference, and the Secret, differ.
written = {u["written"] for i in b for u in i["uses"]} | {"docker.io/library/nats"}
original = open(fixture).read().split("---\n")
result = open(out).read().split("---\n")
assert len(original) == len(result)
for doc_before, doc_after in zip(original, result):
    if "kind: Secret" in doc_before:
        assert "left out by footprint" in doc_after and "s3cr3t" not in doc_after
        continue
    lines_before, lines_after = doc_before.splitlines(), doc_after.splitlines()
    assert len(lines_before) == len(lines_after)
    for x, y in zip(lines_before, lines_after):
        if x != y:
            assert any(w in x for w in written), (x, y)
            assert host in y, y
# The plan copies each image once: sources as the original manifests name them, destinations
# as the relocated ones do.
lines = [l for l in open(plan).read().splitlines() if l and not l.startswith("#") and l != "set -eu"]
pairs = []
for l in lines:
    m = re.fullmatch(r"skopeo copy --all docker://(\S+) docker://(\S+)", l)
    assert m, l
    pairs.append(m.groups())
assert [s for s, _ in pairs] == [i["reference"] for i in b], pairs
for (src, dst), old, new in zip(pairs, b, a):
    assert dst.startswith(host + "/" + new["repository"]), (dst, new["repository"])
    suffix = ":" + (old["tag"] or "latest") if old["tag"] or not old["digest"] else "@" + old["digest"]
    assert dst == host + "/" + new["repository"] + suffix, (dst, suffix)
PY
  fail "relocation assertions"

# Standard output with --plan; a second relocation of the output changes nothing more.
run "$FOOTPRINT" images relocate --registry "$mirror" "$fixture" --plan "$TMP/plan2.sh"
expect_status 0
cmp "$OUT" "$out" || fail "stdout and -o differ"
cmp "$TMP/plan2.sh" "$plan" || fail "plans differ"

run "$FOOTPRINT" images relocate --registry mirror/team "$fixture" --plan "$TMP/p.sh"
expect_status 2
expect_stderr "would be read as a Docker Hub namespace"
run "$FOOTPRINT" images relocate --registry "$mirror" "$fixture"
expect_status 2
expect_stderr "give --plan FILE, or -o DIR"

# Two registries holding the same path would collide in the mirror.
printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - {name: a, image: "quay.io/x/y:1"}\n  - {name: b, image: "ghcr.io/x/y:2"}\n' >"$TMP/clash.yaml"
run "$FOOTPRINT" images relocate --registry "$mirror" "$TMP/clash.yaml" --plan "$TMP/p.sh"
expect_status 2
expect_stderr "quay.io/x/y and ghcr.io/x/y would both become mirror.internal:5000/team/x/y"
