#!/usr/bin/env bash
# Registry options are checked before anything is asked: --ca-file must hold PEM certificates
# (exit 2, not a "cannot reach" per image), and --pin --format list fails, naming the images it
# could not pin, rather than print them unpinned with exit 0. No network is needed: the registry
# is a closed local port.
source "$(dirname "$0")/common.inc"

printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: "127.0.0.1:9/team/app:1.0"}]\n' >"$TMP/pod.yaml"

printf 'not a certificate\n' >"$TMP/ca.txt"
for cmd in images airgap; do
  run "$FOOTPRINT" $cmd "$TMP/pod.yaml" --sizes --ca-file "$TMP/ca.txt"
  expect_status 2
  expect_stderr "footprint: error: --ca-file $TMP/ca.txt: no PEM certificate (-----BEGIN CERTIFICATE-----) in it"
  ! grep -q "cannot reach" "$ERR" || fail "no registry is asked with an unusable --ca-file"
done
run "$FOOTPRINT" images "$TMP/pod.yaml" --pin --ca-file "$TMP/nope.pem"
expect_status 2
expect_stderr "--ca-file $TMP/nope.pem: cannot read"

run "$FOOTPRINT" images "$TMP/pod.yaml" --pin --format list --insecure-registry 127.0.0.1:9 \
  --registry-timeout 5 --registry-retries 0
expect_status 2
expect_stdout "127.0.0.1:9/team/app:1.0"
expect_stderr "--pin: 1 image could not be resolved to a digest and is listed unpinned: 127.0.0.1:9/team/app:1.0"
# --registry-timeout 0 is refused in words (curl would read 0 as no limit at all).
run "$FOOTPRINT" images "$TMP/pod.yaml" --pin --registry-timeout 0
expect_status 2
expect_stderr '"0" is not a number of seconds above 0'
# Options that only shape registry requests do nothing without --sizes or --pin: a warning says
# so, and the listing is unchanged (exit 0).
run "$FOOTPRINT" images "$TMP/pod.yaml" --insecure-registry 127.0.0.1:9
expect_status 0
expect_stderr "warning: --insecure-registry does nothing without --sizes or --pin"
# diff has --sizes but no --pin (it prints no references to pin; `diff --pin` is refused): the
# warning names only the option diff has.
run "$FOOTPRINT" diff "$TMP/pod.yaml" "$TMP/pod.yaml" --pin
expect_status 2
run "$FOOTPRINT" diff "$TMP/pod.yaml" "$TMP/pod.yaml" --insecure-registry 127.0.0.1:9
expect_status 0
expect_stderr "warning: --insecure-registry does nothing without --sizes, which is what asks registries"
! grep -q -- "--pin" "$ERR" || fail "diff's warning names --pin, which diff does not have"
echo "ok"
