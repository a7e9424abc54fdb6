#!/usr/bin/env bash
# A subdirectory that cannot be read is an error naming it (exit 2), as an unreadable file is,
# never a silent skip. Root reads everything, so as root the test runs footprint as nobody.
source "$(dirname "$0")/common.inc"

dir=$TMP/manifests
mkdir -p "$dir/locked"
cp "$ROOT/examples/inference-operator.yaml" "$dir/a.yaml"
cp "$ROOT/examples/inference-operator.yaml" "$dir/locked/b.yaml"
chmod 000 "$dir/locked"
as_user=()
if [ "$(id -u)" = 0 ]; then
  command -v setpriv >/dev/null || skip "setpriv is needed to drop root"
  as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
  chmod 755 "$TMP"
  chmod -R a+rX "$dir/a.yaml"
  "${as_user[@]}" test -x "$FOOTPRINT" || 
    skip_legitimately "nobody cannot reach $FOOTPRINT (a checkout under a private home folder)"
fi
run "${as_user[@]}" "$FOOTPRINT" audit "$dir"
expect_status 2
expect_stderr "$dir/locked: cannot read directory: Permission denied"
chmod 755 "$dir/locked"
run "${as_user[@]}" "$FOOTPRINT" audit "$dir"
expect_status 0
echo "ok"
