#!/usr/bin/env bash
# The GitHub Action's install step on a runner that has no footprint (action.yml): it installs
# its build dependencies with apt, builds footprint from the action's own checkout and hands the
# build directory to the next steps through $GITHUB_PATH. Run here as the runner would, with two
# differences, both outside what the step itself decides: apt-get installs nothing (its
# simulation resolves every package name against this machine's Debian index, without root or
# network; scripts/install-deps has installed them), and `apt-get update`, the index refresh, is
# left out. cmake, the compiler and the build are real.
source "$(dirname "$0")/common.inc"
source "$(dirname "$0")/action_steps.inc"
if grep -q '^FOOTPRINT_SANITIZE:BOOL=ON' "$FOOTPRINT_BUILD_DIR/CMakeCache.txt"; then
  skip_legitimately "the install step builds its own release binary: the sanitizer build under test plays no part in it"
fi
cd "$TMP"
mkdir bin
cat >bin/sudo <<'SH'
#!/usr/bin/env bash
echo "$*" >>"$SUDO_LOG"
case "$1 ${2:-}" in
  "apt-get update") exit 0 ;;
  "apt-get install") shift 2 && exec apt-get --simulate install "$@" ;;
esac
echo "sudo: the install step ran an unexpected command as root: $*" >&2
exit 1
SH
chmod +x bin/sudo
export SUDO_LOG=$TMP/sudo.log
runner_path=$TMP/bin:/usr/local/bin:/usr/bin:/bin
if PATH=$runner_path command -v footprint >/dev/null; then
  skip_legitimately "footprint is installed on this machine ($(PATH=$runner_path command -v footprint)): the step would take its other branch"
fi

step "Install footprint"

# The runner's temporary directory lives in the build tree, so that running the test again
# rebuilds only what changed.
export RUNNER_TEMP=$FOOTPRINT_BUILD_DIR/action-runner GITHUB_PATH=$TMP/github_path
mkdir -p "$RUNNER_TEMP"
: >"$GITHUB_PATH"
set +e
PATH=$runner_path timeout 1800 bash -c 'source step.env; bash step.sh' >install.out 2>&1
status=$?
set -e
[ "$status" = 0 ] || fail "the install step failed ($status): $(tail -c 4000 install.out)"

grep -qx "apt-get update -q" sudo.log || fail "the step refreshes apt's index first: $(cat sudo.log)"
# apt-get's simulation fails on a name the index does not have, and so would the step.
grep -q "^apt-get install " sudo.log || fail "the step installs its packages with apt-get: $(cat sudo.log)"
mapfile -t added <"$GITHUB_PATH"
[ "${#added[@]}" = 1 ] || fail "the step adds one directory to the job's PATH, not: ${added[*]}"
built=${added[0]}/footprint
[ -x "$built" ] || fail "$built is not the built binary"
expected_version=$("$FOOTPRINT" --version | head -1)
built_version=$("$built" --version | head -1)
[ "$built_version" = "$expected_version" ] ||
  fail "the step's footprint says '$built_version', the build under test '$expected_version'"

# The next step finds it on PATH as the runner sets it up, and audits.
cp "$DATA/pod-invalid-image.yaml" v1.yaml  # its image (line 6, col 22) is invalid: high
run env PATH="${added[0]}:$runner_path" footprint audit v1.yaml -n ops --fail-on high --format github
expect_status 1
expect_stdout "::error file=v1.yaml,line=6,col=22,title=image-reference-invalid (high)::"
