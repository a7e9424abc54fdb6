#!/usr/bin/env bash
# footprint hf-cache: the cache root as huggingface_hub resolves it, the seed's pinned-by-hash
# trap explained and fixed, and exit codes (0 resolves, 1 does not, 2 usage).
source "$(dirname "$0")/common.inc"
commit=c1899de289a04d12100db370d81485cdf75e47ca
repo=$TMP/hf/hub/models--Qwen--Qwen3-0.6B
mkdir -p "$repo/blobs" "$repo/snapshots/$commit"
printf '{}' >"$repo/blobs/a1b2"
ln -s ../../blobs/a1b2 "$repo/snapshots/$commit/config.json"
unset HF_HUB_CACHE HUGGINGFACE_HUB_CACHE HF_HUB_OFFLINE TRANSFORMERS_OFFLINE

HF_HOME=$TMP/hf run "$FOOTPRINT" hf-cache check Qwen/Qwen3-0.6B
expect_status 1
expect_stdout "Hugging Face cache: $TMP/hf/hub (from HF_HOME)"
expect_stdout "Offline mode: off"
expect_stdout "downloaded with revision=$commit, so refs/main was never"
# HF_HUB_CACHE wins over HF_HOME; the legacy name comes between them.
HF_HOME=/nowhere HUGGINGFACE_HUB_CACHE=$TMP/hf/hub run "$FOOTPRINT" hf-cache check --format json
expect_status 1
[ "$(json_get "$OUT" "d['cacheFrom']")" = HUGGINGFACE_HUB_CACHE ] || fail "legacy variable"
HF_HUB_CACHE=$TMP/hf/hub HUGGINGFACE_HUB_CACHE=/nowhere HF_HUB_OFFLINE=true \
  run "$FOOTPRINT" hf-cache check Qwen/Qwen3-0.6B@$commit --format json
expect_status 0  # by hash huggingface_hub reads snapshots/<hash> without refs: it loads
[ "$(json_get "$OUT" "d['cacheFrom'], d['offline'], d['models'][0]['commit']")" = \
  "HF_HUB_CACHE True $commit" ] || fail "HF_HUB_CACHE and offline: $(cat "$OUT")"

# By commit no ref is read, and none names this commit yet: the report says so, not refs/main.
run "$FOOTPRINT" hf-cache check --cache "$TMP/hf/hub" Qwen/Qwen3-0.6B@$commit
expect_status 0
expect_stdout "resolves offline: snapshots/$commit (by commit; no ref names it)"

run "$FOOTPRINT" hf-cache fix --cache "$TMP/hf/hub" Qwen/Qwen3-0.6B
expect_status 0
expect_stdout "fixed: wrote refs/main"
[ "$(cat "$repo/refs/main")" = "$commit" ] && [ "$(wc -c <"$repo/refs/main")" = 40 ] ||
  fail "refs/main must be the 40-hex commit with no newline"
run "$FOOTPRINT" hf-cache check --cache "$TMP/hf/hub"
expect_status 0
expect_stdout "Qwen/Qwen3-0.6B: resolves offline: refs/main -> $commit"
run "$FOOTPRINT" hf-cache check --cache "$TMP/hf/hub" Qwen/Qwen3-0.6B@$commit
expect_status 0
expect_stdout "Qwen/Qwen3-0.6B: resolves offline: refs/main -> $commit"
# --revision names another cached snapshot: refs/main loads the wrong one by name (exit 1), and
# fix points refs/main at the revision.
other=0123456789abcdef0123456789abcdef01234567
mkdir -p "$repo/snapshots/$other"
ln -s ../../blobs/a1b2 "$repo/snapshots/$other/config.json"
run "$FOOTPRINT" hf-cache check --cache "$TMP/hf/hub" --revision $other Qwen/Qwen3-0.6B
expect_status 1
# (the text report wraps at 80 columns, so the sentence is matched up to its break)
expect_stdout "refs/main names $commit, not the --revision"
expect_stdout "loads a different snapshot"
# The hint's command is the one that moves refs/main to the revision (run just below), in the
# cache given.
tr -s ' \n' ' ' <"$OUT" | grep -qF "footprint hf-cache fix --cache $TMP/hf/hub --revision $other Qwen/Qwen3-0.6B" ||
  fail "the fix hint must name --revision $other: $(cat "$OUT")"
run "$FOOTPRINT" hf-cache fix --cache "$TMP/hf/hub" --revision $other Qwen/Qwen3-0.6B
expect_status 0
[ "$(cat "$repo/refs/main")" = "$other" ] || fail "refs/main now names the revision"
printf '%s' "$commit" >"$repo/refs/main"
rm -rf "$repo/snapshots/$other"

run "$FOOTPRINT" hf-cache check --cache "$TMP/none"
expect_status 2
expect_stderr "no such cache directory"
# huggingface_hub's validate_repo_id refuses a second slash (a bare name is an id: gpt2).
run "$FOOTPRINT" hf-cache check --cache "$TMP/hf/hub" org/not/a-model
expect_status 2
run "$FOOTPRINT" hf-cache repair
expect_status 2
run "$FOOTPRINT" hf-cache fix --cache "$TMP/hf/hub" --revision main
expect_status 2
expect_stderr "expected a 40-hex commit hash"

# refs/main as a symlink: fix writes the file it names inside the cache and keeps the link (a
# rename over the link would replace it); a link that leads out of the cache is left alone.
rm -f "$repo/refs/main"
ln -s main.real "$repo/refs/main"
run "$FOOTPRINT" hf-cache fix --cache "$TMP/hf/hub" Qwen/Qwen3-0.6B
expect_status 0
expect_stdout "fixed: wrote refs/main"
[ -L "$repo/refs/main" ] && [ "$(readlink "$repo/refs/main")" = main.real ] ||
  fail "refs/main is no longer the symlink to main.real"
[ "$(cat "$repo/refs/main.real")" = "$commit" ] || fail "the symlink's target holds the commit"
rm -f "$repo/refs/main" "$repo/refs/main.real"
ln -s "$TMP/outside" "$repo/refs/main"
run "$FOOTPRINT" hf-cache fix --cache "$TMP/hf/hub" Qwen/Qwen3-0.6B
expect_status 1
expect_stdout "fix did not write refs/main: it leads out of the cache"
[ ! -e "$TMP/outside" ] && [ -L "$repo/refs/main" ] || fail "fix wrote outside the cache"
