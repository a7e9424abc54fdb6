#!/usr/bin/env bash
# footprint images/airgap --sizes and --pin against a real local registry (docker-registry 2.8 on
# 127.0.0.1, storage in $TMP) filled by skopeo from OCI layouts this test writes, plus a loopback
# token server with a fake Bearer-only registry (registry_fake.py). Every expected size is summed
# here from the blobs the fixture wrote; every digest comes from skopeo inspect --raw | sha256sum.
# No traffic leaves 127.0.0.1. CI installs docker-registry and skopeo, so missing tools fail.
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

write_pods() {  # FILE IMAGE...
  local file=$1 i=0
  shift
  : >"$file"
  for image in "$@"; do
    i=$((i + 1))
    printf -- '---\napiVersion: v1\nkind: Pod\nmetadata: {name: p%s, namespace: t}\nspec:\n  containers:\n  - {name: c, image: "%s"}\n' \
      "$i" "$image" >>"$file"
  done
}
write_pods pods.yaml "$R/team/multi:1.0" "$R/team/app:1.0" "$R/team/app:2.0"

# The expected answers, from the fixture's facts and from skopeo. OCI image spec: a manifest's
# digest is the sha256 of its exact bytes; a platform's size here is its manifest's bytes plus
# the config and layer sizes its descriptors state.
for ref in team/multi:1.0 team/app:1.0 team/app:2.0; do
  skopeo inspect --raw --tls-verify=false "docker://$R/$ref" | sha256sum | cut -d' ' -f1 \
    >"skopeo-$(echo "$ref" | tr '/:' '__').sha"
done
cat >expect.py <<'PY'
import json, sys
facts = {k: json.load(open(f"{k}.json")) for k in ("multi", "docker", "app")}
def platform_blobs(p):
    return {p["digest"]: p["manifestBytes"], p["config"]: p["configBytes"],
            **dict(zip(p["layers"], p["layerBytes"]))}
def blobs(kind, platform="linux/amd64"):
    f = facts[kind]
    if platform == "all":
        out = {f["digest"]: f["bytes"]}
        for p in f["platforms"].values():
            out.update(platform_blobs(p))
        return out
    return platform_blobs(f["platforms"][platform])
def size(kind, platform="linux/amd64"):
    return sum(blobs(kind, platform).values())
def sha(ref):
    return "sha256:" + open(f"skopeo-{ref}.sha").read().strip()
PY

# 1. Sizes for the default platform, linux/amd64, with the digests skopeo reports.
run "$FOOTPRINT" images pods.yaml --sizes --insecure-registry "$R" --format json
expect_status 0
"$PYTHON" - "$OUT" "$R" <<'PY' || fail "images --sizes JSON"
import json, sys
exec(open("expect.py").read())
d = json.load(open(sys.argv[1]))["images"]
R = sys.argv[2]
got = {i["reference"]: i for i in d["images"]}
multi, app1, app2 = got[f"{R}/team/multi:1.0"], got[f"{R}/team/app:1.0"], got[f"{R}/team/app:2.0"]
# The skopeo digests are also the fixture's own: skopeo copied the bytes unchanged.
assert sha("team_multi_1.0") == facts["multi"]["digest"] == multi["manifestDigest"], multi
assert sha("team_app_1.0") == facts["docker"]["digest"] == app1["manifestDigest"], app1
assert sha("team_app_2.0") == facts["app"]["digest"] == app2["manifestDigest"], app2
assert multi["mediaType"] == "application/vnd.oci.image.index.v1+json", multi
assert app1["mediaType"] == "application/vnd.docker.distribution.manifest.v2+json", app1
assert multi["bytes"] == size("multi"), (multi["bytes"], size("multi"))
assert [p["platform"] for p in multi["platforms"]] == ["linux/amd64"], multi["platforms"]
assert multi["platforms"][0]["digest"] == facts["multi"]["platforms"]["linux/amd64"]["digest"]
assert app1["bytes"] == size("docker") and app2["bytes"] == size("app"), (app1, app2)
assert app1["platforms"][0]["platform"] is None  # not in an index
# Two tags sharing their base layer: the bundle total counts that blob once.
union = {**blobs("multi"), **blobs("docker"), **blobs("app")}
shared = set(blobs("docker")) & set(blobs("app"))
assert len(shared) == 1, shared
assert d["totalBytes"] == sum(union.values()), (d["totalBytes"], sum(union.values()))
assert d["totalBytes"] < multi["bytes"] + app1["bytes"] + app2["bytes"]
assert d["platform"] == "linux/amd64"
PY

