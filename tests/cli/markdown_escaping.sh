#!/usr/bin/env bash
# Markdown output escapes everything outside code spans: resourceNames ["*"] must not turn into
# italics, and "<digest>" in a fix must not vanish as raw HTML (CommonMark: a backslash makes
# ASCII punctuation literal; code spans are literal already).
source "$(dirname "$0")/common.inc"

cat >"$TMP/in.yaml" <<'YAML'
apiVersion: v1
kind: Pod
metadata: {name: web-app}
spec: {containers: [{name: c, image: "nginx:1.25"}]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: star_reader}
rules: [{apiGroups: [""], resources: [secrets], resourceNames: ["*"], verbs: [get, list, watch]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: star_reader}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: star_reader}
subjects: [{kind: ServiceAccount, name: sa, namespace: default}]
YAML
run "$FOOTPRINT" audit "$TMP/in.yaml" --format markdown
expect_status 0
expect_stdout 'sha256:\<digest\>'
"$PYTHON" - "$OUT" <<'PY' || fail "unescaped Markdown in $(cat "$OUT")"
import re, sys
text = open(sys.argv[1]).read()
allowed_html = re.compile(r"</?(details|summary|br)>")
bad = []
for n, line in enumerate(text.splitlines(), 1):
    plain = re.sub(r"(`+).*?\1", "", line)          # code spans are literal
    plain = allowed_html.sub("", plain.replace("**", ""))  # footprint's own bold and HTML
    plain = re.sub(r"^\s*(- |\|)", "", plain)        # footprint's own list items and tables
    if re.search(r"(?<!\\)[*_<>\[\]]", plain):
        bad.append(f"line {n}: {line}")
if bad:
    print("\n".join(bad), file=sys.stderr)
    sys.exit(1)
PY
echo "ok"
