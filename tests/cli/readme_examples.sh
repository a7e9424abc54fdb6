#!/usr/bin/env bash
# README's compare, admission and audit examples are real output: each command runs from the
# repository's root, in a 100-column terminal (COLUMNS=100, as README says for compare), and
# prints what README shows, line for line; a "..." line stands for output left out (an example
# that ends with one matches the output's first lines, one that starts with one a run inside it).
# The field report's chart (3 MB) is not kept in the repository: field_report_chart.py writes it
# here, and the examples that name it run where it was written. An example whose input is under
# ../shared is skipped where that checkout is absent.
source "$(dirname "$0")/common.inc"
need_helm
cd "$ROOT"
"$PYTHON" tests/cli/field_report_chart.py "$TMP/dynamo-platform"
"$PYTHON" - "$ROOT/README.md" "$FOOTPRINT" "$TMP" <<'PY' || fail "a README example is out of date"
import os, re, shlex, subprocess, sys
readme, footprint, scratch = sys.argv[1], sys.argv[2], sys.argv[3]
written = {"dynamo-platform"}  # inputs this test writes into `scratch`
blocks = re.findall(r"```\n(\$ footprint .*?)```", open(readme).read(), re.S)
checked = 0
failed = False
for block in blocks:
    lines = block.rstrip("\n").split("\n")
    command = lines.pop(0)[2:]
    while command.endswith("\\"):
        command = command[:-1] + lines.pop(0).strip()
    words = shlex.split(command)
    if words[1] not in ("compare", "admission", "audit"):
        continue
    cwd = scratch if words[2] in written else "."
    if words[2].startswith("../shared/") and not os.path.exists(words[2]):
        print(f"skipped (no {words[2]}): {command}")
        continue
    # The runs of lines README shows, between the "..." that stand for lines left out.
    runs = [[]]
    for line in lines:
        if line == "...":
            runs.append([])
        else:
            runs[-1].append(line)
    env = dict(os.environ, COLUMNS="100")
    out = subprocess.run([footprint] + words[1:], capture_output=True, text=True, env=env, cwd=cwd).stdout
    got = out.rstrip("\n").split("\n")
    checked += 1
    at = 0
    for i, run in enumerate(runs):
        if not run:
            continue
        if i > 0:  # after a "...": from the first output line that starts the run
            at = got.index(run[0], at) if run[0] in got[at:] else len(got)
        # The last run, unless a "..." follows it, goes to the end of the output.
        have = got[at:] if i == len(runs) - 1 else got[at : at + len(run)]
        if have != run:
            failed = True
            print(f"README: `{command}` prints otherwise:")
            for k, (want, line) in enumerate(zip(run + [""] * len(have), have + [""] * len(run))):
                if want != line:
                    print(f"  line {k + 1} of part {i + 1}: README {want!r}\n          output {line!r}")
                    break
            break
        at += len(run)
assert checked >= 3, f"found {checked} examples to check"
sys.exit(1 if failed else 0)
PY
