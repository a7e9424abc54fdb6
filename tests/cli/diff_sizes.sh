#!/usr/bin/env bash
# diff --sizes: what an upgrade adds to an air-gapped mirror, against a real local registry
# (docker-registry on 127.0.0.1, filled by skopeo from the OCI layouts registry_fixture.py writes,
# as in registry.sh). OLD pulls team/app:1.0; NEW retags it to team/app:2.0, which shares its base
# layer with 1.0 (the fixture's `app` and `docker` kinds, same seed), adds team/multi:1.0 and
# team/missing:1.0, which the registry does not have. Every expected byte count is summed here
# from the blobs the fixture wrote, never read from footprint.
source "$(dirname "$0")/common.inc"
source "$(dirname "$0")/registry.inc"
need_registry_tools
trap 'stop_servers; rm -rf "$TMP"' EXIT
cd "$TMP"
fixture=$ROOT/tests/cli/registry_fixture.py
export HOME=$TMP/home
unset REGISTRY_AUTH_FILE DOCKER_CONFIG
mkdir -p "$HOME"

"$PYTHON" "$fixture" multi multi >multi.json
"$PYTHON" "$fixture" docker docker >docker.json
"$PYTHON" "$fixture" app app >app.json
start_registry open "$TMP/store"
R=127.0.0.1:$PORT
push multi "$R/team/multi:1.0"
push docker "$R/team/app:1.0"
push app "$R/team/app:2.0"

pods() {  # FILE IMAGE...: one Pod per image
  local file=$1 i=0
  shift
  : >"$file"
  for image in "$@"; do
    i=$((i + 1))
    printf -- '---\napiVersion: v1\nkind: Pod\nmetadata: {name: p%s, namespace: t}\nspec:\n  containers:\n  - {name: c, image: "%s"}\n' \
      "$i" "$image" >>"$file"
  done
}
pods old.yaml "$R/team/app:1.0"
pods new.yaml "$R/team/app:2.0" "$R/team/multi:1.0" "$R/team/missing:1.0"

run "$FOOTPRINT" diff old.yaml new.yaml --sizes --insecure-registry "$R" --format json
expect_status 0
grep -q "team/missing:1.0" "$ERR" || fail "the unreadable image is named on stderr"
"$PYTHON" - "$OUT" "$R" <<'PY' || fail "diff --sizes JSON"
import json, sys
facts = {k: json.load(open(f"{k}.json")) for k in ("multi", "docker", "app")}
def blobs(kind):  # linux/amd64, the default platform: manifest, config and layers
    p = facts[kind]["platforms"]["linux/amd64"]
    return {p["digest"]: p["manifestBytes"], p["config"]: p["configBytes"],
            **dict(zip(p["layers"], p["layerBytes"]))}
d = json.load(open(sys.argv[1]))
R = sys.argv[2]
images = {c["subject"]: c for c in d["changes"] if c["area"] == "images"}
app, multi, missing = (images[f"{R}/team/{n}"] for n in ("app", "multi", "missing"))
# Each change: the size of its new reference, the whole image as stored.
assert app["mirrorBytes"] == sum(blobs("app").values()), app
assert multi["mirrorBytes"] == sum(blobs("multi").values()), multi
assert missing["mirrorBytes"] is None, missing
assert missing["details"] == [f"{R}/team/missing:1.0: size unknown (its registry could not be read)"], missing
# The mirror already holds app:1.0's blobs; app:2.0 shares its base layer with it.
shared = set(blobs("app")) & set(blobs("docker"))
assert len(shared) == 1, shared
new_blobs = {**blobs("app"), **blobs("multi")}
expected = sum(b for digest, b in new_blobs.items() if digest not in blobs("docker"))
assert expected < app["mirrorBytes"] + multi["mirrorBytes"]
m = d["summary"]["mirror"]
assert m["bytes"] == expected, (m, expected)
assert sorted(m["images"]) == sorted(f"{R}/team/{n}" for n in ("app:2.0", "multi:1.0", "missing:1.0")), m
assert m["unknown"] == [f"{R}/team/missing:1.0"], m
PY

# Text: the total in words, and the unknown one named, not guessed.
run "$FOOTPRINT" diff old.yaml new.yaml --sizes --insecure-registry "$R"
expect_status 0
expect_stdout "To mirror for the upgrade: 3 new images,"
[ "$(tr '\n' ' ' <"$OUT" | tr -s ' ' | grep -cF "plus 1 of unknown size ($R/team/missing:1.0).")" = 1 ] ||
  fail "the image of unknown size is named: $(head -5 "$OUT")"

# Without --sizes no registry is asked, and the review says so.
run "$FOOTPRINT" diff old.yaml new.yaml --format json
expect_status 0
[ "$(json_get "$OUT" "(d['summary']['mirror'], sorted({c['mirrorBytes'] for c in d['changes']}, key=str))")" = "(None, [None])" ] ||
  fail "no sizes without --sizes"
run "$FOOTPRINT" diff old.yaml new.yaml
expect_stdout "Image sizes: not asked (--sizes asks the registries)."
echo "diff_sizes: ok"
