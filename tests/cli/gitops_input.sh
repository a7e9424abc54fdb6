#!/usr/bin/env bash
# Argo CD Applications and Flux HelmReleases and Kustomizations as input: each is resolved to what
# it deploys, rendered by the real helm or kustomize, and audited in the namespace it deploys to.
# The Git repository is a local folder mapped with --source; nothing is fetched. Expected values
# follow the tools' documented rules: Argo CD passes helm valueFiles, then values/valuesObject,
# then parameters (--set), so parameters win over values and values over value files
# (argo-cd util/helm/cmd.go template(): --values per file, then --set); Flux merges valuesFrom
# in order and spec.values last, defaults the release name to [targetNamespace-]name and the
# namespace to targetNamespace (helm-controller api/v2 HelmReleaseSpec).
source "$(dirname "$0")/common.inc"
need_helm
need_kubectl
URL=https://git.example.com/platform.git
repo=$TMP/checkout

# The repository: a chart whose image is repo:tag from its values, with a CRD in crds/ and a
# Secret holding .Values.password; values files; a kustomization; a folder of manifests.
mkdir -p "$repo/charts/web/templates" "$repo/charts/web/crds" "$repo/values" "$repo/apps/kz" \
  "$repo/apps/plain/nested"
printf 'apiVersion: v2\nname: web\nversion: 0.1.0\n' >"$repo/charts/web/Chart.yaml"
printf 'image: {repo: chart, tag: chart}\npassword: none\n' >"$repo/charts/web/values.yaml"
cat >"$repo/charts/web/templates/web.yaml" <<'YAML'
apiVersion: apps/v1
kind: Deployment
metadata: {name: {{ .Release.Name }}}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: "registry.example.com/{{ .Values.image.repo }}:{{ .Values.image.tag }}"}]
---
apiVersion: v1
kind: Secret
metadata: {name: {{ .Release.Name }}-login}
stringData: {password: {{ .Values.password | quote }}}
YAML
cat >"$repo/charts/web/crds/widgets.yaml" <<'YAML'
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}]
YAML
printf 'image: {repo: file, tag: file}\n' >"$repo/values/prod.yaml"
printf 'resources: [cm.yaml]\nnamePrefix: kz-\n' >"$repo/apps/kz/kustomization.yaml"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\n' >"$repo/apps/kz/cm.yaml"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: top}\n' >"$repo/apps/plain/top.yaml"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: deep}\n' >"$repo/apps/plain/nested/deep.yaml"

# One Application, helm source from Git: value files < valuesObject < parameters.
cat >"$TMP/app.yaml" <<YAML
apiVersion: argoproj.io/v1alpha1
kind: Application
metadata: {name: web, namespace: argocd}
spec:
  destination: {server: https://kubernetes.default.svc, namespace: shop}
  source:
    repoURL: $URL
    path: charts/web
    helm:
      valueFiles: [../../values/prod.yaml]
      valuesObject:
        image:
          tag: object
      parameters:
        - {name: image.repo, value: param}
YAML
run "$FOOTPRINT" images "$TMP/app.yaml" --source "$URL=$repo" --format list
expect_status 0
[ "$(cat "$OUT")" = "registry.example.com/param:object" ] || fail "Application values: $(cat "$OUT") $(cat "$ERR")"
run "$FOOTPRINT" audit "$TMP/app.yaml" --source "$URL=$repo" --format json
expect_status 0
# Into destination.namespace, as release web (the Application's name); the chart's crds/ too.
[ "$(json_get "$OUT" 'sorted(d["inventory"]["namespaces"]["shop"]["kinds"].items())')" = \
  "[('Deployment', 1), ('Secret', 1)]" ] || fail "not in shop: $(head -c 1500 "$OUT")"
[ "$(json_get "$OUT" 'd["inventory"]["kinds"].get("CustomResourceDefinition")')" = 1 ] || fail "crds/ left out"
[ "$(json_get "$OUT" 'd["inventory"]["kinds"].get("Application")')" = None ] || fail "the Application was audited as an object"
grep -q "audited what it deploys into namespace shop" "$OUT" || fail "no note for the Application"

# Without --source, the Git URL is an error that says how to map it; nothing is fetched.
run "$FOOTPRINT" audit "$TMP/app.yaml"
expect_status 2
expect_stderr "Application argocd/web ($TMP/app.yaml:1): $URL is a Git repository, which footprint does not fetch"
expect_stderr "--source $URL=DIR"

# Multi-source: the chart with a value file from the `ref` source, a kustomization, and a
# directory (not recursed unless directory.recurse).
cat >"$TMP/multi.yaml" <<YAML
apiVersion: argoproj.io/v1alpha1
kind: Application
metadata: {name: multi, namespace: argocd}
spec:
  destination: {namespace: shop}
  sources:
    - repoURL: $URL
      path: charts/web
      helm: {valueFiles: [\$values/values/prod.yaml], values: "image: {tag: text}"}
    - {repoURL: $URL, ref: values}
    - {repoURL: $URL, path: apps/kz}
    - {repoURL: $URL, path: apps/plain}
---
apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: {name: all-teams, namespace: argocd}
spec: {generators: [{list: {elements: []}}], template: {metadata: {name: x}, spec: {}}}
YAML
run "$FOOTPRINT" audit "$TMP/multi.yaml" --source "$URL/=$repo" --format json
expect_status 0
[ "$(json_get "$OUT" 'sorted(d["inventory"]["namespaces"]["shop"]["kinds"].items())')" = \
  "[('ConfigMap', 2), ('Deployment', 1), ('Secret', 1)]" ] || fail "multi-source: $(head -c 1500 "$OUT")"
grep -q "ApplicationSet argocd/all-teams .* not expanded" "$OUT" || fail "the ApplicationSet is not listed"
run "$FOOTPRINT" images "$TMP/multi.yaml" --source "$URL=$repo" --format list
expect_status 0
[ "$(cat "$OUT")" = "registry.example.com/file:text" ] || fail "multi-source values: $(cat "$OUT")"

# Flux: a HelmRelease from a GitRepository, valuesFrom a ConfigMap and a Secret (targetPath),
# spec.values last; targetNamespace; install.crds Skip leaves crds/ out.
cat >"$TMP/flux.yaml" <<YAML
apiVersion: source.toolkit.fluxcd.io/v1
kind: GitRepository
metadata: {name: platform, namespace: flux-system}
spec: {url: $URL, ref: {branch: main}, interval: 5m}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: web-values, namespace: flux-system}
data:
  values.yaml: |
    image: {repo: configmap, tag: configmap}
