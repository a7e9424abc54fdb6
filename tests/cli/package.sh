#!/usr/bin/env bash
# The Debian package CPack makes of this build (what scripts/package does): its name and control
# fields, Depends checked against the libraries the binary really loads, its files, the binary
# run from a scratch root (dpkg -x), the man page rendered by man, and `kubectl footprint` through
# the real kubectl's plugin lookup.
source "$(dirname "$0")/common.inc"
: "${FOOTPRINT_BUILD_DIR:?FOOTPRINT_BUILD_DIR must name the build directory}"
for tool in cpack dpkg-deb dpkg-shlibdeps man readelf; do
  command -v "$tool" >/dev/null || fail "$tool not found: run scripts/install-deps"
done
version=$(sed -n 's/^project(footprint VERSION \([0-9.]*\).*/\1/p' "$ROOT/CMakeLists.txt")
arch=$(dpkg --print-architecture)

# CPack stages, strips and packs in -B; the build directory is only read.
(cd "$TMP" && cpack -G DEB --config "$FOOTPRINT_BUILD_DIR/CPackConfig.cmake" -B "$TMP/pkg" \
  >"$TMP/cpack.log" 2>&1) || fail "cpack failed: $(tail -20 "$TMP/cpack.log")"
deb=$TMP/pkg/footprint_${version}_${arch}.deb
[ -f "$deb" ] || fail "expected $deb; cpack made: $(ls "$TMP/pkg")"

dpkg-deb --field "$deb" Package Version Architecture Section >"$TMP/fields"
printf 'Package: footprint\nVersion: %s\nArchitecture: %s\nSection: utils\n' "$version" "$arch" |
  diff -u - "$TMP/fields" || fail "control fields"

# Depends, from dpkg-shlibdeps, must name the package of every library the binary is linked
# against (readelf's NEEDED entries, resolved by the dynamic loader's cache, owned per dpkg -S).
depends=$(dpkg-deb --field "$deb" Depends)
[ -n "$depends" ] || fail "Depends is empty"
depends_names=$(sed 's/ ([^)]*)//g; s/, /\n/g; s/ | /\n/g' <<<"$depends")
mapfile -t needed < <(readelf -d "$FOOTPRINT_BUILD_DIR/footprint" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
[ "${#needed[@]}" -gt 3 ] || fail "readelf found too few libraries: ${needed[*]}"
for lib in "${needed[@]}"; do
  # awk reads to the end: exiting early would kill ldconfig with SIGPIPE, which pipefail makes fatal.
  path=$(ldconfig -p | awk -v lib="$lib" '$1 == lib && /x86-64|AArch64|64bit/ && !found {print $NF; found = 1}')
  [ -n "$path" ] || path=$(ldconfig -p | awk -v lib="$lib" '$1 == lib && !found {print $NF; found = 1}')
  [ -n "$path" ] || fail "$lib is not in the loader cache"
  # With merged /usr a package may own either the /lib or the /usr/lib spelling.
  owner=$({ dpkg -S "$(readlink -f "$path")" || dpkg -S "$path"; } 2>/dev/null | head -1)
  [ -n "$owner" ] || fail "no package owns $path"
  package=${owner%%:*}
  grep -qxF "$package" <<<"$depends_names" || fail "Depends lacks $package (for $lib): $depends"
done

# Files: the binary, the kubectl plugin link, the man page, completions, the helm plugins.
dpkg-deb --contents "$deb" >"$TMP/contents"
for path in ./usr/bin/footprint ./usr/bin/kubectl-footprint ./usr/share/man/man1/footprint.1.gz \
  ./usr/share/bash-completion/completions/footprint ./usr/share/zsh/vendor-completions/_footprint \
  ./usr/share/footprint/helm-plugin/plugin.yaml ./usr/share/footprint/helm-plugin/footprint-helm \
  ./usr/share/footprint/helm-postrenderer/plugin.yaml \
  ./usr/share/footprint/helm-postrenderer/footprint-postrender; do
  grep -qE " $path( |$)" "$TMP/contents" || fail "the package lacks $path: $(cat "$TMP/contents")"
done
grep -qE ' \./usr/bin/kubectl-footprint -> footprint$' "$TMP/contents" ||
  fail "kubectl-footprint should link to footprint"

root=$TMP/root
dpkg -x "$deb" "$root"
installed=$root/usr/bin/footprint
[ -z "$(readelf -S "$installed" | grep -F .debug_info)" ] || fail "the packaged binary is not stripped"

# The installed binary is this build: same version line, same report on the example.
[ "$("$installed" --version)" = "$("$FOOTPRINT" --version)" ] || fail "--version differs"
example=$ROOT/examples/inference-operator.yaml
run "$installed" audit "$example" -n inference-system --format json
expect_status 0
cp "$OUT" "$TMP/installed.json"
run "$FOOTPRINT" audit "$example" -n inference-system --format json
expect_status 0
diff -u "$OUT" "$TMP/installed.json" >/dev/null || fail "the installed binary reports differently"
[ "$(json_get "$TMP/installed.json" "len(d['findings']) > 0")" = True ] || fail "no findings"

# The man page renders without groff warnings, and documents every command of `--help` and every
# check of `footprint checks`.
MANWIDTH=100 man --warnings -l "$root/usr/share/man/man1/footprint.1.gz" >"$TMP/man.txt" \
  2>"$TMP/man.err" || fail "man -l failed: $(cat "$TMP/man.err")"
[ ! -s "$TMP/man.err" ] || fail "man -l warns: $(cat "$TMP/man.err")"
grep -q '^NAME' "$TMP/man.txt" || fail "the man page has no NAME section"
for command in $("$installed" --help | sed -n '/^commands:/,/^$/s/^  \([a-z-]*\) .*/\1/p'); do
  grep -qE "^   footprint $command\$" "$TMP/man.txt" || fail "the man page lacks footprint $command"
done
for id in $("$installed" checks --format json | json_get /dev/stdin "' '.join(c['id'] for c in d)"); do
  grep -qE "^       $id\$" "$TMP/man.txt" || fail "the man page lacks check $id"
done
grep -qF -- '--fail-on' "$TMP/man.txt" || fail "the man page lacks audit's options"

# kubectl finds kubectl-footprint on PATH (kubectl plugin list) and runs it for `kubectl footprint`.
KUBECTL=${FOOTPRINT_KUBECTL:-$ROOT/.tools/bin/kubectl}
[ -x "$KUBECTL" ] || fail "kubectl not found at $KUBECTL: run scripts/install-deps"
export KUBECONFIG=$TMP/no-kubeconfig  # plugins need no cluster
PATH=$root/usr/bin:$PATH run "$KUBECTL" plugin list
expect_status 0
grep -qF "$root/usr/bin/kubectl-footprint" "$OUT" || fail "kubectl plugin list: $(cat "$OUT" "$ERR")"
PATH=$root/usr/bin:$PATH run "$KUBECTL" footprint audit "$example" -n inference-system --format json
expect_status 0
diff -u "$TMP/installed.json" "$OUT" >/dev/null || fail "kubectl footprint audit reports differently"
PATH=$root/usr/bin:$PATH run "$KUBECTL" footprint --version
expect_status 0
expect_stdout "footprint $version (commit "
