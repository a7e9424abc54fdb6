#!/usr/bin/env bash
# diff: the upgrade review, end to end. modal-operator 0.3.0 (tests/charts/modal-operator) against
# its next release 0.4.0 (tests/charts/modal-operator-0.4), both rendered by helm; then two pairs
# of corpus bundles.
source "$(dirname "$0")/common.inc"
need_helm
old=$ROOT/tests/charts/modal-operator
new=$ROOT/tests/charts/modal-operator-0.4
change() {  # AREA SUBJECT-PREFIX: "severity change" of each matching change, from the JSON in $OUT
  json_get "$OUT" "sorted(c['severity'] + ' ' + c['change'] for c in d['changes'] if c['area'] == '$1' and c['subject'].startswith('$2'))"
}

run "$FOOTPRINT" diff "$old" "$new" -n modal-system --format json
expect_status 0
sa="ServiceAccount modal-system/modal-operator-modal-operator"
# templates/crds.yaml: v2 joins v1 and becomes the storage version; v1 stays (served), so the
# update is valid and only asks for a storage migration later.
[ "$(change crds 'CustomResourceDefinition pipelines.modal.example.com')" = \
  "['info version v2 added', 'low storage version v1 -> v2']" ] || fail "CRD storage version change"
json_get "$OUT" "[c['fix'] for c in d['changes'] if c['change'] == 'storage version v1 -> v2'][0]" |
  grep -q "Helm applies it with the upgrade" || fail "a templated CRD is applied by helm upgrade"
# templates/rbac.yaml: the manager ClusterRole (bound cluster-wide) gains create pods/exec and
# loses update and patch of customresourcedefinitions.
# exec-into-pods is an escalation path, high when held cluster-wide (escalation_paths.cc).
[ "$(json_get "$OUT" "[c['severity'] for c in d['changes'] if c['subject'] == '$sa' and c['change'] == 'gains exec into pods (exec-into-pods), in every namespace']")" = "['high']" ] ||
  fail "exec-into-pods path gained"
json_get "$OUT" "[c['details'] for c in d['changes'] if c['subject'] == '$sa' and c['change'].startswith('gains')]" |
  grep -q "create pods/exec in every namespace" || fail "pods/exec gained"
# Writing CRDs is the write-crds path (escalation_paths.cc): losing it is a change of its own, and
# each lost right names it.
[ "$(json_get "$OUT" "[c['details'] for c in d['changes'] if c['subject'] == '$sa' and c['change'] == 'loses 2 rights']")" = \
  "[['patch customresourcedefinitions.apiextensions.k8s.io (cluster-scoped); escalation: install or rewrite CRDs (write-crds)', 'update customresourcedefinitions.apiextensions.k8s.io (cluster-scoped); escalation: install or rewrite CRDs (write-crds)']]" ] ||
  fail "CRD writes lost"
[ "$(json_get "$OUT" "[c['severity'] for c in d['changes'] if c['subject'] == '$sa' and c['change'] == 'loses install or rewrite CRDs (write-crds)']")" = "['info']" ] ||
  fail "write-crds path lost"
# templates/webhooks.yaml: the pod webhook (no namespaceSelector: every namespace) now fails closed.
# Failing closed on other teams' pod creation is critical, as webhook-fail-closed rates it.
[ "$(change admission 'Mutating webhook mpod.modal.example.com')" = "['critical failurePolicy Ignore -> Fail']" ] ||
  fail "failurePolicy change"
[ "$(json_get "$OUT" "[c['severity'] for c in d['changes'] if c['subject'].startswith('Pod creation in other-team')]")" = "['high']" ] ||
  fail "another team's pod creation now has a fail-closed webhook"
# templates/priorityclass.yaml is new; values.yaml retags the image.
[ "$(change footprint 'PriorityClass')" = "['low added']" ] || fail "PriorityClass added"
[ "$(change images 'registry.example.com/modal/operator')" = \
  "['info registry.example.com/modal/operator:0.3.0 -> registry.example.com/modal/operator:0.4.0']" ] ||
  fail "image retagged"
[ "$(json_get "$OUT" "d['changes'][0]['severity']")" = critical ] || fail "worst first"
# The right gained is listed once: among the rights, naming its path; the path's change names
# the role that gives it (rbac_diff.cc).
[ "$(json_get "$OUT" "sum(str(c['details']).count('pods/exec in every namespace') for c in d['changes'])")" = 1 ] ||
  fail "create pods/exec listed once"
json_get "$OUT" "[c['details'] for c in d['changes'] if c['subject'] == '$sa' and c['change'].startswith('gains ') and 'right' in c['change']]" |
  grep -qF "create pods/exec in every namespace; escalation: exec into pods (exec-into-pods)" ||
  fail "pods/exec names its escalation path"
