#!/usr/bin/env python3
"""Writes a multi-tenant cluster's objects to stdout as one List, the way
`kubectl get namespaces,rolebindings,serviceaccounts,services,deployments -A -o yaml` prints it,
for bench/run. Deterministic: the same argument always gives the same bytes.

  cluster_list.py NAMESPACES

Each namespace holds 10 RoleBindings to the ClusterRole `edit`, 10 ServiceAccounts, 10 Services
and 10 Deployments: 41 small objects a namespace with the Namespace itself. kubectl lists by
resource, then by namespace and name; server-set fields (uid, resourceVersion, status) are there
as kubectl prints them, managedFields are not (kubectl hides them by default).
"""
import sys

PER_NAMESPACE = 10
CREATED = '"2026-11-02T09:14:05Z"'


class Ids:
    """uids and resourceVersions that differ per object, like the API server's."""

    def __init__(self):
        self.n = 0

    def next(self):
        self.n += 1
        h = f"{self.n * 0x9E3779B97F4A7C15 % (1 << 64):016x}{self.n:016x}"
        return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-8{h[17:20]}-{h[20:32]}", 100000 + self.n * 7


def meta(out, ids, name, ns=None, labels=(), annotations=(), generation=None):
    uid, version = ids.next()
    out.append("  metadata:\n")
    if annotations:
        out.append("    annotations:\n")
        out.extend(f"      {k}: {v}\n" for k, v in annotations)
    out.append(f"    creationTimestamp: {CREATED}\n")
    if generation is not None:
        out.append(f"    generation: {generation}\n")
    if labels:
        out.append("    labels:\n")
        out.extend(f"      {k}: {v}\n" for k, v in labels)
    out.append(f"    name: {name}\n")
    if ns is not None:
        out.append(f"    namespace: {ns}\n")
    out.append(f'    resourceVersion: "{version}"\n    uid: {uid}\n')


def namespace(out, ids, ns):
    out.append("- apiVersion: v1\n  kind: Namespace\n")
    meta(out, ids, ns, labels=[("kubernetes.io/metadata.name", ns)])
    out.append("  spec:\n    finalizers:\n    - kubernetes\n  status:\n    phase: Active\n")


def role_binding(out, ids, ns, i):
    out.append("- apiVersion: rbac.authorization.k8s.io/v1\n  kind: RoleBinding\n")
    meta(out, ids, f"edit-{i}", ns)
    out.append(f"""  roleRef:
    apiGroup: rbac.authorization.k8s.io
    kind: ClusterRole
    name: edit
  subjects:
  - apiGroup: rbac.authorization.k8s.io
    kind: User
    name: dev-{i}@{ns}.example.com
  - kind: ServiceAccount
    name: app-{i}
    namespace: {ns}
""")


def service_account(out, ids, ns, i):
    out.append("- apiVersion: v1\n  kind: ServiceAccount\n")
    meta(out, ids, f"app-{i}", ns)


def service(out, ids, ns, n, i):
    ip = f"10.96.{n // 25 % 256}.{(n % 25) * 10 + i}"
    out.append("- apiVersion: v1\n  kind: Service\n")
    meta(out, ids, f"app-{i}", ns, labels=[("app", f"app-{i}")])
    out.append(f"""  spec:
    clusterIP: {ip}
    clusterIPs:
    - {ip}
    internalTrafficPolicy: Cluster
    ipFamilies:
    - IPv4
    ipFamilyPolicy: SingleStack
    ports:
    - name: http
      port: 80
      protocol: TCP
      targetPort: 8080
    selector:
      app: app-{i}
    sessionAffinity: None
    type: ClusterIP
  status:
    loadBalancer: {{}}
""")


def deployment(out, ids, ns, i):
    out.append("- apiVersion: apps/v1\n  kind: Deployment\n")
    meta(out, ids, f"app-{i}", ns, labels=[("app", f"app-{i}")],
         annotations=[("deployment.kubernetes.io/revision", '"1"')], generation=1)
    out.append(f"""  spec:
    progressDeadlineSeconds: 600
    replicas: 1
    revisionHistoryLimit: 10
    selector:
      matchLabels:
        app: app-{i}
    strategy:
      rollingUpdate:
        maxSurge: 25%
        maxUnavailable: 25%
      type: RollingUpdate
    template:
      metadata:
        creationTimestamp: null
        labels:
          app: app-{i}
      spec:
        containers:
        - image: registry.example.com/{ns}/app-{i}:1.{i}.0
          imagePullPolicy: IfNotPresent
          name: app
          ports:
          - containerPort: 8080
            name: http
            protocol: TCP
          resources:
            requests:
              cpu: 100m
              memory: 128Mi
          terminationMessagePath: /dev/termination-log
          terminationMessagePolicy: File
        dnsPolicy: ClusterFirst
        restartPolicy: Always
        schedulerName: default-scheduler
        securityContext: {{}}
        serviceAccount: app-{i}
        serviceAccountName: app-{i}
        terminationGracePeriodSeconds: 30
  status:
    availableReplicas: 1
    conditions:
    - lastTransitionTime: {CREATED}
      lastUpdateTime: {CREATED}
      message: Deployment has minimum availability.
      reason: MinimumReplicasAvailable
      status: "True"
      type: Available
    observedGeneration: 1
    readyReplicas: 1
    replicas: 1
    updatedReplicas: 1
""")


def main():
    count = int(sys.argv[1])
    names = [f"tenant-{n:05d}" for n in range(count)]
    ids = Ids()
    out = ["apiVersion: v1\nitems:\n"]
    for ns in names:
        namespace(out, ids, ns)
    for write in (role_binding, service_account):
        for ns in names:
            for i in range(PER_NAMESPACE):
                write(out, ids, ns, i)
        sys.stdout.write("".join(out))
        out = []
    for n, ns in enumerate(names):
        for i in range(PER_NAMESPACE):
            service(out, ids, ns, n, i)
    for ns in names:
        for i in range(PER_NAMESPACE):
            deployment(out, ids, ns, i)
    out.append('kind: List\nmetadata:\n  resourceVersion: ""\n')
    sys.stdout.write("".join(out))


if __name__ == "__main__":
    main()
