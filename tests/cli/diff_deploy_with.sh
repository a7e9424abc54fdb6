#!/usr/bin/env bash
# diff --deploy-with: what an upgrade of a chart's crds/ CRD does on each delivery path. OLD and
# NEW are a chart's render (`# Source: shop/crds/widgets.yaml`, as `helm template --include-crds`
# marks crds/). NEW adds version v2. Each CRD's description is padded here so that the annotations
# client-side apply leaves on it total exactly 262,144 bytes in OLD and 262,145 in NEW, computed
# as kubectl computes kubectl.kubernetes.io/last-applied-configuration (kubernetes/kubectl
# pkg/util/apply.go GetModifiedConfiguration: the object with "annotations":{} and without the
# key itself, encoded by apimachinery's UnstructuredJSONScheme: json.Encoder, keys sorted, compact,
# <>& escaped as \u003c \u003e \u0026, a trailing newline), plus the key's 48 bytes. The API
# server rejects only a total over 262,144 (apimachinery pkg/api/validation/objectmeta.go
# ValidateAnnotationsSize, TotalAnnotationSizeLimitB = 256 * (1 << 10)).
source "$(dirname "$0")/common.inc"
cd "$TMP"
"$PYTHON" - <<'PY'
import json

KEY = "kubectl.kubernetes.io/last-applied-configuration"
assert len(KEY) == 48


def crd(description, versions):
    return {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {
            "group": "example.com",
            "names": {"kind": "Widget", "listKind": "WidgetList", "plural": "widgets",
                      "singular": "widget"},
            "scope": "Namespaced",
            "versions": [
                {"name": v, "served": True, "storage": v == "v1",
                 "schema": {"openAPIV3Schema": {"type": "object", "description": description
                                                if v == "v1" else "Widget"}}}
                for v in versions],
        },
    }


def annotations_total(obj):
    applied = json.loads(json.dumps(obj))
    applied["metadata"]["annotations"] = {}
    value = json.dumps(applied, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    value = value.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return len(KEY) + len((value + "\n").encode())


def padded(versions, total):
    # v1's description: "<spec> & <status>" costs 6 bytes per <, > and & once escaped.
    base = "Widget <spec> & <status>. "
    pad = total - annotations_total(crd(base, versions))
    obj = crd(base + "x" * pad, versions)
    assert annotations_total(obj) == total
    return obj


def write(path, obj):
    v = obj["spec"]["versions"]
    lines = ["# Source: shop/crds/widgets.yaml", "apiVersion: apiextensions.k8s.io/v1",
             "kind: CustomResourceDefinition", "metadata:", "  name: widgets.example.com",
             "spec:", "  group: example.com",
             "  names: {kind: Widget, listKind: WidgetList, plural: widgets, singular: widget}",
             "  scope: Namespaced", "  versions:"]
    for version in v:
        lines += [f"  - name: {version['name']}", "    served: true",
                  f"    storage: {'true' if version['storage'] else 'false'}", "    schema:",
                  "      openAPIV3Schema:", "        type: object",
                  "        description: " + json.dumps(
                      version["schema"]["openAPIV3Schema"]["description"])]
    open(path, "w").write("---\n" + "\n".join(lines) + "\n")


write("old.yaml", padded(["v1"], 262_144))
write("new.yaml", padded(["v1", "v2"], 262_145))
open("none.yaml", "w").write("---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: x, namespace: shop}\n")
PY

diff_with() {  # PATH: the review of OLD -> NEW delivered that way, as JSON in $OUT
  run "$FOOTPRINT" diff old.yaml new.yaml --deploy-with "$1" --format json
  expect_status 0
}
crd_fix() {  # the fix of NEW's one CRD change (version v2 added)
  json_get "$OUT" "[c['fix'] for c in d['changes'] if c['area'] == 'crds' and c['change'] == 'version v2 added'][0]"
}
size_finding() {  # "severityBefore severity" of crd-too-large-for-client-side-apply among worse
  json_get "$OUT" "[f.get('severityBefore', '') + ' ' + f['severity'] for f in d['findings']['worse'] if f['check'] == 'crd-too-large-for-client-side-apply']"
}
worse_text() {  # message and remediation of that finding
  json_get "$OUT" "[f['message'] + ' ' + f['remediation'] for f in d['findings']['worse'] if f['check'] == 'crd-too-large-for-client-side-apply'][0]"
}

# Paths that keep a copy of the object in an annotation: client-side kubectl, Argo CD's default
# (argo-cd docs upgrading/3.2-3.3.md; argoproj/argo-cd#8128) and kapp (carvel-dev/kapp#48). At
# 262,144 bytes OLD is at the limit (near, low); NEW is one byte over it (high), fails with
# field.TooLong in both wordings (kubernetes/kubernetes PR#128553), and so never reaches the
# cluster. Each path names its own narrowest fix.
for path in kubectl argocd kapp; do
  diff_with "$path"
  [ "$(size_finding)" = "['low high']" ] || fail "$path: one byte over the annotation limit is worse: $(size_finding)"
  text=$(worse_text)
  case "$text" in *"brings its annotations to 262,145 bytes"*) ;; *) fail "$path: the total as kubectl computes it: $text" ;; esac
  case "$text" in *"metadata.annotations: Too long: must have at most 262144 bytes"*) ;; *) fail "$path: the old wording" ;; esac
  case "$text" in *"metadata.annotations: Too long: may not be more than 262144 bytes"*) ;; *) fail "$path: the new wording" ;; esac
  case "$path" in
    kubectl) fix="kubectl apply --server-side" ;;
    argocd) fix="argocd.argoproj.io/sync-options: ServerSideApply=true" ;;
    kapp) fix="kapp.k14s.io/disable-original" ;;
  esac
  case "$text" in *"$fix"*) ;; *) fail "$path: its fix is $fix: $text" ;; esac
  crd_fix | grep -qF "This change will not reach the cluster with $path" ||
    fail "$path: a CRD whose apply fails does not reach the cluster: $(crd_fix)"
