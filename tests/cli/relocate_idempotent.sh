#!/usr/bin/env bash
# images relocate is idempotent: a reference already under the mirror's host and prefix is left
# as it is (and listed), and the copy plan never copies the mirror onto itself. Relocating the
# relocated manifests again changes nothing and copies nothing. The expected lines are written
# by hand from the fixture: host, then prefix, then the reference's own path and tag.
source "$(dirname "$0")/common.inc"
mirror=mirror.internal:5000/team
cd "$TMP"

run "$FOOTPRINT" images relocate --registry "$mirror" "$DATA/relocate-on-mirror.yaml" --plan p.sh
expect_status 0
cp "$OUT" out.yaml
for image in "mirror.internal:5000/team/already:1" \
  "mirror.internal:5000/team/org/tool:1.0" "mirror.internal:5000/team/vendor/sidecar:2.3" \
  "MIRROR.internal:5000/team/vendor/pinned@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"; do
  grep -qxF "        image: $image" out.yaml || fail "out.yaml lacks image: $image: $(grep image: out.yaml)"
done
! grep -q "team/team/" out.yaml || fail "a reference on the mirror was prefixed again"
expect_stderr "rewrote 2 references to 2 images"
expect_stderr "left 2 references already on the mirror as they were:"
expect_stderr "relocate-on-mirror.yaml:13: spec.template.spec.initContainers[0].image: mirror.internal:5000/team/already:1"
[ "$(grep -c '^skopeo copy' p.sh)" = 2 ] || fail "the plan copies other than 2 images: $(cat p.sh)"
grep -qxF "skopeo copy --all docker://quay.io/vendor/sidecar:2.3 docker://mirror.internal:5000/team/vendor/sidecar:2.3" p.sh ||
  fail "plan: $(cat p.sh)"
! grep -qi "docker://mirror.internal:5000/team/[^ ]* docker://" p.sh || fail "the plan copies from the mirror: $(cat p.sh)"

# A second run over its own output: the same manifests, an empty plan.
run "$FOOTPRINT" images relocate --registry "$mirror/" out.yaml --plan p2.sh
expect_status 0
cmp -s "$OUT" out.yaml || fail "the second run changed the manifests: $(diff out.yaml "$OUT")"
expect_stderr "rewrote 0 references to 0 images"
expect_stderr "left 4 references already on the mirror as they were:"
! grep -q '^skopeo' p2.sh || fail "the second plan copies: $(cat p2.sh)"
echo "ok"
