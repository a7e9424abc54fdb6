#!/usr/bin/env bash
# No output ever overwrites an input: -o naming an input (as given, through ./, a symlink or a
# hard link) is refused before anything is written, and outputs are written atomically. A device,
# a named pipe or an open descriptor given as an output is written through, never replaced by a
# regular file, and a symlink keeps leading to the file it names, which gets the new content.
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

# Outputs that are not regular files are written through. A fresh named pipe first (the same
# code path as a device, so a regression fails here before /dev/null is touched), read by cat.
mkfifo pipe
cat pipe >from-pipe &
reader=$!
run "$FOOTPRINT" audit x.yaml --format json -o pipe
expect_status 0
wait "$reader" || fail "the reader of the pipe failed"
[ -p pipe ] || fail "-o pipe replaced the named pipe with $(stat -c %F pipe)"
json_get from-pipe "d['schemaVersion']" >/dev/null || fail "the pipe's reader got no report"
# --plan and fix outputs go through the same writer: a pipe as the copy plan.
cat pipe >plan-from-pipe &
reader=$!
run "$FOOTPRINT" images relocate --registry mirror.internal:5000 x.yaml --plan pipe
expect_status 0
wait "$reader" || fail "the reader of the plan pipe failed"
[ -p pipe ] || fail "--plan pipe replaced the named pipe"
grep -q "skopeo copy" plan-from-pipe || fail "the plan did not reach the pipe's reader"
# /dev/stdout is the descriptor footprint was given: redirected to a file, the report lands in
# that file (appended when it was opened to append), and /dev/stdout stays what it was.
printf 'first line\n' >appended.txt
set +e
timeout 60 "$FOOTPRINT" audit x.yaml --format json -o /dev/stdout >>appended.txt
status=$?
set -e
[ "$status" = 0 ] || fail "-o /dev/stdout exited $status"
[ "$(head -n 1 appended.txt)" = "first line" ] || fail "-o /dev/stdout replaced the file stdout appends to"
tail -n +2 appended.txt | "$PYTHON" -c 'import json,sys; json.load(sys.stdin)' ||
  fail "-o /dev/stdout did not append the JSON report"
[ -L /dev/stdout ] || [ -c /dev/stdout ] || fail "/dev/stdout was replaced"
# Process substitution: /dev/fd/N names a pipe.
run "$FOOTPRINT" audit x.yaml --format sarif -o >(cat >from-fd)
expect_status 0
sleep 0.2
wait
json_get from-fd "d['version']" >/dev/null || fail "-o /dev/fd/N: the reader got no report"
# A device: as root a rename would replace the system's /dev/null (observed before the fix).
run "$FOOTPRINT" audit x.yaml -o /dev/null
expect_status 0
[ -c /dev/null ] || fail "-o /dev/null left $(stat -c %F /dev/null) instead of a character device"
run "$FOOTPRINT" images relocate --registry mirror.internal:5000 x.yaml --plan /dev/null
expect_status 0
[ -c /dev/null ] || fail "--plan /dev/null replaced the device"
[ -z "$(ls -A /dev | grep footprint-)" ] || fail "a temporary file was left in /dev"

# A symlink to a regular file stays a symlink; the file it leads to gets the report.
mkdir reports
printf 'old\n' >reports/real.json
ln -s reports/real.json latest.json
run "$FOOTPRINT" audit x.yaml --format json -o latest.json
expect_status 0
[ -L latest.json ] || fail "-o latest.json replaced the symlink with $(stat -c %F latest.json)"
[ "$(readlink latest.json)" = reports/real.json ] || fail "the symlink's target changed"
json_get reports/real.json "d['schemaVersion']" >/dev/null || fail "the symlink's target was not updated"
! ls -A . reports | grep -q footprint- || fail "a temporary file was left behind"
# A symlink to a file that does not exist yet: the file is created where the link points.
ln -s reports/new.md pending.md
run "$FOOTPRINT" audit x.yaml --format markdown -o pending.md
expect_status 0
[ -L pending.md ] && [ -s reports/new.md ] || fail "-o through a dangling symlink"
# The symlink to an input is still refused (checked above for audit); so is a --plan through one.
run "$FOOTPRINT" images relocate --registry mirror.internal:5000 x.yaml --plan link.yaml
expect_status 2
unchanged "relocate --plan link.yaml"
echo "ok"
