#!/usr/bin/env bash
# The bash and zsh completions the build generates from footprint's help. Expected words come
# from src/cli: the command table in main.cc, the fix targets in fix.cc, `images relocate` in
# images.cc, and the --format choices of audit.cc.
source "$(dirname "$0")/common.inc"
: "${FOOTPRINT_BUILD_DIR:?FOOTPRINT_BUILD_DIR must name the build directory}"
bash_completion=$FOOTPRINT_BUILD_DIR/completions/footprint
zsh_completion=$FOOTPRINT_BUILD_DIR/completions/_footprint
[ -f "$bash_completion" ] && [ -f "$zsh_completion" ] || fail "the build made no completions"

# complete WORD...: what bash offers for the last word.
complete_bash() {
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
           _footprint; printf "%s\n" "${COMPREPLY[@]}"' _ "$bash_completion" "$@" | sort | paste -sd " "
}
expect_completion() {  # EXPECTED WORD...
  local expected=$1
  shift
  [ "$(complete_bash "$@")" = "$expected" ] ||
    fail "completing '$*': expected '$expected', got '$(complete_bash "$@")'"
}
expect_completion "admission airgap audit" footprint a
expect_completion "can-i can-install checks compare" footprint c
expect_completion "--format" footprint audit --form
expect_completion "github html json junit markdown md sarif text" footprint audit x.yaml --format ''
expect_completion "critical" footprint audit --fail-on cr
expect_completion "crds rbac webhooks" footprint fix ''
expect_completion "--output-dir" footprint fix rbac --output-
expect_completion "relocate" footprint images rel
expect_completion "--registry" footprint images relocate --regi
expect_completion "check fix" footprint hf-cache ''
expect_completion "" footprint audit -f ''  # a values file: bash's own filename completion
expect_completion "--version" footprint --vers
bash -c "source '$bash_completion'; complete -p kubectl-footprint" >/dev/null ||
  fail "kubectl-footprint has no completion"

if command -v zsh >/dev/null; then
  zsh -n "$zsh_completion" || fail "the zsh completion does not parse"
  head -1 "$zsh_completion" | grep -qx '#compdef footprint kubectl-footprint' ||
    fail "the zsh completion lacks its #compdef line"
  # compsys itself needs a terminal; stand-ins for its functions record what would be offered.
  complete_zsh() {
    zsh -f -c '
      _describe() { print -r -- "describe ${(P)${@[-1]}}"; }
      _arguments() { print -r -- "arguments $*"; }
      _files() { print -r -- files; }
      source "$1"; shift
      words=("$@"); CURRENT=$#
      _footprint' _ "$zsh_completion" "$@"
  }
  complete_zsh footprint '' | grep -q 'describe .*audit:.*hf-cache:' || fail "zsh: commands"
  complete_zsh footprint fix '' | grep -q 'describe rbac:.* crds:.* webhooks:' || fail "zsh: fix targets"
  complete_zsh footprint audit --f | grep -qF -- "--format[Output format" || fail "zsh: audit options"
  complete_zsh footprint audit --f | grep -qF "(text json markdown md sarif html github junit)" ||
    fail "zsh: --format choices"
  complete_zsh footprint images relocate --r | grep -qF -- "--registry[" || fail "zsh: relocate"
else
  echo "zsh not installed: checked the bash completion only"
fi
