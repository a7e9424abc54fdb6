#!/usr/bin/env bash
# The GitHub Action (action.yml) and the pre-commit hook (.pre-commit-hooks.yaml), run locally as
# their runners would: each step's `run` script with its `env`, `${{ inputs.X }}` replaced by the
# inputs given (or their defaults), and the hook's entry with its args.
source "$(dirname "$0")/common.inc"
source "$(dirname "$0")/action_steps.inc"
cd "$TMP"
mkdir bin
ln -s "$FOOTPRINT" bin/footprint
export PATH=$TMP/bin:$PATH
cp "$DATA/pod-invalid-image.yaml" v1.yaml  # its image (line 6, col 22) is invalid: high

run_step() {
  run bash -c 'source step.env; bash step.sh'
}

# With footprint on PATH, the install step only reports its version.
step "Install footprint"
run_step
expect_status 0
expect_stdout "footprint 0.1.0"

export GITHUB_STEP_SUMMARY=$TMP/summary.md
step Audit inputs=v1.yaml namespace=ops fail-on=high
run_step
expect_status 1  # image-reference-invalid is high
expect_stdout "::error file=v1.yaml,line=6,col=22,title=image-reference-invalid (high)::"
grep -qF "image-reference-invalid" summary.md || fail "the Markdown report goes to the job summary"

# The trial: fail-on was always passed (default high), overriding failOn of the configuration.
# Left empty, the configuration decides: failOn critical lets the high finding pass.
printf 'failOn: critical\n' >gate.yaml
step Audit inputs=v1.yaml namespace=ops "args=--config gate.yaml"
run_step
expect_status 0
printf 'failOn: high\n' >gate.yaml
run_step
expect_status 1
# Without a configuration or the input, findings do not fail the step (the CLI's default).
step Audit inputs=v1.yaml namespace=ops
run_step
expect_status 0

# Globs are expanded; a path with spaces stays whole on a line of its own; a glob matching
# nothing fails the step with an annotation.
mkdir -p "deploy/with space"
cp v1.yaml deploy/a.yaml
cp v1.yaml "deploy/with space/b.yaml"
step Audit 'inputs=deploy/*.yaml' namespace=ops fail-on=high
run_step
expect_status 1
expect_stdout "::error file=deploy/a.yaml,line=6"
step Audit "inputs=deploy/a.yaml
deploy/with space/b.yaml" namespace=ops fail-on=high
run_step
expect_status 1
expect_stdout "::error file=deploy/with space/b.yaml,line=6"
# One line ending in a newline, as a YAML block (`inputs: |`) gives it: one path per line.
step Audit "inputs=deploy/with space/*.yaml
" namespace=ops fail-on=high
run_step
expect_status 1
expect_stdout "::error file=deploy/with space/b.yaml,line=6"
step Audit 'inputs=deploy/*.yml' namespace=ops
run_step
expect_status 2
expect_stdout "::error::footprint: inputs: deploy/*.yml matches no file"

# With the current report as baseline, nothing is new: the step passes.
footprint audit v1.yaml -n ops --format json -o baseline.json || [ $? = 1 ]
step Audit inputs=v1.yaml namespace=ops baseline=baseline.json fail-on=high
run_step
expect_status 0
expect_no_stdout "::error"

# The pre-commit hook: entry, then args; files are not passed.
hook_command() {
  "$PYTHON" - "$ROOT/.pre-commit-hooks.yaml" "$@" <<'PY'
import shlex, sys, yaml
(hook,) = [h for h in yaml.safe_load(open(sys.argv[1])) if h["id"] == "footprint"]
assert hook["language"] == "system" and hook["pass_filenames"] is False
print(shlex.join(shlex.split(hook["entry"]) + sys.argv[2:]))
PY
}
command=$(hook_command v1.yaml -n ops --fail-on high)
run bash -c "$command"
expect_status 1
expect_stdout "image-reference-invalid"
command=$(hook_command v1.yaml -n ops --fail-on critical)
run bash -c "$command"
expect_status 0
