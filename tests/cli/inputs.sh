#!/usr/bin/env bash
# Inputs: files, directories (recursive, sorted, other files noted), stdin, JSON, Lists.
source "$(dirname "$0")/common.inc"

mkdir -p "$TMP/manifests/sub" "$TMP/manifests/.hidden"
printf 'apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: a}\n' >"$TMP/manifests/b.yaml"
printf '{"apiVersion": "v1", "kind": "List", "items": [{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c1"}}, {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c2"}}]}' >"$TMP/manifests/sub/list.json"
printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: team}\n' >"$TMP/manifests/a.yml"
printf 'notes\n' >"$TMP/manifests/README.md"
printf 'ignored: true\n' >"$TMP/manifests/.hidden/x.yaml"

run "$FOOTPRINT" audit "$TMP/manifests" --format json
expect_status 0
[ "$(json_get "$OUT" "d['inventory']['objects']")" = 4 ] || fail "expected 4 objects"
[ "$(json_get "$OUT" "d['inventory']['kinds']['ConfigMap']")" = 2 ] || fail "List items unwrapped"
[ "$(json_get "$OUT" "[i['file'].rsplit('/', 1)[1] for i in d['inputs']]")" = "['a.yml', 'b.yaml', 'list.json']" ] ||
  fail "files in sorted order"
json_get "$OUT" "d['notes']" | grep -q "README.md" || fail "skipped file noted"
json_get "$OUT" "d['notes']" | grep -q ".hidden" || fail "hidden directory noted"

# stdin, as in `kubectl kustomize config/default | footprint audit - --format json`
run bash -c "cat '$TMP/manifests/b.yaml' | '$FOOTPRINT' audit - --format json"
expect_status 0
[ "$(json_get "$OUT" "d['inputs'][0]['file']")" = "<stdin>" ] || fail "stdin is named <stdin>"
[ "$(json_get "$OUT" "d['inventory']['namespaces']['default']['objects']")" = 1 ] ||
  fail "namespaced objects default to the 'default' namespace"

# -n sets the release namespace, as helm template -n does.
run bash -c "cat '$TMP/manifests/b.yaml' | '$FOOTPRINT' audit - -n dynamo-system --format json"
expect_status 0
[ "$(json_get "$OUT" "list(d['inventory']['namespaces'])")" = "['dynamo-system']" ] ||
  fail "-n sets the namespace of unnamespaced objects"

# Several inputs at once, stdin among them.
run bash -c "cat '$TMP/manifests/a.yml' | '$FOOTPRINT' audit '$TMP/manifests/b.yaml' - --format json"
expect_status 0
[ "$(json_get "$OUT" "d['inventory']['objects']")" = 2 ] || fail "file plus stdin"