# The text report: human-readable sizes and the deduplicated total.
run "$FOOTPRINT" images pods.yaml --sizes --insecure-registry "$R" --format text
expect_status 0
human=$("$PYTHON" -c 'exec(open("expect.py").read()); print("%.1f kB" % (size("multi") / 1e3))')
expect_stdout "$human"
expect_stdout "Sizes from the registries, for linux/amd64: 3 of 3 images read"

# 2. Platform selection: arm64, and all (index + both platforms; the attestation is skipped).
run "$FOOTPRINT" images pods.yaml --sizes --platform linux/arm64 --insecure-registry "$R" --format json
expect_status 0
"$PYTHON" - "$OUT" "$R" <<'PY' || fail "--platform linux/arm64"
import json, sys
exec(open("expect.py").read())
got = {i["reference"]: i for i in json.load(open(sys.argv[1]))["images"]["images"]}
multi = got[f"{sys.argv[2]}/team/multi:1.0"]
assert multi["bytes"] == size("multi", "linux/arm64") != size("multi"), multi
assert [p["platform"] for p in multi["platforms"]] == ["linux/arm64"]
PY
run "$FOOTPRINT" images pods.yaml --sizes --platform all --insecure-registry "$R" --format json
expect_status 0
"$PYTHON" - "$OUT" "$R" <<'PY' || fail "--platform all"
import json, sys
exec(open("expect.py").read())
got = {i["reference"]: i for i in json.load(open(sys.argv[1]))["images"]["images"]}
multi = got[f"{sys.argv[2]}/team/multi:1.0"]
assert [p["platform"] for p in multi["platforms"]] == ["linux/amd64", "linux/arm64"], multi
assert multi["bytes"] == size("multi", "all"), (multi["bytes"], size("multi", "all"))
assert facts["multi"]["attestation"] not in [p["digest"] for p in multi["platforms"]]
PY
run "$FOOTPRINT" images pods.yaml --sizes --platform linux/s390x --insecure-registry "$R" --format json
expect_status 0
expect_stderr "has no linux/s390x manifest (it has: linux/amd64, linux/arm64)"

# 3. Pinning: HEAD's Docker-Content-Digest, as `--format list` for mirroring tools.
run "$FOOTPRINT" images pods.yaml --pin --insecure-registry "$R" --format list
expect_status 0
printf '%s\n' "$R/team/multi:1.0@sha256:$(cat skopeo-team_multi_1.0.sha)" \
  "$R/team/app:1.0@sha256:$(cat skopeo-team_app_1.0.sha)" \
  "$R/team/app:2.0@sha256:$(cat skopeo-team_app_2.0.sha)" >pinned.expected
diff -u pinned.expected "$OUT" || fail "--pin --format list"
run "$FOOTPRINT" images pods.yaml --pin --insecure-registry "$R" --format text
expect_status 0
expect_stdout "$R/team/app:2.0    sha256:$(head -c 12 skopeo-team_app_2.0.sha)"
expect_stdout "Digests from the registries: 3 of 3 images read."
# A pinned reference resolves to the same image.
write_pods pinned.yaml "$R/team/app:1.0@sha256:$(cat skopeo-team_app_1.0.sha)"
run "$FOOTPRINT" images pinned.yaml --sizes --insecure-registry "$R" --format json
expect_status 0
[ "$(json_get "$OUT" 'd["images"]["images"][0]["bytes"]')" = \
  "$("$PYTHON" -c 'exec(open("expect.py").read()); print(size("docker"))')" ] || fail "by digest"

