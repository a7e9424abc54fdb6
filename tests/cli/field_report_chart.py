#!/usr/bin/env python3
"""Writes a chart modelled on the field report's (../shared/seeds, section 4): dynamo-platform with
its largest CRD, 3,038,832 bytes of YAML as the report measured it, in the chart's crds/
directory. The schema is deeply nested, as controller-gen writes one that embeds pod templates,
so most of the YAML is indentation that JSON drops. Usage: field_report_chart.py DIR"""
import os
import sys

TARGET = 3_038_832


def node(lines, depth, indent, fanout):
    pad = " " * indent
    for i in range(fanout[depth] if depth < len(fanout) else 0):
        name = f"field{depth}x{i}"
        lines.append(f"{pad}{name}:")
        lines.append(f"{pad}  description: Configuration of {name} for the component it belongs to.")
        if depth + 1 < len(fanout):
            lines.append(f"{pad}  properties:")
            node(lines, depth + 1, indent + 4, fanout)
            lines.append(f"{pad}  type: object")
        else:
            lines.append(f"{pad}  type: string")


def crd(padding):
    head = """apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: dynamographdeployments.nvidia.example.com
spec:
  group: nvidia.example.com
  names:
    kind: DynamoGraphDeployment
    listKind: DynamoGraphDeploymentList
    plural: dynamographdeployments
    singular: dynamographdeployment
  scope: Namespaced
  versions:
  - name: v1alpha1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        description: """ + "d" * padding + """
        type: object
        properties:
"""
    lines = []
    node(lines, 0, 10, [2] * 11 + [3])
    return head + "\n".join(lines) + "\n"


def main():
    root = sys.argv[1]
    os.makedirs(os.path.join(root, "crds"), exist_ok=True)
    os.makedirs(os.path.join(root, "templates"), exist_ok=True)
    text = crd(1)
    text = crd(1 + TARGET - len(text.encode()))
    assert len(text.encode()) == TARGET, len(text.encode())
    with open(os.path.join(root, "crds", "dynamographdeployments.yaml"), "w") as f:
        f.write(text)
    with open(os.path.join(root, "Chart.yaml"), "w") as f:
        f.write("apiVersion: v2\nname: dynamo-platform\nversion: 1.6.2\n")
    with open(os.path.join(root, "templates", "namespace.yaml"), "w") as f:
        f.write("apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: {{ .Release.Name }}-operator\n")


main()
