#!/usr/bin/env python3
"""Writes synthetic manifests to stdout, for bench/run. Deterministic: the same arguments always
give the same bytes.

  generate.py SIZE                   an install bundle of about SIZE megabytes (10^6 bytes)
  generate.py --small-documents N    N ConfigMaps of about 110 bytes each
  generate.py --long-value SIZE      one ConfigMap whose one value is a SIZE-megabyte line

The bundle is shaped like real `helm template` output, in block style: most bytes are CRDs whose
schemas carry descriptions (as controller-gen writes them; CRDs are about three quarters of
../shared/corpus by size), the rest are workloads, services, RBAC and config.
"""
import sys


def crd(i):
    out = [f"""---
# Source: bench/templates/crds/widget{i}.yaml
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets{i}.bench.example.com
spec:
  group: bench.example.com
  names:
    kind: Widget{i}
    listKind: Widget{i}List
    plural: widgets{i}
    singular: widget{i}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        description: Widget{i} is the schema for the widgets{i} API.
        type: object
        properties:
          spec:
            type: object
            properties:
"""]
    for p in range(120):
        out.append(f"""              field{p}:
                description: |-
                  Field{p} configures part {p % 7} of the workload. The operator validates it
                  before any change is applied, and rejects values outside the allowed range.
                type: object
                properties:
                  enabled:
                    type: boolean
                  mode:
                    type: string
                    enum:
                    - a
                    - b
                    - '='
                  replicas:
                    format: int32
                    type: integer
""")
    return "".join(out)


def workload(i):
    ns = f"team-{i % 40}"
    return f"""---
# Source: bench/templates/deployment.yaml
apiVersion: apps/v1
kind: Deployment
metadata:
  name: app-{i}
  namespace: {ns}
  labels:
    app.kubernetes.io/name: app-{i}
    app.kubernetes.io/part-of: bench
spec:
  replicas: 2
  selector:
    matchLabels:
      app.kubernetes.io/name: app-{i}
  template:
    metadata:
      labels:
        app.kubernetes.io/name: app-{i}
    spec:
      serviceAccountName: app-{i}
      containers:
      - name: main
        image: "registry.example.com/team/app-{i}:1.{i % 9}.0"
        imagePullPolicy: IfNotPresent
        args:
        - --port=8080
        - --log-level=info
        env:
        - name: MODE
          value: production
        ports:
        - containerPort: 8080
          name: http
          protocol: TCP
        resources:
          requests:
            cpu: 100m
            memory: 128Mi
---
# Source: bench/templates/service.yaml
apiVersion: v1
kind: Service
metadata:
  name: app-{i}
  namespace: {ns}
spec:
  selector:
    app.kubernetes.io/name: app-{i}
  ports:
  - port: 80
    targetPort: http
---
# Source: bench/templates/serviceaccount.yaml
apiVersion: v1
kind: ServiceAccount
metadata:
  name: app-{i}
  namespace: {ns}
---
# Source: bench/templates/rbac.yaml
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: app-{i}
  namespace: {ns}
rules:
- apiGroups:
  - ""
  resources:
  - configmaps
  - secrets
  verbs:
  - get
  - list
  - watch
---
# Source: bench/templates/rbac.yaml
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: app-{i}
  namespace: {ns}
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: Role
  name: app-{i}
subjects:
- kind: ServiceAccount
  name: app-{i}
  namespace: {ns}
---
# Source: bench/templates/configmap.yaml
apiVersion: v1
kind: ConfigMap
metadata:
  name: app-{i}-config
  namespace: {ns}
data:
  settings.yaml: |
    server:
      port: 8080
      workers: {i % 16}
    features:
    - a
    - b
"""


def small_documents(count):
    for i in range(count):
        sys.stdout.write(f"""---
apiVersion: v1
kind: ConfigMap
metadata:
  name: config-{i}
  namespace: team-{i % 40}
data:
  key: value-{i}
""")


def long_value(size):
    sys.stdout.write("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: long\ndata:\n  blob: ")
    line = "abcdefghij" * 100_000
    for _ in range(int(size * 1_000_000) // len(line)):
        sys.stdout.write(line)
    sys.stdout.write("\n")


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--small-documents":
        small_documents(int(sys.argv[2]))
        return
    if len(sys.argv) == 3 and sys.argv[1] == "--long-value":
        long_value(float(sys.argv[2]))
        return
    target = float(sys.argv[1] if len(sys.argv) > 1 else 100) * 1_000_000
    written = 0
    i = 0
    while written < target:
        chunk = crd(i) if i % 4 == 0 else workload(i)
        sys.stdout.write(chunk)
        written += len(chunk.encode())
        i += 1


if __name__ == "__main__":
    main()