# 4. Accept: the OCI distribution spec asks clients to list the manifest types they support in
# Accept; distribution 2.8 answers an index the client did not list with 404 MANIFEST_UNKNOWN
# "OCI index found, but accept header does not support OCI indexes". With all four types
# footprint got the index above.
status=$(curl -s -o accept.json -w '%{http_code}' -H 'Accept: application/vnd.oci.image.manifest.v1+json' \
  "http://$R/v2/team/multi/manifests/1.0")
[ "$status" = 404 ] || fail "the registry answered $status for an index not in Accept"
grep -q "accept header does not support OCI indexes" accept.json || fail "$(cat accept.json)"

# 5. Errors per image do not stop the run: 404, an unreachable registry, TLS to a plain-HTTP
# registry without --insecure-registry, and a registry that wants credentials we lack (401).
htpasswd -B -b -c htpasswd reguser 'Basic-PASS-47c1' 2>/dev/null
start_registry auth "$TMP/store" "auth:
  htpasswd:
    realm: footprint-test
    path: $TMP/htpasswd"
A=127.0.0.1:$PORT
dead=127.0.0.1:$(free_port)
write_pods mixed.yaml "$R/team/app:1.0" "$R/team/nope:1.0" "$dead/x/y:1" "$A/team/app:2.0"
run "$FOOTPRINT" images mixed.yaml --sizes --insecure-registry "$R" --insecure-registry "$dead" \
  --insecure-registry "$A" --registry-timeout 10 --format json
expect_status 0
expect_stderr "3 of 4 images could not be read"
"$PYTHON" - "$OUT" "$R" "$dead" "$A" <<'PY' || fail "per-image errors"
import json, sys
exec(open("expect.py").read())
R, dead, A = sys.argv[2:]
got = {i["reference"]: i for i in json.load(open(sys.argv[1]))["images"]["images"]}
assert got[f"{R}/team/app:1.0"]["bytes"] == size("docker")
assert "not found (404)" in got[f"{R}/team/nope:1.0"]["registryError"], got[f"{R}/team/nope:1.0"]
assert f"cannot reach {dead}" in got[f"{dead}/x/y:1"]["registryError"]
assert "unauthorized (401)" in got[f"{A}/team/app:2.0"]["registryError"]
assert "no credentials for" in got[f"{A}/team/app:2.0"]["registryError"]
PY
# Not marked insecure: HTTPS by default, which a plain-HTTP registry does not speak.
run "$FOOTPRINT" images mixed.yaml --sizes --format json
expect_status 0
expect_stderr "$R/team/app:1.0: cannot reach $R:"

# HTTPS is the default and is verified: a self-signed registry is refused until --ca-file names
# its certificate, or --insecure-registry waives verification.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
  -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 -keyout key.pem -out cert.pem 2>/dev/null
start_registry tls "$TMP/store" "" "$TMP/cert.pem" "$TMP/key.pem"
S=127.0.0.1:$PORT
write_pods tls.yaml "$S/team/app:1.0"
run "$FOOTPRINT" images tls.yaml --sizes --format json
expect_status 0
expect_stderr "cannot reach $S: SSL certificate problem"
for flags in "--ca-file $TMP/cert.pem" "--insecure-registry $S"; do
  # shellcheck disable=SC2086
  run "$FOOTPRINT" images tls.yaml --sizes $flags --format json
  expect_status 0
  [ "$(json_get "$OUT" 'd["images"]["images"][0]["bytes"]')" = \
    "$("$PYTHON" -c 'exec(open("expect.py").read()); print(size("docker"))')" ] || fail "TLS: $flags"
done

