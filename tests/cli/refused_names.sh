#!/usr/bin/env bash
# Names kubectl or the API server refuses are invalid documents at file:line:col, quoting the
# refusal, so that no report reads them as objects the install creates.
# - client-go's rest/request.go refuses a name it cannot put in a URL path (IsValidPathSegmentName:
#   no '/', no '%', not "." or "..");
# - a CRD's name is a DNS subdomain and spec.names.plural + "." + spec.group
#   (apiextensions validation.go, ValidateCustomResourceDefinition);
# - a ConfigMap's name is a DNS subdomain (core validation.go: ValidateConfigMapName is
#   NameIsDNSSubdomain), a Service's a DNS-1035 label (ValidateServiceName);
# - a namespaced object's namespace is a DNS label (apimachinery ValidateObjectMeta), while a
#   cluster-scoped object's namespace is dropped by the API server and never checked.
source "$(dirname "$0")/common.inc"

cat >"$TMP/names.yaml" <<'YAML'
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: "../../x"}
spec:
  group: x.example.com
  names: {kind: X, plural: xs}
  scope: Namespaced
  versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}]
---
apiVersion: v1
kind: ConfigMap
metadata: {name: "x<img src=x>|*a*", namespace: ok}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: fine, namespace: Bad_NS}
---
apiVersion: v1
kind: Service
metadata: {name: 1st, namespace: ok}
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: things.x.example.com}
spec:
  group: x.example.com
  names: {kind: Y, plural: ys}
  scope: Namespaced
  versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: "system:reader", namespace: Ignored_For_Cluster_Scope}
rules: []
---
apiVersion: v1
kind: ConfigMap
metadata: {name: good.name-1, namespace: ok}
YAML

run "$FOOTPRINT" audit "$TMP/names.yaml" --format json
expect_status 2
[ "$(json_get "$OUT" "[(e['line'], e['column']) for e in d['invalidDocuments']]")" = \
  "[(3, 18), (12, 18), (16, 35), (20, 18), (24, 18)]" ] ||
  fail "invalid documents: $(json_get "$OUT" "d['invalidDocuments']")"
# The ClusterRole (a colon is fine in an RBAC name) and the last ConfigMap are the objects left.
[ "$(json_get "$OUT" "d['inventory']['objects']")" = 2 ] || fail "2 objects are valid"

run "$FOOTPRINT" audit "$TMP/names.yaml"
expect_status 2
expect_stdout "invalid resource name"
expect_stdout "may not contain '/'"
expect_stdout "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters"
expect_stdout "metadata.namespace is \"Bad_NS\""
expect_stdout "a lowercase RFC 1123 label must consist of"
expect_stdout "a DNS-1035 label must consist of"
expect_stdout "must be spec.names.plural+\".\"+spec.group"
echo "ok"