cp "$OUT" "$TMP/review.json"

# --format html: a well-formed self-contained page (html_wellformed.py), the changes in the
# JSON's order with their severity, and a fix wherever the JSON has one.
run "$FOOTPRINT" diff "$old" "$new" -n modal-system --format html -o "$TMP/review.html"
expect_status 0
"$PYTHON" "$ROOT/tests/cli/html_wellformed.py" "$TMP/review.html" || fail "malformed page"
"$PYTHON" - "$TMP/review.html" "$TMP/review.json" <<'PY' || fail "html changes as in the JSON"
import json, sys
import xml.etree.ElementTree as ET
page = ET.parse(sys.argv[1]).getroot()
changes = json.load(open(sys.argv[2]))["changes"]
articles = [a for a in page.iter("article") if "change" in a.get("class", "").split()]
def text(e):
    return "".join(e.itertext())
got = [(a.get("data-severity"), a.get("data-area"), text(a.find(".//span[@class='subject']")),
        text(a.find(".//span[@class='what']"))) for a in articles]
want = [(c["severity"], c["area"], c["subject"], c["change"]) for c in changes]
assert got == want, (got, want)
for a, c in zip(articles, changes):
    fix = [text(p) for p in a.iter("p") if text(p).startswith("Fix:")]
    assert fix == ([f"Fix: {c['fix']}"] if c["fix"] else []), (fix, c)
    badge = a.find(".//span[@class='badge sev-%s']" % c["severity"])
    assert badge is not None and text(badge) == c["severity"].upper(), c
PY

# Markup from a manifest is text on the page: a PriorityClass named to close the markup (with no
# '/', which kubectl refuses in a name).
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: t}\n' >"$TMP/before.yaml"
cat >"$TMP/after.yaml" <<'YAML'
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: 'pc"><img src=x onerror=alert(1)>'}
value: 1000
YAML
run "$FOOTPRINT" diff "$TMP/before.yaml" "$TMP/after.yaml" --format html -o "$TMP/hostile.html"
expect_status 0
"$PYTHON" "$ROOT/tests/cli/html_wellformed.py" "$TMP/hostile.html" || fail "malformed page"
grep -qF 'pc&quot;&gt;&lt;img src=x onerror=alert(1)&gt;' "$TMP/hostile.html" || fail "the name is shown, escaped"
! grep -qF '<img src=x' "$TMP/hostile.html" || fail "markup from the manifest reached the page"

# --fail-on: the critical change reaches it; a release against itself changes nothing.
run "$FOOTPRINT" diff "$old" "$new" -n modal-system --fail-on critical --format markdown
expect_status 1
expect_stdout "| critical | admission | Mutating webhook mpod.modal.example.com"
run "$FOOTPRINT" diff "$old" "$old" -n modal-system --fail-on info --format json
expect_status 0
[ "$(json_get "$OUT" "(len(d['changes']), len(d['findings']['new']), len(d['findings']['resolved']))")" = "(0, 0, 0)" ] ||
  fail "no change against itself"
# A side that cannot be read is exit 2, as in every command.
run "$FOOTPRINT" diff "$old" "$TMP/missing.yaml"
expect_status 2
run "$FOOTPRINT" diff "$old"
expect_status 2

need_corpus
# prometheus-operator's full-conversion bundle sets spec.conversion.strategy: Webhook on one CRD
# only, alertmanagerconfigs (line 13 of the file); every other CRD keeps None.
run "$FOOTPRINT" diff "$SHARED/corpus/prometheus-operator.yaml" "$SHARED/corpus/prometheus-operator-full-conversion.yaml" --format json
expect_status 0
[ "$(json_get "$OUT" "sorted(c['subject'] for c in d['changes'] if c['change'].startswith('conversion'))")" = \
  "['CustomResourceDefinition alertmanagerconfigs.monitoring.coreos.com']" ] || fail "one conversion change"
# kuberay with webhooks adds one ValidatingWebhookConfiguration whose webhooks (vraycluster,
# vrayjob, vrayservice) match only ray.io, the install's own group: failing closed there is low.
run "$FOOTPRINT" diff "$SHARED/corpus/kuberay.yaml" "$SHARED/corpus/kuberay-with-webhooks.yaml" -n ray-system --format json
expect_status 0
[ "$(json_get "$OUT" "sorted(c['severity'] + ' ' + c['subject'].split(' ')[2] + ' ' + c['change'] for c in d['changes'] if c['area'] == 'admission')")" = \
  "['low vraycluster.kb.io added', 'low vrayjob.kb.io added', 'low vrayservice.kb.io added']" ] || fail "kuberay webhooks added"