# 6. Basic auth from ~/.docker/config.json; REGISTRY_AUTH_FILE is read first and wins.
basic=$(printf 'reguser:Basic-PASS-47c1' | base64)
mkdir -p "$HOME/.docker"
printf '{"auths":{"%s":{"auth":"%s"}}}\n' "$A" "$basic" >"$HOME/.docker/config.json"
write_pods auth.yaml "$A/team/app:2.0" "$A/team/multi:1.0"
run "$FOOTPRINT" images auth.yaml --sizes --pin --insecure-registry "$A" --format json
expect_status 0
"$PYTHON" - "$OUT" "$A" <<'PY' || fail "Basic auth"
import json, sys
exec(open("expect.py").read())
got = {i["reference"]: i for i in json.load(open(sys.argv[1]))["images"]["images"]}
app = got[f"{sys.argv[2]}/team/app:2.0"]
assert app["bytes"] == size("app") and app["manifestDigest"] == sha("team_app_2.0"), app
assert got[f"{sys.argv[2]}/team/multi:1.0"]["bytes"] == size("multi")
PY
printf '{"auths":{"http://%s/v2/":{"username":"reguser","password":"Wrong-PASS-81d2"}}}\n' "$A" \
  >wrong-auth.json
REGISTRY_AUTH_FILE=$TMP/wrong-auth.json run "$FOOTPRINT" images auth.yaml --sizes \
  --insecure-registry "$A" --format text
expect_status 0
expect_stderr "the credentials from $TMP/wrong-auth.json were refused"
for secret in Basic-PASS-47c1 Wrong-PASS-81d2 "$basic"; do
  ! grep -qF -- "$secret" "$OUT" "$ERR" || fail "a credential was printed"
done

# 7. The Bearer token flow, retries on 503, schema 1, a HEAD without Docker-Content-Digest,
# and a manifest that does not match its digest, against the loopback fake.
mkdir fake
"$PYTHON" "$ROOT/tests/cli/registry_fake.py" "$TMP/fake" &
PIDS+=($!)
for _ in $(seq 100); do [ -f fake/port ] && break; sleep 0.1; done
[ -f fake/port ] || fail "the fake registry did not start"
F=127.0.0.1:$(cat fake/port)
printf '{"auths":{"%s":{"username":"tokuser","password":"tok-PASSWORD-9f3b"}}}\n' "$F" >token-auth.json
export REGISTRY_AUTH_FILE=$TMP/token-auth.json  # the registries are running already
write_pods fake.yaml "$F/bearer/app:1.0" "$F/flaky/app:1.0" "$F/nohead/app:1.0" "$F/old/app:1.0" \
  "$F/tampered/app:1.0"
run "$FOOTPRINT" images fake.yaml --sizes --insecure-registry "$F" --parallel 1 --format json
expect_status 0
"$PYTHON" - "$OUT" "$F" fake/facts.json fake/log <<'PY' || fail "Bearer flow"
import json, sys
F = sys.argv[2]
facts = json.load(open(sys.argv[3]))
log = open(sys.argv[4]).read().splitlines()
got = {i["reference"]: i for i in json.load(open(sys.argv[1]))["images"]["images"]}
for repo in ("bearer/app", "flaky/app", "nohead/app"):
    image = got[f"{F}/{repo}:1.0"]
    assert image.get("bytes") == facts[repo]["bytes"], (repo, image)
    assert image["manifestDigest"] == facts[repo]["digest"], (repo, image)
assert "schema 1" in got[f"{F}/old/app:1.0"]["registryError"]
assert "does not match" in got[f"{F}/tampered/app:1.0"]["registryError"]
# One token per scope, reused for the index and its platform manifest; Basic credentials sent.
tokens = [l for l in log if l.startswith("token ")]
assert tokens.count("token service=fake-registry scope=repository:bearer/app:pull basic=yes") == 1, tokens
bearer_gets = [l for l in log if l.startswith("GET bearer/app ")]
assert len(bearer_gets) == 3 and "auth=none" in bearer_gets[0], bearer_gets  # 401, index, child
assert all("auth=Bearer" in l for l in bearer_gets[1:]), bearer_gets
# Every manifest request lists all four types (OCI image index/manifest, Docker list/schema 2).
for l in log:
    if l.startswith(("GET ", "HEAD ")):
        for t in ("application/vnd.oci.image.index.v1+json",
                  "application/vnd.oci.image.manifest.v1+json",
                  "application/vnd.docker.distribution.manifest.list.v2+json",
                  "application/vnd.docker.distribution.manifest.v2+json"):
            assert t in l, (t, l)
