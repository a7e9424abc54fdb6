#!/usr/bin/env bash
# helm failing without a word (a wrapper, a plugin, a crash) is reported with its exit status and
# the command that was run, never as "failed:" and nothing.
source "$(dirname "$0")/common.inc"
chart=$ROOT/tests/charts/modal-operator
printf '#!/bin/sh\nexit 3\n' >"$TMP/helm"
chmod +x "$TMP/helm"

FOOTPRINT_HELM=$TMP/helm run "$FOOTPRINT" audit "$chart"
expect_status 2
expect_stderr "failed with exit status 3 and printed no message; the command was: $TMP/helm template"
