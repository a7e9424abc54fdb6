#!/usr/bin/env bash
# Repeatable options take exactly one value per occurrence, as `--opt v` or `--opt=v`, before,
# between and after the inputs (as helm, kubectl and docker read them): none swallows an input.
source "$(dirname "$0")/common.inc"
need_helm

# A chart whose images are built from values, so the listed images show which values arrived.
chart=$TMP/chart
mkdir -p "$chart/templates"
printf 'apiVersion: v2\nname: opts\nversion: 0.1.0\n' >"$chart/Chart.yaml"
printf 'a: unset\nb: unset\n' >"$chart/values.yaml"
cat >"$chart/templates/pod.yaml" <<'YAML'
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
  - {name: a, image: "reg.example.com/a:{{ .Values.a }}"}
  - {name: b, image: "reg.example.com/b:{{ .Values.b }}"}
  - {name: c, image: "reg.example.com/c:{{ .Values.c | default "unset" }}"}
  - {name: d, image: "reg.example.com/d:{{ .Values.d | default "unset" }}"}
  {{- if .Capabilities.APIVersions.Has "one.example.com/v1" }}
  - {name: e, image: "reg.example.com/e:one"}
  {{- end }}
  {{- if .Capabilities.APIVersions.Has "two.example.com/v1" }}
  - {name: f, image: "reg.example.com/f:two"}
  {{- end }}
YAML
printf 'a: from-values-1\n' >"$TMP/v1.yaml"
printf 'b: from-values-2\n' >"$TMP/v2.yaml"
pod() {  # pod NAME IMAGE: a plain manifest input
  printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: %s}\nspec:\n  containers: [{name: c, image: "%s"}]\n' "$1" "$2" >"$TMP/$1.yaml"
}
pod first reg.example.com/first:1
pod last reg.example.com/last:1

expect_all() {
  expect_status 0
  for image in first:1 last:1 a:from-values-1 b:from-values-2 c:set-1 d:0777 e:one f:two; do
    expect_stdout "reg.example.com/$image"
  done
  [ "$(wc -l <"$OUT")" = 8 ] || fail "expected 8 images; got $(cat "$OUT")"
}

# -f/--values, --set, --set-string and --api-versions: before, between and after the inputs.
run "$FOOTPRINT" images -f "$TMP/v1.yaml" --set c=set-1 --api-versions one.example.com/v1 \
  "$TMP/first.yaml" --values="$TMP/v2.yaml" --set-string d=0777 "$chart" \
  --api-versions=two.example.com/v1 "$TMP/last.yaml" --format list
expect_all
run "$FOOTPRINT" images "$TMP/first.yaml" "$chart" "$TMP/last.yaml" --format list \
  --values "$TMP/v1.yaml" -f "$TMP/v2.yaml" --set=c=set-1 --set-string=d=0777 \
  --api-versions one.example.com/v1 --api-versions two.example.com/v1
expect_all
run "$FOOTPRINT" images --set-string d=0777 --values="$TMP/v1.yaml" --api-versions=one.example.com/v1 \
  --api-versions two.example.com/v1 --set=c=set-1 -f "$TMP/v2.yaml" "$TMP/first.yaml" "$chart" \
  "$TMP/last.yaml" --format list
expect_all

# --insecure-registry: the repro read only a.yaml and took b.yaml as a registry.
pod a docker.io/library/nginx:1.25
pod b docker.io/library/busybox:1.36
for args in "--insecure-registry r:5000 $TMP/a.yaml $TMP/b.yaml" \
  "$TMP/a.yaml --insecure-registry r:5000 $TMP/b.yaml --insecure-registry=s:5000" \
  "$TMP/a.yaml $TMP/b.yaml --insecure-registry=r:5000 --insecure-registry s:5000"; do
  # shellcheck disable=SC2086
  run "$FOOTPRINT" images $args --format list
  expect_status 0
  expect_stdout "docker.io/library/nginx:1.25"
  expect_stdout "docker.io/library/busybox:1.36"
done

# --mode, repeated around the chart: both modes are compared.
for args in "--mode a --mode=b:$TMP/v1.yaml $chart" "--mode a $chart --mode b:$TMP/v1.yaml" \
  "$chart --mode=a --mode b:$TMP/v1.yaml"; do
  # shellcheck disable=SC2086
  run "$FOOTPRINT" compare $args --format json
  expect_status 0
  [ "$(json_get "$OUT" "d['modes']")" = "['a', 'b']" ] || fail "modes: $(head -c 500 "$OUT")"
done
run "$FOOTPRINT" audit -f "$TMP/v1.yaml" "$chart" -n ns
expect_status 0

# --as-group, before, between and after the inputs: the binding names only the group.
cat >"$TMP/role.yaml" <<'YAML'
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: read-secrets}
rules: [{apiGroups: [""], resources: [secrets], verbs: [list]}]
YAML
cat >"$TMP/binding.yaml" <<'YAML'
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: read-secrets}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: read-secrets}
subjects: [{kind: Group, name: g, apiGroup: rbac.authorization.k8s.io}]
YAML
for args in "--as-group g --as-group=h list secrets $TMP/role.yaml $TMP/binding.yaml" \
  "list secrets --as-group h $TMP/role.yaml --as-group=g $TMP/binding.yaml" \
  "list secrets $TMP/role.yaml $TMP/binding.yaml --as-group=h --as-group g"; do
  # shellcheck disable=SC2086
  run "$FOOTPRINT" can-i --as x $args
  expect_status 0
  expect_stdout "ClusterRoleBinding read-secrets"
done
# Without the group the answer is no: the group really came from --as-group.
run "$FOOTPRINT" can-i --as x list secrets "$TMP/role.yaml" "$TMP/binding.yaml" --as-group h
expect_status 1
echo "ok"
