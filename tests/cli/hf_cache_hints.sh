#!/usr/bin/env bash
# hf-cache's advice fits what was asked (issue 40, trial items C8, N-C2, N-C3, N-C18 and
# Confusing 5): printed commands keep the --cache given and the revision asked for; a repair fix
# made is shown beside what it could not repair; a snapshot with a missing blob is never offered
# as a way out; an unknown action is named; a --cache one level off gets a hint.
source "$(dirname "$0")/common.inc"
unset HF_HUB_CACHE HUGGINGFACE_HUB_CACHE HF_HUB_OFFLINE TRANSFORMERS_OFFLINE HF_HOME
commit=2222222222222222222222222222222222222222
cache=$TMP/home/hub
repo=$cache/models--org--m
mkdir -p "$repo/blobs" "$repo/snapshots/$commit"
printf '{}' >"$repo/blobs/a1b2"
ln -s ../../blobs/a1b2 "$repo/snapshots/$commit/config.json"

# One snapshot and no refs/main: the fix command names the cache it was given.
run "$FOOTPRINT" hf-cache check --cache "$cache" org/m
expect_status 1
tr -s ' \n' ' ' <"$OUT" | grep -qF "footprint hf-cache fix --cache $cache --revision $commit org/m" ||
  fail "the fix command lacks --cache: $(cat "$OUT")"
# A branch asked for by name is loaded with --revision, which is what cannot resolve.
run "$FOOTPRINT" hf-cache check --cache "$cache" org/m@zzz
expect_status 1
tr -s ' \n' ' ' <"$OUT" | grep -qF '`--model org/m --revision zzz` cannot resolve offline' ||
  fail "the revision is dropped: $(cat "$OUT")"
tr -s ' \n' ' ' <"$OUT" | grep -qF "fix --cache $cache --revision $commit org/m@zzz\` writes it" ||
  fail "the fix command does not write refs/zzz: $(cat "$OUT")"

# A missing blob: fix still writes refs/main, says so, and does not offer the broken snapshot.
ln -s ../../blobs/gone "$repo/snapshots/$commit/model.safetensors"
run "$FOOTPRINT" hf-cache check --cache "$cache" org/m
expect_status 1
expect_no_stdout "Or load it without refs"
run "$FOOTPRINT" hf-cache fix --cache "$cache" org/m
expect_status 1
expect_stdout "fixed: wrote refs/main"
tr -s ' \n' ' ' <"$OUT" | grep -qF "is a dangling symlink" || fail "the missing blob is not said"
expect_no_stdout "Or load it without refs"
[ "$(cat "$repo/refs/main")" = "$commit" ] || fail "refs/main was not written"

run "$FOOTPRINT" hf-cache bogus
expect_status 2
expect_stderr '"bogus" is not an hf-cache command'

# HF_HOME instead of its hub/, and one model's folder instead of the cache.
run "$FOOTPRINT" hf-cache check --cache "$TMP/home"
expect_status 0
expect_stderr "pass --cache $cache"
run "$FOOTPRINT" hf-cache check --cache "$repo"
expect_status 0
expect_stderr "pass the folder that holds it, --cache $cache"