---
apiVersion: v1
kind: Secret
metadata: {name: web-login, namespace: flux-system}
stringData: {password: hunter2-from-secret}
---
apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: web, namespace: flux-system}
spec:
  interval: 10m
  targetNamespace: team-b
  install: {crds: Skip}
  chart:
    spec:
      chart: ./charts/web
      sourceRef: {kind: GitRepository, name: platform}
  valuesFrom:
    - {kind: ConfigMap, name: web-values}
    - {kind: Secret, name: web-login, valuesKey: password, targetPath: password}
  values:
    image:
      tag: release
---
apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata: {name: plain, namespace: flux-system}
spec:
  interval: 10m
  path: ./apps/plain
  prune: true
  targetNamespace: team-c
  namePrefix: p-
  sourceRef: {kind: GitRepository, name: platform}
YAML
run "$FOOTPRINT" images "$TMP/flux.yaml" --source "$URL=$repo" --format list
expect_status 0
[ "$(cat "$OUT")" = "registry.example.com/configmap:release" ] || fail "HelmRelease values: $(cat "$OUT") $(cat "$ERR")"
run "$FOOTPRINT" audit "$TMP/flux.yaml" --source "$URL=$repo" --format json
expect_status 0
[ "$(json_get "$OUT" 'sorted(d["inventory"]["namespaces"]["team-b"]["kinds"].items())')" = \
  "[('Deployment', 1), ('Secret', 1)]" ] || fail "HelmRelease not in team-b: $(head -c 1500 "$OUT")"
[ "$(json_get "$OUT" 'd["inventory"]["kinds"].get("CustomResourceDefinition")')" = None ] ||
  fail "install.crds: Skip still installed crds/"
# The Kustomization: every manifest under its path (as kustomize-controller generates), prefixed
# and in its targetNamespace.
[ "$(json_get "$OUT" 'd["inventory"]["namespaces"]["team-c"]["kinds"]')" = "{'ConfigMap': 2}" ] ||
  fail "Kustomization not in team-c: $(head -c 1500 "$OUT")"
grep -q "audited chart ./charts/web in $URL as release team-b-web in namespace team-b" "$OUT" ||
  fail "release name is not [targetNamespace-]name"
