#!/usr/bin/env bash
# `footprint help COMMAND` is `footprint COMMAND --help`, as in git and kubectl; an unknown name
# gets the same "did you mean" as an unknown command.
source "$(dirname "$0")/common.inc"

for cmd in audit compare "images relocate" "fix crds" hf-cache; do
  # shellcheck disable=SC2086
  run "$FOOTPRINT" $cmd --help
  expect_status 0
  cp "$OUT" "$TMP/direct"
  # shellcheck disable=SC2086
  run "$FOOTPRINT" help $cmd
  expect_status 0
  cmp -s "$OUT" "$TMP/direct" || fail "help $cmd differs from $cmd --help"
done
run "$FOOTPRINT" help audti
expect_status 2
expect_stderr "unknown command 'audti', did you mean 'audit'?"
# Alone, help is still the list of commands.
run "$FOOTPRINT" help
expect_status 0
expect_stdout "usage: footprint COMMAND"
