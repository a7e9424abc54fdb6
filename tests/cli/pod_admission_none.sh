#!/usr/bin/env bash
# When no webhook of the bundle intercepts pod creation, the Admission section says so, instead
# of "passes 0 mutating and 0 validating webhooks ... waits up to 0 s".
source "$(dirname "$0")/common.inc"
# One webhook, and its rules name configmaps only: a pod's CREATE matches none of them.
cat >"$TMP/hooks.yaml" <<'YAML'
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: cm-check}
webhooks:
- name: cm.example.com
  admissionReviewVersions: [v1]
  sideEffects: None
  failurePolicy: Ignore
  clientConfig: {url: "https://hooks.example.com/validate"}
  rules:
  - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [configmaps]}
YAML
run "$FOOTPRINT" audit "$TMP/hooks.yaml"
expect_status 0
expect_stdout "passes none of this bundle's webhooks"
expect_no_stdout "waits up to 0 s"
