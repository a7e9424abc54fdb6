#!/usr/bin/env bash
# README's compare and admission examples are real output: each command runs from the repository's
# root, in a 100-column terminal (COLUMNS=100, as README says for compare), and prints what README
# shows, line for line; an example cut short with "..." matches the output's first lines.
source "$(dirname "$0")/common.inc"
need_helm
cd "$ROOT"
"$PYTHON" - "$ROOT/README.md" "$FOOTPRINT" <<'PY' || fail "a README example is out of date"
import os, re, shlex, subprocess, sys
readme, footprint = sys.argv[1], sys.argv[2]
blocks = re.findall(r"```\n(\$ footprint .*?)```", open(readme).read(), re.S)
checked = 0
failed = False
for block in blocks:
    lines = block.rstrip("\n").split("\n")
    command = lines.pop(0)[2:]
    while command.endswith("\\"):
        command = command[:-1] + lines.pop(0).strip()
    words = shlex.split(command)
    if words[1] not in ("compare", "admission"):
        continue
    cut = bool(lines) and lines[-1] == "..."
    expected = lines[:-1] if cut else lines
    env = dict(os.environ, COLUMNS="100")
    out = subprocess.run([footprint] + words[1:], capture_output=True, text=True, env=env).stdout
    got = out.rstrip("\n").split("\n")
    if cut:
        got = got[: len(expected)]
    checked += 1
    if got != expected:
        failed = True
        print(f"README: `{command}` prints otherwise:")
        for i, (want, have) in enumerate(zip(expected + [""] * len(got), got + [""] * len(expected))):
            if want != have:
                print(f"  line {i + 1}: README {want!r}\n          output {have!r}")
                break
assert checked >= 2, f"found {checked} examples to check"
sys.exit(1 if failed else 0)
PY
