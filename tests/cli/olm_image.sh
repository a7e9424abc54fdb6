#!/usr/bin/env bash
# A bundle image is audited as its bundle folder is (src/load/olm_image*.cc). The OCI layout is
# built here by hand from the hand-made webhook bundle, following the OCI image spec
# (image-layout.md, manifest.md, config.md, layer.md): a gzip layer with a stale manifest and
# stale metadata, then an uncompressed layer whose whiteout (`.wh.stale.yaml`) and opaque marker
# (`metadata/.wh..wh..opq`) remove them, each blob named by its sha256sum. The real skopeo turns
# the layout into a `docker save` tarball. Both must give the folder's findings; damaged images
# (a corrupt blob, an entry climbing out with ../, no index.json, a layer unpacking past the
# limit) are errors naming the file, with exit 2 (docs/limits.md).
source "$(dirname "$0")/common.inc"

command -v skopeo >/dev/null || skip "skopeo not found (Debian package skopeo)"
webhooks=$ROOT/tests/data/olm/webhook-operator
csv=manifests/webhook-operator.clusterserviceversion.yaml
mode=(-n ops --install-mode AllNamespaces)

# blob FILE: stores FILE in the layout $layout under its digest; prints the digest's hex.
blob() {
  local hex
  hex=$(sha256sum "$1" | cut -d' ' -f1)
  cp "$1" "$layout/blobs/sha256/$hex"
  echo "$hex"
}
size() { stat -c %s "$1"; }
tar_dir() { tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -C "$1" -cf "$2" .; }

