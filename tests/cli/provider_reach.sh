#!/usr/bin/env bash
# --provider end to end: which control plane reaches a webhook's pod. The webhook's Service port
# 443 targets containerPort 9443 (named https), and a CRD with two versions converts through the
# same Service. GKE private clusters open 443 and 10250 only (the gke-...-master firewall rule);
# EKS with an overlay CNI reaches no pod IP (cert-manager's compatibility notes for EKS with a
# custom CNI: run the webhook with hostNetwork); EKS on its VPC CNI reaches every pod port.
source "$(dirname "$0")/common.inc"
cd "$TMP"
bundle() {  # HOSTNETWORK
  cat <<YAML
apiVersion: apps/v1
kind: Deployment
metadata: {name: hook, namespace: ops}
spec:
  selector: {matchLabels: {app: hook}}
  template:
    metadata: {labels: {app: hook}}
    spec:
      hostNetwork: $1
      containers: [{name: server, image: example.com/hook:1, ports: [{name: https, containerPort: 9443}]}]
---
apiVersion: v1
kind: Service
metadata: {name: hook, namespace: ops}
spec:
  selector: {app: hook}
  ports: [{port: 443, targetPort: https}]
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: hook}
webhooks:
- name: widgets.hook.example.com
  failurePolicy: Fail
  sideEffects: None
  admissionReviewVersions: [v1]
  clientConfig: {service: {name: hook, namespace: ops, port: 443}, caBundle: Cg==}
  rules:
  - {apiGroups: [example.com], apiVersions: [v1], operations: [CREATE], resources: [widgets]}
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets, singular: widget, listKind: WidgetList}
  scope: Namespaced
  conversion:
    strategy: Webhook
    webhook:
      conversionReviewVersions: [v1]
      clientConfig: {service: {name: hook, namespace: ops, path: /convert}, caBundle: Cg==}
  versions:
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
  - {name: v2, served: true, storage: false, schema: {openAPIV3Schema: {type: object}}}
YAML
}
bundle false >pod.yaml
bundle true >host.yaml
unreachable() {  # FILE PROVIDER: the kinds webhook-port-unreachable reports, sorted
  run "$FOOTPRINT" audit "$1" -n ops --provider "$2" --format json
  expect_status 0
  json_get "$OUT" "sorted(f['object']['kind'] for f in d['findings'] if f['check'] == 'webhook-port-unreachable')"
}
both="['CustomResourceDefinition', 'ValidatingWebhookConfiguration']"
[ "$(unreachable pod.yaml gke-private)" = "$both" ] || fail "gke-private: 9443 is closed"
[ "$(unreachable pod.yaml eks-overlay)" = "$both" ] || fail "eks-overlay: no pod IP is reachable"
[ "$(unreachable host.yaml eks-overlay)" = "[]" ] || fail "eks-overlay: a hostNetwork backend is reachable"
[ "$(unreachable pod.yaml eks)" = "[]" ] || fail "eks: every pod port"
run "$FOOTPRINT" audit pod.yaml -n ops --provider eks-overlay
expect_status 0
grep -q "hostNetwork: true" "$OUT" || fail "eks-overlay names hostNetwork as the fix"
run "$FOOTPRINT" audit pod.yaml -n ops --provider overlay
expect_status 2
