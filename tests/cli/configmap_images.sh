#!/usr/bin/env bash
# Images named in a ConfigMap's data go on the air-gap list, each "named in ConfigMap NS/NAME key
# K". The fixture, counted by hand: 7 references with a registry and a tag or digest, 1 ambiguous
# one (a tag without a registry) listed only with --include-possible.
source "$(dirname "$0")/common.inc"
fixture=$DATA/airgap/configmap-images.yaml

run "$FOOTPRINT" airgap --no-config "$fixture" -n storage
expect_status 0
expect_stdout "7 items to bring in, 7 of them needed."
expect_stdout "named in ConfigMap storage/csi-images key CSI_PROVISIONER_IMAGE"
expect_stdout "named in ConfigMap storage/csi-images key sidecars.yaml"
expect_no_stdout "example/helper"

run "$FOOTPRINT" airgap --no-config "$fixture" -n storage --include-possible
expect_status 0
expect_stdout "8 items to bring in, 8 of them needed."
expect_stdout "named in ConfigMap storage/csi-images key helper"
expect_no_stdout "storage.example.com/api"
expect_no_stdout "config.storage.example.com"
