#!/usr/bin/env bash
# A YAML syntax error says in plain words what is wrong and how to fix it, at `file:line:col`
# of the place to edit, with the parser's own words kept as the detail; exit 2 as for any input
# that cannot be read (README, "Exit codes"). Positions are counted by hand in each file.
source "$(dirname "$0")/common.inc"

# syntax_error FILE LINE:COL WORDS DETAIL: audit refuses FILE with WORDS at that place, and
# libyaml's DETAIL after them.
syntax_error() {
  run "$FOOTPRINT" audit "$1"
  expect_status 2
  expect_stderr "footprint: error: $1:$2: $3"
  expect_stderr "(YAML parser: "
  expect_stderr "$4"
}

head='apiVersion: v1\nkind: ConfigMap\nmetadata:\n'

printf "$head"'\tname: tab\n' >"$TMP/tab.yaml"
syntax_error "$TMP/tab.yaml" 4:1 "a tab character in the indentation: YAML indents with spaces only" \
  "found character that cannot start any token"

# The quote opens at column 9 of line 4; the parser only notices at the end of the file.
printf "$head"'  name: "web\ndata:\n  a: b\n' >"$TMP/quote.yaml"
syntax_error "$TMP/quote.yaml" 4:9 'a double-quoted string opens here and is never closed: add the closing "' \
  "found unexpected end of stream while scanning a quoted scalar"

# `  name: key: value`: the second ':' is column 12.
printf "$head"'  name: key: value\n' >"$TMP/colons.yaml"
syntax_error "$TMP/colons.yaml" 4:12 "a second ': ' on the line: a plain value cannot hold ': '; quote the value" \
  "mapping values are not allowed in this context"

printf "$head"'  name: x\n- item\n' >"$TMP/dash.yaml"
syntax_error "$TMP/dash.yaml" 5:1 "a '- ' list item among the keys of the mapping that starts at line 1" \
  "did not find expected key while parsing a block mapping"

printf 'apiVersion: v1\nkind ConfigMap\nmetadata: {name: x}\n' >"$TMP/colon.yaml"
syntax_error "$TMP/colon.yaml" 2:1 "a line with no ':' where 'key: value' was expected" \
  "could not find expected ':'"

# Helm templates in a plain file: where the template is valid YAML by accident (`{{ x }}` is a
# mapping inside a mapping) and where it breaks the YAML around it.
printf "$head"'  name: {{ .Release.Name }}\n' >"$TMP/template.yaml"
run "$FOOTPRINT" audit "$TMP/template.yaml"
expect_status 2
expect_stderr "$TMP/template.yaml:4:9: an unrendered Helm template ({{ ... }}): this is a chart's template, not a manifest; render it with \`helm template\`, or give the chart directory"
printf "$head"'  name: x\n  labels:\n    {{- include "app.labels" . | nindent 4 }}\n' >"$TMP/include.yaml"
run "$FOOTPRINT" audit "$TMP/include.yaml"
expect_status 2
expect_stderr "$TMP/include.yaml:6:5: an unrendered Helm template"
printf 'apiVersion: v1\nkind: ConfigMap\n{{- if .Values.enabled }}\nmetadata:\n  name: x\n{{- end }}\n' >"$TMP/if.yaml"
syntax_error "$TMP/if.yaml" 3:1 "an unrendered Helm template" "could not find expected ':'"

# A value that starts with '*' is an alias to YAML.
printf 'apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: x}\nspec:\n  rules:\n  - host: *.example.com\n' >"$TMP/wildcard.yaml"
syntax_error "$TMP/wildcard.yaml" 6:11 "a value starting with '*' is read as a reference to an anchor: quote the value" \
  "while scanning an alias"

# An unclosed '[' (line 4, column 9) is found where the next line starts.
printf "$head"'  name: [unclosed\n' >"$TMP/flow.yaml"
syntax_error "$TMP/flow.yaml" 5:1 "the '[' at line 4, column 9 is never closed with ']'" \
  "did not find expected ',' or ']'"

# The other documents of the file are still read, and the reports carry the same words.
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: good}\n---\n'"$head"'\tname: tab\n' >"$TMP/two.yaml"
run "$FOOTPRINT" audit "$TMP/two.yaml" --format json -o "$TMP/report.json"
expect_status 2
[ "$(json_get "$TMP/report.json" "d['invalidDocuments'][0]['line']")" = 8 ] || fail "line 8 in JSON"
json_get "$TMP/report.json" "d['invalidDocuments'][0]['message']" | grep -qF "a tab character in the indentation" ||
  fail "the JSON report carries the plain words: $(cat "$TMP/report.json")"
run "$FOOTPRINT" images "$TMP/two.yaml"
expect_status 2
expect_stderr "$TMP/two.yaml:8:1: a tab character in the indentation"
echo ok
