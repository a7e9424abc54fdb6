#!/usr/bin/env bash
# --color auto|always|never on every command with text output; help names the choices plainly;
# auto colours only a terminal, and never for NO_COLOR or TERM=dumb.
source "$(dirname "$0")/common.inc"

in=$ROOT/examples/inference-operator.yaml
esc=$'\e['
for cmd in "audit $in" "images $in" "airgap $in" "compare a=$in b=$in" "checks" \
  "can-i get pods --as x $in" "who-can get pods $in" "admission $in"; do
  # shellcheck disable=SC2086
  run "$FOOTPRINT" $cmd --color never
  expect_status_in 0 1
  ! grep -qF "$esc" "$OUT" || fail "$cmd --color never printed escape sequences"
  # shellcheck disable=SC2086
  run "$FOOTPRINT" $cmd --help
  expect_status 0
  expect_stdout "--color"
  expect_no_stdout "->"
done
run "$FOOTPRINT" hf-cache check --cache "$TMP" --color never
expect_status 0
for cmd in "audit $in" "can-i get pods --as x $in" "checks"; do
  # shellcheck disable=SC2086
  run "$FOOTPRINT" $cmd --color always
  expect_status_in 0 1
  grep -qF "$esc" "$OUT" || fail "$cmd --color always printed no colour"
done
# The README promises --color on every command: those that write only manifests or scripts
# accept it too.
for cmd in "fix rbac" "fix crds" "fix webhooks" "images relocate" snapshot-command; do
  # shellcheck disable=SC2086
  run "$FOOTPRINT" $cmd --help
  expect_status 0
  expect_stdout "--color"
done
run "$FOOTPRINT" snapshot-command --color never
expect_status 0
run "$FOOTPRINT" audit "$in" --color sometimes
expect_status 2

# auto on a terminal (script(1) gives one): coloured, except with TERM=dumb or NO_COLOR.
if ! command -v script >/dev/null; then
  skip "script(1) is needed for a terminal"
fi
on_tty() { env "$@" script -qec "$FOOTPRINT audit $in" /dev/null >"$TMP/tty" 2>&1 || true; }
on_tty TERM=xterm
grep -qF "$esc" "$TMP/tty" || fail "auto colours a terminal"
on_tty TERM=dumb
! grep -qF "$esc" "$TMP/tty" || fail "TERM=dumb gets no colour"
on_tty TERM=xterm NO_COLOR=1
! grep -qF "$esc" "$TMP/tty" || fail "NO_COLOR gets no colour"
echo "ok"
