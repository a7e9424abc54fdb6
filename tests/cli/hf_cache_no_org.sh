#!/usr/bin/env bash
# Model ids without an organisation (gpt2, bert-base-uncased: models from before organisations)
# are repository ids to huggingface_hub (validate_repo_id: an optional "org/", then a name), and
# the cache lists them as models--gpt2 (issue 40, trial item N-W8). What validate_repo_id refuses
# stays refused: "--", "..", a part that starts or ends with '-' or '.', and a second '/'.
source "$(dirname "$0")/common.inc"
commit=c1899de289a04d12100db370d81485cdf75e47ca
repo=$TMP/hub/models--gpt2
mkdir -p "$repo/blobs" "$repo/snapshots/$commit" "$repo/refs"
printf '{}' >"$repo/blobs/a1b2"
ln -s ../../blobs/a1b2 "$repo/snapshots/$commit/config.json"
printf '%s' "$commit" >"$repo/refs/main"
unset HF_HUB_CACHE HUGGINGFACE_HUB_CACHE HF_HUB_OFFLINE TRANSFORMERS_OFFLINE HF_HOME

run "$FOOTPRINT" hf-cache check --cache "$TMP/hub"
expect_status 0
expect_stdout "gpt2: resolves offline: refs/main -> $commit"
run "$FOOTPRINT" hf-cache check --cache "$TMP/hub" gpt2
expect_status 0
expect_stdout "gpt2: resolves offline: refs/main -> $commit"
run "$FOOTPRINT" hf-cache check --cache "$TMP/hub" gpt2@$commit
expect_status 0

for bad in a--b -gpt2 gpt2. org/a/b /gpt2 a..b; do
  run "$FOOTPRINT" hf-cache check --cache "$TMP/hub" -- "$bad"
  expect_status 2
  expect_stderr "\"$bad\" is not a model id"
done