done

# Server-side paths keep no copy (kubernetes/website server-side-apply.md; argo-cd
# sync-options.md ServerSideApply=true) and upgrade crds/ like any object (Argo CD renders with
# --include-crds: argoproj/argo-cd#3336).
for path in kubectl-server-side argocd-ssa; do
  diff_with "$path"
  [ "$(size_finding)" = "[]" ] || fail "$path: keeps no copy: $(size_finding)"
  [ "$(crd_fix)" = "It reaches the cluster on the paths given ($path): they upgrade a chart's crds/ like any object." ] ||
    fail "$path: the change reaches the cluster: $(crd_fix)"
done

# Helm 3 and 4 write no last-applied annotation (argo-cd upgrading/3.2-3.3.md) and never upgrade
# crds/ (helm-www chart_best_practices/custom_resource_definitions.md; helm/helm pkg/action
# install.go installCRDs); Flux's helm-controller skips crds/ on upgrade (upgrade.crds: Skip by
# default; CreateReplace replaces them).
for path in helm3 helm4 flux; do
  diff_with "$path"
  [ "$(size_finding)" = "[]" ] || fail "$path: keeps no copy: $(size_finding)"
  crd_fix | grep -qF "This change will not reach the cluster with $path" || fail "$path: crds/ is not upgraded: $(crd_fix)"
done
crd_fix | grep -qF "spec.upgrade.crds: CreateReplace" || fail "flux: its CRD policy"
diff_with helm4
crd_fix | grep -qF 'kubectl apply --server-side -f` of shop/crds/widgets.yaml' || fail "helm4: apply the file first"

# A CRD new in crds/ is created by `helm install` only: not on upgrade with Helm, but Argo CD
# applies it (server-side here, so that its size does not matter).
added() {  # PATH: "severity" of the added CRD's change
  run "$FOOTPRINT" diff none.yaml new.yaml --deploy-with "$1" --format json
  expect_status 0
  json_get "$OUT" "[c['severity'] for c in d['changes'] if c['area'] == 'crds' and c['change'] == 'added']"
}
[ "$(added helm3)" = "['high']" ] || fail "helm3 does not create a new crds/ CRD on upgrade"
[ "$(added argocd-ssa)" = "['info']" ] || fail "argocd-ssa creates a new crds/ CRD"
