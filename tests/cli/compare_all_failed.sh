#!/usr/bin/env bash
# compare when no mode renders (the new-user trial, WR13): helm missing fails every mode with the
# same words, so the Render row does not differ; the decision table has nothing to answer but
# "Does it render?"; and stderr says why the command failed (exit 2), not only the report.
source "$(dirname "$0")/common.inc"
cd "$TMP"
chart=$ROOT/tests/charts/modal-operator
FOOTPRINT_HELM=$TMP/no-helm run "$FOOTPRINT" compare "$chart" --mode global \
  --mode restricted,namespaceRestriction.enabled=true,upgradeCRD=false --format json
expect_status 2
expect_stderr "no mode could be rendered"
[ "$(json_get "$OUT" "[(r['group'], r['differs']) for r in d['rows']]")" = "[('Render', False)]" ] ||
  fail "identical failures do not differ: $(json_get "$OUT" "d['rows']")"
[ "$(json_get "$OUT" "[r['id'] for r in d['decision']]")" = "['renders']" ] ||
  fail "no empty decision rows: $(json_get "$OUT" "[r['id'] for r in d['decision']]")"

FOOTPRINT_HELM=$TMP/no-helm run "$FOOTPRINT" compare "$chart" --mode global \
  --mode restricted,namespaceRestriction.enabled=true,upgradeCRD=false
expect_status 2
expect_no_stdout "Who can install it?"
expect_stdout "Does it render?"
