#!/usr/bin/env python3
"""Runs clang-tidy over translation units, in parallel, skipping those whose result is cached.

Usage: scripts/tidy.py BUILD_DIR FILE...

The compile commands come from BUILD_DIR/compile_commands.json without the precompiled-header
flags (clang cannot read GCC's .gch files, and each file must stand on its own includes).

A clean result is remembered in $XDG_CACHE_HOME/footprint/clang-tidy (~/.cache/...), keyed by
the SHA-256 of everything that decides it: clang-tidy's version, .clang-tidy, the compile command,
and the file as clang's preprocessor expands it with comments (NOLINT) and line markers (header
paths, for HeaderFilterRegex), every header it includes at the version installed. The checkout's
own path is replaced by a placeholder, so clones share results. A file is skipped only when
clang-tidy has passed on exactly these inputs before; anything else is checked, and a machine
without the cache checks every file. The clang-analyzer checks are left out for *_test.cc files.
"""

import concurrent.futures
import hashlib
import json
import os
import shlex
import subprocess
import sys

# Debian 12's clang-tidy 22 (bookworm-security): since LLVM 21 it leaves system headers alone,
# which makes a test file about three times cheaper to check than with the default 14.
CLANG_TIDY = os.environ.get("CLANG_TIDY", "clang-tidy-22")


def strip_pch(arguments):
    """Drops CMake's precompiled-header flags: -include .../cmake_pch.hxx and -Winvalid-pch."""
    out = []
    i = 0
    while i < len(arguments):
        arg = arguments[i]
        if arg in ("-include", "--include") and i + 1 < len(arguments) and \
                "cmake_pch" in arguments[i + 1]:
            i += 2
            continue
        if arg.startswith("-include") and "cmake_pch" in arg:
            i += 1
            continue
        if arg == "-Winvalid-pch":
            i += 1
            continue
        out.append(arg)
        i += 1
    return out


def load_commands(build_dir):
    with open(os.path.join(build_dir, "compile_commands.json"), encoding="utf-8") as f:
        entries = json.load(f)
    commands = {}
    for entry in entries:
        arguments = entry.get("arguments") or shlex.split(entry["command"])
        path = os.path.realpath(os.path.join(entry["directory"], entry["file"]))
        commands[path] = {"directory": entry["directory"], "file": path,
                          "arguments": strip_pch(arguments)}
    return commands


def preprocessed(entry):
    """The translation unit as clang's preprocessor expands it, comments and line markers kept;
    None when that fails."""
    arguments = ["clang++"]
    skip = False
    for arg in entry["arguments"][1:]:
        if skip:
            skip = False
        elif arg in ("-o", "-MT", "-MF", "-MQ"):  # these take a value
            skip = True
        elif arg not in ("-c", "-MD", "-MMD"):
            arguments.append(arg)
    result = subprocess.run([*arguments, "-E", "-C"], cwd=entry["directory"], capture_output=True,
                            check=False)
    return result.stdout if result.returncode == 0 else None


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    build_dir = os.path.realpath(sys.argv[1])
    root = os.path.dirname(os.path.realpath(__file__)).rsplit("/scripts", 1)[0]
    commands = load_commands(build_dir)

    # A compilation database without PCH flags, for clang-tidy.
    tidy_dir = os.path.join(build_dir, "clang-tidy")
    os.makedirs(tidy_dir, exist_ok=True)
    with open(os.path.join(tidy_dir, "compile_commands.json"), "w", encoding="utf-8") as f:
        json.dump(list(commands.values()), f, indent=1)
    cache_home = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
    cache_dir = os.path.join(cache_home, "footprint", "clang-tidy")
    os.makedirs(cache_dir, exist_ok=True)

    version = subprocess.run([CLANG_TIDY, "--version"], capture_output=True, check=True).stdout
    with open(os.path.join(root, ".clang-tidy"), "rb") as f:
        config = f.read()

    def extra_checks(path):
        # The static analyzer costs most of clang-tidy's time, and in a test it mostly walks
        # GoogleTest's macros: it runs on the code under test, every other check on both. Two
        # checks cannot read a test: ASSERT_TRUE(opt) returns early where the optional-access
        # model does not look, and a test binary whose constants throw while starting fails.
        return ["--checks=-clang-analyzer-*,-bugprone-unchecked-optional-access,"
                "-bugprone-throwing-static-initialization"] if path.endswith("_test.cc") else []

    def check(path):
        entry = commands.get(os.path.realpath(path))
        if entry is None:
            return path, False, f"{path}: not in {build_dir}/compile_commands.json\n", False
        text = preprocessed(entry)
        key = None
        if text is not None:
            def local(data):  # the checkout's and the build's paths, as placeholders
                return data.replace(build_dir.encode(), b"<build>").replace(root.encode(),
                                                                            b"<root>")
            digest = hashlib.sha256()
            for part in (version, config, " ".join(extra_checks(path)).encode(),
                         local(json.dumps(entry["arguments"]).encode()), local(text)):
                digest.update(hashlib.sha256(part).digest())
            key = os.path.join(cache_dir, digest.hexdigest())
            if os.path.exists(key):
                return path, True, "", True
        result = subprocess.run([CLANG_TIDY, "-p", tidy_dir, "--quiet", *extra_checks(path), path],
                                capture_output=True, text=True, check=False)
        ok = result.returncode == 0
        if ok and key:
            with open(key, "w", encoding="utf-8"):
                pass
        output = "" if ok else result.stdout + result.stderr
        return path, ok, output, False

    jobs = int(os.environ.get("TIDY_JOBS", os.cpu_count() or 1))
    failed = 0
    cached = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for path, ok, output, from_cache in pool.map(check, sys.argv[2:]):
            cached += from_cache
            if not ok:
                failed += 1
                sys.stdout.write(output)
    checked = len(sys.argv) - 2
    print(f"clang-tidy: {checked} files, {checked - cached} checked, {cached} unchanged since a "
          f"clean run, {failed} with findings")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
