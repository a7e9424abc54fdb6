#!/usr/bin/env bash
# Usage mistakes get plain words: which option, what it was given and what it takes, never the
# argument parser's raw text; and standard input, which can be read only once, is refused a second
# time with that reason.
source "$(dirname "$0")/common.inc"
cm=$TMP/cm.yaml
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: x}\n' >"$cm"

# A single-valued option given twice.
run "$FOOTPRINT" audit "$cm" --format json --format text
expect_status 2
expect_stderr "--format was given 2 times; it takes one value"
# A positional missing: named by what it holds, not "args is required".
run "$FOOTPRINT" can-i --as bob
expect_status 2
expect_stderr "missing arguments: VERB RESOURCE"
if grep -q "args is required" "$ERR"; then fail "raw parser message: $(cat "$ERR")"; fi
# diff takes two sides.
run "$FOOTPRINT" diff "$cm"
expect_status 2
expect_stderr "sides needs 2 values (OLD NEW), and 1 was given"
# --jobs: a number of threads from 1; 0 and -1 are refused, not read as "one per core".
for n in 0 -1; do
  run "$FOOTPRINT" audit "$cm" --jobs "$n"
  expect_status 2
  expect_stderr "\"$n\" is not a number of threads"
done
# An option missing its value.
run "$FOOTPRINT" audit "$cm" --color
expect_status 2
expect_stderr "--color needs a value"

# `-n=default` as kubectl reads it (pflag: the value after '=').
run "$FOOTPRINT" audit "$cm" -n=default --format json
expect_status 0
# --config and --no-config contradict each other.
printf 'failOn: high\n' >"$TMP/config.yaml"
run "$FOOTPRINT" audit "$cm" --config "$TMP/config.yaml" --no-config
expect_status 2
expect_stderr "contradict each other"

# Standard input is read once; a second use says so.
run "$FOOTPRINT" diff - - <"$cm"
expect_status 2
expect_stderr "standard input can be read only once"
run "$FOOTPRINT" audit - --baseline - <"$cm"
expect_status 2
expect_stderr "standard input can be read only once"
# Read once, it works where a file does.
"$FOOTPRINT" audit "$cm" --format json -o "$TMP/base.json"
run "$FOOTPRINT" audit "$cm" --baseline - <"$TMP/base.json"
expect_status 0

# -o with a name of another format, and no --format: a warning names the option.
run "$FOOTPRINT" audit "$cm" -o "$TMP/report.json"
expect_status 0
expect_stderr "warning: $TMP/report.json is written in the text format"
expect_stderr "add --format json"
run "$FOOTPRINT" audit "$cm" --format text -o "$TMP/report2.json"
expect_status 0
[ ! -s "$ERR" ] || fail "an explicit --format needs no warning: $(cat "$ERR")"

# Help names what each option takes.
run "$FOOTPRINT" images --help
expect_status 0
expect_stdout "-f,--values FILE"
expect_stdout "--set KEY=VALUE"
expect_stdout "-j,--jobs N"
expect_stdout "--parallel N=4"
echo "ok"
