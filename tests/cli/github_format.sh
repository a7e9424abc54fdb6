#!/usr/bin/env bash
# --format github: one workflow command per finding that is neither suppressed nor known, with
# the escapes GitHub documents ("Workflow commands for GitHub Actions"): in property values %, CR,
# LF, ":" and "," become %25 %0D %0A %3A %2C; in the message %, CR and LF. The decoder below
# follows the runner (actions/runner, src/Runner.Common/ActionCommand.cs): properties end at the
# first "::", split at "," and then at the first "=".
source "$(dirname "$0")/common.inc"
cd "$TMP"
# A file name with each property escape, an image value with "%" (image-reference-invalid, high),
# and a ClusterRole with a namespace (namespace-on-cluster-scoped, low).
name='50%,a:b.yaml'
cat >"$name" <<'YAML'
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ops}
spec:
  containers:
  - {name: c, image: "nginx:50%"}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: viewer, namespace: ops}
YAML
run "$FOOTPRINT" audit --no-config "$name" --format github --fail-on high
expect_status 1
cp "$OUT" commands.txt
"$PYTHON" - commands.txt "$name" <<'PY'
import sys
def unescape(s, prop):
    if prop:
        s = s.replace("%3A", ":").replace("%2C", ",")
    return s.replace("%0D", "\r").replace("%0A", "\n").replace("%25", "%")
lines = open(sys.argv[1]).read().splitlines()
commands = {}
for line in lines:
    assert line.startswith("::"), line
    head, message = line[2:].split("::", 1)
    command, props = head.split(" ", 1)
    fields = dict(p.split("=", 1) for p in props.split(","))
    fields = {k: unescape(v, True) for k, v in fields.items()}
    assert fields["file"] == sys.argv[2], fields
    assert "\n" not in line and "\r" not in line
    commands[fields["title"]] = (command, int(fields["line"]), unescape(message, False))
assert {"image-reference-invalid (high)", "namespace-on-cluster-scoped (low)"} <= set(commands), commands
command, line, message = commands["image-reference-invalid (high)"]
assert (command, line) == ("error", 6), (command, line)
assert "nginx:50%" in message and "\nFix: " in message, message
assert commands["namespace-on-cluster-scoped (low)"][:2] == ("notice", 10)  # its metadata line
PY
grep -qF 'file=50%25%2Ca%3Ab.yaml,line=6,col=22,' commands.txt || fail "escaped file property: $(cat commands.txt)"

# --min-severity leaves out the low finding; a waived finding gets no command.
run "$FOOTPRINT" audit --no-config "$name" --format github --min-severity medium
expect_status 0
expect_no_stdout "namespace-on-cluster-scoped"
expect_stdout "::error file="
# The trial: --min-severity with a format that lists every finding did nothing, silently. It is
# refused, as the help says it is for github and junit only.
for format in text json markdown sarif html; do
  run "$FOOTPRINT" audit --no-config "$name" --format "$format" --min-severity high
  expect_status 2
  expect_stderr "--min-severity applies to --format github and junit only; the $format report"
done
run "$FOOTPRINT" audit --no-config "$name" --min-severity high
expect_status 2
printf 'ignore:\n  - check: image-reference-invalid\n    reason: test\n' >gate.yaml
run "$FOOTPRINT" audit --config gate.yaml "$name" --format github
expect_status 0
expect_stdout "title=namespace-on-cluster-scoped (low)"
expect_no_stdout "image-reference-invalid"