# 429 (Retry-After: 1), then 503, then 200: three authorised GETs.
flaky = [l for l in log if l.startswith("GET flaky/app ") and "auth=Bearer" in l]
assert len(flaky) == 3, flaky
PY
# A request that outlasts --registry-timeout is an error for that image only.
write_pods slow.yaml "$F/slow/app:1.0" "$F/bearer/app:1.0"
run "$FOOTPRINT" images slow.yaml --sizes --insecure-registry "$F" --registry-timeout 1 --format json
expect_status 0
expect_stderr "$F/slow/app:1.0: cannot reach $F: Operation timed out"
[ "$(json_get "$OUT" 'd["images"]["images"][1]["bytes"]')" = \
  "$(json_get fake/facts.json 'd["bearer/app"]["bytes"]')" ] || fail "timeout stopped the run"
: >fake/log
run "$FOOTPRINT" images fake.yaml --pin --insecure-registry "$F" --format list
expect_status 0
expect_stdout "$F/nohead/app:1.0@$(json_get fake/facts.json 'd["nohead/app"]["digest"]')"
expect_stdout "$F/bearer/app:1.0@$(json_get fake/facts.json 'd["bearer/app"]["digest"]')"
# HEAD first; nohead's HEAD has no Docker-Content-Digest, so its digest comes from a GET.
grep -q "^HEAD bearer/app 1.0 auth=Bearer" fake/log || fail "--pin did not use HEAD"
! grep -q "^GET bearer/app" fake/log || fail "--pin used GET where HEAD had the digest"
grep -q "^GET nohead/app 1.0 auth=Bearer" fake/log || fail "no GET after a HEAD without digest"
for secret in tok-PASSWORD-9f3b tok-; do
  ! grep -qF -- "$secret" "$OUT" "$ERR" || fail "a password or token was printed"
done
unset REGISTRY_AUTH_FILE

# 8. --parallel changes nothing but speed.
run "$FOOTPRINT" images pods.yaml --sizes --insecure-registry "$R" --parallel 1 --format json
expect_status 0
cp "$OUT" serial.json
run "$FOOTPRINT" images pods.yaml --sizes --insecure-registry "$R" --parallel 8 --format json
expect_status 0
cmp -s serial.json "$OUT" || fail "--parallel 8 and --parallel 1 differ"

# 9. airgap --sizes fills the size column, and image-very-large uses the real sizes.
run "$FOOTPRINT" airgap pods.yaml --sizes --insecure-registry "$R" --large-image 100kB --format json
expect_status 0
"$PYTHON" - "$OUT" "$R" <<'PY' || fail "airgap --sizes"
import json, sys
exec(open("expect.py").read())
d = json.load(open(sys.argv[1]))
R = sys.argv[2]
rows = {r["name"]: r for r in d["airgap"]["items"]}
assert rows[f"{R}/team/multi:1.0"]["bytes"] == size("multi")
assert rows[f"{R}/team/app:2.0"]["bytes"] == size("app")
assert rows[f"{R}/team/app:1.0"]["manifestDigest"] == sha("team_app_1.0")
union = {**blobs("multi"), **blobs("docker"), **blobs("app")}
assert d["airgap"]["totalBytes"] == sum(union.values())
large = [f for f in d["findings"] if f["check"] == "image-very-large"]
assert sorted(f["message"].split()[1] for f in large) == sorted(
    f"{R}/team/{n}" for n, k in (("multi:1.0", "multi"), ("app:1.0", "docker"), ("app:2.0", "app"))
    if size(k) > 100000), large
PY
run "$FOOTPRINT" airgap pods.yaml --sizes --insecure-registry "$R" --format text
expect_status 0
expect_stdout "$human"
expect_no_stdout "image size(s) are unknown"
echo "registry: ok"
