#!/usr/bin/env bash
# The JSON size footprint reports for every corpus CRD equals an independent encoding: PyYAML
# (CSafeLoader, with YAML 1.1's "value" tag mapped to a plain string as in corpus_counts.sh),
# then Python's json with sorted keys, compact separators and ensure_ascii=False, plus what
# differs in Go's encoding/json (docs/crds.md): <, >, &, U+2028 and U+2029 escaped, floats
# written the Go way, and metadata.namespace dropped from cluster-scoped objects as kubectl's
# resource builder does. The last-applied annotation total is checked the same way.
source "$(dirname "$0")/common.inc"
need_corpus
for bundle in "$SHARED"/corpus/*.yaml; do
  "$FOOTPRINT" audit "$bundle" --format json >"$TMP/report.json" ||
    fail "$(basename "$bundle") did not load"
  "$PYTHON" - "$bundle" "$TMP/report.json" <<'PY' || fail "JSON sizes differ for $(basename "$bundle")"
import json, re, sys, yaml

loader_class = yaml.CSafeLoader
yaml.add_constructor("tag:yaml.org,2002:value", lambda l, n: l.construct_scalar(n),
                     Loader=loader_class)

# Plain scalars that PyYAML (YAML 1.1 per its own resolver) and go-yaml v2 (resolve.go) read
# differently: y/Y/n/N (go: booleans), sexagesimal numbers (go: strings), exponents without a
# dot or a signed exponent (go: floats), 0o, 0X and 0B prefixes and 08/09-style numbers (go:
# numbers).
# None occurs in the corpus CRDs today; should one appear, this script must mirror go-yaml's
# rule for it instead of trusting PyYAML.
# An explicit !!str on such a scalar is a false alarm, which only means a closer look.
DIFFERENT = re.compile(
    r"^(y|Y|n|N"
    r"|[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?"
    r"|[-+]?([0-9][0-9_]*(\.[0-9_]*)?|\.[0-9_]+)[eE][0-9]+"
    r"|[-+]?[0-9][0-9_]*[eE][-+][0-9]+"
    r"|[-+]?0[oXB][0-9a-fA-F_]+"
    r"|[-+]?0[0-9_]*[89][0-9_]*)$")


def check_scalars(node, seen):
    if id(node) in seen:
        return
    seen.add(id(node))
    if isinstance(node, yaml.ScalarNode):
        if not node.style and DIFFERENT.match(node.value):  # plain: None, or "" from CParser
            sys.exit("go-yaml v2 and PyYAML differ on %r at line %d: mirror go-yaml here"
                     % (node.value, node.start_mark.line + 1))
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            check_scalars(item, seen)
    elif isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            check_scalars(key, seen)
            check_scalars(value, seen)


def go_float(f):
    # encoding/json: 'f' format between 1e-6 and 1e21, else 'e' with e-07 written e-7; kubectl's
    # unstructured decoder then reads integral values back as integers.
    if f != f or f in (float("inf"), float("-inf")):
        sys.exit("kubectl cannot send NaN or infinity")
    if f == int(f) and abs(f) < 1e21:
        return str(int(f))
    r = repr(f)
    if 1e-6 <= abs(f) < 1e21:
        import decimal
        return format(decimal.Decimal(r), "f")
    mantissa, _, exponent = r.partition("e")
    return "%se%s%d" % (mantissa, "-" if int(exponent) < 0 else "+", abs(int(exponent)))


def encode(o):
    if isinstance(o, dict):
        return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + encode(o[k])
                              for k in sorted(o)) + "}"
    if isinstance(o, list):
        return "[" + ",".join(encode(x) for x in o) + "]"
    if isinstance(o, float):
        return go_float(o)
    return json.dumps(o, ensure_ascii=False)


def go_json(o):
    s = encode(o)
    for a, b in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
                 ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        s = s.replace(a, b)
    return s.encode()


LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"
expected = []
with open(sys.argv[1], "rb") as f:
    loader = loader_class(f)
    while loader.check_node():
        node = loader.get_node()
        check_scalars(node, set())
        doc = loader.construct_document(node)
        if not isinstance(doc, dict) or doc.get("kind") != "CustomResourceDefinition":
            continue
        doc["metadata"].pop("namespace", None)
        sent = go_json(doc)
        # Client-side apply stores the object, its other annotations (an empty map when none)
        # included, with json.Encoder's newline, under LAST_APPLIED.
        annotations = {k: v for k, v in (doc["metadata"].get("annotations") or {}).items()
                       if k != LAST_APPLIED}
        doc["metadata"]["annotations"] = annotations
        stored = go_json(doc) + b"\n"
        total = sum(len(k.encode()) + len(str(v).encode()) for k, v in annotations.items())
        total += len(LAST_APPLIED) + len(stored)
        expected.append((doc["metadata"]["name"], len(sent), total))

report = json.load(open(sys.argv[2]))
got = [(s["object"]["name"], s["jsonBytes"], s["lastAppliedAnnotationBytes"])
       for s in report["crds"]["sizes"] if s["object"]["kind"] == "CustomResourceDefinition"]
if sorted(expected) != sorted(got):
    for e, g in zip(sorted(expected), sorted(got)):
        if e != g:
            print("expected", e, "\ngot     ", g)
            break
    print(len(expected), "CRDs expected,", len(got), "reported")
    sys.exit(1)
PY
done
