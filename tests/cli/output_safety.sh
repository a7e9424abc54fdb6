#!/usr/bin/env bash
# No output ever overwrites an input: -o naming an input (as given, through ./, a symlink or a
# hard link) is refused before anything is written, and outputs are written atomically.
source "$(dirname "$0")/common.inc"

cd "$TMP"
cp "$ROOT/examples/inference-operator.yaml" x.yaml
sum=$(sha256sum x.yaml)
unchanged() { [ "$(sha256sum x.yaml)" = "$sum" ] || fail "x.yaml was changed: $*"; }
ln -s x.yaml link.yaml
ln x.yaml hard.yaml

for out in x.yaml ./x.yaml "$TMP/x.yaml" link.yaml hard.yaml; do
  run "$FOOTPRINT" audit x.yaml -o "$out"
  expect_status 2
  expect_stderr "is one of the inputs"
  expect_stderr "refusing to write over it"
  unchanged "audit -o $out"
done
run "$FOOTPRINT" images x.yaml -o x.yaml
expect_status 2
unchanged "images -o"
run "$FOOTPRINT" airgap x.yaml --format json -o ./x.yaml
expect_status 2
unchanged "airgap -o"
run "$FOOTPRINT" compare a=x.yaml b=x.yaml -o x.yaml
expect_status 2
unchanged "compare -o"
# Files read besides the manifests count too: the configuration file.
printf 'failOn: high\n' >policy.yaml
run "$FOOTPRINT" audit x.yaml --config policy.yaml -o policy.yaml
expect_status 2
grep -q "failOn: high" policy.yaml || fail "the config file was overwritten"
# A directory input: every file found in it is an input.
mkdir dir
cp x.yaml dir/y.yaml
run "$FOOTPRINT" audit dir -o dir/y.yaml
expect_status 2
cmp -s x.yaml dir/y.yaml || fail "dir/y.yaml was overwritten"

# images relocate -o . over its own input: refused; its Secrets are not replaced by comments.
cat >secrets.yaml <<'YAML'
apiVersion: v1
kind: Secret
metadata: {name: s}
stringData: {password: hunter2}
---
apiVersion: v1
kind: Pod
metadata: {name: p}
spec: {containers: [{name: c, image: "nginx:1.25"}]}
YAML
before=$(sha256sum secrets.yaml)
run "$FOOTPRINT" images relocate --registry mirror.internal:5000 secrets.yaml -o .
expect_status 2
expect_stderr "is one of the inputs"
[ "$(sha256sum secrets.yaml)" = "$before" ] || fail "relocate -o . rewrote its input"
[ ! -e copy-images.sh ] || fail "nothing is written when relocate refuses"

# An output that is not an input is replaced whole, through a temporary file beside it.
printf 'old report, much longer than nothing at all\n' >report.json
run "$FOOTPRINT" audit x.yaml --format json -o report.json
expect_status 0
json_get report.json "d['schemaVersion']" >/dev/null || fail "report.json is not the new report"
! ls -A | grep -q footprint- || fail "a temporary file was left behind: $(ls -A)"

# Files footprint names inside -o DIR (rewritten manifests, copy-images.sh) replace a file that
# exists with other content only with --force; the same content again is no change.
mkdir relocated
run "$FOOTPRINT" images relocate --registry mirror.internal:5000 x.yaml -o relocated
expect_status 0
run "$FOOTPRINT" images relocate --registry mirror.internal:5000 x.yaml -o relocated
expect_status 0
echo "# my note" >>relocated/copy-images.sh
run "$FOOTPRINT" images relocate --registry mirror.internal:5000 x.yaml -o relocated
expect_status 2
expect_stderr "copy-images.sh exists and would be replaced; footprint writes over it only with --force"
grep -q "# my note" relocated/copy-images.sh || fail "the edited plan is kept"
run "$FOOTPRINT" images relocate --registry mirror.internal:5000 x.yaml -o relocated --force
expect_status 0
echo "ok"
