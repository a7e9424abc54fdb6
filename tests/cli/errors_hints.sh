#!/usr/bin/env bash
# Command-line errors start with "footprint:" and give a hint for the common mistakes.
source "$(dirname "$0")/common.inc"

in=$ROOT/examples/inference-operator.yaml
# Option errors from the parser carry the prefix too.
run "$FOOTPRINT" audit "$in" --no-such-flag
expect_status 2
expect_stderr "footprint: error: The following argument was not expected: --no-such-flag"
expect_stderr "Run \`footprint audit --help\`"
run "$FOOTPRINT" audit
expect_status 2
expect_stderr "footprint: error: no INPUT given"

# kubectl's -f: here it is a Helm values file.
run "$FOOTPRINT" audit -f "$in"
expect_status 2
expect_stderr "footprint: hint: -f/--values names a Helm values file for a chart input"
expect_stderr "$in is a manifest: give it as a plain argument: footprint audit $in"
run "$FOOTPRINT" audit -f "$in" "$in"
expect_status 2
expect_stderr "footprint: error: -f/--values applies to charts, and no input is a chart"
run "$FOOTPRINT" images --set a=b "$in"
expect_status 2
expect_stderr "--set applies to charts"

# A chart's templates/ folder instead of the chart.
chart=$ROOT/tests/charts/modal-operator
run "$FOOTPRINT" audit "$chart/templates"
expect_status 2
expect_stderr "is inside the templates/ folder of the chart"
expect_stderr "footprint: hint: give the chart folder: footprint audit $chart"

# FOOTPRINT_HELM naming nothing: say so, rather than "helm is not installed".
run env FOOTPRINT_HELM=$TMP/no-helm "$FOOTPRINT" audit "$chart"
expect_status 2
expect_stderr "FOOTPRINT_HELM=$TMP/no-helm does not exist"
touch "$TMP/not-executable"
run env FOOTPRINT_HELM=$TMP/not-executable "$FOOTPRINT" audit "$chart"
expect_status 2
expect_stderr "is not an executable file"

# A registry that speaks plain HTTP, asked over HTTPS: hint at --insecure-registry.
port=$("$PYTHON" -c "import socket; s=socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")
"$PYTHON" -m http.server "$port" --bind 127.0.0.1 --directory "$TMP" >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$TMP"' EXIT
for _ in $(seq 50); do
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
  sleep 0.1
done
printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: "127.0.0.1:%s/app:1.0"}]\n' "$port" >"$TMP/pod.yaml"
run "$FOOTPRINT" images "$TMP/pod.yaml" --sizes --registry-retries 0 --registry-timeout 10
expect_status 0
expect_stderr "footprint: hint: 127.0.0.1:$port answered HTTPS with something else: if it serves plain HTTP, add --insecure-registry 127.0.0.1:$port"
echo "ok"
