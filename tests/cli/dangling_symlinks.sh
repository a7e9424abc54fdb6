#!/usr/bin/env bash
# A .yaml symlink under an input folder whose target is gone is an error naming the link (exit 2):
# its objects would otherwise be missing from the review without a word, as an unreadable file's.
source "$(dirname "$0")/common.inc"
cd "$TMP"
mkdir manifests
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: ops}\n' >manifests/cm.yaml
ln -s ../gone/deploy.yaml manifests/deploy.yaml

run "$FOOTPRINT" audit manifests
expect_status 2
expect_stderr "manifests/deploy.yaml: a symlink to ../gone/deploy.yaml, which does not exist"
# A link to a file that is there is read as the file.
mkdir gone
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: d, namespace: ops}\n' >gone/deploy.yaml
run "$FOOTPRINT" audit manifests --format json
expect_status 0
[ "$(json_get "$OUT" "d['inventory']['kinds']['ConfigMap']")" = 2 ] || fail "both ConfigMaps are read"

# A link that leads back to itself (ELOOP) is named as a loop, given directly or in a folder.
mkdir loop
ln -s self.yaml loop/self.yaml
run "$FOOTPRINT" audit loop/self.yaml
expect_status 2
expect_stderr "loop/self.yaml: a symlink to self.yaml, which leads back to itself"
run "$FOOTPRINT" audit loop
expect_status 2
expect_stderr "loop/self.yaml: a symlink to self.yaml, which leads back to itself"