# layout DIR CHANNEL_LABEL: the image, its channels label set to CHANNEL_LABEL.
layout() {
  layout=$1
  mkdir -p "$layout/blobs/sha256" "$TMP/l1/manifests" "$TMP/l1/metadata" "$TMP/l2/manifests/" \
    "$TMP/l2/metadata"
  cp "$webhooks"/manifests/* "$TMP/l1/manifests/"
  # A second ClusterServiceVersion would be refused: only the whiteout makes the bundle valid.
  sed 's/name: webhook-operator.v1.0.0/name: stale.v0.9.0/' "$webhooks/$csv" \
    >"$TMP/l1/manifests/stale.yaml"
  printf 'annotations:\n  operators.operatorframework.io.bundle.package.v1: stale\n' \
    >"$TMP/l1/metadata/annotations.yaml"
  touch "$TMP/l1/metadata/left-over.yaml"
  touch "$TMP/l2/manifests/.wh.stale.yaml" "$TMP/l2/metadata/.wh..wh..opq"
  cp "$webhooks/metadata/annotations.yaml" "$TMP/l2/metadata/"
  tar_dir "$TMP/l1" "$TMP/l1.tar"
  tar_dir "$TMP/l2" "$TMP/l2.tar"
  gzip -n -c "$TMP/l1.tar" >"$TMP/l1.tar.gz"
  local diff1 diff2 layer1 layer2 config manifest
  diff1=$(sha256sum "$TMP/l1.tar" | cut -d' ' -f1)
  diff2=$(sha256sum "$TMP/l2.tar" | cut -d' ' -f1)
  layer1=$(blob "$TMP/l1.tar.gz")
  layer2=$(blob "$TMP/l2.tar")
  cat >"$TMP/config.json" <<EOF
{"architecture":"amd64","os":"linux","config":{"Labels":{
 "operators.operatorframework.io.bundle.mediatype.v1":"registry+v1",
 "operators.operatorframework.io.bundle.manifests.v1":"manifests/",
 "operators.operatorframework.io.bundle.metadata.v1":"metadata/",
 "operators.operatorframework.io.bundle.package.v1":"webhook-operator",
 "operators.operatorframework.io.bundle.channels.v1":"$2"}},
 "rootfs":{"type":"layers","diff_ids":["sha256:$diff1","sha256:$diff2"]}}
EOF
  config=$(blob "$TMP/config.json")
  cat >"$TMP/manifest.json" <<EOF
{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json",
 "config":{"mediaType":"application/vnd.oci.image.config.v1+json","digest":"sha256:$config",
           "size":$(size "$TMP/config.json")},
 "layers":[{"mediaType":"application/vnd.oci.image.layer.v1.tar+gzip","digest":"sha256:$layer1",
            "size":$(size "$TMP/l1.tar.gz")},
           {"mediaType":"application/vnd.oci.image.layer.v1.tar","digest":"sha256:$layer2",
            "size":$(size "$TMP/l2.tar")}]}
EOF
  manifest=$(blob "$TMP/manifest.json")
  cat >"$layout/index.json" <<EOF
{"schemaVersion":2,"manifests":[{"mediaType":"application/vnd.oci.image.manifest.v1+json",
 "digest":"sha256:$manifest","size":$(size "$TMP/manifest.json"),
 "annotations":{"org.opencontainers.image.ref.name":"v1"}}]}
EOF
  echo '{"imageLayoutVersion":"1.0.0"}' >"$layout/oci-layout"
  rm -rf "$TMP/l1" "$TMP/l2"
}

# findings FILE ROOT: the report's findings, ROOT written as BUNDLE.
findings() {
  "$PYTHON" - "$1" "$2" <<'EOF'
import json, sys
report = json.load(open(sys.argv[1]))
for f in report["findings"]:
    f.pop("fingerprint", None)
    print(json.dumps(f, sort_keys=True).replace(sys.argv[2], "BUNDLE"))
EOF
}

# add_layer LAYOUT FILE MEDIA_TYPE: adds FILE as a layer on top, with its diff_id in the config.
add_layer() {
  local unpack=cat
  case "$3" in
    *+gzip) unpack="gzip -dc" ;;
    *+zstd) unpack="zstd -dcq" ;;
  esac
  "$PYTHON" - "$@" "$($unpack <"$2" | sha256sum | cut -d' ' -f1)" <<'EOF'
import hashlib, json, sys
root, layer, media_type, diff_id = sys.argv[1:]
def store(data):
    digest = hashlib.sha256(data).hexdigest()
    open(f"{root}/blobs/sha256/{digest}", "wb").write(data)
    return {"digest": "sha256:" + digest, "size": len(data)}
def load(descriptor):
    return json.load(open(f"{root}/blobs/sha256/{descriptor['digest'][7:]}"))
data = open(layer, "rb").read()
index = json.load(open(f"{root}/index.json"))
manifest = load(index["manifests"][0])
config = load(manifest["config"])
config["rootfs"]["diff_ids"].append("sha256:" + diff_id)
manifest["config"].update(store(json.dumps(config).encode()))
manifest["layers"].append(dict(mediaType=media_type, **store(data)))
index["manifests"][0].update(store(json.dumps(manifest).encode()))
json.dump(index, open(f"{root}/index.json", "w"))
EOF
}

layout "$TMP/oci" stable
run "$FOOTPRINT" audit "$webhooks" "${mode[@]}" --format json
expect_status 0
findings "$OUT" "$webhooks" >"$TMP/folder.findings"
[ -s "$TMP/folder.findings" ] || fail "the folder has no findings to compare"

run "$FOOTPRINT" audit "$TMP/oci" "${mode[@]}" --format json
expect_status 0
findings "$OUT" "$TMP/oci" >"$TMP/oci.findings"
diff "$TMP/folder.findings" "$TMP/oci.findings" || fail "the OCI layout's findings differ"
grep -qF "a bundle image (OCI image layout), image v1 sha256:" "$OUT" || fail "no image note"
if grep -q "annotations.yaml says" "$OUT"; then fail "labels that agree were reported"; fi

# The real skopeo writes the docker save tarball (docker-archive) from the layout.
run skopeo --insecure-policy copy --quiet "oci:$TMP/oci:v1" \
  "docker-archive:$TMP/bundle.tar:example.com/webhook-operator-bundle:v1"
expect_status 0
run "$FOOTPRINT" audit "$TMP/bundle.tar" "${mode[@]}" --format json
expect_status 0
findings "$OUT" "$TMP/bundle.tar" >"$TMP/tar.findings"
diff "$TMP/folder.findings" "$TMP/tar.findings" || fail "the docker tarball's findings differ"
grep -qF "(docker save tarball), image example.com/webhook-operator-bundle:v1" "$OUT" ||
  fail "the tarball's image is not named"

# An OCI layout in a tar, as skopeo's oci-archive and docker 25's `docker save` write it.
run skopeo --insecure-policy copy --quiet "oci:$TMP/oci:v1" "oci-archive:$TMP/oci.tar:v1"
expect_status 0
run "$FOOTPRINT" audit "$TMP/oci.tar" "${mode[@]}" --format json
expect_status 0
findings "$OUT" "$TMP/oci.tar" >"$TMP/oci-tar.findings"
diff "$TMP/folder.findings" "$TMP/oci-tar.findings" || fail "the OCI archive's findings differ"

# A zstd layer on top (image-spec media-types.md: tar+zstd), adding a file OLM does not read.
layout "$TMP/zstd" stable
mkdir -p "$TMP/l3/metadata"
echo "properties: []" >"$TMP/l3/metadata/properties.yaml"
tar_dir "$TMP/l3" - | zstd -q >"$TMP/l3.tar.zst"
add_layer "$TMP/zstd" "$TMP/l3.tar.zst" application/vnd.oci.image.layer.v1.tar+zstd
run "$FOOTPRINT" audit "$TMP/zstd" "${mode[@]}" --format json
expect_status 0
findings "$OUT" "$TMP/zstd" >"$TMP/zstd.findings"
diff "$TMP/folder.findings" "$TMP/zstd.findings" || fail "the zstd image's findings differ"
grep -qF "image v1 sha256:" "$OUT" || fail "no image note for the zstd image"
grep -qF "(3 layers, every digest checked)" "$OUT" || fail "the zstd layer was not read"

# Text findings name the file inside the image; without --install-mode, every mode it supports.
COLUMNS=300 run "$FOOTPRINT" audit "$TMP/bundle.tar" "${mode[@]}"
expect_status 0
expect_stdout "rendered by olm; from $TMP/bundle.tar/$csv:"
run "$FOOTPRINT" audit "$TMP/bundle.tar" -n ops
expect_status 0
expect_stdout "Modes: AllNamespaces."

# --image picks among several images, and an unknown name lists them.
run skopeo --insecure-policy copy --quiet "oci:$TMP/oci:v1" "oci:$TMP/oci:v1-copy"
expect_status 0
run "$FOOTPRINT" audit "$TMP/oci" "${mode[@]}"
expect_status 2
expect_stderr "$TMP/oci: holds 2 images; pick one with --image NAME: v1 (sha256:"
run "$FOOTPRINT" audit "$TMP/oci" "${mode[@]}" --image v1-copy
expect_status 0
run "$FOOTPRINT" audit "$TMP/oci" "${mode[@]}" --image v2
expect_status 2
expect_stderr "no image named v2; it holds: v1 (sha256:"
run "$FOOTPRINT" audit "$webhooks" "${mode[@]}" --image v1
expect_status 2
expect_stderr "--image picks an image of a bundle image; this is a bundle folder"

# Labels that disagree with metadata/annotations.yaml are said.
layout "$TMP/labels" alpha
COLUMNS=400 run "$FOOTPRINT" audit "$TMP/labels" "${mode[@]}"
expect_status 0
expect_stdout "the image's label operators.operatorframework.io.bundle.channels.v1 is alpha, metadata/annotations.yaml says stable"

# A corrupt blob: one byte of the gzip layer changed.
layout "$TMP/corrupt" stable
layer=$(find "$TMP/corrupt/blobs/sha256" -type f -size +1k | head -1)
printf 'X' | dd of="$layer" bs=1 seek=100 conv=notrunc status=none
run "$FOOTPRINT" audit "$TMP/corrupt" "${mode[@]}"
expect_status 2
expect_stderr "$TMP/corrupt: blobs/sha256/$(basename "$layer"): its content's digest is sha256:"
expect_stderr "the blob is corrupt"

# No index.json.
layout "$TMP/no-index" stable
rm "$TMP/no-index/index.json"
run "$FOOTPRINT" audit "$TMP/no-index" "${mode[@]}"
expect_status 2
expect_stderr "$TMP/no-index: index.json: missing; an OCI image layout needs one"
# A field of the wrong type: a digest that is a number.
echo '{"schemaVersion":2,"manifests":[{"digest":5}]}' >"$TMP/no-index/index.json"
run "$FOOTPRINT" audit "$TMP/no-index" "${mode[@]}"
expect_status 2
expect_stderr "$TMP/no-index: OCI image layout JSON: [json.exception.type_error.302]"

# A layer entry climbing out of the root (Python's tarfile writes the name as given).
"$PYTHON" - "$TMP/escape.tar" <<'EOF'
import io, sys, tarfile
with tarfile.open(sys.argv[1], "w") as tar:
    entry = tarfile.TarInfo("manifests/../../escape.yaml")
    entry.size = 2
    tar.addfile(entry, io.BytesIO(b"x\n"))
EOF
layout "$TMP/escape" stable
add_layer "$TMP/escape" "$TMP/escape.tar" application/vnd.oci.image.layer.v1.tar
run "$FOOTPRINT" audit "$TMP/escape" "${mode[@]}"
expect_status 2
hex=$(sha256sum "$TMP/escape.tar" | cut -d' ' -f1)
expect_stderr "$TMP/escape: blobs/sha256/$hex: entry manifests/../../escape.yaml climbs out of"

# A layer that unpacks past the limit (300 MiB of zeros in 300 KiB of gzip) is refused.
mkdir -p "$TMP/bomb/manifests"
head -c 300M /dev/zero >"$TMP/bomb/manifests/big.yaml"
tar -C "$TMP/bomb" -cf - manifests | gzip -1 -n >"$TMP/bomb.tar.gz"
rm -rf "$TMP/bomb"
layout "$TMP/big" stable
add_layer "$TMP/big" "$TMP/bomb.tar.gz" application/vnd.oci.image.layer.v1.tar+gzip
run "$FOOTPRINT" audit "$TMP/big" "${mode[@]}"
expect_status 2
hex=$(sha256sum "$TMP/bomb.tar.gz" | cut -d' ' -f1)
expect_stderr "$TMP/big: blobs/sha256/$hex: unpacks to more than 268435456 bytes"
echo "ok"
