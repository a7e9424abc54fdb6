#!/usr/bin/env bash
# Values the API server refuses are invalid documents at file:line:col, never analysed as if
# valid or read as the default: the new-user trial's webhook settings (timeoutSeconds outside 1 to
# 30, a fraction, an int32 overflow; a lower-case failurePolicy or operation) and the common Helm
# mistakes (a number where core/v1 has a string: env values, args, labels, annotations, ConfigMap
# and Secret data; a string where it has an int32: replicas, containerPort; Secret data that is
# not base64). Sources: pkg/apis/admissionregistration/validation/validation.go
# (validateValidatingWebhook: "the timeout value must be between 1 and 30 seconds";
# supportedFailurePolicies; supportedOperations), k8s.io/api core/v1 and apps/v1 types.go for the
# Go types, and Go's encoding/json for the decoder's words. Lines and columns are counted by hand
# in tests/data/refused-values.yaml.
source "$(dirname "$0")/common.inc"
input=$DATA/refused-values.yaml

run "$FOOTPRINT" audit "$input" -n app --format json -o "$TMP/report.json"
expect_status 2
for expected in \
  "9:19: webhooks[0].timeoutSeconds is 45: the API server refuses the whole object (\"webhooks[0].timeoutSeconds: Invalid value: 45: the timeout value must be between 1 and 30 seconds\")" \
  "16:19: webhooks[0].timeoutSeconds is -1: the API server refuses the whole object" \
  "23:19: webhooks[0].timeoutSeconds is 3.5, not a 32-bit integer: the API server refuses the whole object (\"json: cannot unmarshal number 3.5 into Go struct field ValidatingWebhook.webhooks.timeoutSeconds of type int32\")" \
  "30:19: webhooks[0].timeoutSeconds is 99999999999, not a 32-bit integer" \
  "37:18: webhooks[0].failurePolicy is \"fail\", which the API server does not support: it refuses the whole object (\"webhooks[0].failurePolicy: Unsupported value: \"fail\": supported values: \"Fail\", \"Ignore\"\")" \
  "39:18: webhooks[0].rules[0].operations[0] is \"create\", which the API server does not support" \
  "49:21: metadata.labels[version] is a number where a string is needed: the API server refuses the whole object (\"json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string\")" \
  "50:26: metadata.annotations[enabled] is a boolean where a string is needed" \
  "52:13: spec.replicas is a string where a number is needed" \
  "60:35: spec.template.spec.containers[0].env[0].value is a number where a string is needed: the API server refuses the whole object (\"json: cannot unmarshal number into Go struct field EnvVar.spec.template.spec.containers.env.value of type string\")" \
  "61:24: spec.template.spec.containers[0].args[1] is a number where a string is needed" \
  "62:33: spec.template.spec.containers[0].ports[0].containerPort is a string where a number is needed" \
  "67:11: data[x] is a number where a string is needed: the API server refuses the whole object (\"json: cannot unmarshal number into Go struct field ConfigMap.data of type string\")" \
  "72:11: data[x] is a list where a string is needed" \
  "77:17: stringData[p] is a list where a string is needed" \
  "82:11: data[x] is not base64: the API server refuses the whole object"; do
  expect_stderr "refused-values.yaml:$expected"
done
[ "$(json_get "$TMP/report.json" "len(d['invalidDocuments'])")" = 16 ] ||
  fail "invalidDocuments: $(json_get "$TMP/report.json" "d['invalidDocuments']")"
# Only the valid webhook is judged, with its timeout as kubectl sends it: YAML 1.1 reads 0x10 as
# 16 (yaml.v2 resolve.go), not 0.
[ "$(json_get "$TMP/report.json" "d['inventory']['objects']")" = 1 ] || fail "one valid object"
sed -n '/^# Valid: YAML 1.1/,$p' "$input" >"$TMP/hex.yaml"
run "$FOOTPRINT" admission "$TMP/hex.yaml" -n app --resource pods --operation CREATE
expect_status 0
expect_stdout "hex.example.com  Ignore   16s"
# Commands that act on the whole input refuse it, naming the place.
run "$FOOTPRINT" images relocate --registry mirror.example.com "$input" --plan "$TMP/plan.sh"
expect_status 2
expect_stderr "refused-values.yaml:82:11: data[x] is not base64"
[ ! -e "$TMP/plan.sh" ] || fail "a plan was written for an input the API server refuses"
echo "ok"
