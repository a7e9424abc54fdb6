#!/usr/bin/env bash
# diff --sizes: what an upgrade adds to an air-gapped mirror, against a real local registry
# (docker-registry on 127.0.0.1, filled by skopeo from the OCI layouts registry_fixture.py writes,
# as in registry.sh). OLD pulls team/app:1.0; NEW retags it to team/app:2.0, which shares its base
# layer with 1.0 (the fixture's `app` and `docker` kinds, same seed), adds team/multi:1.0 and
# team/missing:1.0, which the registry does not have; a second OLD also pulls team/gone:0.9,
# which it does not have either. Every expected byte count is summed here
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
assert missing["details"][0].startswith(f"{R}/team/missing:1.0: size unknown: not found (404)"), missing  # the registry answered (trial Confusing 7)
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
# Its blobs are left out of the total, which can only be short of the truth: a lower bound.
[ "$(tr '\n' ' ' <"$OUT" | tr -s ' ' | grep -cF "plus 1 of unknown size ($R/team/missing:1.0); a lower bound.")" = 1 ] ||
  fail "the image of unknown size is named: $(head -5 "$OUT")"

# OLD also pulls team/gone:0.9, which the registry does not have. What it holds is unknown, so
# none of its blobs can be subtracted: the total of NEW's two readable images is the same sum as
# above, an upper bound now (gone:0.9 might hold some of those blobs), and the summary says so
# and names it.
pods old2.yaml "$R/team/app:1.0" "$R/team/gone:0.9"
pods new2.yaml "$R/team/app:2.0" "$R/team/multi:1.0"
run "$FOOTPRINT" diff old2.yaml new2.yaml --sizes --insecure-registry "$R" --format json
expect_status 0
"$PYTHON" - "$OUT" "$R" <<'PY' || fail "diff --sizes JSON with an unreadable OLD image"
import json, sys
facts = {k: json.load(open(f"{k}.json")) for k in ("multi", "docker", "app")}
def blobs(kind):
    p = facts[kind]["platforms"]["linux/amd64"]
    return {p["digest"]: p["manifestBytes"], p["config"]: p["configBytes"],
            **dict(zip(p["layers"], p["layerBytes"]))}
R = sys.argv[2]
m = json.load(open(sys.argv[1]))["summary"]["mirror"]
new_blobs = {**blobs("app"), **blobs("multi")}
assert m["bytes"] == sum(b for d, b in new_blobs.items() if d not in blobs("docker")), m
assert m["unknown"] == [] and m["oldUnknown"] == [f"{R}/team/gone:0.9"], m
assert m["bytesBound"] == "upper", m
PY
bound="an upper bound: 1 of OLD's images could not be read ($R/team/gone:0.9), so the blobs they hold count as still to copy."
# Markdown escapes with backslashes, HTML writes ' as &#39;: both undone before the match.
for format in text markdown html; do
  run "$FOOTPRINT" diff old2.yaml new2.yaml --sizes --insecure-registry "$R" --format $format
  expect_status 0
  tr '\n' ' ' <"$OUT" | tr -s ' ' | sed -e 's/\\//g' -e "s/&#39;/'/g" | grep -qF "$bound" ||
    fail "$format names the unreadable OLD image and the bound: $(grep -i mirror "$OUT")"
done

# Without --sizes no registry is asked, and the review says so.
run "$FOOTPRINT" diff old.yaml new.yaml --format json
expect_status 0
[ "$(json_get "$OUT" "(d['summary']['mirror'], sorted({c['mirrorBytes'] for c in d['changes']}, key=str))")" = "(None, [None])" ] ||
  fail "no sizes without --sizes"
run "$FOOTPRINT" diff old.yaml new.yaml
expect_stdout "Image sizes: not asked (--sizes asks the registries)."
echo "diff_sizes: ok"
