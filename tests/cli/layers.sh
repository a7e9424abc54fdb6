#!/usr/bin/env bash
# The layers point one way (ARCHITECTURE.md): a file includes only from its own layer and the
# layers before it, util -> load -> model -> analysis -> report -> cli. The build links each
# layer's library against the ones below only; this catches an upward include before it
# becomes an upward call.
source "$(dirname "$0")/common.inc"
layers=(util load model analysis report cli)
rank() {
  local i
  for i in "${!layers[@]}"; do
    [ "${layers[$i]}" = "$1" ] && { echo "$i"; return; }
  done
  echo -1
}
bad=0 files=0
while IFS= read -r file; do
  files=$((files + 1))
  own=${file#src/}
  own=${own%%/*}
  own_rank=$(rank "$own")
  [ "$own_rank" -ge 0 ] || { echo "FAIL: $file is in no layer"; bad=1; continue; }
  while IFS= read -r included; do
    layer=${included%%/*}
    layer_rank=$(rank "$layer")
    [ "$layer_rank" -ge 0 ] || continue  # a generated header such as build_info.h
    if [ "$layer_rank" -gt "$own_rank" ]; then
      echo "FAIL: $file ($own) includes $included ($layer)"
      bad=1
    fi
  done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$ROOT/$file")
done < <(cd "$ROOT" && git ls-files 'src/*.cc' 'src/*.h' 'src/*.inc')
[ "$files" -gt 100 ] || fail "only $files source files found under src/"
[ $bad = 0 ] || fail "an include points up the layers"
echo "layers: $files files include only from their own layer or those before it"