grep -q "names prefixed p-" "$OUT" || fail "no note for the Kustomization"
# Flux's controllers are one delivery path (helm-controller for a chart, kustomize-controller's
# server-side apply otherwise), named once for both objects.
[ "$(grep -c "is delivered by flux" "$OUT")" = 1 ] || fail "Flux's delivery path: $(grep delivered "$OUT")"
# The Secret's value reached helm through a file, never the output.
for format in text json markdown sarif; do
  run "$FOOTPRINT" audit "$TMP/flux.yaml" --source "$URL=$repo" --format $format
  expect_status 0
  ! grep -q hunter2 "$OUT" "$ERR" || fail "a Secret value is printed in $format"
done
# A valuesFrom that is not in the input is an error naming it, never an audit without it.
sed 's/name: web-values}/name: nowhere}/' "$TMP/flux.yaml" >"$TMP/flux-missing.yaml"
run "$FOOTPRINT" audit "$TMP/flux-missing.yaml" --source "$URL=$repo"
expect_status 2
expect_stderr "valuesFrom ConfigMap flux-system/nowhere key values.yaml is not in the input"
echo "ok"

# The delivery path follows from the object. Argo CD applies client-side unless the Application's
# syncOptions hold ServerSideApply=true (argo-cd docs/user-guide/sync-options.md); client-side
# apply copies the object into kubectl.kubernetes.io/last-applied-configuration, and the API server
# refuses annotations over 262,144 bytes in total (apimachinery pkg/api/validation/objectmeta.go,
# TotalAnnotationSizeLimitB), which a CRD with a 300,000-byte description passes; server-side
# apply keeps no such copy. --deploy-with, when given, names the paths instead.
big=$TMP/big-checkout
cp -r "$repo" "$big"
"$PYTHON" - "$big/charts/web/crds/widgets.yaml" <<'PY'
import json, sys
crd = {"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
       "metadata": {"name": "widgets.example.com"},
       "spec": {"group": "example.com", "names": {"kind": "Widget", "plural": "widgets"},
                "scope": "Namespaced",
                "versions": [{"name": "v1", "served": True, "storage": True,
                              "schema": {"openAPIV3Schema": {"type": "object",
                                                             "description": "x" * 300000}}}]}}
open(sys.argv[1], "w").write(json.dumps(crd))
PY
big_url=https://git.example.com/big.git
sed "s|$URL|$big_url|" "$TMP/app.yaml" >"$TMP/app-big.yaml"
verdicts='[(v["path"], v["outcome"]) for r in d["deliveryPaths"]["rows"] if r["subject"].startswith("CustomResourceDefinition") for v in r["verdicts"]]'
run "$FOOTPRINT" audit "$TMP/app-big.yaml" --source "$big_url=$big" --format json
expect_status 0
[ "$(json_get "$OUT" "$verdicts")" = "[('argocd', 'fails')]" ] ||
  fail "Argo CD's client-side apply: $(json_get "$OUT" "$verdicts")"
grep -q "Application argocd/web ($TMP/app-big.yaml:1) is delivered by argocd" "$OUT" ||
  fail "no note naming the delivery path"
printf '  syncPolicy:\n    syncOptions: [CreateNamespace=true, ServerSideApply=true]\n' >>"$TMP/app-big.yaml"
run "$FOOTPRINT" audit "$TMP/app-big.yaml" --source "$big_url=$big" --format json
expect_status 0
[ "$(json_get "$OUT" "$verdicts")" = "[('argocd-ssa', 'works')]" ] ||
  fail "Argo CD with server-side apply: $(json_get "$OUT" "$verdicts")"
run "$FOOTPRINT" audit "$TMP/app-big.yaml" --source "$big_url=$big" --format json --deploy-with kubectl
expect_status 0
[ "$(json_get "$OUT" "$verdicts")" = "[('kubectl', 'fails')]" ] ||
  fail "--deploy-with names the paths: $(json_get "$OUT" "$verdicts")"

# A source footprint cannot render as Argo CD would is an error naming the Application, never a
# guess: a Config Management Plugin (spec.source.plugin) runs a tool of Argo CD's repo server, and
# directory.include/exclude select files by glob (argo-cd docs/user-guide/directory.md).
for source in 'plugin: {name: my-cmp}' 'directory: {include: "{top.yaml}"}'; do
  cat >"$TMP/app-cmp.yaml" <<YAML
apiVersion: argoproj.io/v1alpha1
kind: Application
metadata: {name: cmp, namespace: argocd}
spec:
  destination: {server: https://kubernetes.default.svc, namespace: shop}
  source:
    repoURL: $URL
    path: apps/plain
    $source
YAML
  run "$FOOTPRINT" audit "$TMP/app-cmp.yaml" --source "$URL=$repo"
  expect_status 2
  expect_stderr "Application argocd/cmp ($TMP/app-cmp.yaml:1): its"
done
