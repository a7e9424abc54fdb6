#!/usr/bin/env bash
# No silent skips: every file, folder, document and object of the input that footprint does not
# analyse is counted in the summary with its reason, listed in the text report's "Not analysed"
# section and the JSON's notAnalysed, and named in SARIF's toolExecutionNotifications. A
# hand-made folder holds one of each kind of skip; the expected counts are counted by hand below.
source "$(dirname "$0")/common.inc"
URL=https://git.example.com/apps.git
in=$TMP/in
repo=$TMP/checkout
mkdir -p "$in/.git" "$TMP/elsewhere" "$repo/apps"
# Two objects audited, and between them a Secret commented out: a document of comments only.
cat >"$in/app.yaml" <<'YAML'
apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: shop}
---
# apiVersion: v1
# kind: Secret
# metadata: {name: old-login}
---
apiVersion: v1
kind: Pod
metadata:
  name: web-test
  namespace: shop
  annotations: {helm.sh/hook: test}
spec: {containers: [{name: t, image: busybox}]}
YAML
echo '# nothing here yet' >"$in/empty.yaml"                           # file: only comments
echo 'notes' >"$in/README.md"                                         # file: not a manifest name
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: h}\n' >"$in/.hidden.yaml" # file: hidden
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: g}\n' >"$in/.git/x.yaml"  # folder: hidden
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: e}\n' >"$TMP/elsewhere/e.yaml"
ln -s "$TMP/elsewhere" "$in/linked"                                   # folder: a symlink
# GitOps: an Application whose directory source holds a text file beside its manifest and another
# Application (an app of apps, not followed); an ApplicationSet, an AppProject and a Flux
# GitRepository, which configure the tools.
cat >"$in/gitops.yaml" <<YAML
apiVersion: argoproj.io/v1alpha1
kind: Application
metadata: {name: apps, namespace: argocd}
spec:
  destination: {namespace: shop}
  source: {repoURL: $URL, path: apps}
