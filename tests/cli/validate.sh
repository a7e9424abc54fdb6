#!/usr/bin/env bash
# footprint validate: only the custom resources checked against their CRDs, with the exit codes
# of audit (0 clean, 1 a finding at --fail-on, default high; 2 bad arguments or input). The
# expected errors are the API server's wording (apiextensions-apiserver's validation.go over
# kube-openapi's messages), written out by hand.
source "$(dirname "$0")/common.inc"
cd "$TMP"
cat >crd.yaml <<'YAML'
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: engines.example.com}
spec:
  group: example.com
  names: {kind: Engine, plural: engines}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [mode]
            properties:
              replicas: {type: integer, maximum: 10}
              mode: {type: string, enum: [fast, safe]}
              maintenance: {type: string, format: date-time}
YAML
cat >good.yaml <<'YAML'
apiVersion: example.com/v1
kind: Engine
metadata: {name: good, namespace: ops}
spec: {mode: fast, replicas: 3}
YAML
cat >bad.yaml <<'YAML'
apiVersion: example.com/v1
kind: Engine
metadata: {name: bad, namespace: ops}
spec:
  replicas: 11
YAML

run "$FOOTPRINT" validate crd.yaml good.yaml
expect_status 0
expect_stdout "1 custom resource checked against their CRD (1 from the bundle, 0 from the cluster snapshot)"

run "$FOOTPRINT" validate crd.yaml bad.yaml
expect_status 1
expect_stdout "bad.yaml:5"
expect_stdout 'spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10'
expect_stdout 'spec.mode: Required value'
run "$FOOTPRINT" validate crd.yaml bad.yaml --fail-on none
expect_status 0

# Only these checks: the Namespace-less objects and the rest of audit's findings are not listed.
run "$FOOTPRINT" validate crd.yaml bad.yaml --format json
expect_status 1
[ "$(json_get "$OUT" "sorted({f['check'] for f in d['findings']})")" = "['cr-schema-invalid']" ] ||
  fail "checks: $(json_get "$OUT" "[f['check'] for f in d['findings']]")"
[ "$(json_get "$OUT" "d['customResources']['checked']")" = "1" ] || fail "count in JSON"

# The CRD from a cluster snapshot, when the input does not ship it.
{ printf 'apiVersion: v1\nkind: List\nitems:\n'; sed 's/^/  /; 1s/^  /- /' crd.yaml; } >cluster.yaml
run "$FOOTPRINT" validate bad.yaml --cluster cluster.yaml
expect_status 1
expect_stdout "from the cluster snapshot"
# Without it, the kind has no CRD: crd-missing, medium, below the default --fail-on.
run "$FOOTPRINT" validate bad.yaml
expect_status 0
expect_stdout "crd-missing"

# A string format (kube-openapi's strfmt), and the metadata every object gets checked
# (ValidateObjectMetaAccessor: the name a DNS subdomain).
cat >formats.yaml <<'YAML'
apiVersion: example.com/v1
kind: Engine
metadata: {name: Engine_1, namespace: ops}
spec: {mode: safe, maintenance: "sunday 03:00"}
YAML
run "$FOOTPRINT" validate crd.yaml formats.yaml --format json
expect_status 1
expect_stdout 'metadata.name: Invalid value: \"Engine_1\": a lowercase RFC 1123 subdomain must consist of'
expect_stdout 'spec.maintenance: Invalid value: \"sunday 03:00\": spec.maintenance in body must be of type date-time: \"sunday 03:00\"'
[ "$(json_get "$OUT" "[f['source']['line'] for f in d['findings']]")" = "[3, 4]" ] ||
  fail "lines: $(json_get "$OUT" "[f['source']['line'] for f in d['findings']]")"

run "$FOOTPRINT" validate missing.yaml
expect_status 2
