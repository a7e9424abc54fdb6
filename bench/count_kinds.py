#!/usr/bin/env python3
"""Baseline for bench/run: counts kinds with PyYAML's C loader, nothing else."""
import collections
import sys

import yaml

loader = yaml.CSafeLoader
# An unquoted "=" (prometheus-operator's CRDs) resolves to YAML 1.1's "value" tag, which
# PyYAML cannot construct; read it as the string it is.
yaml.add_constructor("tag:yaml.org,2002:value", lambda l, n: l.construct_scalar(n), Loader=loader)
kinds = collections.Counter()
for path in sys.argv[1:]:
    with open(path, "rb") as f:
        for doc in yaml.load_all(f, Loader=loader):
            if doc:
                kinds[doc.get("kind")] += 1
print(sum(kinds.values()))