---
apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: {name: teams, namespace: argocd}
spec: {generators: [{list: {elements: []}}], template: {metadata: {name: x}, spec: {}}}
---
apiVersion: argoproj.io/v1alpha1
kind: AppProject
metadata: {name: shop, namespace: argocd}
spec: {}
---
apiVersion: source.toolkit.fluxcd.io/v1
kind: GitRepository
metadata: {name: unused, namespace: flux-system}
spec: {url: https://git.example.com/unused.git, interval: 5m}
YAML
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: deployed}\n' >"$repo/apps/cm.yaml"
echo 'how to deploy' >"$repo/apps/notes.txt"                          # file: not a manifest name
cat >"$repo/apps/child.yaml" <<'YAML'
apiVersion: argoproj.io/v1alpha1
kind: Application
metadata: {name: child, namespace: argocd}
spec: {destination: {namespace: shop}, source: {repoURL: https://git.example.com/other.git, path: x}}
YAML

# By hand: files README.md, .hidden.yaml, empty.yaml, notes.txt (4); folders .git, linked (2);
# documents: the commented Secret (1); objects: the test Pod, the ApplicationSet, the AppProject,
# the GitRepository, the child Application (5).
run "$FOOTPRINT" audit "$in" --source "$URL=$repo" --format json
expect_status 0
[ "$(json_get "$OUT" 'len(d["notAnalysed"])')" = 12 ] || fail "not 12 items: $(json_get "$OUT" 'd.get("notAnalysed")')"
units='__import__("collections").Counter(i["unit"] for i in d["notAnalysed"])'
[ "$(json_get "$OUT" "sorted($units.items())")" = \
  "[('document', 1), ('file', 4), ('folder', 2), ('object', 5)]" ] || fail "units: $(json_get "$OUT" "$units")"
item() { # PATH REASON: the item is listed with this reason
  json_get "$OUT" "[i for i in d['notAnalysed'] if i['path'] == '$1' and i['reason'].startswith('$2')]" |
    grep -q "'path'" || fail "$1 not listed as $2: $(json_get "$OUT" 'd["notAnalysed"]')"
}
item "$in/README.md" "not .yaml, .yml or .json"
item "$repo/apps/notes.txt" "not .yaml, .yml or .json"
item "$in/.hidden.yaml" "hidden"
item "$in/.git" "hidden"
item "$in/linked" "symlinks to folders"
item "$in/empty.yaml" "empty or only comments"
item "$in/app.yaml" "only comments"
item "$in/app.yaml" "Helm test hooks"
item "$in/gitops.yaml" "ApplicationSets"
item "$in/gitops.yaml" "GitOps sources and projects"
item "$repo/apps/child.yaml" "GitOps objects another one deploys"
# The commented document starts on line 5, the test Pod on line 9.
[ "$(json_get "$OUT" '[i["line"] for i in d["notAnalysed"] if i["path"].endswith("app.yaml")]')" = "[5, 9]" ] ||
  fail "lines: $(json_get "$OUT" 'd["notAnalysed"]')"
# The objects deployed and given are audited: two ConfigMaps in shop.
[ "$(json_get "$OUT" 'd["inventory"]["namespaces"]["shop"]["kinds"]')" = "{'ConfigMap': 2}" ] ||
  fail "audited: $(json_get "$OUT" 'd["inventory"]["namespaces"]')"

# Text: one line in the summary with the counts, and the list.
run "$FOOTPRINT" audit "$in" --source "$URL=$repo"
expect_status 0
grep -qF 'Not analysed: 4 files, 2 folders, 1 document, 5 objects (' "$OUT" || fail "summary: $(head -30 "$OUT")"
grep -q '^Not analysed$' "$OUT" || fail "no Not analysed section"
grep -qF "$in/app.yaml:5" "$OUT" || fail "the commented document is not listed"

# SARIF: one notification per item.
run "$FOOTPRINT" audit "$in" --source "$URL=$repo" --format sarif
expect_status 0
[ "$(json_get "$OUT" 'len(d["runs"][0]["invocations"][0]["toolExecutionNotifications"])')" = 12 ] ||
  fail "SARIF notifications: $(head -c 2000 "$OUT")"

# Nothing skipped: no line, no section, no notAnalysed, no invocations.
run "$FOOTPRINT" audit "$in/app.yaml" --format json
expect_status 0
[ "$(json_get "$OUT" '"notAnalysed" in d')" = True ] || fail "the commented document is not counted alone"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n' >"$TMP/clean.yaml"
run "$FOOTPRINT" audit "$TMP/clean.yaml"
expect_status 0
! grep -q 'Not analysed' "$OUT" || fail "a clean input lists skips"
run "$FOOTPRINT" audit "$TMP/clean.yaml" --format sarif
expect_status 0
[ "$(json_get "$OUT" '"invocations" in d["runs"][0]')" = False ] || fail "a clean input has invocations"

# validate counts and lists them too.
run "$FOOTPRINT" validate "$in" --source "$URL=$repo" --format json
expect_status 0
[ "$(json_get "$OUT" 'len(d["notAnalysed"])')" = 12 ] || fail "validate: $(head -c 2000 "$OUT")"

# A kustomization inside a folder given is not read as raw files (its namePrefix would be lost):
# the folder is counted, and alone it is an error that says how to build it.
mkdir -p "$TMP/stack/base"
printf 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [cm.yaml]\nnamePrefix: p-\n' \
  >"$TMP/stack/base/kustomization.yaml"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: raw}\n' >"$TMP/stack/base/cm.yaml"
run "$FOOTPRINT" audit "$TMP/stack"
expect_status 2
expect_stderr "directory holds no manifests outside its kustomizations"
cp "$TMP/clean.yaml" "$TMP/stack/"
run "$FOOTPRINT" audit "$TMP/stack" --format json
expect_status 0
[ "$(json_get "$OUT" '[(i["path"], i["unit"]) for i in d["notAnalysed"]]')" = "[('$TMP/stack/base', 'folder')]" ] ||
  fail "nested kustomization: $(json_get "$OUT" 'd.get("notAnalysed")')"
[ "$(json_get "$OUT" 'd["inventory"]["objects"]')" = 1 ] || fail "the kustomization's files were read raw"
